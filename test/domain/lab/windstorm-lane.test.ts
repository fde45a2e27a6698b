import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parsePiwindModel } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm as windstormResult, WINDSTORM_LABEL } from '../../../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { unwrap as unwrapResult } from '../../../src/kernel/result.js';

// The lane's Result, its refusal thrown as the carrier, as these tests read it.
const runWindstorm = (...args: Parameters<typeof windstormResult>) => unwrapResult(windstormResult(...args));
import { ApiError } from '../../../src/kernel/refusal.js';

/** A refusal of the spec naming a fault that matches. */
const namesFault = (fault: RegExp) => (e: unknown) => e instanceof ApiError && e.code === 'invalid_request' && (e.details ?? []).some((d) => fault.test(d));
import { metricsSchema } from '../../../src/domain/lab/engine/metrics.js';
import { TINY_TEXTS, TINY_LOCATIONS, TINY_UNMODELED, TINY_AAL } from './tiny-model.js';

const model = parsePiwindModel(TINY_TEXTS, { periods: 4 });
const modelData = { feed_id: 'oasis-piwind', version: 'tiny', sha256: 'abc' };
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(metricsSchema);
const cents = (x: number) => Math.round(x * 100) / 100;

test('a schedule with no point inside succeeds with every point unmodeled and no loss figure', () => {
  const r = runWindstorm(model, {
    samples: 10,
    exposure: { points: [{ lat: 51.5, lon: -0.12, value: 1e6 }, { lat: 52.76, lon: -0.95, value: 5 }] },
    terms: { policy: { place_deductible: 10 } },
  }, { modelData });
  assert.equal(r.metrics, null);
  assert.equal(r.mean_damage, null);
  assert.equal(r.perspectives, null);
  assert.equal(r.terms_summary, null);
  assert.equal(r.exposure.modeled, 0);
  assert.deepEqual(r.unmodeled, {
    count: 2,
    places: [{ index: 0, reason: 'outside_demonstration_footprint' }, { index: 1, reason: 'outside_demonstration_footprint' }],
    reasons: { outside_demonstration_footprint: r.unmodeled.reasons.outside_demonstration_footprint! },
  });
  assert.match(r.no_loss_figure!, /no loss figure/);
  assert.equal(r.model.label, WINDSTORM_LABEL);
  assert.deepEqual({ feed_id: r.model_data.feed_id, version: r.model_data.version, sha256: r.model_data.sha256 }, modelData);
});

test('bare points: buildings value, residential occupancy, wind with storm surge', () => {
  const r = runWindstorm(model, { samples: 0, exposure: { points: [{ lat: 52.745, lon: -0.905, value: 100_000 }] } }, { modelData });
  // Cell 1 and the surge cell, buildings only: event 1 min(1, .274 + .88) → 100,000 twice; event 3
  // .52 → 52,000 never occurs. AAL = 200,000 / 4.
  assert.equal(cents(r.metrics!.average_annual_loss.mean), 50_000);
  assert.deepEqual(r.exposure.items_by_peril_coverage, [
    { peril: 'WTC', coverage_type: 1, items: 1, value: 100_000 },
    { peril: 'WSS', coverage_type: 1, items: 1, value: 100_000 },
  ]);
});

test('locations: the ground-up metrics and the analytical mean, schema-valid', () => {
  const r = runWindstorm(model, { samples: 0, exposure: { locations: TINY_LOCATIONS } }, { modelData });
  assert.deepEqual(r.unmodeled.places, TINY_UNMODELED);
  assert.equal(cents(r.metrics!.average_annual_loss.mean), TINY_AAL);
  assert.equal(cents(r.mean_damage!.aal), TINY_AAL);
  assert.equal(r.run.seed, null);
  assert.ok(validate(r.metrics), JSON.stringify(validate.errors));
  assert.deepEqual(r.metrics!.places.map((p) => [p.index, cents(p.aal)]), [[0, 73_500], [1, 57_500], [2, 1_370]]);
  const sens = r.metrics!.sensitivity!;
  assert.deepEqual(sens.variants.map((v) => v.factor), [0.9, 1.1]);
  assert.ok(sens.variants[0]!.average_annual_loss.mean < TINY_AAL && sens.variants[1]!.average_annual_loss.mean > TINY_AAL);
  assert.equal(sens.base_aal, r.metrics!.average_annual_loss.mean);
  assert.ok(r.perspectives === undefined && r.terms_summary === undefined);
});

