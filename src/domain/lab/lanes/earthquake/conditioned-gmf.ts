// Ground motion conditioned on recording stations, as OpenQuake's conditioned ground-motion fields
// compute it (openquake/hazardlib/calc/conditioned_gmfs.py, after Engler, Worden, Thompson and
// Jaiswal (2022), BSSA 112(2), 1060-1079, appendix B; the historical, one measure at a time path).
// In natural-log units a GMPE gives at stations (D) and targets (Y) a median mu, a between-event
// sigma tau and a within-event sigma phi. For one target measure:
//   - the measures conditioned on (_create_result): the target itself when the stations record it,
//     else the recorded measures whose periods bracket it (the nearest one when it lies outside);
//   - the stations' within-event covariance Sigma_WD_WD from the spatial and cross-measure
//     correlation, with each observation's own variance (its ln sigma squared) on the diagonal, and
//     its pseudo-inverse (create_result);
//   - the normalised between-event residual H given the data (Engler eqs. B8-B9, get_mu_tau_phi):
//     Sigma_HD|yD = pinv(T_D' Sigma_WD_WD^+ T_D + pinv(Sigma_HD_HD)), mu_HD|yD = Sigma_HD|yD T_D'
//     Sigma_WD_WD^+ zeta_D, zeta_D = ln(observed) - mu_D, and the between-event shift at the stations
//     mu_BD = T_D mu_HD;
//   - at the targets (eqs. B16-B17): mean mu_Y + tau_Y mu_HD[0] + RC (zeta_D - mu_BD), RC = Sigma_WY_WD
//     Sigma_WD_WD^+; within-event covariance Sigma_WY_WY - RC Sigma_WD_WY and between-event covariance
//     C Sigma_HD|yD C', C = [tau_Y, 0...] - RC T_D, each clipped at zero entry by entry as OpenQuake
//     clips them.
// The covariances depend on the sigmas and the places only, so one system serves every GMPE branch
// that shares them (the ESHM20 branches differ in their medians alone); the mean is per branch.
// Pure: distances, sigmas and observations in, numbers out.
import type { Imt } from '../../../hazard/gmpe/types.js';
import { covariancePseudoInverse, symmetricPseudoInverse } from '../../../stats/symmetric-eigen.js';
import { sameImt, spatialCross, type ConditioningCorrelation } from './imt-correlation.js';

const periodOf = (imt: Imt): number => (imt.kind === 'SA' ? imt.period : 0);

/** The measures a target measure is conditioned on, as _create_result of conditioned_gmfs.py chooses them. */
export interface ConditioningPlan {
  readonly target: Imt;
  /** The observed measures conditioned on: [target] when native, else one or two bracketing it. */
  readonly conditioning: readonly Imt[];
  /** Whether the stations record the target measure itself. */
  readonly native: boolean;
}

export function conditioningPlan(target: Imt, observed: readonly Imt[]): ConditioningPlan {
  if (observed.length === 0) throw new Error('conditioning needs at least one observed measure');
  if (observed.some((o) => sameImt(o, target))) return { target, conditioning: [target], native: true };
  // Sorted by period (PGA first). OpenQuake sorts the measures themselves (their names first), the
  // same order for the measures a USGS list holds (PGA, SA(0.3), SA(1.0)) and a target among them.
  const all = [...observed, target].sort((a, b) => periodOf(a) - periodOf(b));
  const at = all.findIndex((i) => sameImt(i, target));
  const conditioning = at === 0 ? [all[1]!] : at === all.length - 1 ? [all[at - 1]!] : [all[at - 1]!, all[at + 1]!];
  return { target, conditioning, native: false };
}

/** The places: distances (km, row-major) between stations (S x S), targets to stations (N x S) and targets (N x N). */
export interface ConditioningPlaces {
  readonly stations: number;
  readonly targets: number;
  readonly DD: Float64Array;
  readonly YD: Float64Array;
  readonly YY: Float64Array;
}

/** A GMPE's sigmas for the conditioning: at the stations one array per conditioning measure (in the plan's order), at the targets for the target measure. */
export interface ConditioningSigmas {
  readonly tauD: readonly Float64Array[];
  readonly phiD: readonly Float64Array[];
  readonly tauY: Float64Array;
  readonly phiY: Float64Array;
}

