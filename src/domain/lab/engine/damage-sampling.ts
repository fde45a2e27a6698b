// Sampling a damage distribution as gulpy does: the distributions of the vulnerability stage (CDF
// cut at getmodel's single-precision one), Latin-hypercube strata of uniforms and their random
// order, the inversion of a CDF along them (point, linear and quadratic bins, gulpy's cap at the
// top), sums over samples from prefix sums, allocation rule 1 per coverage, and the place terms
// per sample. The ground-up kernel (ground-up.ts) runs these for every item and event.
import type { SeededRandom } from '../../stats/random.js';

/** getmodel stops the damage CDF at the first bin where the running sum exceeds this. */
export const CDF_CUTOFF = 0.99999994;
/** gulpy moves a uniform at or above the last cumulative value to that value less this. */
export const CDF_CAP_OFFSET = 3e-8;

const TWO_M32 = 1 / 4294967296;

/** Damage distributions with a fixed stride of damage bins. */
export class Distributions {
  cap = 64;
  count = 0;
  cdf: Float64Array;
  lo: Float64Array;
  slope: Float64Array;
  len: Int32Array;
  mean: Float64Array; // [id * nF + f]

  constructor(readonly nD: number, readonly nF: number) {
    this.cdf = new Float64Array(this.cap * nD);
    this.lo = new Float64Array(this.cap * nD);
    this.slope = new Float64Array(this.cap * nD);
    this.len = new Int32Array(this.cap);
    this.mean = new Float64Array(this.cap * nF);
  }

  private grow(): void {
    const cap = this.cap * 2;
    const g = <T extends Float64Array | Int32Array>(a: T, n: number): T => {
      const b = new (a.constructor as { new (n: number): T })(n);
      b.set(a);
      return b;
    };
    this.cdf = g(this.cdf, cap * this.nD);
    this.lo = g(this.lo, cap * this.nD);
    this.slope = g(this.slope, cap * this.nD);
    this.len = g(this.len, cap);
    this.mean = g(this.mean, cap * this.nF);
    this.cap = cap;
  }

  /** Adds the distribution with bin probabilities p; -1 when it has no mass. */
  add(p: Float64Array, width: Float64Array, mode: Uint8Array, binMeans: Float64Array): number {
    const nD = this.nD;
    let total = 0;
    for (let b = 0; b < nD; b++) total += p[b]!;
    if (!(total > 0)) return -1;
    if (this.count === this.cap) this.grow();
    const id = this.count++;
    const o = id * nD;
    let cum = 0;
    let n = nD;
    for (let b = 0; b < nD; b++) {
      const lo = cum;
      cum += p[b]!;
      this.cdf[o + b] = cum;
      this.lo[o + b] = lo;
      const h = cum - lo;
      this.slope[o + b] = mode[b] === 1 && h > 0 ? width[b]! / h : 0;
      if (cum > CDF_CUTOFF) {
        n = b + 1;
        break;
      }
    }
    this.len[id] = n;
    for (let f = 0; f < this.nF; f++) {
      let m = 0;
      for (let b = 0; b < n; b++) m += (this.cdf[o + b]! - this.lo[o + b]!) * binMeans[f * nD + b]!;
      this.mean[id * this.nF + f] = m;
    }
    return id;
  }
}

/**
 * Inverts one damage distribution along ascending uniforms U[0..K): writes Σ_k min(1, F[f]·dr_k)
 * into sums[f] (F[0] = 1: Σ dr_k) and, when row is given, dr_k into row[off + k].
 */
