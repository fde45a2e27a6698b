// The scenario earthquake lane over the pinned GEM vulnerability functions (read through the feed
// store): its spec reader's refusals, a loss case worked by hand, determinism, the 200 km reach, the
// fields' medians against an independent call of the model, each place's ground motion in the open
// (every GMPE called directly, the weighted tree recomputed by OpenQuake's AvgGMPE rule), and the
// rupture's placement under both rules.
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
import { weightedTree } from '../../../src/domain/lab/lanes/earthquake/ground-motion.js';
import { PGA, sa, type GroundMotion } from '../../../src/domain/hazard/gmpe/types.js';

const FEED = 'gem-vulnerability-europe';
let functions: Promise<ReadonlyMap<string, VulnerabilityFunction>> | undefined;
function pinnedFunctions() {
  functions ??= (async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: [FEED] });
    return structuralVulnerability(store, store.get(FEED)!);
  })();
  return functions;
}
const data = { feed_id: FEED, version: 'pinned', sha256: 'pinned' };

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
  // OpenQuake's point-rupture placement by default: aspect ratio 2, the layer from the surface, no floor.
  assert.deepEqual(
    [read.value.rupture.placement, read.value.rupture.aspect_ratio, read.value.rupture.upper_seismogenic_depth_km, 'lower_seismogenic_depth_km' in read.value.rupture],
    ['openquake_point_source', 2, 0, false],
  );
  const r1 = readScenarioSpec(spec({ rupture: { magnitude: 6, lat: 0, lon: 0, depth_km: 10, placement: 'seismogenic_layer_20km' } }));
  assert.ok(r1.ok && r1.value.rupture.placement === 'seismogenic_layer_20km' && !('aspect_ratio' in r1.value.rupture));
  const placementFaults: [Record<string, unknown>, RegExp][] = [
    [{ placement: 'centred' }, /rupture.placement must be one of openquake_point_source, seismogenic_layer_20km/],
    [{ placement: 'seismogenic_layer_20km', aspect_ratio: 1 }, /rupture.aspect_ratio applies to placement openquake_point_source only/],
    [{ aspect_ratio: 0 }, /rupture.aspect_ratio must be a number above 0/],
    [{ upper_seismogenic_depth_km: 5, lower_seismogenic_depth_km: 5 }, /must be deeper than rupture.upper_seismogenic_depth_km/],
    [{ lower_seismogenic_depth_km: 8 }, /rupture.depth_km 10 must lie between the seismogenic depths \(0 to 8 km\)/],
  ];
  for (const [over, fault] of placementFaults) {
    const r = readScenarioSpec(spec({ rupture: { magnitude: 6, lat: 0, lon: 0, depth_km: 10, ...over } }));
    assert.ok(!r.ok && (r.refusal.details as string[]).some((d) => fault.test(d)), `${fault}: ${r.ok ? 'accepted' : (r.refusal.details as string[]).join(' | ')}`);
  }
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

const rel = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.abs(b), `${what}: ${a} vs ${b}`);

