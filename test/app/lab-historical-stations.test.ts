// The historical earthquake lane on stations, end to end through the lab's run task over the pinned
// feeds: South Napa 2014 (ShakeMap 3.5 station list, moment tensor) and Kahramanmaras 2023 (ShakeMap 4
// station list, finite fault) run on their stations, Northridge still on its grid, each result saying
// which; every input named with its sha256; a place at a station recovers the station's record
// (the curve's measure recorded there, no observation error: every field equals it, to the 1e-12
// diagonal OpenQuake adds; at Kahramanmaras carried to the place's Vs30 by the GMPE's site term, the
// station having its own); the same spec gives the same fields; GET /models lists which event runs
// on what.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labModels, labRunTask, normalizedSpec } from '../../src/app/lab-runs.js';
import { FeedStore } from '../../src/feeds/store.js';
import { shakeMapStations } from '../../src/feeds/lab-inputs.js';
import { stationObservations } from '../../src/domain/lab/lanes/earthquake/station-data.js';
import { stationRupture } from '../../src/domain/lab/lanes/earthquake/station-rupture.js';
import { logicTree } from '../../src/domain/lab/lanes/earthquake/logic-tree.js';
import { sa } from '../../src/domain/hazard/gmpe/types.js';
import { FEEDS_DIR } from '../support/feeds.js';

const MODEL = 'openquake-historical-eq';
const NAPA = 'usgs-shakemap-inputs-south-napa-2014';
const KAHRAMANMARAS = 'usgs-shakemap-stations-kahramanmaras-2023';
let opened: Promise<FeedStore> | undefined;
const store = () => (opened ??= FeedStore.open(FEEDS_DIR, { feeds: [NAPA, KAHRAMANMARAS, 'usgs-shakemap-northridge-1994', 'gem-vulnerability-europe', 'oed-spec'] }));

async function run(body: Record<string, unknown>) {
  const spec = normalizedSpec({ model: MODEL, ...body });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.refusal));
  const r = await labRunTask({ model: MODEL, spec: spec.value, feedsDir: undefined }, await store());
  assert.ok(r.ok, JSON.stringify(!r.ok && r.refusal));
  return { text: r.value, result: JSON.parse(r.value) };
}

/** A station's observations as the lane reads them (OpenQuake's rule), from the pinned list. */
async function observation(feed: string, id: string) {
  const s = await store();
  const data = await shakeMapStations(s, s.get(feed)!);
  return stationObservations(data.stations).observations.find((o) => o.id === id)!;
}

test('Kahramanmaras on its stations: finite fault, ESHM20 tree, the stations used; a place at TK.2708 recovers its SA(1.0); inputs named by sha256', async () => {
  const s = await store();
  const tk = await observation(KAHRAMANMARAS, 'TK.2708');
  const points = [{ lat: tk.lat, lon: tk.lon, value: 1_000_000 }, { lat: 36.2, lon: 36.16, value: 2_000_000 }, { lat: 39.93, lon: 32.86, value: 5 }];
  const { text, result: r } = await run({ event: 'kahramanmaras-2023', vulnerability: 'rc_frame_mid_rise_pre_code', exposure: { points } });
  assert.equal(r.ground_motion.basis, 'stations');
  assert.equal(r.shakemap.holds, 'stations');
  assert.equal(r.ground_motion.imt, 'SA(1)');
  assert.equal(r.ground_motion.rupture.kind, 'finite fault');
  assert.equal(r.ground_motion.rupture.planes, 17);
  assert.equal(r.ground_motion.tectonic_region.region, 'europe_shallow_crust');
  assert.equal(r.ground_motion.logic_tree.length, 15);
  assert.deepEqual(r.ground_motion.stations.conditioned_on, ['SA(1)']);
  assert.equal(r.ground_motion.stations.native, true);
  assert.equal(r.ground_motion.stations.listed, 351);
  assert.ok(r.ground_motion.stations.used > 100 && r.ground_motion.stations.used <= 262, String(r.ground_motion.stations.used));
  assert.match(r.ground_motion.correlation.spatial, /Jayaram and Baker \(2009\) with Vs30 clustering/);
  assert.equal(r.ground_motion.covariance_systems, 1, 'the 15 ESHM20 branches share their sigmas');
  // At the station: the conditioned median is the record carried from the station's Vs30 to the
  // place's 760 m/s by the GMPE's own site term (the same in every ESHM20 branch), and so is every
  // field (sigma ~ 1e-6). The site term worked here from the central branch at the two Vs30.
  const data = await shakeMapStations(s, s.get(KAHRAMANMARAS)!);
  const rupture = stationRupture(data.event, data.rupture);
  const d = rupture.distances({ latitude: tk.lat, longitude: tk.lon });
  const gmpe = logicTree('europe_shallow_crust').find((b) => b.gmpe.id === 'KOTHA20_ESHM20')!.gmpe;
  const at760 = (vs30: number) => gmpe.predict({ rupture: rupture.terms, site: { vs30, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false }, distances: d }, sa(1)).mean;
  const carried = tk.values[2]! * Math.exp(at760(760) - at760(tk.vs30!));
  const at = r.places[0];
  assert.ok(Math.abs(at.conditioned.median / carried - 1) < 1e-5, `${at.conditioned.median} vs ${carried} (record ${tk.values[2]} at Vs30 ${tk.vs30})`);
  assert.ok(at.conditioned.sigma_ln < 1e-5);
  for (const p of Object.values(at.ground_motion.percentiles) as number[]) assert.ok(Math.abs(p / carried - 1) < 1e-4);
  assert.deepEqual(r.unmodeled, { count: 1, places: [{ index: 2, reason: 'farther than 200 km from the rupture' }] });
  for (const feed of [KAHRAMANMARAS, 'gem-vulnerability-europe']) assert.ok(text.includes(s.get(feed)!.sha256), feed);
  const input = r.inputs.find((i: any) => i.input === 'shakemap');
  assert.deepEqual(input.files_read.map((f: any) => f.name).sort(), ['rupture.json', 'stationlist.json']);
});