export function sweep(U: Float64Array, K: number, dists: Distributions, d: number, mode: Uint8Array, binFrom: Float64Array,
  binTo: Float64Array, width: Float64Array, binX: Float64Array, F: Float64Array, sums: Float64Array,
  row: Float64Array | null, off: number, perm: Int32Array | null): void {
  const nD = dists.nD;
  const o = d * nD;
  const n = dists.len[d]!;
  const cdf = dists.cdf;
  const lo = dists.lo;
  const slope = dists.slope;
  const last = cdf[o + n - 1]!;
  const nF = F.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  const f1 = nF > 1 ? F[1]! : 0;
  const f2 = nF > 2 ? F[2]! : 0;
  for (let f = 3; f < nF; f++) sums[f] = 0;
  let b = 0;
  for (let k = 0; k < K; k++) {
    const u = U[k]!;
    let dr: number;
    if (u < last) {
      while (u >= cdf[o + b]!) b++;
      const m = mode[b]!;
      if (m === 1) dr = binFrom[b]! + (u - lo[o + b]!) * slope[o + b]!;
      else if (m === 0) dr = binTo[b]!;
      else dr = quadratic(cdf[o + b]! - lo[o + b]!, width[b]!, binX[b]!, binFrom[b]!, binTo[b]!, u - lo[o + b]!);
    } else {
      // gulpy: a uniform at or above the last cumulative value becomes that value less 3e-8.
      const bb = n - 1;
      const uc = last - CDF_CAP_OFFSET;
      const m = mode[bb]!;
      if (m === 1) dr = binFrom[bb]! + (uc - lo[o + bb]!) * slope[o + bb]!;
      else if (m === 0) dr = binTo[bb]!;
      else dr = quadratic(cdf[o + bb]! - lo[o + bb]!, width[bb]!, binX[bb]!, binFrom[bb]!, binTo[bb]!, uc - lo[o + bb]!);
      if (dr < binFrom[bb]!) dr = binFrom[bb]!;
    }
    s0 += dr;
    if (nF > 1) {
      const x1 = f1 * dr;
      s1 += x1 < 1 ? x1 : 1;
      if (nF > 2) {
        const x2 = f2 * dr;
        s2 += x2 < 1 ? x2 : 1;
        for (let f = 3; f < nF; f++) {
          const x = F[f]! * dr;
          sums[f]! += x < 1 ? x : 1;
        }
      }
    }
    if (row !== null) row[off + (perm === null ? k : perm[k]!)] = dr;
  }
  sums[0] = s0;
  if (nF > 1) sums[1] = s1;
  if (nF > 2) sums[2] = s2;
}

/** The framework's quadratic interpolation inside a bin (interpolation value off the midpoint). */
function quadratic(h: number, w: number, x: number, from: number, to: number, offset: number): number {
  if (!(h > 0)) return to;
  const aa = ((3 * h) / (w * w)) * (2 * x - 1);
  const bb = ((2 * h) / w) * (2 - 3 * x);
  const y = (Math.sqrt(bb * bb + 4 * aa * offset) - bb) / (2 * aa);
  const dr = from + y;
  return dr < from ? from : dr > to ? to : dr;
}

/** Latin-hypercube strata: U[k] = (k + 1 - v_k)/K, v_k = (x + 0.5)/2^32 from one 32-bit output. */
export function drawStrata(rng: SeededRandom, U: Float64Array, K: number): void {
  for (let k = 0; k < K; k++) U[k] = (k + 1 - (rng.nextUint32() + 0.5) * TWO_M32) / K;
}

/** As drawStrata, with P[k] = U[0] + ... + U[k-1]. */
export function drawStrataWithPrefix(rng: SeededRandom, U: Float64Array, P: Float64Array, K: number): void {
  let s = 0;
  P[0] = 0;
  for (let k = 0; k < K; k++) {
    const u = (k + 1 - (rng.nextUint32() + 0.5) * TWO_M32) / K;
    U[k] = u;
    s += u;
    P[k + 1] = s;
  }
}

/** How many of the strata U[0..K) (U[k] in (k/K, (k+1)/K), ascending) lie below x. */
function countBelow(U: Float64Array, K: number, x: number): number {
  let m = Math.floor(x * K);
  if (m < 0) m = 0;
  else if (m > K) m = K;
  while (m < K && U[m]! < x) m++;
  while (m > 0 && U[m - 1]! >= x) m--;
  return m;
}

/**
 * The same sums as sweep (Σ_k min(1, F[f]·dr_k) for each factor), from prefix sums of the ascending
 * uniforms: inside a linear bin dr is linear in u, so each bin (split where F[f]·dr reaches 1)
 * contributes count·from + slope·(Σu - count·lo). Quadratic bins are summed sample by sample.
 */
