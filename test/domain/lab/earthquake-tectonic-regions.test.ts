// The tectonic region of a scenario rupture by location, depth and mechanism: the hypocentres of
// well-known events read from the pinned ComCat regional catalogs (by their ComCat ids), each given a
// mechanism written for the test (a low-angle thrust for the megathrust events, a normal rupture for
// the in-slab ones) and placed in its region; and the scenario lane runs an interface rupture on
// BC Hydro 2016's interface branch, its median as the model called directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { eventCatalog } from '../../../src/feeds/readers.js';
import { chooseRegion, marginAt, SUBDUCTION_MARGINS } from '../../../src/domain/lab/lanes/earthquake/tectonic-regions.js';
import { readScenarioSpec, ruptureOf, runScenarioQuake, type ScenarioPlace } from '../../../src/domain/lab/lanes/earthquake/scenario-lane.js';
import { bcHydro2016 } from '../../../src/domain/hazard/gmpe/bchydro16.js';
import { distancesTo } from '../../../src/domain/hazard/gmpe/rupture.js';
import type { QuakeEvent } from '../../../src/domain/hazard/records.js';
import { structuralVulnerabilityOf } from '../../support/earthquake-inputs.js';
import { FEEDS_DIR, manifestOf } from '../../support/feeds.js';

const REGIONS = ['alaska', 'california', 'cascadia', 'chile', 'kanto', 'mexico'].map((r) => `usgs-comcat-m6-${r}`);
let loaded: Promise<Map<string, QuakeEvent>> | undefined;
function pinnedEvents() {
  loaded ??= (async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: REGIONS });
    const byId = new Map<string, QuakeEvent>();
    for (const id of REGIONS) {
      const c = await eventCatalog(store, store.get(id)!);
      if (c.kind === 'quake') for (const e of c.events) byId.set(e.event_id, e);
    }
    return byId;
  })();
  return loaded;
}

const THRUST = { mechanism: 'reverse' as const, dip: 15 };
const NORMAL = { mechanism: 'normal' as const, dip: 50 };

test('each margin lies in the box of the pinned ComCat regional catalog it names', () => {
  for (const m of SUBDUCTION_MARGINS) {
    const feed = REGIONS.find((id) => manifestOf(id).coverage.name === m.comcat_region);
    assert.ok(feed, `${m.id}: a pinned catalog covers ${m.comcat_region}`);
    const box = manifestOf(feed).coverage;
    for (const [lon, lat] of m.forearc) assert.ok(lat >= box.min_latitude && lat <= box.max_latitude && lon >= box.min_longitude && lon <= box.max_longitude, `${m.id}: vertex ${lon}, ${lat} inside ${feed}`);
  }
});

test('pinned hypocentres of well-known events fall in the region their faulting had', async () => {
  const events = await pinnedEvents();
  const cases: [string, string, typeof THRUST | typeof NORMAL, string, string | null][] = [
    // [ComCat id, event, mechanism written for the test, expected region, expected margin]
    ['official20100227063411530_30', 'Maule 2010 M8.8', THRUST, 'subduction_interface', 'chile'],
    ['us20003k7a', 'Illapel 2015 M8.3', THRUST, 'subduction_interface', 'chile'],
    ['usc000nzvd', 'Iquique 2014 M8.2', THRUST, 'subduction_interface', 'chile'],
    ['official19640328033616_30', 'Alaska 1964 M9.2', THRUST, 'subduction_interface', 'alaska-aleutian'],
    ['usp0002jwe', 'Michoacan 1985 M8.0', THRUST, 'subduction_interface', 'mexico'],
    ['iscgem911526', 'Kanto 1923 M7.96', THRUST, 'subduction_interface', 'kanto'],
    ['ak018fcnsk91', 'Anchorage 2018 M7.1 (normal, in the slab)', NORMAL, 'subduction_inslab', 'alaska-aleutian'],
    ['us2000ahv0', 'Chiapas 2017 M8.2 (normal, in the slab)', NORMAL, 'subduction_inslab', 'mexico'],
    ['us2000ar20', 'Puebla 2017 M7.1 (inland of the forearc)', NORMAL, 'subduction_inslab', null],
    // A thrust written deeper than Cascadia's interface range (0 to 30 km): Nisqually's 51.8 km hypocentre.
    ['uw10530748', 'Nisqually 2001 M6.8', THRUST, 'subduction_inslab', 'cascadia'],
    ['ci3144585', 'Northridge 1994 M6.7 (reverse, dip 40)', { mechanism: 'reverse', dip: 40 } as never, 'active_shallow_crust', null],
  ];
  for (const [id, name, mech, region, margin] of cases) {
    const e = events.get(id);
    assert.ok(e && e.depth_km !== null, `${name}: ${id} is in the pinned catalogs with a depth`);
    const choice = chooseRegion({ lat: e.latitude, lon: e.longitude, depth_km: e.depth_km, ...mech });
    assert.equal(choice.region, region, `${name} at ${e.latitude}, ${e.longitude}, ${e.depth_km} km: ${choice.reason}`);
    assert.equal(choice.margin?.id ?? null, margin, name);
  }
  // The same Maule hypocentre as a steep reverse rupture is not on the interface: by depth, crust.
  const maule = events.get('official20100227063411530_30')!;
  const steep = chooseRegion({ lat: maule.latitude, lon: maule.longitude, depth_km: maule.depth_km!, mechanism: 'reverse', dip: 60 });
  assert.equal(steep.region, 'active_shallow_crust');
  assert.match(steep.reason, /not a low-angle thrust/);
  assert.equal(marginAt(37.77, -122.42), undefined, 'San Francisco lies in no margin');
});

test('an interface rupture in the scenario lane runs on BC Hydro 2016 interface, its median as the model called directly', async () => {
  // A rupture written for the test at the pinned Maule 2010 hypocentre: M8.0, a 15-degree thrust; one place 60 km inland.
  const events = await pinnedEvents();
  const e = events.get('official20100227063411530_30')!;
  const read = readScenarioSpec({ rupture: { magnitude: 8, lat: e.latitude, lon: e.longitude, depth_km: e.depth_km, strike: 15, dip: 15, rake: 90 }, exposure: { points: [{ lat: e.latitude, lon: e.longitude + 0.65, value: 100 }] } });
  assert.ok(read.ok);
  const result = runScenarioQuake(read.value, (read.value.exposure as { points: ScenarioPlace[] }).points, { functions: await structuralVulnerabilityOf(), vulnerabilityData: { feed_id: 'gem-vulnerability-europe', version: 'pinned', sha256: 'pinned' } }) as any;
  assert.equal(result.tectonic_region.region, 'subduction_interface');
  assert.equal(result.tectonic_region.margin.id, 'chile');
  assert.match(result.tectonic_region.basis, /by location, depth and mechanism/);
  assert.deepEqual(result.ground_motion.logic_tree.map((b: any) => [b.model, b.weight]), [['BCHydro16Interface', 1]]);
  const rupture = ruptureOf(read.value.rupture);
  const p = result.places[0];
  const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
  const gm = bcHydro2016('interface').predict({ rupture: { mag: 8, rake: 90, dip: 15, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: e.depth_km! }, site: { vs30: 760, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false }, distances: d }, { kind: 'SA', period: 0.6 });
  // Within 0.3 in ln: about 3.4 standard errors of the median of 100 fields (1.2533 x 0.74 / 10).
  assert.ok(Math.abs(Math.log(p.ground_motion.median) - gm.mean) < 0.3, `${p.ground_motion.median} vs ${Math.exp(gm.mean)}`);
});
