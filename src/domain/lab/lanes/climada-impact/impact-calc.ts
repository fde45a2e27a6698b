// CLIMADA's ImpactCalc over a hazard, exposures and impact functions users brought
// (climada/engine/impact_calc.py and climada/hazard/base.py, CLIMADA 6 at bb95959):
//   - exposures kept: value neither NaN nor 0, and a centroid assigned (minimal_exp_gdf);
//   - impact = fraction × MDR(I) × value, MDR = MDD(I) × PAA(I) interpolated as numpy.interp
//     (held at the end values; numpyInterp below, the same operations); MDR is taken on the stored intensities only when MDR(0) = 0, and on
//     every event (intensity 0 where none is stored) otherwise (Hazard.get_mdr); the fraction is
//     the stored fraction (0 where none is stored), or 1 everywhere when the hazard has none
//     (Hazard._get_fraction);
//   - at_event = Σ exposures, eai_exp = Σ events frequency × impact, aai_agg = Σ eai_exp
//     (ImpactCalc.risk_metrics);
//   - tot_value = Σ value over exposures with value > 0 and a centroid (centroids_total_value);
//   - insured (insured_mat_gen): on each exposure's entries, the deductible × PAA(I) is taken off
//     where an intensity is stored (apply_deductible_to_mat), then the result is clipped to
//     [0, cover] where it is not zero (apply_cover_to_mat). Without a cover column nothing is
//     clipped, so a deductible larger than the impact leaves a negative insured impact, as CLIMADA's.
import type { ClimadaImpactFunction, SparseRows } from '../../user-inputs.js';

export interface ImpactCalcInputs {
  events: number;
  centroids: number;
  frequency: Float64Array;
  intensity: SparseRows;
  fraction: SparseRows | null;
  value: Float64Array;
  /** The impact function of each exposure (its impf_ column). */
  impf: Float64Array;
  /** Assigned centroid of each exposure, -1 for none. */
  centroid: Int32Array;
  deductible: Float64Array | null;
  cover: Float64Array | null;
  functions: ReadonlyMap<number, ClimadaImpactFunction>;
}

export interface ImpactFigures {
  at_event: Float64Array;
  eai_exp: Float64Array;
  aai_agg: number;
}

export interface ImpactCalcResult {
  tot_value: number;
  ground_up: ImpactFigures;
  /** With `insured`: CLIMADA's deductible and cover applied. */
  insured?: ImpactFigures;
}

/**
 * numpy.interp (arr_interp of numpy/_core/src/multiarray/compiled_base.c) for ascending xs: the
 * end values outside them, ys[j] at xs[j], else slope × (x − xs[j]) + ys[j] with slope
 * (ys[j+1] − ys[j]) / (xs[j+1] − xs[j]), xs[j] ≤ x < xs[j+1]; the same operations, so the same bits.
 */
export function numpyInterp(xs: readonly number[], ys: readonly number[], x: number): number {
  const n = xs.length;
  if (n === 1) return ys[0]!;
  if (!(x >= xs[0]!)) return Number.isNaN(x) ? NaN : ys[0]!;
  if (x >= xs[n - 1]!) return ys[n - 1]!;
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (xs[mid]! <= x) lo = mid; else hi = mid; }
  if (xs[lo] === x) return ys[lo]!;
  const slope = (ys[lo + 1]! - ys[lo]!) / (xs[lo + 1]! - xs[lo]!);
  let r = slope * (x - xs[lo]!) + ys[lo]!;
  if (Number.isNaN(r)) {
    r = slope * (x - xs[lo + 1]!) + ys[lo + 1]!;
    if (Number.isNaN(r) && ys[lo] === ys[lo + 1]) r = ys[lo]!;
  }
  return r;
}

/**
 * numpy's sum of a contiguous 1-D float64 array (pairwise_sum of
 * numpy/_core/src/umath/loops_utils.h.src: eight running sums per block of at most 128, halves
 * above), so aai_agg and tot_value are CLIMADA's to the last bit.
 */
export function numpySum(a: ArrayLike<number>): number {
  return pairwiseSum(a, 0, a.length);
}

function pairwiseSum(a: ArrayLike<number>, from: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[from + i]!;
    return res;
  }
  if (n <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => a[from + j]!);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += a[from + i + j]!;
    let res = ((r[0]! + r[1]!) + (r[2]! + r[3]!)) + ((r[4]! + r[5]!) + (r[6]! + r[7]!));
    for (; i < n; i++) res += a[from + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, from, n2) + pairwiseSum(a, from + n2, n - n2);
}

/** Columns of a CSR matrix (events × centroids) as compressed columns: each centroid's events, ascending. */
export interface SparseColumns {
  colStart: Int32Array;
  row: Int32Array;
  value: Float64Array;
}

export function toColumns(m: SparseRows, columns: number): SparseColumns {
  const nnz = m.value.length;
  const colStart = new Int32Array(columns + 1);
  for (let k = 0; k < nnz; k++) colStart[m.column[k]! + 1]!++;
  for (let c = 0; c < columns; c++) colStart[c + 1]! += colStart[c]!;
  const fill = colStart.slice(0, columns);
  const row = new Int32Array(nnz);
  const value = new Float64Array(nnz);
  const rows = m.rowStart.length - 1;
  // Rows are visited in order, so each column's events come out ascending.
  for (let e = 0; e < rows; e++) {
    for (let k = m.rowStart[e]!; k < m.rowStart[e + 1]!; k++) {
      const at = fill[m.column[k]!]!++;
      row[at] = e;
      value[at] = m.value[k]!;
    }
  }
  return { colStart, row, value };
}

