// Shallow ruptures in Europe take the ESHM20 scaled backbone (Kotha et al. 2020): the tectonic
// region by place, the 15 branches and their weights against the pinned ESRM20 shallow-default logic
// tree and against Gauss-Hermite quadrature recomputed here, and the scenario lane run on a European
// rupture with its median against the central model called directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { structuralVulnerability } from '../../../src/feeds/readers.js';
import { FEEDS_DIR, rawFile } from '../../support/feeds.js';
import {
  ESHM20_C3_BRANCHES, ESHM20_SIGMA_MU_BRANCHES, EUROPE_BOX, logicTree, tectonicRegion,
} from '../../../src/domain/lab/lanes/earthquake/logic-tree.js';
import { readScenarioSpec, ruptureOf, runScenarioQuake, type ScenarioPlace } from '../../../src/domain/lab/lanes/earthquake/scenario-lane.js';
import { kotha2020 } from '../../../src/domain/hazard/gmpe/kotha20.js';
import { distancesTo } from '../../../src/domain/hazard/gmpe/rupture.js';

test('tectonic region by depth and place: shallow in the Europe box is Europe, elsewhere active crust, deep is in-slab', () => {
  assert.equal(tectonicRegion(9, { lat: 42.34, lon: 13.38 }), 'europe_shallow_crust'); // central Italy
  assert.equal(tectonicRegion(10, { lat: 64.0, lon: -21.0 }), 'europe_shallow_crust'); // Iceland
  assert.equal(tectonicRegion(12, { lat: 37.2, lon: 37.0 }), 'europe_shallow_crust'); // south-east Turkey
  assert.equal(tectonicRegion(17.5, { lat: 34.213, lon: -118.537 }), 'active_shallow_crust'); // Northridge
  assert.equal(tectonicRegion(90, { lat: 45.7, lon: 26.6 }), 'subduction_inslab'); // Vrancea, intermediate depth
  assert.equal(tectonicRegion(10), 'active_shallow_crust', 'without a place, by depth alone');
  assert.equal(tectonicRegion(35, { lat: EUROPE_BOX.lat_max, lon: EUROPE_BOX.lon_min }), 'europe_shallow_crust', 'edges and 35 km inclusive');
  assert.equal(tectonicRegion(5, { lat: 33.99, lon: 10 }), 'active_shallow_crust');
});

/** The pinned ESRM20 shallow-default tree: weight by (sigma_mu_epsilon, c3_epsilon), an absent argument 0. */
function pinnedShallowDefault(): Map<string, number> {
  const xml = rawFile('esrm20-scenario-events', 'gmpe_logic_tree_5br_shallow_default.xml').toString('utf8');
  const out = new Map<string, number>();
  for (const m of xml.matchAll(/<uncertaintyModel>([\s\S]*?)<\/uncertaintyModel>\s*<uncertaintyWeight>\s*([0-9.]+)/g)) {
    const arg = (k: string) => Number(new RegExp(`${k}\\s*=\\s*(-?[0-9.]+)`).exec(m[1]!)?.[1] ?? 0);
    assert.match(m[1]!, /KothaEtAl2020ESHM20SlopeGeology/);
    out.set(`${arg('sigma_mu_epsilon')}|${arg('c3_epsilon')}`, Number(m[2]));
  }
  return out;
}

test('the European tree: 15 Kotha 2020 ESHM20 branches whose weights are the pinned ESRM20 tree\'s', () => {
  const tree = logicTree('europe_shallow_crust');
  const pinned = pinnedShallowDefault();
  assert.equal(tree.length, 15);
  assert.equal(pinned.size, 15);
  assert.ok(Math.abs(tree.reduce((a, b) => a + b.weight, 0) - 1) < 1e-12);
  let i = 0;
  for (const s of ESHM20_SIGMA_MU_BRANCHES) {
    for (const c of ESHM20_C3_BRANCHES) {
      const w = pinned.get(`${s.epsilon}|${c.epsilon}`);
      assert.ok(w !== undefined, `branch ${s.epsilon}, ${c.epsilon} is in the pinned tree`);
      assert.ok(Math.abs(tree[i]!.weight - w) < 1e-10, `weight ${tree[i]!.weight} vs pinned ${w}`);
      assert.ok(tree[i]!.gmpe.id.startsWith('KOTHA20_ESHM20'));
      i++;
    }
  }
});

test('the branch nodes and weights are Gauss-Hermite quadrature, recomputed here, to ESHM20\'s rounding', () => {
  // Probabilists' Hermite: He_0 = 1, He_1 = x, He_{k+1} = x He_k - k He_{k-1}; nodes are the roots of
  // He_n and weights n! / (n He_{n-1}(x))^2.
  const he = (n: number, x: number) => { let a = 1; let b = x; if (n === 0) return 1; for (let k = 1; k < n; k++) [a, b] = [b, x * b - k * a]; return b; };
  const fact = (n: number): number => (n <= 1 ? 1 : n * fact(n - 1));
  for (const [n, branches] of [[5, ESHM20_SIGMA_MU_BRANCHES], [3, ESHM20_C3_BRANCHES]] as const) {
    for (const b of branches) {
      assert.ok(Math.abs(he(n, b.epsilon)) < 1e-4, `${b.epsilon} is a root of He_${n}`);
      const w = fact(n) / (n * he(n - 1, b.epsilon)) ** 2;
      assert.ok(Math.abs(b.weight - w) / w < 0.003, `weight ${b.weight} vs quadrature ${w}`);
    }
  }
});

test('a European scenario runs on the Kotha 2020 tree; its median is the central model\'s within the branch spread', async () => {
  const store = await FeedStore.open(FEEDS_DIR, { feeds: ['gem-vulnerability-europe'] });
  const functions = await structuralVulnerability(store, store.get('gem-vulnerability-europe')!);
  // A rupture written for the test: M6.3 normal faulting at 9 km in central Italy, one place 12 km off.
  const read = readScenarioSpec({ rupture: { magnitude: 6.3, lat: 42.34, lon: 13.38, depth_km: 9, strike: 140, mechanism: 'normal' }, exposure: { points: [{ lat: 42.44, lon: 13.42, value: 100, vs30: 400 }] } });
  assert.ok(read.ok);
  const result = runScenarioQuake(read.value, (read.value.exposure as { points: ScenarioPlace[] }).points, { functions, vulnerabilityData: { feed_id: 'gem-vulnerability-europe', version: 'pinned', sha256: 'pinned' } }) as any;
  assert.equal(result.tectonic_region.region, 'europe_shallow_crust');
  assert.equal(result.ground_motion.logic_tree.length, 15);
  assert.match(result.ground_motion.logic_tree_note, /ESHM20/);
  const rupture = ruptureOf(read.value.rupture);
  const p = result.places[0];
  const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
  const gm = kotha2020({ form: 'eshm20' }).predict({
    rupture: { mag: 6.3, rake: -90, dip: 50, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: rupture.hypocentre.depth_km },
    site: { vs30: 400, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: d,
  }, { kind: 'SA', period: 0.6 });
  // 100 fields of total sigma ~0.75 plus branch shifts of at most 2.86 x tau_L2L: the field median is
  // the central median within 0.3 in ln units, as the lane's other medians are checked.
  assert.ok(Math.abs(Math.log(p.ground_motion.median) - gm.mean) < 0.3, `${p.ground_motion.median} vs ${Math.exp(gm.mean)}`);
});
