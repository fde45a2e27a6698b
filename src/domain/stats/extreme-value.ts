// Extreme-value view of an index series: annual (term) maxima fitted with a GEV or Gumbel
// distribution by L-moments, return levels, goodness of fit, and the expected payout.
//
// Parameters follow DOMAIN.md: F(x) = exp(−[1 + ξ(x − μ)/σ]^(−1/ξ)), with ξ > 0 a heavy upper tail
// (Fréchet type), ξ < 0 a bounded upper tail, and ξ = 0 the Gumbel F(x) = exp(−exp(−(x − μ)/σ)).
// Hosking's papers write the shape as k = −ξ; conversions are done at the fit and nowhere else.

import { gamma } from './special-functions.js';

export interface GevParameters {
  readonly location: number;
  readonly scale: number;
  /** ξ in DOMAIN.md's sign; 0 is Gumbel. */
  readonly shape: number;
}

const EULER_GAMMA = 0.5772156649015329;

// ---------------------------------------------------------------------------------------------
// Probability-weighted moments and L-moments

export interface ProbabilityWeightedMoments {
  readonly b0: number;
  readonly b1: number;
  readonly b2: number;
}

function sortedCopy(xs: readonly number[]): number[] {
  for (const x of xs) if (!Number.isFinite(x)) throw new RangeError(`sample holds a non-finite value ${x}`);
  return [...xs].sort((a, b) => a - b);
}

/**
 * Unbiased sample PWMs (Landwehr, Matalas & Wallis 1979; Hosking 1990):
 * b_r = n⁻¹ Σ_j [(j−1)…(j−r)] / [(n−1)…(n−r)] · x_(j), x_(1) <= … <= x_(n). Needs n >= 3.
 */
export function sampleProbabilityWeightedMoments(xs: readonly number[]): ProbabilityWeightedMoments {
  const n = xs.length;
  if (n < 3) throw new RangeError(`probability-weighted moments b0..b2 need n >= 3, got ${n}`);
  const sorted = sortedCopy(xs);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  sorted.forEach((x, index) => {
    const j = index + 1;
    b0 += x;
    b1 += ((j - 1) / (n - 1)) * x;
    b2 += (((j - 1) * (j - 2)) / ((n - 1) * (n - 2))) * x;
  });
  return { b0: b0 / n, b1: b1 / n, b2: b2 / n };
}

export interface SampleLMoments {
  readonly n: number;
  readonly l1: number;
  readonly l2: number;
  readonly l3: number;
  /** L-skewness λ3/λ2. */
  readonly t3: number;
}

/** λ1 = b0, λ2 = 2b1 − b0, λ3 = 6b2 − 6b1 + b0 (Hosking 1990, eq. 2.3). */
export function sampleLMoments(xs: readonly number[]): SampleLMoments {
  const { b0, b1, b2 } = sampleProbabilityWeightedMoments(xs);
  const l2 = 2 * b1 - b0;
  const l3 = 6 * b2 - 6 * b1 + b0;
  return { n: xs.length, l1: b0, l2, l3, t3: l3 / l2 };
}

// ---------------------------------------------------------------------------------------------
// Fits

export interface ExtremeValueFit extends GevParameters {
  readonly distribution: 'gev' | 'gumbel';
  readonly method: 'l-moments';
  readonly lMoments: SampleLMoments;
}

function checkSpread(l: SampleLMoments): void {
  if (!(l.l2 > 0)) throw new RangeError('sample has no spread (λ2 = 0): every value is the same');
}

/**
 * GEV from L-moments with Hosking's approximation for the shape (Hosking, Wallis & Wood 1985;
 * Hosking 1990): c = 2/(3 + t3) − ln2/ln3, k ≈ 7.8590c + 2.9554c² (error under 9e-4 for
 * −0.5 <= t3 <= 0.5), σ = λ2·k / ((1 − 2^−k)·Γ(1 + k)), μ = λ1 − σ(1 − Γ(1 + k))/k; ξ = −k.
 */
export function gevFromLMoments(l: SampleLMoments): ExtremeValueFit {
  checkSpread(l);
  const c = 2 / (3 + l.t3) - Math.LN2 / Math.log(3);
  const k = 7.859 * c + 2.9554 * c * c;
  if (Math.abs(k) < 1e-9) return { ...gumbelFromLMoments(l), distribution: 'gev' };
  const gammaOnePlusK = gamma(1 + k);
  const scale = (l.l2 * k) / ((1 - 2 ** -k) * gammaOnePlusK);
  const location = l.l1 - (scale * (1 - gammaOnePlusK)) / k;
  return { distribution: 'gev', method: 'l-moments', location, scale, shape: -k, lMoments: l };
}

/** Gumbel from L-moments: σ = λ2/ln2, μ = λ1 − γσ (Hosking 1990; γ Euler's constant). */
export function gumbelFromLMoments(l: SampleLMoments): ExtremeValueFit {
  checkSpread(l);
  const scale = l.l2 / Math.LN2;
  return { distribution: 'gumbel', method: 'l-moments', location: l.l1 - EULER_GAMMA * scale, scale, shape: 0, lMoments: l };
}