test('each place shows PGA and SA(0.6): every GMPE as called directly, the weighted tree recomputed, the fields beside them', async () => {
  const read = readScenarioSpec(spec());
  assert.ok(read.ok);
  const s: ScenarioSpec = read.value;
  const points = (s.exposure as { points: ScenarioPlace[] }).points;
  const a = runScenarioQuake(s, points, { functions: await pinnedFunctions(), vulnerabilityData: data }) as any;
  assert.deepEqual(a.ground_motion.shaking_imts, ['PGA', 'SA(0.6)']);
  assert.deepEqual(a.inputs, [{ input: 'vulnerability', ...data }], 'the input read is named with its SHA-256');
  assert.match(a.ground_motion.per_place, /AvgGMPE/);
  const rupture = ruptureOf(s.rupture);
  const models = [ask14(), bssa14('global'), cb14(), cy14()];
  // Results are rounded to 6 significant digits: 1e-5 relative.
  for (const p of a.places) {
    const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
    for (const k of ['rjb', 'rrup', 'rx', 'ry0', 'rhypo'] as const) rel(p.distances_km[k], d[k], 1e-5, `place ${p.index} ${k}`);
    const ctx = { rupture: { mag: 6.7, rake: 101, dip: 40, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: 17.5 }, site: { vs30: p.vs30, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: d };
    for (const [name, imt] of [['PGA', PGA], ['SA(0.6)', sa(0.6)]] as const) {
      const block = p.shaking[name];
      const direct: GroundMotion[] = models.map((m) => m.predict(ctx, imt));
      assert.deepEqual(block.gmpe.map((g: any) => [g.model, g.weight]), [['ASK14', 0.25], ['BSSA14', 0.25], ['CB14', 0.25], ['CY14', 0.25]]);
      block.gmpe.forEach((g: any, k: number) => {
        rel(g.median, Math.exp(direct[k]!.mean), 1e-5, `${name} ${g.model} median`);
        for (const q of ['sigma', 'tau', 'phi'] as const) rel(g[q], Math.abs(direct[k]![q]), 1e-5, `${name} ${g.model} ${q}`);
      });
      // Independent recomputation of OpenQuake's AvgGMPE at equal weights: the mean of the ln medians,
      // and the root mean square of each standard deviation.
      const lnMedian = direct.reduce((t, g) => t + g.mean, 0) / 4;
      const rms = (q: 'sigma' | 'tau' | 'phi') => Math.sqrt(direct.reduce((t, g) => t + g[q] ** 2, 0) / 4);
      rel(block.weighted_tree.median, Math.exp(lnMedian), 1e-5, `${name} tree median`);
      for (const q of ['sigma', 'tau', 'phi'] as const) rel(block.weighted_tree[q], rms(q), 1e-5, `${name} tree ${q}`);
      rel(block.weighted_tree.sigma, Math.hypot(block.weighted_tree.tau, block.weighted_tree.phi), 1e-5, 'sigma^2 = tau^2 + phi^2 holds for the tree');
      const f = block.fields;
      const ps = [f.percentiles.p5, f.percentiles.p16, f.percentiles.p50, f.percentiles.p84, f.percentiles.p95];
      assert.ok(ps.every((x, i) => i === 0 || ps[i - 1]! <= x), `${name} percentiles ascend`);
      assert.equal(f.median, f.percentiles.p50);
      // The median of 100 fields within 0.3 in ln of the tree's median (as the run test above).
      assert.ok(Math.abs(Math.log(f.median) - lnMedian) < 0.3, `${name} fields median ${f.median} vs tree ${Math.exp(lnMedian)}`);
    }
    assert.deepEqual(p.shaking['SA(0.6)'].fields, p.ground_motion, 'the curve\'s measure: the same fields the losses read');
  }
});

test('the placement: OpenQuake\'s point rupture by default, revision r1\'s 20 km layer on request; PGA at 20 km up dip of a Northridge-like M6.7 at 18 km', async (t) => {
  // A place 20 km from the epicentre at azimuth 32, up dip (the strike 122 less 90), where moving the plane up dip brings it nearer.
  const KM_PER_DEG = 111.195;
  const place = { lat: 34.213 + (20 * Math.cos(32 * Math.PI / 180)) / KM_PER_DEG, lon: -118.537 + (20 * Math.sin(32 * Math.PI / 180)) / (KM_PER_DEG * Math.cos(34.213 * Math.PI / 180)), value: 1 };
  const run = async (placement?: string) => {
    const read = readScenarioSpec(spec({ rupture: { magnitude: 6.7, lat: 34.213, lon: -118.537, depth_km: 18, strike: 122, dip: 40, rake: 101, ...(placement && { placement }) }, exposure: { points: [place] } }));
    assert.ok(read.ok);
    return runScenarioQuake(read.value, [place], { functions: await pinnedFunctions(), vulnerabilityData: data }) as any;
  };
  const oq = await run();
  const r1 = await run('seismogenic_layer_20km');
  assert.equal(oq.rupture.placement, 'openquake_point_source');
  assert.match(oq.rupture.placement_rule, /openquake\/hazardlib\/source\/point.py/);
  assert.equal(r1.rupture.placement, 'seismogenic_layer_20km');
  // OpenQuake's plane is centred on the hypocentre (top 13.589 km); r1's, 13.709 km wide, has its bottom at 20 km (top 11.188 km).
  assert.ok(Math.abs(oq.rupture.ztor_km - 13.5887) < 1e-3 && Math.abs(r1.rupture.ztor_km - 11.1881) < 1e-3, `${oq.rupture.ztor_km} ${r1.rupture.ztor_km}`);
  const [a, b] = [oq.places[0], r1.places[0]];
  assert.ok(b.distances_km.rjb < a.distances_km.rjb - 2, `r1 brings the plane nearer: Rjb ${b.distances_km.rjb} vs ${a.distances_km.rjb}`);
  const pga = (x: any) => x.shaking.PGA.weighted_tree.median;
  assert.ok(pga(b) > pga(a));
  t.diagnostic(`Rjb ${a.distances_km.rjb} / ${b.distances_km.rjb} km, Rrup ${a.distances_km.rrup} / ${b.distances_km.rrup} km; PGA tree median ${pga(a)} / ${pga(b)} g (${((pga(b) / pga(a) - 1) * 100).toFixed(1)}%); OpenQuake / r1`);
});

test('the weighted tree by OpenQuake\'s AvgGMPE rule, worked by hand for two branches (numbers made for the test)', () => {
  // Branch A: median 0.1 g, tau 0.3, phi 0.5; branch B: median 0.2 g, tau 0.4, phi 0.6; weights 0.2 and 0.8.
  // ln median 0.2 ln 0.1 + 0.8 ln 0.2 = -1.748067 (0.174110 g); tau sqrt(0.2 x 0.09 + 0.8 x 0.16) = 0.382099;
  // phi sqrt(0.2 x 0.25 + 0.8 x 0.36) = 0.581378; sigma sqrt(0.2 x 0.34 + 0.8 x 0.52) = 0.695701.
  const a = { mean: Math.log(0.1), tau: 0.3, phi: 0.5, sigma: Math.hypot(0.3, 0.5) };
  const b = { mean: Math.log(0.2), tau: 0.4, phi: 0.6, sigma: Math.hypot(0.4, 0.6) };
  for (const weights of [[0.2, 0.8], [0.5, 2]]) {
    const t = weightedTree([a, b], weights);
    rel(Math.exp(t.mean), 0.174110, 1e-5, 'median');
    rel(t.tau, 0.382099, 1e-5, 'tau');
    rel(t.phi, 0.581378, 1e-5, 'phi');
    rel(t.sigma, 0.695701, 1e-5, 'sigma');
  }
});
