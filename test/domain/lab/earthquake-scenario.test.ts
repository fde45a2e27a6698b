// The scenario earthquake lane over the pinned GEM vulnerability functions (read through the feed
// store): its spec reader's refusals, a loss case worked by hand, determinism, the 200 km reach, and
// the fields' medians against an independent call of the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { structuralVulnerability } from '../../../src/feeds/readers.js';
import { FEEDS_DIR } from '../../support/feeds.js';
import { meanLossRatio, VULNERABILITY_CURVES, type VulnerabilityFunction } from '../../../src/domain/lab/lanes/earthquake/vulnerability.js';
import { readScenarioSpec, ruptureOf, runScenarioQuake, type ScenarioPlace, type ScenarioSpec } from '../../../src/domain/lab/lanes/earthquake/scenario-lane.js';
import { ask14 } from '../../../src/domain/hazard/gmpe/ask14.js';
import { bssa14 } from '../../../src/domain/hazard/gmpe/bssa14.js';
import { cb14 } from '../../../src/domain/hazard/gmpe/cb14.js';
import { cy14 } from '../../../src/domain/hazard/gmpe/cy14.js';
import { bcHydro2016 } from '../../../src/domain/hazard/gmpe/bchydro16.js';
import { distancesTo } from '../../../src/domain/hazard/gmpe/rupture.js';

const FEED = 'gem-vulnerability-europe';
let functions: Promise<ReadonlyMap<string, VulnerabilityFunction>> | undefined;
function pinnedFunctions() {
  functions ??= (async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: [FEED] });
    return structuralVulnerability(store, store.get(FEED)!);
  })();
  return functions;
}
const data = { feed_id: FEED, version: 'pinned' };

test('the pinned structural functions: 699, 50 levels each, the five curves present', async () => {
  const fns = await pinnedFunctions();
  assert.equal(fns.size, 699);
  for (const f of fns.values()) assert.ok(f.imls.length === 50 && f.mean_lr.length === 50 && f.cov_lr.length === 50);
  for (const c of VULNERABILITY_CURVES) assert.ok(fns.has(c.function_id), `${c.function_id} is pinned`);
  assert.deepEqual(fns.get('CR/LFINF+CDM+DUM/H4/RES')!.imt, { kind: 'SA', period: 0.6 });
});

test('loss by curve, a hand-computed case: three places at fixed ground motion on one hand-made curve', () => {
  // Hand-made curve (not pinned data): levels 0.1, 0.2, 0.4 g with mean loss ratios 0.01, 0.05, 0.25.
  const curve: VulnerabilityFunction = { id: 'hand', imt: { kind: 'PGA' }, imls: [0.1, 0.2, 0.4], mean_lr: [0.01, 0.05, 0.25], cov_lr: [0, 0, 0] };
  // 0.05 g is below the first level: 0. 0.15 g: 0.01 + 0.5 x 0.04 = 0.03. 0.3 g: 0.05 + 0.5 x 0.20 = 0.15. 1 g: held at 0.25.
  const places = [{ v: 1000, im: 0.05 }, { v: 2000, im: 0.15 }, { v: 500, im: 0.3 }, { v: 100, im: 1 }];
  const losses = places.map((p) => p.v * meanLossRatio(curve, p.im));
  assert.deepEqual(losses.map((x) => Math.round(x * 1e9) / 1e9), [0, 60, 75, 25]);
  assert.equal(Math.round(losses.reduce((a, b) => a + b) * 1e9) / 1e9, 160);
});

const spec = (over: Record<string, unknown> = {}) => ({
  model: 'openquake-scenario-eq',
  rupture: { magnitude: 6.7, lat: 34.213, lon: -118.537, depth_km: 17.5, strike: 122, dip: 40, rake: 101 },
  exposure: { points: [{ lat: 34.05, lon: -118.25, value: 1_000_000 }, { lat: 34.2, lon: -118.5, value: 2_000_000, vs30: 300 }, { lat: 37.8, lon: -122.4, value: 5_000_000 }] },
  ...over,
});

test('the spec: defaults filled in, and every fault named at once (422 invalid_request)', () => {
  const read = readScenarioSpec(spec());
  assert.ok(read.ok);
  assert.equal(read.value.vulnerability, 'rc_frame_mid_rise_moderate_code');
  assert.equal(read.value.rupture.mechanism, 'reverse');
  const byMechanism = readScenarioSpec(spec({ rupture: { magnitude: 6, lat: 0, lon: 0, depth_km: 10, mechanism: 'normal' } }));
  assert.ok(byMechanism.ok && byMechanism.value.rupture.rake === -90 && byMechanism.value.rupture.dip === 50);
  const bad = readScenarioSpec(spec({ rupture: { magnitude: 9.9, lat: 0, lon: 0, depth_km: 250, rake: 0, mechanism: 'reverse', colour: 1 }, vulnerability: 'brick', extra: 1 }));
  assert.ok(!bad.ok);
  assert.equal(bad.refusal.status, 422);
  assert.equal(bad.refusal.code, 'invalid_request');
  const details = bad.refusal.details as string[];
  for (const word of ['extra', 'rupture.colour', 'rupture.magnitude', 'rupture.depth_km', 'rupture.rake 0 is strike-slip', 'vulnerability must be one of']) {
    assert.ok(details.some((d) => d.includes(word)), `a fault names ${word}: ${details.join(' | ')}`);
  }
  const badPoint = readScenarioSpec(spec({ exposure: { points: [{ lat: 0, lon: 0, value: -1, vs30: 20 }] } }));
  assert.ok(!badPoint.ok && (badPoint.refusal.details as string[]).length === 2);
  assert.ok(readScenarioSpec(spec({ exposure: { object_id: 'obj_1' } })).ok);
});