test('with terms: insured and net perspectives, and where the ground-up average went', () => {
  const terms = {
    policy: { place_deductible: 5_000, place_limit: 120_000, account_deductible: 10_000, account_limit: 200_000 },
    reinsurance: { quota_share: { ceded_share: 0.1 }, layers: [{ attachment: 20_000, limit: 50_000 }, { attachment: 70_000, limit: 100_000 }] },
  };
  for (const samples of [0, 25]) {
    const r = runWindstorm(model, { samples, exposure: { locations: TINY_LOCATIONS }, terms }, { modelData, seed: 99 });
    const s = r.terms_summary!;
    const parts = s.retained_by_deductibles.total + s.above_limits.total + s.ceded.total + s.net;
    assert.ok(Math.abs(parts - s.ground_up) < 1e-6, `samples ${samples}`);
    assert.ok(Math.abs(s.ground_up - r.metrics!.average_annual_loss.mean) < 1e-6);
    assert.ok(Math.abs(s.insured - r.perspectives!.il.average_annual_loss.mean) < 1e-6);
    assert.ok(Math.abs(s.net - r.perspectives!.ri.average_annual_loss.mean) < 1e-6);
    assert.ok(s.conservation.max_relative_gap < 1e-12 && s.conservation.checks > 0);
    assert.ok(validate(r.perspectives!.il) && validate(r.perspectives!.ri));
    assert.equal(r.perspectives!.il.perspective, 'insured');
    assert.equal(r.perspectives!.ri.perspective, 'net');
    // Places' shares of the net view add up to the net AAL.
    assert.ok(Math.abs(r.perspectives!.ri.places.reduce((a, p) => a + p.aal, 0) - s.net) < 1e-6);
  }
  // With samples 0, by hand (event 1; places A 147,000, B 104,000, C 2,740):
  //   place deductibles 5,000, 5,000 and 2,740 (all of C) → 12,740; limits: A 142,000 → 120,000 (22,000 above);
  //   B 99,000; C 0 → sum 219,000; account deductible 10,000 → 209,000 → limit 200,000 (9,000 above);
  //   quota share 20,000 → 180,000 retained; layers 50,000 and 100,000 (110,000 xs 70,000 capped); net 30,000.
  // Event 2: B 22,000 → 17,000 → account 7,000 → QS 700 → 6,300 (below both layers): net 6,300.
  // Event 1 occurs twice, event 2 once: net AAL = (2·30,000 + 6,300)/4 = 16,575.
  const r0 = runWindstorm(model, { samples: 0, exposure: { locations: TINY_LOCATIONS }, terms }, { modelData });
  assert.equal(cents(r0.terms_summary!.net), 16_575);
  assert.deepEqual(r0.terms_summary!.ceded.layers.map((l) => cents(l.aal)), [25_000, 50_000]);
  assert.equal(cents(r0.terms_summary!.ceded.quota_share), cents((2 * 20_000 + 700) / 4));
  assert.equal(cents(r0.terms_summary!.above_limits.place), 11_000);
  assert.equal(cents(r0.terms_summary!.above_limits.account), 4_500);
  assert.equal(cents(r0.terms_summary!.retained_by_deductibles.place), cents((2 * 12_740 + 5_000) / 4));
  assert.equal(cents(r0.terms_summary!.retained_by_deductibles.account), cents((2 * 10_000 + 10_000) / 4));
});

test('the spec is validated and every fault named', () => {
  assert.throws(() => runWindstorm(model, { samples: -1, exposure: { points: [] } }, { modelData }), ApiError);
  try {
    runWindstorm(model, {
      samples: 1.5,
      exposure: { points: [{ lat: 100, lon: 0, value: -3 }] },
      terms: { reinsurance: { layers: [{ attachment: 1 }] } },
    }, { modelData });
    assert.fail('expected a refusal');
  } catch (e) {
    assert.ok(e instanceof ApiError);
    const d = e.details!.join('\n');
    assert.match(d, /samples must be an integer/);
    assert.match(d, /points\[0\]\.lat must be a latitude/);
    assert.match(d, /points\[0\]\.value must be a non-negative number/);
    assert.match(d, /layers\[0\]\.limit is required/);
  }
  assert.throws(() => runWindstorm(model, { samples: 0, exposure: { points: [], locations: [] } }, { modelData }), namesFault(/exactly one of points and locations/));
  assert.throws(() => runWindstorm(model, { samples: 0, exposure: { points: [] }, terms: {} }, { modelData, revision: 'r2' }), namesFault(/terms need model revision r3/));
});

test('model data whose losses fail a conservation check fails the run with loss_not_conserved, not a bare error', () => {
  // Hand-made data built here: the tiny model with every damage bin's upper edge made NaN, which
  // the parser never admits, so the sampled losses are not numbers and the terms cannot conserve them.
  const broken = { ...model, damageBins: { ...model.damageBins, to: new Float64Array(model.damageBins.count).fill(Number.NaN) } };
  const spec = { samples: 10, exposure: { locations: TINY_LOCATIONS }, terms: { policy: { place_deductible: 100 } } };
  assert.throws(() => runWindstorm(broken, spec, { modelData }), (e: unknown) => e instanceof ApiError && e.code === 'loss_not_conserved' && e.status === 500);
  assert.doesNotThrow(() => runWindstorm(model, spec, { modelData }));
});
