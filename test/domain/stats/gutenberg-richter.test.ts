import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  annualExceedanceRate,
  completenessByMaxCurvature,
  estimateBValue,
  fitGutenbergRichter,
  magnitudeBinIndex,
  MC_TIE_BREAK,
} from '../../../src/domain/stats/gutenberg-richter.js';
import { seededRandom } from '../../../src/domain/stats/random.js';

const close = (actual: number, expected: number, tolerance: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected} ± ${tolerance}`);

test('binning to 0.1: bins centred on tenths, halves round up, decimal inputs land in their own bin', () => {
  assert.equal(magnitudeBinIndex(2.04, 0.1), 20);
  assert.equal(magnitudeBinIndex(2.05, 0.1), 21);
  assert.equal(magnitudeBinIndex(4.35, 0.1), 44);
  assert.equal(magnitudeBinIndex(4.3, 0.1), 43);
  assert.equal(magnitudeBinIndex(0.7, 0.1), 7);
});

test('Aki–Utsu b on a hand sample: b = log10(e) / (M̄ − (Mc − ΔM/2)), with Aki and Shi–Bolt errors', () => {
  // Above Mc = 2.0: 2.0, 2.1, 2.3, 2.0, 2.6; mean 2.2; M̄ − 1.95 = 0.25 → b = 0.4342944819/0.25.
  // Shi–Bolt by hand: deviations −0.2, −0.1, 0.1, −0.2, 0.4; Σ² = 0.26; 0.26/(5·4) = 0.013;
  // σ = 2.30 · 1.7371779276² · √0.013 = 2.30 · 3.0177871 · 0.1140175 = 0.7913856.
  const estimate = estimateBValue([1.8, 1.9, 2.0, 2.1, 2.3, 2.0, 2.6], 2.0, 0.1);
  assert.equal(estimate.n, 5);
  close(estimate.meanMagnitude, 2.2, 1e-12, 'mean');
  close(estimate.b, 1.7371779276130073, 1e-12, 'b');
  close(estimate.standardErrorAki, 0.7768895870309787, 1e-12, 'Aki');
  close(estimate.standardErrorShiBolt, 0.7913855522935032, 1e-12, 'Shi–Bolt');
  assert.throws(() => estimateBValue([2.0, 1.0], 2.0), RangeError);
});

test('maximum curvature picks the most populated 0.1 bin; ties go to the larger magnitude', () => {
  assert.equal(completenessByMaxCurvature([1.8, 1.9, 1.9, 2.0, 2.0, 2.0, 2.1, 2.3, 2.6]), 2.0);
  assert.equal(completenessByMaxCurvature([2.0, 2.0, 2.1, 2.1, 2.5]), 2.1);
  assert.equal(completenessByMaxCurvature([4.46, 4.54, 4.51, 4.6]), 4.5);
});

test('the fit on a hand catalog: Mc, b, both a-values and annual rates', () => {
  const magnitudes = [1.8, 1.9, 1.9, 2.0, 2.0, 2.0, 2.1, 2.3, 2.6];
  const fit = fitGutenbergRichter(magnitudes, { years: 10 });
  // Above Mc 2.0: six events, mean 13/6 → b = 0.4342944819 / (2.1666667 − 1.95) = 2.0044361.
  assert.equal(fit.mcMaxCurvature, 2.0);
  assert.equal(fit.mc, 2.0);
  assert.equal(fit.n, 6);
  close(fit.b, 2.0044360703227015, 1e-12, 'b');
  // a over the whole span: log10 6 + b·2.0; per year: log10(6/10) + b·2.0.
  close(fit.aCount, 4.787023391029047, 1e-12, 'aCount');
  close(fit.aAnnual, 3.787023391029047, 1e-12, 'aAnnual');
  close(fit.annualRateAtMc, 0.6, 1e-15, 'λ(Mc)');
  close(annualExceedanceRate(fit, 3.0), 0.6 * 10 ** -fit.b, 1e-15, 'λ(3.0)');
  close(annualExceedanceRate(fit, 3.0), 10 ** (fit.aAnnual - fit.b * 3.0), 1e-15, 'λ from aAnnual');
});

test('a stated floor raises Mc, snapped up to the bin grid; a lower floor leaves maximum curvature', () => {
  const magnitudes = [1.8, 1.9, 1.9, 2.0, 2.0, 2.0, 2.1, 2.3, 2.3, 2.6];
  assert.equal(fitGutenbergRichter(magnitudes, { years: 1, floorMagnitude: 1.5 }).mc, 2.0);
  const floored = fitGutenbergRichter(magnitudes, { years: 1, floorMagnitude: 2.25 });
  assert.equal(floored.mc, 2.3);
  assert.equal(floored.mcMaxCurvature, 2.0);
  assert.equal(floored.floorMagnitude, 2.25);
  assert.equal(floored.n, 3);
  assert.equal(fitGutenbergRichter(magnitudes, { years: 1, floorMagnitude: 2.3 }).mc, 2.3);
});

test('synthetic catalog with b = 1 is recovered within three standard errors of b', () => {
  // Complete part: continuous M = Mc − ΔM/2 + Exp(rate b·ln10) by inverse CDF, binned to 0.1, so
  // every binned magnitude is >= Mc = 3.0. Incomplete part below Mc: a thin uniform spread on
  // [2.45, 2.95) that no bin of it can outnumber the 3.0 bin (≈ 20.6% of the complete events).
  const bTrue = 1.0;
  const mc = 3.0;
  const dM = 0.1;
  const nComplete = 20_000;
  const random = seededRandom(19650101);
  const magnitudes: number[] = [];
  for (let i = 0; i < nComplete; i++) {
    const m = mc - dM / 2 - Math.log(random.uniformOpen()) / (bTrue * Math.LN10);
    magnitudes.push(Math.round(m * 10) / 10);
  }
  for (let i = 0; i < 1000; i++) magnitudes.push(Math.round((2.45 + 0.5 * random.uniform()) * 10) / 10);

  const fit = fitGutenbergRichter(magnitudes, { years: 50 });
  assert.equal(fit.mc, 3.0);
  assert.equal(fit.n, nComplete);
  // Utsu's correction is exact only as ΔM → 0. For exactly binned exponential data the mean offset
  // above Mc is ΔM·q/(1 − q), q = 10^(−bΔM), so the estimator centres on
  // log10(e) / (ΔM·(q/(1 − q) + 1/2)) = 0.99561 for b = 1: a bias of −0.0044.
  const q = 10 ** (-bTrue * dM);
  const centre = Math.LOG10E / (dM * (q / (1 - q) + 0.5));
  close(centre, 0.995605, 1e-6, 'Utsu centre');
  // Tolerance: three standard errors b/√N (= 3 · 0.0071 = 0.021), plus that known bias against b itself.
  const threeSe = 3 * (bTrue / Math.sqrt(nComplete));
  close(fit.b, centre, threeSe, 'b against the estimator centre');
  close(fit.b, bTrue, threeSe + Math.abs(centre - bTrue), 'b against the true b');
  // For exponential magnitudes Var(M) = (log10 e / b)², so Shi–Bolt ≈ 2.30·log10(e)·b/√N = 0.9989·b/√N.
  close(fit.standardErrorShiBolt / fit.standardErrorAki, 2.3 * Math.LOG10E, 0.03, 'Shi–Bolt / Aki');
  close(fit.annualRateAtMc, nComplete / 50, 1e-9, 'λ(Mc)');
  close(annualExceedanceRate(fit, 5.0), (nComplete / 50) * 10 ** (-fit.b * 2), 1e-9, 'λ(5.0)');
});

test('refuses a non-positive span or bin width', () => {
  assert.throws(() => fitGutenbergRichter([2, 2.1, 2.2], { years: 0 }), RangeError);
  assert.throws(() => fitGutenbergRichter([2, 2.1, 2.2], { years: 1, binWidth: 0 }), RangeError);
  assert.throws(() => completenessByMaxCurvature([]), RangeError);
});

test('a tie between bins: Mc is the highest tied bin, whatever the order of the catalog', () => {
  // Hand-made: bins 4.5 and 4.7 hold three events each, 4.6 two; the tie is 4.5 vs 4.7.
  const tied = [4.5, 4.5, 4.54, 4.6, 4.6, 4.7, 4.66, 4.74, 5.0];
  const orders = [tied, [...tied].reverse(), [4.7, 4.5, 4.6, 5.0, 4.74, 4.54, 4.6, 4.66, 4.5]];
  for (const m of orders) assert.equal(completenessByMaxCurvature(m), 4.7);
  assert.match(MC_TIE_BREAK, /highest/);
});
