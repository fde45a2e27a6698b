// Damage correlation groups: which items of a location share random numbers when damage is sampled.
// The figures are worked by hand on the tiny model (tiny-model.ts) given PiWind's peril correlation
// groups (storm surge 1, wind 2) in its model settings, written here for the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEEDS_DIR } from '../../support/feeds.js';
import { parsePiwindModel } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm as windstormResult } from '../../../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { unwrap as unwrapResult } from '../../../src/kernel/result.js';

// The lane's Result, its refusal thrown as the carrier, as these tests read it.
const runWindstorm = (...args: Parameters<typeof windstormResult>) => unwrapResult(windstormResult(...args));
import { ApiError } from '../../../src/kernel/refusal.js';
import { keyLocations } from '../../../src/domain/lab/lanes/windstorm-piwind/lookup.js';
import { itemDamageGroups, perilCorrelationGroups } from '../../../src/domain/lab/engine/correlation.js';
import { TINY_TEXTS } from './tiny-model.js';

const grouped = parsePiwindModel({
  ...TINY_TEXTS,
  'model_settings.json': JSON.stringify({
    model_default_samples: 10,
    lookup_settings: { supported_perils: [{ id: 'WSS', peril_correlation_group: 1 }, { id: 'WTC', peril_correlation_group: 2 }, { id: 'WW1' }] },
  }),
}, { periods: 4 });
const modelData = { feed_id: 'oasis-piwind', version: 'tiny', sha256: 'abc' };

// N copies of place A (cell 1 and the surge cell), buildings only: two items on one coverage, so
// allocation rule 1 caps their sum at the buildings value on every sample.
const N = 20;
const TIV = 100_000;
const places = Array.from({ length: N }, (_, i) => ({ ref: `A${i}`, latitude: 52.745, longitude: -0.905, perils_covered: 'WW1', occupancy_code: 1050, buildings_value: TIV, contents_value: 0 }));

// Event 1, place A buildings. Wind X (effective distribution over cell 1): 0 w.p. .30, U[0,.2] w.p. .26,
// U[.2,.6] w.p. .32, 1 w.p. .12. Surge Y: U[.2,.6] w.p. .2, 1 w.p. .8. Expected capped damage E[min(1, X+Y)]:
//   one shared uniform u (perils fully correlated): u < .2 gives X = 0, Y = .2 + 2u (mean .4); u >= .2
//   gives Y = 1.  → .2 × .4 + .8 = .88
//   independent: Y = 1 → 1 (.8); Y ~ U[.2,.6] (.2): X = 0 → .4; X ~ U[0,.2] → .5; X ~ U[.2,.6] → the
//   sum is triangular on [.4, 1.2], E[min(1, S)] = .8 - ∫_0^.2 t(.2 - t)/.16 dt = .8 - 1/120; X = 1 → 1.
//   → .8 + .2 × (.3 × .4 + .26 × .5 + .32 × (.8 - 1/120) + .12) = .924666…
const CORRELATED = 0.88 * TIV;
const INDEPENDENT = (0.8 + 0.2 * (0.3 * 0.4 + 0.26 * 0.5 + 0.32 * (0.8 - 1 / 120) + 0.12)) * TIV;
const SAMPLES = 1000;
// Each place-sample loss lies in [0, TIV] (sd at most TIV/2); places draw independently and a place's
// sample mean has variance at most that of independent draws: 4 standard deviations of the mean of
// N × SAMPLES draws.
const TOLERANCE = (4 * (TIV / 2)) / Math.sqrt(N * SAMPLES);

function event1PerPlace(correlation: unknown, seed = 7): number {
  const r = runWindstorm(grouped, { samples: SAMPLES, exposure: { locations: places }, correlation }, { modelData, seed });
  return r.metrics!.elt.find((e) => e.event_id === 1)!.loss / N;
}

test('default damage groups are location × peril correlation group: wind and surge sampled independently', () => {
  assert.ok(INDEPENDENT - CORRELATED > 2 * TOLERANCE, 'the test can tell the rules apart');
  const byDefault = event1PerPlace(undefined);
  assert.ok(Math.abs(byDefault - INDEPENDENT) <= TOLERANCE, `${byDefault} vs ${INDEPENDENT} ± ${TOLERANCE}`);
  assert.equal(event1PerPlace({ damage_group: 'location_peril_group' }), byDefault);
  const item = event1PerPlace({ damage_group: 'item' });
  assert.ok(Math.abs(item - INDEPENDENT) <= TOLERANCE, `item: ${item} vs ${INDEPENDENT}`);
  const location = event1PerPlace({ damage_group: 'location' });
  assert.ok(Math.abs(location - CORRELATED) <= TOLERANCE, `location: ${location} vs ${CORRELATED} ± ${TOLERANCE}`);
});

