// Coefficient tables of the ground-motion models: one row per intensity measure, looked up by IMT.
// Tables are data modules (one per model, beside it), transcribed from the papers' electronic
// supplements; a model is evaluated only at the periods its table holds.
import type { Imt } from './types.js';

/** A coefficient table keyed as the papers print it: period -1 = PGV, 0 = PGA, otherwise SA(T). */
export interface CoefficientTable<C> {
  readonly pga: C;
  readonly pgv: C | undefined;
  readonly sa: ReadonlyMap<number, C>;
}

/** Rows of [period, ...values] under a column list, into a table of named coefficients. */
export function coefficientTable<K extends string>(columns: readonly K[], rows: readonly (readonly number[])[]): CoefficientTable<Readonly<Record<K, number>>> {
  let pga: Readonly<Record<K, number>> | undefined;
  let pgv: Readonly<Record<K, number>> | undefined;
  const sa = new Map<number, Readonly<Record<K, number>>>();
  for (const row of rows) {
    if (row.length !== columns.length + 1) throw new Error(`coefficient row of ${row.length} values for ${columns.length} columns`);
    const c = Object.fromEntries(columns.map((k, i) => [k, row[i + 1]!])) as Record<K, number>;
    const period = row[0]!;
    if (period === 0) pga = c;
    else if (period === -1) pgv = c;
    else sa.set(periodKey(period), c);
  }
  if (!pga) throw new Error('coefficient table without PGA');
  return { pga, pgv, sa };
}

/** Periods compared to 1e-6 s, so 0.01, 0.010 and 0.0100 are one period. */
export function periodKey(period: number): number {
  return Math.round(period * 1e6) / 1e6;
}

/** The row for an IMT, or undefined when the table does not hold it. */
export function coefficientsFor<C>(table: CoefficientTable<C>, imt: Imt): C | undefined {
  if (imt.kind === 'PGA') return table.pga;
  if (imt.kind === 'PGV') return table.pgv;
  return table.sa.get(periodKey(imt.period));
}

export function periodsOf<C>(table: CoefficientTable<C>): number[] {
  return [...table.sa.keys()].sort((a, b) => a - b);
}

/** The row for an IMT; throws when the table does not hold it (callers ask only for supported IMTs). */
export function requireCoefficients<C>(table: CoefficientTable<C>, imt: Imt, model: string): C {
  const c = coefficientsFor(table, imt);
  if (!c) throw new Error(`${model} has no coefficients for ${imt.kind === 'SA' ? `SA(${imt.period})` : imt.kind}`);
  return c;
}

/**
 * A spectral period between two of a table's periods: the prediction at both neighbours,
 * interpolated linearly in ln(period) (mean of ln and the standard deviations), as the models'
 * authors interpolate their own tables. Periods outside the table's range are not extrapolated.
 */
export function interpolatedPeriod<G extends { mean: number; tau: number; phi: number }>(
  periods: readonly number[],
  period: number,
  at: (period: number) => G,
  model: string,
): { mean: number; tau: number; phi: number } {
  const key = periodKey(period);
  const hi = periods.findIndex((p) => p >= key);
  if (hi < 0 || (hi === 0 && periods[0] !== key)) throw new Error(`${model} has no coefficients for SA(${period})`);
  if (periods[hi] === key) return at(periods[hi]!);
  const p0 = periods[hi - 1]!;
  const p1 = periods[hi]!;
  const w = Math.log(key / p0) / Math.log(p1 / p0);
  const a = at(p0);
  const b = at(p1);
  const mix = (x: number, y: number) => x + (y - x) * w;
  return { mean: mix(a.mean, b.mean), tau: mix(a.tau, b.tau), phi: mix(a.phi, b.phi) };
}