export function sumByPrefix(U: Float64Array, P: Float64Array, K: number, dists: Distributions, d: number, mode: Uint8Array,
  binFrom: Float64Array, binTo: Float64Array, width: Float64Array, binX: Float64Array, F: Float64Array, sums: Float64Array): void {
  const nD = dists.nD;
  const o = d * nD;
  const n = dists.len[d]!;
  const cdf = dists.cdf;
  const last = cdf[o + n - 1]!;
  const nF = F.length;
  for (let f = 0; f < nF; f++) sums[f] = 0;
  let i0 = 0;
  for (let b = 0; b < n; b++) {
    const lo = dists.lo[o + b]!;
    const hi = cdf[o + b]!;
    const i1 = countBelow(U, K, hi);
    const cnt = i1 - i0;
    if (cnt > 0 && hi > lo) {
      const m = mode[b]!;
      const from = binFrom[b]!;
      const to = binTo[b]!;
      if (m === 0) {
        for (let f = 0; f < nF; f++) {
          const x = F[f]! * to;
          sums[f]! += cnt * (x < 1 ? x : 1);
        }
      } else if (m === 1) {
        const slope = dists.slope[o + b]!;
        const whole = linearPart(P, i0, i1, lo, from, slope);
        sums[0]! += whole;
        for (let f = 1; f < nF; f++) {
          const ff = F[f]!;
          if (ff * to <= 1) sums[f]! += ff * whole;
          else if (ff * from >= 1) sums[f]! += cnt;
          else {
            const iS = countBelow(U, K, lo + (1 / ff - from) / slope);
            const a = iS < i0 ? i0 : iS > i1 ? i1 : iS;
            sums[f]! += ff * linearPart(P, i0, a, lo, from, slope) + (i1 - a);
          }
        }
      } else {
        for (let k = i0; k < i1; k++) {
          const dr = quadratic(hi - lo, width[b]!, binX[b]!, from, to, U[k]! - lo);
          for (let f = 0; f < nF; f++) {
            const x = F[f]! * dr;
            sums[f]! += x < 1 ? x : 1;
          }
        }
      }
    }
    i0 = i1;
  }
  if (i0 < K) {
    // gulpy's cap: uniforms at or above the last cumulative value sit just below it in the last bin.
    const bb = n - 1;
    const uc = last - CDF_CAP_OFFSET;
    const m = mode[bb]!;
    let dr: number;
    if (m === 1) dr = binFrom[bb]! + (uc - dists.lo[o + bb]!) * dists.slope[o + bb]!;
    else if (m === 0) dr = binTo[bb]!;
    else dr = quadratic(cdf[o + bb]! - dists.lo[o + bb]!, width[bb]!, binX[bb]!, binFrom[bb]!, binTo[bb]!, uc - dists.lo[o + bb]!);
    if (dr < binFrom[bb]!) dr = binFrom[bb]!;
    for (let f = 0; f < nF; f++) {
      const x = F[f]! * dr;
      sums[f]! += (K - i0) * (x < 1 ? x : 1);
    }
  }
}

/** Σ over strata a..z-1 of from + slope·(u - lo), from prefix sums P (never below count·from). */
function linearPart(P: Float64Array, a: number, z: number, lo: number, from: number, slope: number): number {
  const rise = P[z]! - P[a]! - (z - a) * lo;
  return (z - a) * from + slope * (rise > 0 ? rise : 0);
}

/** Fisher-Yates order of the strata: perm[k] is the sample index stratum k lands on. */
export function shuffle(rng: SeededRandom, perm: Int32Array, K: number): void {
  for (let k = 0; k < K; k++) perm[k] = k;
  for (let i = K - 1; i > 0; i--) {
    const r = Math.floor(rng.nextUint32() * TWO_M32 * (i + 1));
    const t = perm[i]!;
    perm[i] = perm[r]!;
    perm[r] = t;
  }
}

/**
 * Allocation rule 1 on every coverage, per sample and factor:
 * gRow[f·K + k] = Σ_c tiv_c · min(1, Σ_{items j on c} min(1, F_f · dr_jk)) (no inner cap for F_0 = 1),
 * and the base losses split back pro rata to the perils added to evPC[peril · nC + c].
 */