/** What the conditioning keeps for a plan, places and sigmas: everything but the medians and the data. */
export interface ConditioningSystem {
  readonly plan: ConditioningPlan;
  readonly S: number;
  readonly N: number;
  /** Rows of data: S per conditioning measure. */
  readonly M: number;
  /** Normalised between-event residuals: the target's, then each conditioning measure's when not native. */
  readonly B: number;
  readonly covWDinv: Float64Array;
  readonly TD: Float64Array;
  readonly covHDyD: Float64Array;
  readonly RC: Float64Array;
  readonly tauY: Float64Array;
  /** Conditioned within-event and between-event covariance at the targets (N x N), clipped at zero. */
  readonly covW: Float64Array;
  readonly covB: Float64Array;
}

/** The stations' within-event covariance (M x M) with each observation's variance added on the diagonal. */
function stationCovariance(plan: ConditioningPlan, places: ConditioningPlaces, sig: ConditioningSigmas, observationVariance: Float64Array, model: ConditioningCorrelation): Float64Array {
  const S = places.stations;
  const c = plan.conditioning;
  const M = c.length * S;
  const cov = new Float64Array(M * M);
  for (let k = 0; k < c.length; k++) {
    for (let l = 0; l <= k; l++) {
      for (let s = 0; s < S; s++) {
        for (let t = 0; t < S; t++) {
          const v = sig.phiD[k]![s]! * spatialCross(model, c[k]!, c[l]!, places.DD[s * S + t]!) * sig.phiD[l]![t]!;
          cov[(k * S + s) * M + l * S + t] = v;
          cov[(l * S + t) * M + k * S + s] = v;
        }
      }
    }
  }
  for (let m = 0; m < M; m++) cov[m * M + m] = cov[m * M + m]! + observationVariance[m]!;
  return cov;
}

/** y = A x for A rows x cols (row-major). */
function times(A: Float64Array, rows: number, cols: number, x: Float64Array): Float64Array {
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += A[i * cols + j]! * x[j]!;
    y[i] = s;
  }
  return y;
}

/** The between-event part: T_D, the prior correlation of H, and its posterior covariance. */
function betweenEvent(plan: ConditioningPlan, S: number, sig: ConditioningSigmas, covWDinv: Float64Array, model: ConditioningCorrelation) {
  const c = plan.conditioning;
  const M = c.length * S;
  const bracketed = plan.native ? [plan.target] : [plan.target, ...c];
  const B = bracketed.length;
  const TD = new Float64Array(M * B);
  for (let k = 0; k < c.length; k++) for (let s = 0; s < S; s++) TD[(k * S + s) * B + (plan.native ? 0 : k + 1)] = sig.tauD[k]![s]!;
  const corrHD = new Float64Array(B * B);
  for (let a = 0; a < B; a++) for (let b = 0; b < B; b++) corrHD[a * B + b] = model.betweenCross(bracketed[a]!, bracketed[b]!);
  // T_D' Sigma_WD_WD^+ T_D + pinv(corr_HD_HD), then its pseudo-inverse.
  const WT = new Float64Array(M * B);
  for (let m = 0; m < M; m++) for (let b = 0; b < B; b++) {
    let s = 0;
    for (let q = 0; q < M; q++) s += covWDinv[m * M + q]! * TD[q * B + b]!;
    WT[m * B + b] = s;
  }
  const prior = symmetricPseudoInverse(corrHD, B);
  const precision = new Float64Array(B * B);
  for (let a = 0; a < B; a++) for (let b = 0; b < B; b++) {
    let s = prior[a * B + b]!;
    for (let m = 0; m < M; m++) s += TD[m * B + a]! * WT[m * B + b]!;
    precision[a * B + b] = s;
  }
  return { B, TD, covHDyD: symmetricPseudoInverse(precision, B) };
}

