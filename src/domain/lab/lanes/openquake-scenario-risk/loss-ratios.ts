// A vulnerability function read at a ground-motion value, as OpenQuake's risklib reads it
// (openquake/risklib/scientific.py, VulnerabilityFunction.interpolate and _cov_for,
// VulnerabilityFunctionWithPMF.interpolate): the value is clipped to the last level; below the first
// level the loss ratio is 0; between levels the mean loss ratio, the coefficient of variation and a
// PMF's probabilities are interpolated linearly. With covLR > 0 the loss ratio is drawn (Sampler,
// MultiEventRNG.lognormal and .beta, samplePM); with ignore_covs, or covLR 0 everywhere, it is the
// mean (Sampler.get_losses' fast lane). Pure.
import type { SeededRandom } from '../../../stats/random.js';
import type { OqContinuousFunction, OqPmfFunction, OqVulnerabilityFunction } from './oq-inputs.js';

/** An intensity measure's name compared as OpenQuake compares them: SA(0.30) and SA(0.3) are one. */
export function imtKey(imt: string): string {
  const m = /^\s*SA\(\s*([0-9.eE+-]+)\s*\)\s*$/.exec(imt);
  return m ? `SA(${Number(m[1])})` : imt.trim();
}

/** Where a ground-motion value falls among a function's levels: the lower level and the weight of the upper. */
function bracket(imls: readonly number[], gmv: number): { lo: number; w: number } | null {
  const n = imls.length;
  const x = gmv > imls[n - 1]! ? imls[n - 1]! : gmv;
  if (!(x >= imls[0]!)) return null;
  if (n === 1 || x >= imls[n - 1]!) return { lo: n - 1, w: 0 };
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (imls[mid]! <= x) lo = mid; else hi = mid;
  }
  return { lo, w: (x - imls[lo]!) / (imls[hi]! - imls[lo]!) };
}

const lerp = (ys: readonly number[], b: { lo: number; w: number }) =>
  b.w === 0 ? ys[b.lo]! : ys[b.lo]! + (ys[b.lo + 1]! - ys[b.lo]!) * b.w;

/** The mean loss ratio and its coefficient of variation at a ground-motion value (0 and 0 below the first level). */
export function meanAndCov(fn: OqContinuousFunction, gmv: number): { mean: number; cov: number } {
  const b = bracket(fn.imls, gmv);
  if (!b) return { mean: 0, cov: 0 };
  return { mean: lerp(fn.mean_lrs, b), cov: lerp(fn.cov_lrs, b) };
}

/** A PMF function's probabilities at a ground-motion value (all 0 below the first level). */
export function pmfAt(fn: OqPmfFunction, gmv: number): number[] {
  const b = bracket(fn.imls, gmv);
  return fn.probs.map((row) => (b ? lerp(row, b) : 0));
}

/**
 * A PMF function's expected loss ratio at a ground-motion value, over its probabilities as they
 * sum (the ratio ignore_covs reads here; OpenQuake always samples a PMF).
 */
export function pmfMean(fn: OqPmfFunction, gmv: number): number {
  const p = pmfAt(fn, gmv);
  let s = 0;
  let total = 0;
  for (let m = 0; m < p.length; m++) { s += p[m]! * fn.loss_ratios[m]!; total += p[m]!; }
  return total > 0 ? s / total : 0;
}

/** Whether a function draws its loss ratio (a covLR above 0, or a PMF). */
export function isUncertain(fn: OqVulnerabilityFunction): boolean {
  return fn.dist === 'PM' || fn.cov_lrs.some((c) => c > 0);
}

const TWO_M32 = 1 / 4294967296;

/**
 * One standard normal deviate per call (Box-Muller, the cosine branch: two 32-bit uniforms a draw,
 * so a draw never depends on the one before; the first uniform is kept off 0, which bounds a
 * deviate at 6.7).
 */
export function standardNormal(rng: SeededRandom): number {
  const u1 = (rng.nextUint32() + 0.5) * TWO_M32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.nextUint32() * TWO_M32);
}

/** Γ(shape, 1) by Marsaglia and Tsang (2000), with the boost u^(1/a) for shape below 1. */
export function gammaDraw(rng: SeededRandom, shape: number): number {
  if (shape < 1) return gammaDraw(rng, shape + 1) * Math.pow(rng.uniformOpen(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do { x = standardNormal(rng); v = 1 + c * x; } while (v <= 0);
    v = v * v * v;
    const u = rng.uniformOpen();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** The lognormal loss ratio with the given mean and CoV at a standard normal deviate eps (MultiEventRNG.lognormal). */
export function lognormalRatio(mean: number, cov: number, eps: number): number {
  const s2 = 1 + cov * cov;
  return (mean * Math.exp(eps * Math.sqrt(Math.log(s2)))) / Math.sqrt(s2);
}

/** A beta loss ratio with the given mean and CoV (MultiEventRNG.beta, _alpha_beta: the mean where it or the CoV is 0). */
export function betaRatio(rng: SeededRandom, mean: number, cov: number): number {
  if (mean === 0 || cov === 0) return mean;
  const sd = mean * cov;
  const c = (1 - mean) / (sd * sd) - 1 / mean;
  const x = gammaDraw(rng, c * mean * mean);
  const y = gammaDraw(rng, c * (mean - mean * mean));
  return x / (x + y);
}

/** A PMF's loss ratio at one uniform draw: the first ratio whose cumulative probability exceeds it (0 when the mass is 0, as samplePM). */
export function pmfRatio(fn: OqPmfFunction, gmv: number, u: number): number {
  const p = pmfAt(fn, gmv);
  let total = 0;
  for (const x of p) total += x;
  if (!(total > 0)) return 0;
  let cum = 0;
  const target = u * total;
  for (let m = 0; m < p.length; m++) {
    cum += p[m]!;
    if (target < cum) return fn.loss_ratios[m]!;
  }
  return fn.loss_ratios[p.length - 1]!;
}

/** How a loss ratio is drawn for one (event, asset): the event's stream, and the event's shared deviate when assets are correlated. */
export interface EventDraw {
  readonly rng: SeededRandom;
  /** The event's one deviate for every asset (asset_correlation 1), drawn when first asked. */
  shared?: number;
}

/** A loss ratio drawn at an interpolated mean and CoV: lognormal (LN) or beta (BT); the mean where either is 0. */
export function sampleRatio(dist: 'LN' | 'BT', mean: number, cov: number, draw: EventDraw, correlated: boolean): number {
  if (mean === 0 || cov === 0) return mean;
  if (dist === 'BT') return betaRatio(draw.rng, mean, cov);
  const eps = correlated ? (draw.shared ??= standardNormal(draw.rng)) : standardNormal(draw.rng);
  return lognormalRatio(mean, cov, eps);
}

/**
 * The loss ratio of a function at a ground-motion value: the mean when draw is null (ignore_covs),
 * else drawn from the event's stream.
 */
export function lossRatio(fn: OqVulnerabilityFunction, gmv: number, draw: EventDraw | null, correlated: boolean): number {
  if (fn.dist === 'PM') return draw ? pmfRatio(fn, gmv, draw.rng.uniform()) : pmfMean(fn, gmv);
  const { mean, cov } = meanAndCov(fn, gmv);
  return draw ? sampleRatio(fn.dist, mean, cov, draw, correlated) : mean;
}
