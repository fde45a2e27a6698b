import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../../src/kernel/result.js';
import { applyTerms, conserved, readTerms, partsTotal, termsSpec } from '../../../src/domain/lab/engine/financial.js';

// Terms known to be valid, read with their defaults; a fault throws the refusal's carrier.
const normalizeTerms = (terms: unknown) => unwrap(readTerms(terms));
import type { TermsBreakdown } from '../../../src/domain/lab/engine/loss-engine.js';
import { ApiError } from '../../../src/kernel/refusal.js';

// Hand-built event: three places with ground-up losses 50, 300 and 1,200 (total 1,550).
const PLACES = [50, 300, 1200];

function addsUp(b: TermsBreakdown): void {
  assert.ok(Math.abs(partsTotal(b) - b.ground_up) < 1e-9, `parts ${partsTotal(b)} vs ${b.ground_up}`);
}

const ZERO = { place_deductible: 0, place_above_limit: 0, account_deductible: 0, account_above_limit: 0, ceded_quota_share: 0 };

test('no terms: everything is insured and net', () => {
  const b = unwrap(applyTerms(PLACES, normalizeTerms({})));
  assert.deepEqual(b, { ground_up: 1550, ...ZERO, insured: 1550, layers: [], net: 1550 });
});

test('place deductible alone: min(loss, deductible) retained per place', () => {
  const b = unwrap(applyTerms(PLACES, normalizeTerms({ policy: { place_deductible: 100 } })));
  // retained 50 + 100 + 100 = 250; insured 0 + 200 + 1,100 = 1,300
  assert.deepEqual(b, { ground_up: 1550, ...ZERO, place_deductible: 250, insured: 1300, layers: [], net: 1300 });
  addsUp(b);
});

test('place limit alone: each place capped', () => {
  const b = unwrap(applyTerms(PLACES, normalizeTerms({ policy: { place_limit: 250 } })));
  // 50 + 250 + 250 = 550 insured; above 50 + 950 = 1,000
  assert.deepEqual(b, { ground_up: 1550, ...ZERO, place_above_limit: 1000, insured: 550, layers: [], net: 550 });
  addsUp(b);
});

test('account deductible and account limit alone act on the sum of places', () => {
  const d = unwrap(applyTerms(PLACES, normalizeTerms({ policy: { account_deductible: 600 } })));
  assert.deepEqual(d, { ground_up: 1550, ...ZERO, account_deductible: 600, insured: 950, layers: [], net: 950 });
  const l = unwrap(applyTerms(PLACES, normalizeTerms({ policy: { account_limit: 1000 } })));
  assert.deepEqual(l, { ground_up: 1550, ...ZERO, account_above_limit: 550, insured: 1000, layers: [], net: 1000 });
  const big = unwrap(applyTerms(PLACES, normalizeTerms({ policy: { account_deductible: 5000 } })));
  assert.equal(big.account_deductible, 1550);
  assert.equal(big.insured, 0);
  for (const b of [d, l, big]) addsUp(b);
});

test('quota share alone cedes its share of the insured loss', () => {
  const b = unwrap(applyTerms(PLACES, normalizeTerms({ reinsurance: { quota_share: { ceded_share: 0.3 } } })));
  assert.equal(b.ceded_quota_share, 465);
  assert.equal(b.net, 1085);
  addsUp(b);
});

test('layers alone: min(limit, max(0, loss - attachment)), stacked from the lowest', () => {
  const b = unwrap(applyTerms(PLACES, normalizeTerms({ reinsurance: { layers: [{ attachment: 500, limit: 500 }, { attachment: 1000, limit: 400 }, { attachment: 1500, limit: 1000 }] } })));
  // 1,550 retained: layer 1 recovers 500 (500 xs 500), layer 2 400 (exhausted), layer 3 50.
  assert.deepEqual(b.layers, [500, 400, 50]);
  assert.equal(b.net, 600);
  addsUp(b);
  // A gap between layers stays net: 200 xs 100 and 300 xs 1,000 on 1,550 → 200 + 300.
  const gap = unwrap(applyTerms(PLACES, normalizeTerms({ reinsurance: { layers: [{ attachment: 100, limit: 200 }, { attachment: 1000, limit: 300 }] } })));
  assert.deepEqual(gap.layers, [200, 300]);
  assert.equal(gap.net, 1050);
  addsUp(gap);
  // Below the attachment nothing is recovered.
  const low = unwrap(applyTerms([10], normalizeTerms({ reinsurance: { layers: [{ attachment: 100, limit: 200 }] } })));
  assert.deepEqual(low.layers, [0]);
  assert.equal(low.net, 10);
});