/** The conditioning of one target measure for one set of GMPE sigmas (see the head of this file). */
export function conditioningSystem(plan: ConditioningPlan, places: ConditioningPlaces, sig: ConditioningSigmas, observationVariance: Float64Array, model: ConditioningCorrelation): ConditioningSystem {
  const S = places.stations;
  const N = places.targets;
  const c = plan.conditioning;
  const M = c.length * S;
  const covWDinv = covariancePseudoInverse(stationCovariance(plan, places, sig, observationVariance, model), M);
  const { B, TD, covHDyD } = betweenEvent(plan, S, sig, covWDinv, model);

  // Sigma_WY_WD (N x M) and RC = Sigma_WY_WD Sigma_WD_WD^+.
  const covYD = new Float64Array(N * M);
  for (let y = 0; y < N; y++) for (let k = 0; k < c.length; k++) for (let s = 0; s < S; s++) {
    covYD[y * M + k * S + s] = sig.phiY[y]! * spatialCross(model, plan.target, c[k]!, places.YD[y * S + s]!) * sig.phiD[k]![s]!;
  }
  const RC = new Float64Array(N * M);
  const row = new Float64Array(M);
  for (let y = 0; y < N; y++) {
    row.fill(0);
    for (let q = 0; q < M; q++) {
      const a = covYD[y * M + q]!;
      if (a === 0) continue;
      for (let m = 0; m < M; m++) row[m] = row[m]! + a * covWDinv[q * M + m]!;
    }
    RC.set(row, y * M);
  }

  // Sigma_WY_WY - RC Sigma_WD_WY, and C Sigma_HD|yD C' with C = [tau_Y, 0...] - RC T_D; clipped at zero.
  const C = new Float64Array(N * B);
  for (let y = 0; y < N; y++) for (let b = 0; b < B; b++) {
    let s = b === 0 ? sig.tauY[y]! : 0;
    for (let m = 0; m < M; m++) s -= RC[y * M + m]! * TD[m * B + b]!;
    C[y * B + b] = s;
  }
  const CH = new Float64Array(N * B);
  for (let y = 0; y < N; y++) for (let b = 0; b < B; b++) {
    let s = 0;
    for (let a = 0; a < B; a++) s += C[y * B + a]! * covHDyD[a * B + b]!;
    CH[y * B + b] = s;
  }
  const covW = new Float64Array(N * N);
  const covB = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    const ri = i * M;
    for (let j = 0; j <= i; j++) {
      const rj = j * M;
      let s = 0;
      for (let m = 0; m < M; m++) s += RC[ri + m]! * covYD[rj + m]!;
      const w = Math.max(sig.phiY[i]! * model.spatial(plan.target, places.YY[i * N + j]!) * sig.phiY[j]! - s, 0);
      covW[i * N + j] = w;
      covW[j * N + i] = w;
      let bb = 0;
      for (let b = 0; b < B; b++) bb += CH[i * B + b]! * C[j * B + b]!;
      const v = Math.max(bb, 0);
      covB[i * N + j] = v;
      covB[j * N + i] = v;
    }
  }
  return { plan, S, N, M, B, covWDinv, TD, covHDyD, RC, tauY: sig.tauY, covW, covB };
}

/** The between-event shift the data imply, OpenQuake's nominal bias: the mean of mu_BD over the data, and the root of the mean of its variance. */
export interface NominalBias {
  readonly mean: number;
  readonly stddev: number;
}

/**
 * A branch's conditioned mean at the targets: zeta = ln(observed) - the branch's median at the
 * stations (M, in the plan's measure order), muY its median at the targets.
 */
export function conditionedMean(sys: ConditioningSystem, zeta: Float64Array, muY: Float64Array): { mean: Float64Array; bias: NominalBias; betweenEvent: number } {
  const { M, B, N } = sys;
  const Wz = times(sys.covWDinv, M, M, zeta);
  const TtWz = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    let s = 0;
    for (let m = 0; m < M; m++) s += sys.TD[m * B + b]! * Wz[m]!;
    TtWz[b] = s;
  }
  const muHD = times(sys.covHDyD, B, B, TtWz);
  const muBD = times(sys.TD, M, B, muHD);
  const resid = zeta.map((z, m) => z - muBD[m]!);
  const shift = times(sys.RC, N, M, resid);
  const mean = muY.map((mu, y) => mu + sys.tauY[y]! * muHD[0]! + shift[y]!);
  let varSum = 0;
  for (let m = 0; m < M; m++) {
    let v = 0;
    for (let a = 0; a < B; a++) for (let b = 0; b < B; b++) v += sys.TD[m * B + a]! * sys.covHDyD[a * B + b]! * sys.TD[m * B + b]!;
    varSum += v;
  }
  const biasMean = muBD.reduce((a, b) => a + b, 0) / M;
  return { mean, bias: { mean: biasMean, stddev: Math.sqrt(varSum / M) }, betweenEvent: muHD[0]! };
}
