// Each calculation rule of the Oasis financial module (OasisLMF/OasisLMF oasislmf/pytools/fm/policy.py
// and policy_extras.py, calcrule_N; ids as its calcrule table) against values worked by hand from its
// published definition. Exact arithmetic on small numbers: equal to 1e-9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyProfile, calcruleOf, profile, type Extras } from '../../../src/domain/financial/profile.js';

const fresh = (): Extras => ({ deductible: 0, overLimit: 0, underLimit: 0 });
const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
const run = (p: Parameters<typeof profile>[0], loss: number, x: Extras = fresh()) => applyProfile(profile(p), loss, x);

test('calcrule 1, deductible and limit: min(max(x - D, 0), L)', () => {
  const p = { deductible: 100, limit: 500 };
  assert.equal(calcruleOf(profile(p)), 1);
  near(run(p, 80), 0);
  near(run(p, 400), 300);
  near(run(p, 1000), 500);
  const x = fresh();
  run(p, 1000, x);
  near(x.deductible, 100);
  near(x.overLimit, 400);
  near(x.underLimit, 0);
});

test('calcrule 12 and 14: deductible only; limit only', () => {
  assert.equal(calcruleOf(profile({ deductible: 100 })), 12);
  near(run({ deductible: 100 }, 250), 150);
  assert.equal(calcruleOf(profile({ limit: 200 })), 14);
  near(run({ limit: 200 }, 250), 200);
  near(run({ limit: 200 }, 150), 150);
});

test('calcrule 3 and 39, franchise: at or under the deductible nothing, above it the whole loss (then the limit)', () => {
  assert.equal(calcruleOf(profile({ deductible: 100, franchise: true, limit: 500 })), 3);
  assert.equal(calcruleOf(profile({ deductible: 100, franchise: true })), 39);
  near(run({ deductible: 100, franchise: true }, 100), 0);
  near(run({ deductible: 100, franchise: true }, 101), 101);
  near(run({ deductible: 100, franchise: true, limit: 500 }, 800), 500);
});

test('calcrule 16 and 33: deductible % of loss, then an amount limit', () => {
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true })), 16);
  near(run({ deductible: 0.1, deductibleOfLoss: true }, 1000), 900);
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true, limit: 500 })), 33);
  near(run({ deductible: 0.1, deductibleOfLoss: true, limit: 500 }, 1000), 500);
  near(run({ deductible: 0.1, deductibleOfLoss: true, limit: 500 }, 500), 450);
});

test('calcrule 5 and 15: limit % of loss (with a % or an amount deductible)', () => {
  // 5: D 10% and L 60% of loss: 1000 → min(900, 600) = 600.
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true, limit: 0.6, limitOfLoss: true })), 5);
  near(run({ deductible: 0.1, deductibleOfLoss: true, limit: 0.6, limitOfLoss: true }, 1000), 600);
  // 15: D 100, L 80% of loss: under D/(1 - L) = 500 it is x - D, above it x × L.
  assert.equal(calcruleOf(profile({ deductible: 100, limit: 0.8, limitOfLoss: true })), 15);
  near(run({ deductible: 100, limit: 0.8, limitOfLoss: true }, 400), 300);
  near(run({ deductible: 100, limit: 0.8, limitOfLoss: true }, 1000), 800);
});

test('calcrule 2, layer: (x - D - attachment) limited, times the share; running amounts untouched', () => {
  const p = { deductible: 50, attachment: 500, limit: 1000, share: 0.3, layer: true };
  assert.equal(calcruleOf(profile(p)), 2);
  near(run(p, 400), 0);
  near(run(p, 1050), 0.3 * 500);
  near(run(p, 5000), 0.3 * 1000);
  const x = { deductible: 7, overLimit: 8, underLimit: 9 };
  run(p, 5000, x);
  assert.deepEqual(x, { deductible: 7, overLimit: 8, underLimit: 9 });
  // 17: deductible % of loss with attachment, limit and share.
  const q = { deductible: 0.1, deductibleOfLoss: true, attachment: 100, limit: 300, share: 0.5, layer: true };
  assert.equal(calcruleOf(profile(q)), 17);
  near(run(q, 1000), 0.5 * 300); // 900 - 100 = 800 → 300
  near(run(q, 300), 0.5 * 170); // 270 - 100
  // 34: deductible, attachment and share, no limit.
  assert.equal(calcruleOf(profile({ deductible: 10, attachment: 100, share: 0.5, layer: true })), 34);
  near(run({ deductible: 10, attachment: 100, share: 0.5, layer: true }, 1000), 445);
});