test('all terms stacked, in the stated order, conserve the ground-up loss', () => {
  const t = normalizeTerms({
    policy: { place_deductible: 100, place_limit: 800, account_deductible: 200, account_limit: 900 },
    reinsurance: { quota_share: { ceded_share: 0.2 }, layers: [{ attachment: 100, limit: 300 }, { attachment: 400, limit: 500 }] },
  });
  const b = unwrap(applyTerms(PLACES, t));
  // Places: 50 → ded 50, insured 0; 300 → ded 100, 200; 1,200 → ded 100, 1,100 → limit 800, above 300.
  // Account: 1,000 → ded 200 → 800 (below the 900 limit). Quota share 160 → retained 640.
  // Layers on 640: 300 xs 100 → 300; 500 xs 400 → 240. Net 100.
  assert.deepEqual(b, {
    ground_up: 1550, place_deductible: 250, place_above_limit: 300, account_deductible: 200, account_above_limit: 0,
    insured: 800, ceded_quota_share: 160, layers: [300, 240], net: 100,
  });
  addsUp(b);
  // Conservation at every event of a hand-built table of events.
  const events = [[0], [0, 0, 0], [99.5, 100.5], [10_000, 20_000, 30_000], [1e-7, 5e8], [450, 450, 450]];
  for (const places of events) addsUp(unwrap(applyTerms(places, t)));
});

test('terms are validated and every fault is named', () => {
  assert.throws(() => normalizeTerms({ policy: { place_deductible: -1 } }), ApiError);
  try {
    normalizeTerms({
      policy: { place_limit: 'x', retention: 5 },
      reinsurance: { quota_share: { ceded_share: 1.5 }, layers: [{ attachment: 0, limit: 10 }, { attachment: 5, limit: 10 }, { attachment: 20, limit: 1 }, { attachment: 30, limit: 1 }] },
    });
    assert.fail('expected a refusal');
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 'invalid_request');
    const d = e.details!.join('\n');
    assert.match(d, /place_limit must be a non-negative finite number/);
    assert.match(d, /unknown member "retention"/);
    assert.match(d, /ceded_share must be a number from 0 to 1/);
    assert.match(d, /holds 4 layers; at most 3/);
    assert.match(d, /layers\[1\] must attach at or above 10/);
  }
  assert.equal(normalizeTerms({ policy: { account_limit: 5 } }).nonlinearAcrossPlaces, true);
  assert.equal(normalizeTerms({ policy: { place_limit: 5 }, reinsurance: { quota_share: { ceded_share: 0.5 } } }).nonlinearAcrossPlaces, false);
});

test('the spec form of terms reads back to the same terms (what a run stores is what the lane accepts)', () => {
  const cases = [
    {},
    { policy: { place_limit: 250 } },
    { policy: { account_deductible: 10, account_limit: 900 }, reinsurance: { quota_share: { ceded_share: 0.3 } } },
    { reinsurance: { layers: [{ attachment: 0, limit: 100 }, { attachment: 100, limit: 50 }, { attachment: 400, limit: 1 }] } },
  ];
  for (const terms of cases) {
    const t = normalizeTerms(terms);
    const stored = JSON.parse(JSON.stringify(termsSpec(t)));
    assert.deepEqual(normalizeTerms(stored), t, JSON.stringify(terms));
    assert.deepEqual(termsSpec(normalizeTerms(stored)), stored);
  }
});

test('a breakdown whose parts do not add up, or a loss that is not one, is refused with loss_not_conserved', () => {
  // Hand-made data built here: a breakdown whose net is 1 short of what its parts leave.
  const short: TermsBreakdown = { ground_up: 1000, place_deductible: 100, place_above_limit: 0, account_deductible: 0, account_above_limit: 0, insured: 900, ceded_quota_share: 0, layers: [], net: 899 };
  const refusedShort = conserved(short);
  assert.equal(refusedShort.ok, false);
  if (!refusedShort.ok) assert.equal(refusedShort.refusal.code, 'loss_not_conserved');
  assert.equal(conserved({ ...short, net: 900 }).ok, true);
  const negative = applyTerms([50, -1], normalizeTerms({}));
  assert.equal(negative.ok, false);
  if (!negative.ok) assert.deepEqual([negative.refusal.status, negative.refusal.code], [500, 'loss_not_conserved']);
});