export function fitGevByLMoments(xs: readonly number[]): ExtremeValueFit {
  return gevFromLMoments(sampleLMoments(xs));
}

export function fitGumbelByLMoments(xs: readonly number[]): ExtremeValueFit {
  return gumbelFromLMoments(sampleLMoments(xs));
}

// ---------------------------------------------------------------------------------------------
// Distribution functions

/** t(x) = −ln F(x): (1 + ξz)^(−1/ξ), or e^(−z) when ξ = 0; 0 above a bounded top, ∞ below a bounded bottom. */
function minusLogCdf(x: number, p: GevParameters): number {
  const z = (x - p.location) / p.scale;
  if (p.shape === 0) return Math.exp(-z);
  const s = p.shape * z;
  if (s <= -1) return p.shape > 0 ? Infinity : 0;
  return Math.exp(-Math.log1p(s) / p.shape);
}

export function gevCdf(x: number, p: GevParameters): number {
  return Math.exp(-minusLogCdf(x, p));
}

/** 1 − F(x), computed without cancellation in the upper tail. */
export function gevSurvival(x: number, p: GevParameters): number {
  return -Math.expm1(-minusLogCdf(x, p));
}

/** x from y = −ln F: μ + σ(y^(−ξ) − 1)/ξ, or μ − σ ln y when ξ = 0. */
function quantileFromMinusLogCdf(y: number, p: GevParameters): number {
  if (p.shape === 0) return p.location - p.scale * Math.log(y);
  return p.location + (p.scale * Math.expm1(-p.shape * Math.log(y))) / p.shape;
}

/** Quantile F⁻¹(u) for u in [0, 1]; the ends give the support's bounds (possibly ±Infinity). */
export function gevQuantile(u: number, p: GevParameters): number {
  if (!(u >= 0 && u <= 1)) throw new RangeError(`probability must lie in [0, 1], got ${u}`);
  return quantileFromMinusLogCdf(-Math.log(u), p);
}

/** Level exceeded with annual probability 1/T: x_T = F⁻¹(1 − 1/T) (DOMAIN.md's formulas), T > 1. */
export function returnLevel(p: GevParameters, returnPeriodYears: number): number {
  if (!(returnPeriodYears > 1)) throw new RangeError(`return period must exceed 1 year, got ${returnPeriodYears}`);
  return quantileFromMinusLogCdf(-Math.log1p(-1 / returnPeriodYears), p);
}

// ---------------------------------------------------------------------------------------------
// Goodness of fit

/** Gringorten (1963) plotting position of the i-th smallest of n: (i − 0.44)/(n + 0.12). */
export function gringortenPosition(i: number, n: number): number {
  return (i - 0.44) / (n + 0.12);
}

