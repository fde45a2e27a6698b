// The loss engine's mean-damage kernel (MEAN_DAMAGE), the impact contract of CLIMADA-shaped lanes:
// hazard × exposures × impact functions → impact. A lane reads its own hazard, exposure and
// impact-function files into these shapes and runs the kernel; impactLosses turns the impact and the
// lane's occurrence table into the outputs stage's event and place losses (lab-metrics/1).
//
// As CLIMADA's ImpactCalc does:
//   - an exposure point's loss for an event is value × MDD(I) × PAA(I), I the event's intensity at
//     the point's centroid; MDD and PAA interpolated linearly in the function's intensities and held
//     at the end values outside them (numpy.interp);
//   - only non-zero intensities cause impact (CLIMADA works on the stored entries of its sparse
//     intensity matrix), so a function with MDD(0) > 0 does not damage places the event missed;
//   - a point with no centroid (centroid -1) takes no impact;
//   - at_event[e] = Σ_places loss, eai_exp[p] = Σ_events frequency × loss, aai_agg = Σ_p eai_exp.

import { ok, refused, type Result } from '../../../kernel/result.js';
import { refusal } from '../../../kernel/refusal.js';
import { itemGroundUp, type GroundUpLosses, type LossKernel, type Vulnerability } from './loss-engine.js';
import type { EventLoss, Occurrence } from './metrics.js';

/** Intensity per event (row) and centroid (column): dense row-major, or compressed sparse rows. */
export type IntensityMatrix =
  | { kind: 'dense'; values: ArrayLike<number> }
  | { kind: 'sparse'; rowStart: ArrayLike<number>; centroid: ArrayLike<number>; value: ArrayLike<number> };

export interface Hazard {
  event_ids: ArrayLike<number>;
  /** Annual frequency of each event (CLIMADA's hazard.frequency). */
  frequency: ArrayLike<number>;
  centroidCount: number;
  intensity: IntensityMatrix;
}

export interface ExposurePoint {
  value: number;
  /** Index of the hazard centroid the point is assigned to, -1 when none. */
  centroid: number;
  /** Id of its impact function (CLIMADA's impf_ column). */
  impf_id: number;
}

export interface Exposures {
  points: readonly ExposurePoint[];
}

export interface ImpactFunction {
  id: number;
  /** Ascending intensities; mdd and paa give one value per intensity. */
  intensity: readonly number[];
  mdd: readonly number[];
  paa: readonly number[];
}

export type ImpactFunctionSet = readonly ImpactFunction[];

/** Loss per event and place, compressed by event: places of event e from rowStart[e] to rowStart[e+1]. */
export interface ImpactMatrix {
  rowStart: Int32Array;
  place: Int32Array;
  loss: Float64Array;
}

export interface Impact {
  event_ids: Int32Array;
  frequency: Float64Array;
  at_event: Float64Array;
  eai_exp: Float64Array;
  aai_agg: number;
  imp_mat: ImpactMatrix;
}

/** Linear interpolation in ascending xs, held at the end values outside them (numpy.interp). */
export function interpolateClamped(xs: readonly number[], ys: readonly number[], x: number): number {
  const n = xs.length;
  if (x <= xs[0]!) return ys[0]!;
  if (x >= xs[n - 1]!) return ys[n - 1]!;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid; else hi = mid;
  }
  const x0 = xs[lo]!;
  const x1 = xs[hi]!;
  if (x1 === x0) return ys[hi]!;
  return ys[lo]! + ((ys[hi]! - ys[lo]!) * (x - x0)) / (x1 - x0);
}

/** The mean damage ratio MDD × PAA of a function at an intensity. */
export function meanDamageRatio(f: ImpactFunction, intensity: number): number {
  return interpolateClamped(f.intensity, f.mdd, intensity) * interpolateClamped(f.intensity, f.paa, intensity);
}

function contractFaults(hazard: Hazard, exposures: Exposures, functions: ImpactFunctionSet): string[] {
  const faults: string[] = [];
  const nE = hazard.event_ids.length;
  const nC = hazard.centroidCount;
  if (hazard.frequency.length !== nE) faults.push(`hazard has ${nE} events but ${hazard.frequency.length} frequencies`);
  for (let e = 0; e < hazard.frequency.length; e++) {
    const f = hazard.frequency[e]!;
    if (!(f >= 0) || !Number.isFinite(f)) { faults.push(`hazard frequency of event ${hazard.event_ids[e]} must be a finite number >= 0`); break; }
  }
  if (!Number.isInteger(nC) || nC < 0) faults.push('hazard centroidCount must be an integer >= 0');
  const m = hazard.intensity;
  if (m.kind === 'dense') {
    if (m.values.length !== nE * nC) faults.push(`dense intensity has ${m.values.length} values, not events × centroids = ${nE * nC}`);
  } else {
    if (m.rowStart.length !== nE + 1 || m.rowStart[0] !== 0 || m.rowStart[nE] !== m.centroid.length) {
      faults.push('sparse intensity rowStart must have events + 1 entries from 0 to the number of stored values');
    }
    if (m.centroid.length !== m.value.length) faults.push('sparse intensity has different numbers of centroids and values');
    for (let k = 0; k < m.centroid.length; k++) {
      const c = m.centroid[k]!;
      if (!Number.isInteger(c) || c < 0 || c >= nC) { faults.push(`sparse intensity names centroid ${c}, outside 0..${nC - 1}`); break; }
    }
  }
  const ids = new Set<number>();
  for (const f of functions) {
    if (ids.has(f.id)) faults.push(`impact function ${f.id} is given twice`);
    ids.add(f.id);
    const n = f.intensity.length;
    if (n === 0) faults.push(`impact function ${f.id} has no intensities`);
    if (f.mdd.length !== n || f.paa.length !== n) faults.push(`impact function ${f.id} needs one mdd and one paa per intensity`);
    for (let i = 1; i < n; i++) {
      if (!(f.intensity[i]! >= f.intensity[i - 1]!)) { faults.push(`impact function ${f.id} intensities must ascend`); break; }
    }
  }
  exposures.points.forEach((p, i) => {
    if (!(p.value >= 0) || !Number.isFinite(p.value)) faults.push(`exposure ${i} value must be a finite number >= 0`);
    if (!Number.isInteger(p.centroid) || p.centroid < -1 || p.centroid >= nC) faults.push(`exposure ${i} centroid ${p.centroid} is not -1 or one of 0..${nC - 1}`);
    if (!ids.has(p.impf_id)) faults.push(`exposure ${i} names impact function ${p.impf_id}, which the set lacks`);
  });
  return faults;
}