export function combineRows(rows: Float64Array, K: number, nh: number, hCov: Uint8Array, hPeril: Uint8Array, covHits: Int32Array,
  nC: number, F: Float64Array, covTiv: Float64Array, tivAt: number, gRow: Float64Array, evPC: Float64Array): void {
  const nF = F.length;
  const n = nF * K;
  for (let i = 0; i < n; i++) gRow[i] = 0;
  for (let c = 0; c < nC; c++) {
    const hc = covHits[c]!;
    if (hc === 0) continue;
    const tiv = covTiv[tivAt + c]!;
    if (hc === 1) {
      let j = 0;
      while (hCov[j] !== c) j++;
      const r = j * K;
      let sdr = 0;
      for (let k = 0; k < K; k++) {
        const dr = rows[r + k]!;
        sdr += dr;
        gRow[k]! += tiv * dr;
      }
      for (let f = 1; f < nF; f++) {
        const ff = F[f]!;
        const base = f * K;
        for (let k = 0; k < K; k++) {
          const x = ff * rows[r + k]!;
          gRow[base + k]! += tiv * (x < 1 ? x : 1);
        }
      }
      evPC[hPeril[j]! * nC + c]! += tiv * sdr;
      continue;
    }
    for (let k = 0; k < K; k++) {
      let a0 = 0;
      for (let j = 0; j < nh; j++) if (hCov[j] === c) a0 += rows[j * K + k]!;
      gRow[k]! += tiv * (a0 < 1 ? a0 : 1);
      const share = a0 > 1 ? tiv / a0 : tiv;
      for (let j = 0; j < nh; j++) if (hCov[j] === c) evPC[hPeril[j]! * nC + c]! += rows[j * K + k]! * share;
      for (let f = 1; f < nF; f++) {
        const ff = F[f]!;
        let a = 0;
        for (let j = 0; j < nh; j++) {
          if (hCov[j] !== c) continue;
          const x = ff * rows[j * K + k]!;
          a += x < 1 ? x : 1;
        }
        gRow[f * K + k]! += tiv * (a < 1 ? a : 1);
      }
    }
  }
}

/** Adds a location's K sample losses (per factor) to the event sums; returns the sum of its base losses. */
export function accumulate(gRow: Float64Array, K: number, nF: number, evGU: Float64Array): number {
  let locSum = 0;
  for (let f = 0; f < nF; f++) {
    const base = f * K;
    let s = 0;
    for (let k = 0; k < K; k++) s += gRow[base + k]!;
    evGU[f]! += s;
    if (f === 0) locSum = s;
  }
  return locSum;
}

/**
 * As accumulate, with the place deductible and limit applied to each sample. The insured losses go
 * to sPIL (per sample when pairing matters, else summed into one slot), the base deductible and
 * above-limit amounts to evPlace[0] and evPlace[1], and (when pairing matters) each base insured loss
 * to buf[off + k]. ilOut[0] receives the location's summed base insured loss.
 */
export function accumulateWithTerms(gRow: Float64Array, K: number, nF: number, perSample: boolean, pD: number, pL: number,
  evGU: Float64Array, sPIL: Float64Array, evPlace: Float64Array, buf: Float64Array | null, off: number, ilOut: Float64Array): number {
  const slots = perSample ? K : 1;
  let locSum = 0;
  let locIns = 0;
  let sd = 0;
  let sa = 0;
  for (let k = 0; k < K; k++) {
    const g0 = gRow[k]!;
    const dP = Math.min(g0, pD);
    const after0 = g0 - dP;
    const il0 = Math.min(after0, pL);
    locSum += g0;
    sd += dP;
    sa += after0 - il0;
    locIns += il0;
    if (perSample) {
      sPIL[k]! += il0;
      if (buf !== null) buf[off + k] = il0;
    }
  }
  if (!perSample) sPIL[0]! += locIns;
  evGU[0]! += locSum;
  evPlace[0]! += sd;
  evPlace[1]! += sa;
  for (let f = 1; f < nF; f++) {
    const base = f * K;
    const sb = f * slots;
    let sg = 0;
    let si = 0;
    for (let k = 0; k < K; k++) {
      const gf = gRow[base + k]!;
      const il = Math.min(Math.max(gf - pD, 0), pL);
      sg += gf;
      if (perSample) sPIL[sb + k]! += il;
      else si += il;
    }
    evGU[f]! += sg;
    if (!perSample) sPIL[sb]! += si;
  }
  ilOut[0] = locIns;
  return locSum;
}