test('South Napa on its stations: a moment-tensor point rupture, NGA-West2; at NC.N016 (Main St Napa) the SA(0.3) record recovered; seeded: the same spec, the same fields', async () => {
  const s = await store();
  const n016 = await observation(NAPA, 'NC.N016');
  const points = [{ lat: n016.lat, lon: n016.lon, value: 1_000_000 }, { lat: 37.77, lon: -122.42, value: 1_000_000 }];
  const { text, result: r } = await run({ event: 'south-napa-2014', vulnerability: 'demo_wood', exposure: { points } });
  assert.equal(r.ground_motion.basis, 'stations');
  assert.equal(r.ground_motion.imt, 'SA(0.3)');
  assert.match(r.ground_motion.rupture.kind, /moment tensor/);
  assert.match(r.ground_motion.rupture.nodal_plane, /^strike 156, dip 90, rake 180/);
  assert.equal(r.ground_motion.tectonic_region.region, 'active_shallow_crust');
  assert.deepEqual(r.ground_motion.logic_tree.map((b: any) => b.model), ['ASK14', 'BSSA14', 'CB14', 'CY14']);
  assert.equal(r.ground_motion.stations.list, 'stationlist.xml');
  assert.equal(r.ground_motion.stations.listed, 334);
  assert.ok(r.ground_motion.stations.used >= 330, String(r.ground_motion.stations.used));
  assert.ok(Math.abs(r.places[0].conditioned.median / n016.values[1]! - 1) < 1e-5, `${r.places[0].conditioned.median} vs ${n016.values[1]}`);
  assert.equal(r.ground_motion.nominal_bias.length, 4);
  assert.ok(text.includes(s.get(NAPA)!.sha256));
  const input = r.inputs.find((i: any) => i.input === 'shakemap');
  assert.deepEqual(input.files_read.map((f: any) => f.name).sort(), ['event.xml', 'moment.xml', 'stationlist.xml']);
  const again = await run({ event: 'south-napa-2014', vulnerability: 'demo_wood', exposure: { points } });
  assert.equal(again.text, text, 'seeded: byte for byte');
  // A bias the stations read off the GMPEs and a spread at San Francisco, 45 km away, between the record's and the GMPE's.
  const sf = r.places[1];
  assert.ok(sf.conditioned.sigma_ln > 0.1 && sf.conditioned.sigma_ln < Math.hypot(sf.gmpe.tau, sf.gmpe.phi), JSON.stringify(sf));
});

test('Northridge still runs on its grid, and GET /models says which event runs on what', async () => {
  const { result: r } = await run({ event: 'northridge-1994', exposure: { points: [{ lat: 34.2, lon: -118.5, value: 1000 }] } });
  assert.equal(r.ground_motion.basis, 'shakemap_grid');
  assert.equal(r.shakemap.holds, 'grid');
  // This store holds three of the five runnable events' data.
  const listed = await labModels({ feeds: await store() });
  assert.ok(listed.ok);
  const model = (listed.value.models as any[]).find((m) => m.id === MODEL);
  const events = model.pinned_inputs.events as any[];
  assert.deepEqual(events.filter((e) => e.runnable).map((e) => [e.event, e.runs_on, e.shakemap.holds]), [
    ['northridge-1994', 'shakemap_grid', 'raster'], ['south-napa-2014', 'stations', 'stations'], ['kahramanmaras-2023', 'stations', 'stations'],
  ]);
});