/** Probability-plot correlation coefficient (Filliben 1975): Pearson r of x_(i) and F⁻¹(Gringorten_i). */
export function probabilityPlotCorrelation(xs: readonly number[], p: GevParameters): number {
  const sorted = sortedCopy(xs);
  const n = sorted.length;
  if (n < 2) throw new RangeError('probability-plot correlation needs n >= 2');
  const q = sorted.map((_, index) => gevQuantile(gringortenPosition(index + 1, n), p));
  const meanX = sorted.reduce((s, x) => s + x, 0) / n;
  const meanQ = q.reduce((s, x) => s + x, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = sorted[i]! - meanX;
    const dy = q[i]! - meanQ;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Anderson–Darling statistic (Anderson & Darling 1954; Stephens 1974 form):
 * A² = −n − n⁻¹ Σ (2i − 1)[ln F(x_(i)) + ln(1 − F(x_(n+1−i)))]. Infinity when a value lies outside
 * the fitted support. With fitted parameters its critical values are not the textbook ones.
 */
export function andersonDarling(xs: readonly number[], p: GevParameters): number {
  const sorted = sortedCopy(xs);
  const n = sorted.length;
  if (n < 1) throw new RangeError('Anderson–Darling needs at least one value');
  const t = sorted.map((x) => minusLogCdf(x, p));
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    const logCdf = -t[i - 1]!;
    const logSurvival = Math.log(-Math.expm1(-t[n - i]!));
    sum += (2 * i - 1) * (logCdf + logSurvival);
  }
  const a2 = -n - sum / n;
  return Number.isNaN(a2) ? Infinity : a2;
}

// ---------------------------------------------------------------------------------------------
// Expected payout

/** Gauss–Legendre nodes and weights on [−1, 1] by Newton's method on P_n (Golub & Welsch give the same). */
export function gaussLegendre(n: number): { nodes: number[]; weights: number[] } {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Gauss–Legendre needs a positive integer order, got ${n}`);
  const nodes = new Array<number>(n);
  const weights = new Array<number>(n);
  for (let i = 0; i < Math.ceil(n / 2); i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1;
      let p1 = x;
      for (let k = 2; k <= n; k++) [p0, p1] = [p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k];
      derivative = (n * (x * p1 - p0)) / (x * x - 1);
      const step = p1 / derivative;
      x -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    const w = 2 / ((1 - x * x) * derivative * derivative);
    nodes[i] = -x;
    nodes[n - 1 - i] = x;
    weights[i] = w;
    weights[n - 1 - i] = w;
  }
  return { nodes, weights };
}

export interface ExpectedPayoutOptions {
  /**
   * Index levels where the payout jumps or bends (attachment, exhaustion, ladder levels). Panels are
   * split there, so a step or a kink is integrated exactly rather than smeared across a panel.
   */
  readonly breakpoints?: readonly number[];
  /** Gauss–Legendre nodes per panel; default 16. */
  readonly nodesPerPanel?: number;
}

/** Smallest tail probability integrated by quadrature; the sliver beyond is one rectangle. */
const TAIL_FLOOR = 1e-16;

/**
 * E[payout(X)] = ∫₀¹ payout(F⁻¹(u)) du by composite Gauss–Legendre. The two halves of (0, 1) are
 * integrated in the distance w to their own end (u = w below ½, 1 − u = w above, computed without
 * cancellation). Panels: geometric [10^−(k+1), 10^−k] for k = 1…15 in each tail, then
 * [0.1, 0.2] … [0.4, 0.5], further split at the probabilities of the breakpoints. The last sliver
 * (0, 1e−16) of each tail is a rectangle at its midpoint (exact for payouts constant in the tail);
 * an unbounded payout under a heavy tail (ξ near 1) loses about σ·1e−16^(1−ξ)/(ξ(1−ξ)) there.
 */
export function expectedPayout(
  payout: (x: number) => number,
  p: GevParameters,
  options: ExpectedPayoutOptions = {},
): number {
  const { nodes, weights } = gaussLegendre(options.nodesPerPanel ?? 16);
  const base: number[] = [];
  for (let k = 16; k >= 1; k--) base.push(10 ** -k);
  base.push(0.2, 0.3, 0.4, 0.5);

  const lowerCuts = [...base];
  const upperCuts = [...base];
  for (const level of options.breakpoints ?? []) {
    const below = gevCdf(level, p);
    const above = gevSurvival(level, p);
    if (below > TAIL_FLOOR && below < 0.5) lowerCuts.push(below);
    else if (above > TAIL_FLOOR && above < 0.5) upperCuts.push(above);
  }

  const lowerTail = (w: number) => payout(quantileFromMinusLogCdf(-Math.log(w), p));
  const upperTail = (w: number) => payout(quantileFromMinusLogCdf(-Math.log1p(-w), p));

  const integrateHalf = (g: (w: number) => number, cuts: number[]): number => {
    const edges = [...new Set(cuts)].sort((a, b) => a - b);
    let total = TAIL_FLOOR * g(TAIL_FLOOR / 2);
    for (let i = 0; i + 1 < edges.length; i++) {
      const a = edges[i]!;
      const b = edges[i + 1]!;
      const half = (b - a) / 2;
      const mid = (a + b) / 2;
      let panel = 0;
      for (let j = 0; j < nodes.length; j++) panel += weights[j]! * g(mid + half * nodes[j]!);
      total += half * panel;
    }
    return total;
  };

  return integrateHalf(lowerTail, lowerCuts) + integrateHalf(upperTail, upperCuts);
}

// ---------------------------------------------------------------------------------------------
// Choosing between GEV and Gumbel

/** Asymptotic variance of the PWM shape estimate at k = 0 is 0.5633/n (Hosking, Wallis & Wood 1985). */
const SHAPE_VARIANCE_AT_ZERO = 0.5633;
/** Hosking et al. (1985) found the k = 0 test keeps its level from about n = 25. */
export const MIN_MAXIMA_FOR_GEV = 25;
const Z_95 = 1.959963984540054;

export interface ExtremeValueSelection {
  readonly chosen: ExtremeValueFit;
  readonly gev: ExtremeValueFit;
  readonly gumbel: ExtremeValueFit;
  /** sqrt(0.5633/n). */
  readonly shapeStandardError: number;
  /** ξ̂ / shapeStandardError. */
  readonly z: number;
  readonly rule: string;
}

/**
 * Gumbel unless the data reject ξ = 0: GEV is chosen only when n >= 25 and
 * |ξ̂| > 1.96·sqrt(0.5633/n) (two-sided 5% test of Hosking, Wallis & Wood 1985).
 */
export function selectExtremeValueFit(xs: readonly number[]): ExtremeValueSelection {
  const l = sampleLMoments(xs);
  const gev = gevFromLMoments(l);
  const gumbel = gumbelFromLMoments(l);
  const shapeStandardError = Math.sqrt(SHAPE_VARIANCE_AT_ZERO / l.n);
  const z = gev.shape / shapeStandardError;
  const useGev = l.n >= MIN_MAXIMA_FOR_GEV && Math.abs(z) > Z_95;
  return {
    chosen: useGev ? gev : gumbel,
    gev,
    gumbel,
    shapeStandardError,
    z,
    rule:
      `GEV when n >= ${MIN_MAXIMA_FOR_GEV} and |ξ| > 1.96·sqrt(0.5633/n) ` +
      '(Hosking, Wallis & Wood 1985 test of ξ = 0 at 5%), otherwise Gumbel',
  };
}