const mddAt = (f: ClimadaImpactFunction, i: number) => numpyInterp(f.intensity, f.mdd, i);
const paaAt = (f: ClimadaImpactFunction, i: number) => numpyInterp(f.intensity, f.paa, i);

/** The stored entry of (event, centroid) in compressed columns at or after k: its position, k advanced past smaller events. */
function seek(m: SparseColumns, end: number, event: number, k: number): number {
  while (k < end && m.row[k]! < event) k++;
  return k;
}

/** One exposure's impacts added into the figures: ground up, and insured when asked (written as one loop: it runs once per stored entry). */
function exposureImpacts(inputs: ImpactCalcInputs, intensity: SparseColumns, fraction: SparseColumns | null, p: number, gu: ImpactFigures, ins: ImpactFigures | undefined): void {
  const f = inputs.functions.get(inputs.impf[p]!)!;
  const c = inputs.centroid[p]!;
  const value = inputs.value[p]!;
  const freq = inputs.frequency;
  const everyEvent = mddAt(f, 0) * paaAt(f, 0) !== 0;
  const deductible = ins && inputs.deductible ? inputs.deductible[p]! : 0;
  const hasCover = ins !== undefined && inputs.cover !== null;
  const cover = hasCover ? inputs.cover![p]! : 0;
  let kFrac = fraction ? fraction.colStart[c]! : 0;
  const fracEnd = fraction ? fraction.colStart[c + 1]! : 0;
  const start = intensity.colStart[c]!, end = intensity.colStart[c + 1]!;
  let k = start;
  const last = everyEvent ? inputs.events : end - start;
  for (let step = 0; step < last; step++) {
    let event: number, i: number, stored: boolean;
    if (everyEvent) {
      event = step;
      stored = k < end && intensity.row[k] === event;
      i = stored ? intensity.value[k++]! : 0;
    } else {
      event = intensity.row[k]!;
      i = intensity.value[k++]!;
      stored = true;
    }
    let frac = 1;
    if (fraction) {
      kFrac = seek(fraction, fracEnd, event, kFrac);
      frac = kFrac < fracEnd && fraction.row[kFrac] === event ? fraction.value[kFrac]! : 0;
    }
    const paa = paaAt(f, i);
    const g = frac * (mddAt(f, i) * paa) * value;
    if (g !== 0) { gu.at_event[event]! += g; gu.eai_exp[p]! += freq[event]! * g; }
    if (!ins) continue;
    // The deductible falls on the stored intensities (get_paa), the cover on what is not zero after it.
    let x = stored ? g - paa * deductible : g;
    if (hasCover && x !== 0) x = Math.min(Math.max(x, 0), cover);
    if (x !== 0) { ins.at_event[event]! += x; ins.eai_exp[p]! += freq[event]! * x; }
  }
}

/** The impact (see the header); the exposures' centroids, impact functions and columns are checked by the caller. */
export function impactCalc(inputs: ImpactCalcInputs, options: { insured: boolean }): ImpactCalcResult {
  const n = inputs.value.length;
  const intensity = toColumns(inputs.intensity, inputs.centroids);
  const fraction = inputs.fraction ? toColumns(inputs.fraction, inputs.centroids) : null;
  const figures = (): ImpactFigures => ({ at_event: new Float64Array(inputs.events), eai_exp: new Float64Array(n), aai_agg: 0 });
  const gu = figures();
  const ins = options.insured ? figures() : undefined;
  const counted: number[] = [];
  for (let p = 0; p < n; p++) {
    const v = inputs.value[p]!;
    const c = inputs.centroid[p]!;
    if (v > 0 && c >= 0) counted.push(v);
    if (Number.isNaN(v) || v === 0 || c < 0) continue;
    exposureImpacts(inputs, intensity, fraction, p, gu, ins);
  }
  for (const fig of ins ? [gu, ins] : [gu]) fig.aai_agg = numpySum(fig.eai_exp);
  return { tot_value: numpySum(counted), ground_up: gu, ...(ins ? { insured: ins } : {}) };
}

/** Impact.calc_freq_curve: impacts by return period, CLIMADA's own (from the frequencies) or interpolated at those asked. */
export function freqCurve(atEvent: ArrayLike<number>, frequency: ArrayLike<number>, returnPeriods?: readonly number[]): { return_per: number[]; impact: number[] } {
  const n = atEvent.length;
  // Descending by impact; equal impacts keep their event order reversed, as argsort(...)[::-1] of a stable sort.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => atEvent[a]! - atEvent[b]! || a - b).reverse();
  const exceed = new Float64Array(n);
  let cum = 0;
  order.forEach((e, k) => { cum += frequency[e]!; exceed[k] = cum; });
  const rp: number[] = [], impact: number[] = [];
  for (let k = n - 1; k >= 0; k--) { rp.push(1 / exceed[k]!); impact.push(atEvent[order[k]!]!); }
  if (!returnPeriods) return { return_per: rp, impact };
  return { return_per: [...returnPeriods], impact: returnPeriods.map((r) => (n === 0 ? 0 : numpyInterp(rp, impact, r))) };
}
