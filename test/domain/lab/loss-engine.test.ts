// The loss engine's interface: each kernel behind it answers as the function it wraps, the event
// loss table adds up events and places as the lanes read them, and the financial module conserves
// the loss or refuses. Every figure below is hand-made in this file, not model data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventLossTable, itemGroundUp } from '../../../src/domain/lab/engine/loss-engine.js';
import { MEAN_DAMAGE, computeImpact, type Hazard } from '../../../src/domain/lab/engine/impact.js';
import { FINANCIAL_MODULE, readTerms } from '../../../src/domain/lab/engine/financial.js';
import { unwrap } from '../../../src/kernel/result.js';

// Terms known to be valid, read with their defaults; a fault throws the refusal's carrier.
const normalizeTerms = (terms: unknown) => unwrap(readTerms(terms));
import { SAMPLED_DAMAGE, runGroundUp } from '../../../src/domain/lab/engine/ground-up.js';
import { parsePiwindModel } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { keyLocations } from '../../../src/domain/lab/lanes/windstorm-piwind/lookup.js';
import { TINY_TEXTS, TINY_LOCATIONS } from './tiny-model.js';

test('an item\'s ground up is its value times its vulnerability at the intensity', () => {
  assert.equal(itemGroundUp(1000, (i) => i / 100, 25), 250);
  assert.equal(itemGroundUp(0, () => 0.5, 10), 0);
});

test('the event loss table lists the events with a loss, their occurrences, and each place\'s sum', () => {
  const table = new EventLossTable(3);
  // Event 1 reaches items 0 and 2; event 2 reaches item 1 with no loss; event 3 reaches items 2 and 1.
  assert.equal(table.record(1, 4, Int32Array.of(0, 2), Float64Array.of(10, 5), 2), 15);
  assert.equal(table.record(2, 4, Int32Array.of(1), Float64Array.of(0), 1), 0);
  assert.equal(table.record(3, 7, Int32Array.of(2, 1, 0), Float64Array.of(1, 2, 99), 2), 3);
  assert.deepEqual(table.eventLosses, [{ event_id: 1, loss: 15 }, { event_id: 3, loss: 3 }]);
  assert.deepEqual(table.occurrences, [{ event_id: 1, period: 4 }, { event_id: 3, period: 7 }]);
  assert.deepEqual(table.places((i) => 100 + i), [{ index: 100, loss: 10 }, { index: 101, loss: 2 }, { index: 102, loss: 6 }]);
});

test('the kernels behind the interface answer as the functions they wrap', () => {
  const hazard: Hazard = { event_ids: [1, 2], frequency: [0.5, 0.25], centroidCount: 2, intensity: { kind: 'dense', values: [10, 0, 30, 20] } };
  const exposures = { points: [{ value: 100, centroid: 0, impf_id: 1 }, { value: 50, centroid: 1, impf_id: 1 }] };
  const functions = [{ id: 1, intensity: [0, 40], mdd: [0, 1], paa: [1, 1] }];
  assert.deepEqual(MEAN_DAMAGE.groundUp({ hazard, exposures, functions }), computeImpact(hazard, exposures, functions));
  const model = parsePiwindModel(TINY_TEXTS, { periods: 4 });
  const portfolio = keyLocations(model, TINY_LOCATIONS);
  const options = { samples: 10, seed: 3 };
  assert.deepEqual(SAMPLED_DAMAGE.groundUp({ model, portfolio, options }), runGroundUp(model, portfolio, options));
  assert.match(SAMPLED_DAMAGE.method, /gulcalc/);
  assert.match(MEAN_DAMAGE.method, /MDD/);
});

test('the financial module reads terms naming every fault, and applies them conserving the loss', () => {
  const read = FINANCIAL_MODULE.read({ policy: { place_deductible: -1, account_limit: 'x' } });
  assert.equal(read.ok, false);
  if (!read.ok) assert.equal(read.refusal.details?.length, 2);
  const applied = FINANCIAL_MODULE.apply([100, 300], normalizeTerms({ policy: { place_deductible: 50 }, reinsurance: { quota_share: { ceded_share: 0.5 } } }));
  assert.ok(applied.ok);
  if (applied.ok) assert.deepEqual([applied.value.insured, applied.value.ceded_quota_share, applied.value.net], [300, 150, 150]);
  const broken = FINANCIAL_MODULE.apply([100, Number.NaN], normalizeTerms({}));
  assert.equal(broken.ok, false);
  if (!broken.ok) assert.equal(broken.refusal.code, 'loss_not_conserved');
});