/** The impact of a hazard on exposures through impact functions (see the header for the rules). */
export function computeImpact(hazard: Hazard, exposures: Exposures, functions: ImpactFunctionSet): Result<Impact> {
  const faults = contractFaults(hazard, exposures, functions);
  if (faults.length > 0) {
    return refused(refusal(422, 'invalid_request', `The impact inputs are not consistent: ${faults.length} fault${faults.length === 1 ? '' : 's'}.`, faults));
  }
  const nE = hazard.event_ids.length;
  const nC = hazard.centroidCount;
  const nP = exposures.points.length;
  const vulnerabilityOf = new Map<number, Vulnerability>(functions.map((f) => [f.id, (i: number) => meanDamageRatio(f, i)]));
  // Places per centroid, so a sparse row only visits the places its stored centroids hold.
  const placesAt: number[][] = Array.from({ length: nC }, () => []);
  exposures.points.forEach((p, i) => { if (p.centroid >= 0) placesAt[p.centroid]!.push(i); });

  const atEvent = new Float64Array(nE);
  const eai = new Float64Array(nP);
  const rowStart = new Int32Array(nE + 1);
  const place: number[] = [];
  const loss: number[] = [];
  const row: { c: number; i: number }[] = [];
  for (let e = 0; e < nE; e++) {
    row.length = 0;
    const m = hazard.intensity;
    if (m.kind === 'dense') {
      for (let c = 0; c < nC; c++) { const i = m.values[e * nC + c]!; if (i !== 0) row.push({ c, i }); }
    } else {
      for (let k = m.rowStart[e]!; k < m.rowStart[e + 1]!; k++) if (m.value[k] !== 0) row.push({ c: m.centroid[k]!, i: m.value[k]! });
    }
    const hits: [number, number][] = [];
    for (const { c, i } of row) {
      for (const p of placesAt[c]!) {
        const pt = exposures.points[p]!;
        const l = itemGroundUp(pt.value, vulnerabilityOf.get(pt.impf_id)!, i);
        if (l !== 0) hits.push([p, l]);
      }
    }
    hits.sort((a, b) => a[0] - b[0]);
    const freq = hazard.frequency[e]!;
    for (const [p, l] of hits) {
      place.push(p);
      loss.push(l);
      atEvent[e]! += l;
      eai[p]! += freq * l;
    }
    rowStart[e + 1] = place.length;
  }
  let aai = 0;
  for (let p = 0; p < nP; p++) aai += eai[p]!;
  return ok({
    event_ids: Int32Array.from(hazard.event_ids),
    frequency: Float64Array.from(hazard.frequency),
    at_event: atEvent,
    eai_exp: eai,
    aai_agg: aai,
    imp_mat: { rowStart, place: Int32Array.from(place), loss: Float64Array.from(loss) },
  });
}

/**
 * The event and place losses lab-metrics/1 reads (computeMetrics), from an impact and the lane's
 * occurrence table: a place's loss is summed over every occurrence of every event, as the
 * Oasis lanes' is. lab-metrics/1 is period-based, so the frequencies are not used here.
 */
export function impactLosses(impact: Impact, occurrences: readonly Occurrence[]): GroundUpLosses {
  const count = new Map<number, number>();
  for (const o of occurrences) count.set(o.event_id, (count.get(o.event_id) ?? 0) + 1);
  const eventLosses: EventLoss[] = [];
  const placeLoss = new Float64Array(impact.eai_exp.length);
  const m = impact.imp_mat;
  for (let e = 0; e < impact.event_ids.length; e++) {
    const id = impact.event_ids[e]!;
    eventLosses.push({ event_id: id, loss: impact.at_event[e]! });
    const n = count.get(id) ?? 0;
    if (n === 0) continue;
    for (let k = m.rowStart[e]!; k < m.rowStart[e + 1]!; k++) placeLoss[m.place[k]!]! += n * m.loss[k]!;
  }
  return { eventLosses, places: Array.from(placeLoss, (loss, index) => ({ index, loss })) };
}

export interface MeanDamageInputs {
  hazard: Hazard;
  exposures: Exposures;
  functions: ImpactFunctionSet;
}

/** The loss engine's kernel over a hazard's intensities: each point's value × MDD × PAA of its impact function. */
export const MEAN_DAMAGE: LossKernel<MeanDamageInputs, Impact> = {
  method: 'CLIMADA ImpactCalc: value × MDD(I) × PAA(I) at each exposure point\'s centroid',
  groundUp: ({ hazard, exposures, functions }) => computeImpact(hazard, exposures, functions),
};