test('a run: places beyond 200 km unmodeled and counted, the same seed the same result, medians as the model', async () => {
  const read = readScenarioSpec(spec());
  assert.ok(read.ok);
  const s: ScenarioSpec = read.value;
  const points = (s.exposure as { points: ScenarioPlace[] }).points;
  const options = { functions: await pinnedFunctions(), vulnerabilityData: data };
  const a = runScenarioQuake(s, points, options) as any;
  const b = runScenarioQuake(s, points, options) as any;
  assert.deepEqual(a, b);
  assert.deepEqual(a.unmodeled, { count: 1, places: [{ index: 2, reason: 'farther than 200 km from the rupture' }] });
  assert.equal(a.places.length, 2);
  assert.match(a.licence, /CC BY-NC-SA 4\.0: non-commercial/);
  assert.equal(a.ground_motion.imt, 'SA(0.6)');
  assert.equal(a.ground_motion.fields, 100);
  // Independent: the logic tree's four models (ASK14, BSSA14, CB14, CY14, equal weights) called directly at each
  // place; the median of 100 fields lies within 0.3 in ln of their weighted mean ln (about 3.4
  // standard errors of a sample median, 1.2533 sigma / 10 with sigma near 0.7).
  assert.deepEqual(a.ground_motion.logic_tree.map((b: any) => [b.model, b.weight]), [['ASK14', 0.25], ['BSSA14', 0.25], ['CB14', 0.25], ['CY14', 0.25]]);
  const rupture = ruptureOf(s.rupture);
  const models = [ask14(), bssa14('global'), cb14(), cy14()];
  for (const p of a.places) {
    const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
    const ctx = { rupture: { mag: 6.7, rake: 101, dip: 40, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: 17.5 }, site: { vs30: p.vs30, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: d };
    const mean = models.reduce((t, m) => t + m.predict(ctx, { kind: 'SA', period: 0.6 }).mean / models.length, 0);
    assert.ok(Math.abs(Math.log(p.ground_motion.median) - mean) < 0.3, `place ${p.index}: ${p.ground_motion.median} vs ${Math.exp(mean)}`);
    assert.ok(p.loss.mean >= 0 && p.loss.mean <= p.value);
  }
  const sum = a.places.reduce((t: number, p: any) => t + p.loss.mean, 0);
  assert.ok(Math.abs(a.aggregate.mean - sum) / sum < 1e-5, 'aggregate mean is the sum of the places\' means');
  assert.ok(a.aggregate.percentiles.p5 <= a.aggregate.median && a.aggregate.median <= a.aggregate.percentiles.p95);
  // Another seed: other fields.
  assert.notDeepEqual(runScenarioQuake(s, points, { ...options, seed: 1 }), a);
  // All places beyond reach: no aggregate, every place counted.
  const far = runScenarioQuake(s, [{ lat: 0, lon: 0, value: 1 }], options) as any;
  assert.equal(far.aggregate, null);
  assert.equal(far.unmodeled.count, 1);
});

test('a hypocentre deeper than 35 km is in-slab: BC Hydro 2016, its median as the model called directly', async () => {
  // A rupture written for the test: M7.0 at 90 km depth, reverse, one place 30 km off the epicentre.
  const read = readScenarioSpec({ rupture: { magnitude: 7, lat: 45.7, lon: 26.6, depth_km: 90, strike: 40, dip: 70, rake: 90 }, exposure: { points: [{ lat: 45.9, lon: 26.9, value: 100 }] } });
  assert.ok(read.ok);
  const result = runScenarioQuake(read.value, (read.value.exposure as { points: ScenarioPlace[] }).points, { functions: await pinnedFunctions(), vulnerabilityData: data }) as any;
  assert.equal(result.tectonic_region.region, 'subduction_inslab');
  assert.deepEqual(result.ground_motion.logic_tree.map((b: any) => [b.model, b.weight]), [['BCHydro16Slab', 1]]);
  const rupture = ruptureOf(read.value.rupture);
  assert.ok(rupture.ztor_km > 0 && rupture.ztor_km < 90 && rupture.ztor_km + rupture.width_km * Math.sin(70 * Math.PI / 180) > 90, 'the plane holds the hypocentre');
  const p = result.places[0];
  const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
  const gm = bcHydro2016('slab').predict({ rupture: { mag: 7, rake: 90, dip: 70, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: 90 }, site: { vs30: 760, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: d }, { kind: 'SA', period: 0.6 });
  assert.ok(Math.abs(Math.log(p.ground_motion.median) - gm.mean) < 0.3, `${p.ground_motion.median} vs ${Math.exp(gm.mean)}`);
});