test('the rule is stated in the result; samples 0 (the analytical mean) does not depend on it', () => {
  const sampled = runWindstorm(grouped, { samples: 10, exposure: { locations: places } }, { modelData });
  assert.deepEqual(sampled.run.correlation, { damage_group: 'location_peril_group' });
  assert.ok(sampled.assumptions.some((a) => /location_peril_group/.test(a) && /WTC 2/.test(a) && /WSS 1/.test(a)), sampled.assumptions.join('\n'));
  const mean = (damage_group: string) => runWindstorm(grouped, { samples: 0, exposure: { locations: places }, correlation: { damage_group } }, { modelData });
  const a = mean('location_peril_group');
  for (const rule of ['location', 'item']) {
    const b = mean(rule);
    assert.deepEqual(b.metrics, a.metrics);
    assert.deepEqual(b.mean_damage, a.mean_damage);
    assert.match(b.assumptions.join('\n'), new RegExp(`damage_group ${rule}\\)`));
  }
  // A model whose settings give no peril group keeps every peril in one group (group 0).
  const plain = parsePiwindModel(TINY_TEXTS, { periods: 4 });
  const keyed = keyLocations(plain, places.slice(0, 1));
  assert.deepEqual(Array.from(itemDamageGroups(plain, keyed, 'location_peril_group')), [0, 0]);
  assert.deepEqual(Array.from(itemDamageGroups(plain, keyed, 'item')), [0, 1]);
});

test('correlation faults are named; the spec refuses unknown rules and members', () => {
  for (const [correlation, fault] of [
    [{ damage_group: 'portfolio' }, /damage_group must be one of location_peril_group, location, item/],
    [{ damage_group: 'location', hazard_group: 'x' }, /unknown member "hazard_group"/],
    ['location', /correlation must be an object/],
  ] as const) {
    assert.throws(() => runWindstorm(grouped, { samples: 1, exposure: { locations: places }, correlation }, { modelData }),
      (e: unknown) => e instanceof ApiError && (e.details ?? []).some((d) => fault.test(d)));
  }
});

test('PiWind\'s pinned model settings put wind and storm surge in different groups', () => {
  const dir = path.join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
  const settings = JSON.parse(readFileSync(path.join(dir, 'model_settings.json'), 'utf8'));
  const expected = new Map<string, number>();
  for (const p of settings.lookup_settings.supported_perils) expected.set(p.id, p.peril_correlation_group ?? 0);
  const texts: Record<string, string> = {};
  for (const f of ['events_p.csv', 'occurrence_lt.csv', 'footprint.csv', 'vulnerability.csv', 'damage_bin_dict.csv', 'intensity_bin_dict.csv',
    'areaperil_dict.csv', 'vulnerability_dict.csv', 'lookup_config.json', 'model_settings.json']) texts[f] = readFileSync(path.join(dir, f), 'utf8');
  const real = parsePiwindModel(texts, { occurrenceBin: readFileSync(path.join(dir, 'occurrence_lt.bin')) });
  assert.deepEqual(perilCorrelationGroups(real), expected);
  assert.notEqual(expected.get('WTC'), expected.get('WSS'));
  // A WW1 place with buildings and contents: four items, wind items in one group, surge in the other.
  const keyed = keyLocations(real, [{ latitude: 52.76, longitude: -0.89, perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 1, contents_value: 1 }]);
  const perils = Array.from(keyed.itemPeril, (p) => keyed.perils[p]);
  const groups = Array.from(itemDamageGroups(real, keyed, 'location_peril_group'));
  for (let i = 0; i < perils.length; i++) for (let j = 0; j < perils.length; j++) assert.equal(groups[i] === groups[j], perils[i] === perils[j]);
});

test('with independent groups the ground-up figures do not depend on the terms (the random streams never do)', () => {
  const mixed = [
    ...places.slice(0, 3),
    { ref: 'B', latitude: 52.745, longitude: -0.895, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 200_000, contents_value: 0 },
    { ref: 'A+', latitude: 52.745, longitude: -0.905, perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 100_000, contents_value: 50_000 },
  ];
  for (const damage_group of ['location_peril_group', 'location', 'item']) {
    const plain = runWindstorm(grouped, { samples: 50, exposure: { locations: mixed }, correlation: { damage_group } }, { modelData });
    const withTerms = runWindstorm(grouped, {
      samples: 50, exposure: { locations: mixed }, correlation: { damage_group },
      terms: { policy: { place_deductible: 1_000, account_deductible: 5_000 }, reinsurance: { layers: [{ attachment: 10_000, limit: 50_000 }] } },
    }, { modelData });
    for (const e of plain.metrics!.elt) {
      const other = withTerms.metrics!.elt.find((x) => x.event_id === e.event_id)!;
      assert.ok(Math.abs(other.loss - e.loss) <= 1e-9 * e.loss, `${damage_group} event ${e.event_id}: ${other.loss} vs ${e.loss}`);
    }
  }
});