test('calcrules 11 and 8, minimum deductible: raised first from the loss above sub-limits, then from the loss', () => {
  assert.equal(calcruleOf(profile({ deductible: 10, minDeductible: 100 })), 11);
  assert.equal(calcruleOf(profile({ deductible: 10, minDeductible: 100, limit: 1000 })), 8);
  // Nothing retained below: the minimum binds on the loss, 500 - 100.
  near(run({ deductible: 10, minDeductible: 100 }, 500), 400);
  // 30 retained below and 50 above sub-limits: 70 more needed, 50 from above the limits, 20 from the loss.
  const x = { deductible: 30, overLimit: 50, underLimit: 0 };
  near(run({ deductible: 10, minDeductible: 100 }, 500, x), 480);
  near(x.deductible, 100);
  near(x.overLimit, 0);
  // A loss too small to reach the minimum: all of it retained.
  near(run({ deductible: 10, minDeductible: 100 }, 60), 0);
});

test('calcrules 10 and 13, maximum deductible: loss given back up to the room under sub-limits', () => {
  assert.equal(calcruleOf(profile({ deductible: 10, maxDeductible: 100 })), 10);
  assert.equal(calcruleOf(profile({ deductible: 10, minDeductible: 20, maxDeductible: 100 })), 13);
  // 150 retained below (room under limits 150): reached 160 > 100, so 50 comes back: 400 + 50.
  const x = { deductible: 150, overLimit: 0, underLimit: 150 };
  near(run({ deductible: 10, maxDeductible: 100 }, 400, x), 450);
  near(x.deductible, 100);
  // Only 20 of room under sub-limits: 20 back, the other 30 stays above the limits.
  const y = { deductible: 150, overLimit: 0, underLimit: 20 };
  near(run({ deductible: 10, maxDeductible: 100 }, 400, y), 420);
  near(y.overLimit, 30);
  // 95 retained below: only 5 of this node's 10 applies.
  near(run({ deductible: 10, maxDeductible: 100 }, 400, { deductible: 95, overLimit: 0, underLimit: 95 }), 395);
});

test('calcrules 19, 26, 7: % of loss deductible with minimum and maximum, and with a limit', () => {
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, maxDeductible: 60 })), 19);
  near(run({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, maxDeductible: 60 }, 100), 80); // 10 → 20
  near(run({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, maxDeductible: 60 }, 400), 360); // 40 stands
  near(run({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, maxDeductible: 60 }, 1000), 940); // 100 → 60
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, limit: 500 })), 26);
  near(run({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 20, limit: 500 }, 1000), 500);
  assert.equal(calcruleOf(profile({ deductible: 10, minDeductible: 20, maxDeductible: 60, limit: 500 })), 7);
  near(run({ deductible: 10, minDeductible: 20, maxDeductible: 60, limit: 500 }, 300), 280);
});

test('calcrules 35 and 36: minimum / maximum deductible with a limit % of loss', () => {
  assert.equal(calcruleOf(profile({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 50, limit: 0.5, limitOfLoss: true })), 35);
  near(run({ deductible: 0.1, deductibleOfLoss: true, minDeductible: 50, limit: 0.5, limitOfLoss: true }, 200), 100); // 200 - 50 = 150 → 50% of 200
  assert.equal(calcruleOf(profile({ deductible: 10, maxDeductible: 60, limit: 0.9, limitOfLoss: true })), 36);
  near(run({ deductible: 10, maxDeductible: 60, limit: 0.9, limitOfLoss: true }, 1000), 900);
});

test('calcrule 100 passes through; 1xx applies a share after the rule (the account participation)', () => {
  assert.equal(calcruleOf(profile({})), 100);
  near(run({}, 123), 123);
  assert.equal(calcruleOf(profile({ deductible: 100, limit: 500, share: 0.5 })), 101);
  near(run({ deductible: 100, limit: 500, share: 0.5 }, 1000), 250);
  assert.equal(calcruleOf(profile({ share: 0.5 })), 200);
});
