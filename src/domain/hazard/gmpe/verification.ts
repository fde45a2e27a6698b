// Checking a ground-motion model against a verification table (OpenQuake's GMPE test tables, read
// by feeds/parsers/oq-gmpe-tables.ts): every row is a scenario (rupture, distances, site) with the
// expected median (MEAN tables, linear units) or standard deviation (stddev tables, ln units) per
// intensity measure. A value passes as OpenQuake's own check passes it: when
// |computed / expected x 100 - 100| <= the table's tolerance in percent. Pure: no I/O.
import { type Distances, type GmpeContext, type GroundMotion, type Imt, type Rupture, type Site, imtName } from './types.js';

export type ResultType = 'MEAN' | 'TOTAL_STDDEV' | 'INTER_EVENT_STDDEV' | 'INTRA_EVENT_STDDEV';

export interface VerificationRow {
  /** The input columns of the row (rup_*, dist_*, site_*), numbers where numeric, else the text. */
  readonly inputs: Readonly<Record<string, number | string>>;
  readonly values: readonly { readonly imt: Imt; readonly expected: number }[];
  /** 1-based line in the file. */
  readonly line: number;
}

export interface VerificationTable {
  readonly name: string;
  /** The model the table was made for, as its publisher names it, and the arguments it was built with. */
  readonly gsim: string;
  readonly gsim_arguments: Readonly<Record<string, unknown>>;
  readonly result_type: ResultType;
  /** The publisher's tolerance for this table, percent; null where its own test does not check it. */
  readonly tolerance_percent: number | null;
  readonly rows: readonly VerificationRow[];
}

function num(inputs: VerificationRow['inputs'], key: string): number {
  const v = inputs[key];
  return typeof v === 'number' ? v : Number.NaN;
}

/** The model's context for one row; a column the table lacks is NaN, so a model that needs it fails loudly. */
export function contextOfRow(row: VerificationRow): GmpeContext {
  const i = row.inputs;
  const rupture: Rupture = {
    mag: num(i, 'rup_mag'), rake: num(i, 'rup_rake'), dip: num(i, 'rup_dip'), ztor: num(i, 'rup_ztor'),
    width: num(i, 'rup_width'), hypo_depth: num(i, 'rup_hypo_depth'),
  };
  const site: Site = {
    vs30: num(i, 'site_vs30'), vs30measured: num(i, 'site_vs30measured') === 1, z1pt0: num(i, 'site_z1pt0'),
    z2pt5: num(i, 'site_z2pt5'), backarc: num(i, 'site_backarc') === 1,
  };
  const distances: Distances = {
    rjb: num(i, 'dist_rjb'), rrup: num(i, 'dist_rrup'), rx: num(i, 'dist_rx'), ry0: num(i, 'dist_ry0'), rhypo: num(i, 'dist_rhypo'),
    ...('dist_rcdpp' in i ? { rcdpp: num(i, 'dist_rcdpp') } : {}),
  };
  return { rupture, site, distances };
}

/** What a row's value is compared with: the median for MEAN tables, else the standard deviation asked for. */
export function tableQuantity(type: ResultType, gm: GroundMotion): number {
  switch (type) {
    case 'MEAN': return Math.exp(gm.mean);
    case 'TOTAL_STDDEV': return gm.sigma;
    case 'INTER_EVENT_STDDEV': return gm.tau;
    case 'INTRA_EVENT_STDDEV': return gm.phi;
  }
}

export interface Discrepancy {
  readonly line: number;
  readonly imt: string;
  readonly expected: number;
  readonly computed: number;
  readonly percent: number;
}

export interface TableCheck {
  readonly table: string;
  readonly tolerance_percent: number;
  readonly values_checked: number;
  readonly rows_checked: number;
  readonly max_percent: number;
  readonly failures: readonly Discrepancy[];
}

/** OpenQuake's measure: |computed / expected x 100 - 100|; an expected zero must be computed as zero. */
export function discrepancyPercent(computed: number, expected: number): number {
  if (expected === 0) return computed === 0 ? 0 : Number.POSITIVE_INFINITY;
  const d = Math.abs((computed / expected) * 100 - 100);
  return Number.isNaN(d) ? Number.POSITIVE_INFINITY : d;
}

/**
 * Every value of every row against the model, at the table's tolerance (or the one given where the
 * table states none). `context` may adjust a row's context for the model (e.g. model-specific inputs).
 */
export function checkTable(
  table: VerificationTable,
  predict: (ctx: GmpeContext, imt: Imt, row: VerificationRow) => GroundMotion,
  tolerancePercent: number | null = table.tolerance_percent,
): TableCheck {
  if (tolerancePercent === null) throw new Error(`${table.name}: no tolerance stated`);
  const failures: Discrepancy[] = [];
  let checked = 0;
  let max = 0;
  for (const row of table.rows) {
    const ctx = contextOfRow(row);
    for (const { imt, expected } of row.values) {
      const computed = tableQuantity(table.result_type, predict(ctx, imt, row));
      const percent = discrepancyPercent(computed, expected);
      checked++;
      max = Math.max(max, percent);
      if (!(percent <= tolerancePercent)) failures.push({ line: row.line, imt: imtName(imt), expected, computed, percent });
    }
  }
  return { table: table.name, tolerance_percent: tolerancePercent, values_checked: checked, rows_checked: table.rows.length, max_percent: max, failures };
}
