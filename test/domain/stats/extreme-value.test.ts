import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  andersonDarling,
  expectedPayout,
  fitGevByLMoments,
  fitGumbelByLMoments,
  gaussLegendre,
  gevCdf,
  gevQuantile,
  gevSurvival,
  gringortenPosition,
  probabilityPlotCorrelation,
  returnLevel,
  sampleLMoments,
  sampleProbabilityWeightedMoments,
  selectExtremeValueFit,
  type GevParameters,
} from '../../../src/domain/stats/extreme-value.js';
import { seededRandom } from '../../../src/domain/stats/random.js';
import { gamma, logGamma } from '../../../src/domain/stats/special-functions.js';

const close = (actual: number, expected: number, tolerance: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected} ± ${tolerance}`);

function gevSample(p: GevParameters, n: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => gevQuantile(random.uniformOpen(), p));
}

test('Lanczos gamma: Γ(1) = 1, Γ(5) = 24, Γ(½) = √π, Γ(−½) = −2√π, lnΓ(100) = ln 99!', () => {
  close(gamma(1), 1, 1e-14);
  close(gamma(5), 24, 24e-14);
  close(gamma(0.5), Math.sqrt(Math.PI), 1e-14);
  close(gamma(-0.5), -2 * Math.sqrt(Math.PI), 1e-13);
  close(logGamma(100), 359.1342053695754, 1e-11);
  close(gamma(1.5), 0.5 * Math.sqrt(Math.PI), 1e-14);
});

test('Gauss–Legendre: weights sum to 2 and the rule is exact for polynomials of degree 2n − 1', () => {
  const { nodes, weights } = gaussLegendre(16);
  close(weights.reduce((s, w) => s + w, 0), 2, 1e-14);
  // ∫₋₁¹ x³⁰ dx = 2/31.
  close(nodes.reduce((s, x, i) => s + weights[i]! * x ** 30, 0), 2 / 31, 1e-14);
});

test('PWMs and L-moments of a tiny sample by hand', () => {
  // Sorted 1, 2, 3, 6 (n = 4):
  // b0 = 3; b1 = ¼(0·1 + ⅓·2 + ⅔·3 + 1·6) = 13/6; b2 = ¼(0 + 0 + (2·1)/(3·2)·3 + 1·6) = 7/4.
  // λ2 = 2b1 − b0 = 4/3 (half the mean pairwise difference: 16/6 ÷ 2); λ3 = 6b2 − 6b1 + b0 = 1/2.
  const pwm = sampleProbabilityWeightedMoments([3, 1, 2, 6]);
  close(pwm.b0, 3, 1e-15);
  close(pwm.b1, 13 / 6, 1e-15);
  close(pwm.b2, 7 / 4, 1e-15);
  const l = sampleLMoments([3, 1, 2, 6]);
  close(l.l2, 4 / 3, 1e-14);
  close(l.l3, 1 / 2, 1e-14);
  close(l.t3, 3 / 8, 1e-14);
  assert.throws(() => sampleLMoments([1, 2]), RangeError);
});

// Reference sample and figures from the lmoments3 test suite (OpenHydrology/lmoments3,
// lmoments3/tests/test_lmoments.py), which reproduce Hosking's R package lmom.
const REFERENCE_SAMPLE = [2.0, 3.0, 4.0, 2.4, 5.5, 1.2, 5.4, 2.2, 7.1, 1.3, 1.5];

test('reference L-moments, Gumbel fit, and GEV/Gumbel quantiles and CDF (lmoments3 / R lmom)', () => {
  const l = sampleLMoments(REFERENCE_SAMPLE);
  close(l.l1, 3.23636364, 1e-8, 'λ1');
  close(l.l2, 1.14181818, 1e-8, 'λ2');
  close(l.t3, 0.27388535, 1e-8, 't3');

  const gumbel = fitGumbelByLMoments(REFERENCE_SAMPLE);
  close(gumbel.location, 2.285519, 1e-6, 'Gumbel μ');
  close(gumbel.scale, 1.647295, 1e-6, 'Gumbel σ');

  // Quantiles at 0.2, 0.5, 0.8 and CDF at 2, 5, 8 for the reference parameters (lmom's GEV k = −ξ).
  const gev: GevParameters = { location: 2.1792884, scale: 1.3956404, shape: 0.1555609 };
  const gevQuantiles = [1.539112, 2.705672, 4.537048];
  const gevCdfs = [0.32028, 0.8415637, 0.9606184];
  [0.2, 0.5, 0.8].forEach((u, i) => close(gevQuantile(u, gev), gevQuantiles[i]!, 1e-6, `GEV Q(${u})`));
  [2, 5, 8].forEach((x, i) => close(gevCdf(x, gev), gevCdfs[i]!, 1e-7, `GEV F(${x})`));
  const gum: GevParameters = { location: 2.285519, scale: 1.647295, shape: 0 };
  const gumQuantiles = [1.501596, 2.889274, 4.756363];
  const gumCdfs = [0.3044484, 0.8249232, 0.9693322];
  [0.2, 0.5, 0.8].forEach((u, i) => close(gevQuantile(u, gum), gumQuantiles[i]!, 1e-6, `Gumbel Q(${u})`));
  [2, 5, 8].forEach((x, i) => close(gevCdf(x, gum), gumCdfs[i]!, 1e-7, `Gumbel F(${x})`));
});

test('GEV fit by Hosking’s shape approximation is within its stated accuracy of lmom’s exact fit', () => {
  // lmom solves for k exactly (k = −0.1555609); the approximation is within 9e-4 in k for
  // |t3| <= 0.5 (Hosking et al. 1985), which moves σ and μ by ≈ 1.2e-3 and 4e-4 here.
  const fit = fitGevByLMoments(REFERENCE_SAMPLE);
  assert.equal(fit.distribution, 'gev');
  close(fit.shape, 0.1555609, 9e-4, 'ξ');
  close(fit.scale, 1.3956404, 2e-3, 'σ');
  close(fit.location, 2.1792884, 1e-3, 'μ');
});

test('Gumbel return levels at T = 10 and 100 equal μ − σ ln(−ln(1 − 1/T))', () => {
  const p: GevParameters = { location: 100, scale: 20, shape: 0 };
  // −ln(−ln 0.9) = 2.2503673; −ln(−ln 0.99) = 4.6001492.
  close(returnLevel(p, 10), 145.00734654624893, 1e-9, 'x10');
  close(returnLevel(p, 100), 192.0029845355316, 1e-9, 'x100');
  for (const T of [2, 10, 50, 100, 1000]) {
    close(returnLevel(p, T), 100 - 20 * Math.log(-Math.log(1 - 1 / T)), 1e-9, `x${T}`);
  }
  assert.throws(() => returnLevel(p, 1), RangeError);
});

test('GEV return levels follow DOMAIN.md’s formula; CDF and quantile invert each other', () => {
  for (const shape of [-0.3, -0.05, 0.1, 0.4]) {
    const p: GevParameters = { location: 50, scale: 8, shape };
    for (const T of [5, 100]) {
      const y = -Math.log(1 - 1 / T);
      close(returnLevel(p, T), 50 + (8 / shape) * (y ** -shape - 1), 1e-9 * returnLevel(p, T), `ξ=${shape} T=${T}`);
    }
  }
  for (const shape of [-0.3, -0.05, 0, 1e-12, 0.1, 0.4]) {
    const p: GevParameters = { location: 50, scale: 8, shape };
    for (const u of [1e-9, 0.01, 0.3, 0.5, 0.9, 0.999, 1 - 1e-9]) {
      close(gevCdf(gevQuantile(u, p), p), u, 1e-12, `F(Q(${u})) ξ=${shape}`);
    }
    for (const x of [40, 50, 65, 90]) {
      const f = gevCdf(x, p);
      if (f > 0 && f < 1) close(gevQuantile(f, p), x, 1e-8 * Math.abs(x), `Q(F(${x})) ξ=${shape}`);
      close(gevSurvival(x, p), 1 - f, 1e-15);
    }
  }
  // ξ → 0 is continuous with the Gumbel.
  close(returnLevel({ location: 50, scale: 8, shape: 1e-12 }, 100), returnLevel({ location: 50, scale: 8, shape: 0 }, 100), 1e-9);
  // Bounded supports: ξ < 0 has a top at μ − σ/ξ, ξ > 0 a bottom there.
  assert.equal(gevCdf(50 + 8 / 0.3 + 1, { location: 50, scale: 8, shape: -0.3 }), 1);
  assert.equal(gevCdf(50 - 8 / 0.4 - 1, { location: 50, scale: 8, shape: 0.4 }), 0);
  close(gevQuantile(1, { location: 50, scale: 8, shape: -0.3 }), 50 + 8 / 0.3, 1e-12);
});

test('L-moment fit recovers a large seeded GEV sample', () => {
  // n = 20,000 draws of GEV(μ 100, σ 20, ξ 0.1) by inverse CDF. The shape's standard error is about
  // sqrt(0.5633/n) = 0.0053 (Hosking et al. 1985, at ξ = 0); tolerances are about five standard errors:
  // ξ ± 0.03, σ ± 0.04σ, μ ± 0.05σ.
  const truth: GevParameters = { location: 100, scale: 20, shape: 0.1 };
  const sample = gevSample(truth, 20_000, 1990);
  const fit = fitGevByLMoments(sample);
  close(fit.shape, 0.1, 0.03, 'ξ');
  close(fit.scale, 20, 0.8, 'σ');
  close(fit.location, 100, 1.0, 'μ');
  // Goodness of fit: the true family fits; a shifted model is flagged.
  assert.ok(probabilityPlotCorrelation(sample, fit) > 0.999);
  assert.ok(andersonDarling(sample, fit) < 2.5);
  assert.ok(andersonDarling(sample, { ...fit, location: fit.location + 2 }) > 10);
});

test('goodness of fit figures against hand computations', () => {
  // Data placed exactly at the Gringorten quantiles of the model give a probability-plot r of 1.
  const p: GevParameters = { location: 10, scale: 3, shape: 0.2 };
  const n = 12;
  const onTheLine = Array.from({ length: n }, (_, i) => gevQuantile(gringortenPosition(i + 1, n), p));
  close(probabilityPlotCorrelation(onTheLine, p), 1, 1e-12);
  close(gringortenPosition(1, 10), 0.56 / 10.12, 1e-15);

  // A² for three values against a standard Gumbel, written out term by term.
  const F = (x: number) => Math.exp(-Math.exp(-x));
  const [x1, x2, x3] = [-0.5, 0.2, 1.3];
  const byHand =
    -3 -
    (1 / 3) *
      (1 * (Math.log(F(x1)) + Math.log(1 - F(x3))) +
        3 * (Math.log(F(x2)) + Math.log(1 - F(x2))) +
        5 * (Math.log(F(x3)) + Math.log(1 - F(x1))));
  close(andersonDarling([0.2, -0.5, 1.3], { location: 0, scale: 1, shape: 0 }), byHand, 1e-12);
  assert.equal(andersonDarling([0, 100], { location: 0, scale: 1, shape: -0.5 }), Infinity); // beyond the top
});

test('expected payout: step payouts equal 1 − F(E) exactly; unbounded payouts give the GEV mean', () => {
  for (const shape of [-0.2, 0, 0.1, 0.3]) {
    const p: GevParameters = { location: 100, scale: 20, shape };
    // Step at E: E[1{X >= E}] = 1 − F(E).
    for (const level of [80, 130, 200]) {
      const step = expectedPayout((x) => (x >= level ? 1 : 0), p, { breakpoints: [level] });
      close(step, gevSurvival(level, p), 1e-12, `step ξ=${shape} E=${level}`);
    }
    // Ladder 25% at 120, 60% at 150, 100% at 180 of a 1e6 limit: Σ limit·(f_k − f_{k−1})·(1 − F(L_k)).
    const ladder = (x: number) => 1e6 * (x >= 180 ? 1 : x >= 150 ? 0.6 : x >= 120 ? 0.25 : 0);
    const ladderClosed = 1e6 * (0.25 * gevSurvival(120, p) + 0.35 * gevSurvival(150, p) + 0.4 * gevSurvival(180, p));
    close(expectedPayout(ladder, p, { breakpoints: [120, 150, 180] }), ladderClosed, 1e-6, `ladder ξ=${shape}`);
    // E[X] = μ + σ(Γ(1 − ξ) − 1)/ξ, or μ + γσ for the Gumbel (both need ξ < 1).
    const mean = shape === 0 ? 100 + 0.5772156649015329 * 20 : 100 + (20 * (gamma(1 - shape) - 1)) / shape;
    close(expectedPayout((x) => x, p), mean, 1e-8 * mean, `mean ξ=${shape}`);
  }
});

test('expected payout of a linear payout agrees with a seeded Monte Carlo within four standard errors', () => {
  // payout = limit · clamp((x − A)/(E − A), 0, 1), A = 120, E = 160, limit 1, GEV(100, 20, 0.1).
  const p: GevParameters = { location: 100, scale: 20, shape: 0.1 };
  const linear = (x: number) => Math.min(1, Math.max(0, (x - 120) / 40));
  const quadrature = expectedPayout(linear, p, { breakpoints: [120, 160] });

  const random = seededRandom(2000);
  const draws = 400_000;
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < draws; i++) {
    const y = linear(gevQuantile(random.uniformOpen(), p));
    sum += y;
    sumSquares += y * y;
  }
  const mcMean = sum / draws;
  const standardError = Math.sqrt((sumSquares / draws - mcMean ** 2) / (draws - 1));
  close(quadrature, mcMean, 4 * standardError, 'linear payout vs Monte Carlo');
  // Bounded between the step payouts at A and at E.
  assert.ok(quadrature < gevSurvival(120, p) && quadrature > gevSurvival(160, p));
  // Same figure from ∫_A^E (1 − F(x)) dx / (E − A) by a fine midpoint rule in x.
  let integral = 0;
  const steps = 40_000;
  for (let i = 0; i < steps; i++) integral += gevSurvival(120 + (i + 0.5) * (40 / steps), p) * (40 / steps);
  close(quadrature, integral / 40, 1e-8, 'linear payout vs ∫ survival');
});

test('model selection: Gumbel unless n >= 25 and ξ differs from 0 by more than 1.96·sqrt(0.5633/n)', () => {
  const heavy = selectExtremeValueFit(gevSample({ location: 50, scale: 10, shape: 0.35 }, 200, 11));
  assert.equal(heavy.chosen.distribution, 'gev');
  assert.ok(Math.abs(heavy.z) > 1.96);
  close(heavy.shapeStandardError, Math.sqrt(0.5633 / 200), 1e-15);

  const few = selectExtremeValueFit(gevSample({ location: 50, scale: 10, shape: 0.35 }, 20, 11));
  assert.equal(few.chosen.distribution, 'gumbel');

  const gumbelData = selectExtremeValueFit(gevSample({ location: 50, scale: 10, shape: 0 }, 200, 12));
  assert.ok(Math.abs(gumbelData.z) <= 1.96, `z = ${gumbelData.z}`);
  assert.equal(gumbelData.chosen.distribution, 'gumbel');
  assert.match(gumbelData.rule, /0\.5633/);
});
