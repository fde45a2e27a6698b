// The USGS ShakeMap station data readers against the pinned files and their manifests' checks: the
// ShakeMap 4 stationlist.json of Kahramanmaras (351 features: 262 seismic stations, 89 DYFI cells;
// the peak PGA at TK.2708), the ShakeMap 3.5 stationlist.xml of South Napa (334 stations; the peak
// channels the manifest names), the rupture outline, the origin and the moment tensor's axes; then
// OpenQuake's rule for one observation per station and measure, on hand-made records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEventXml, parseMomentTensorAxes, parseRuptureJson, parseStationlistJson, parseStationlistXml } from '../../src/feeds/parsers/shakemap-stations.js';
import { stationObservations, type StationRecord } from '../../src/domain/lab/lanes/earthquake/station-data.js';
import { manifestOf, rawFile } from '../support/feeds.js';

const KAHRAMANMARAS = 'usgs-shakemap-stations-kahramanmaras-2023';
const NAPA = 'usgs-shakemap-inputs-south-napa-2014';

const count = (xs: readonly string[]) => xs.reduce<Record<string, number>>((o, x) => ({ ...o, [x]: (o[x] ?? 0) + 1 }), {});

test('Kahramanmaras stationlist.json: the manifest\'s counts by network and type, and its top stations\' PGA and place', () => {
  const m = manifestOf(KAHRAMANMARAS);
  const stations = parseStationlistJson(rawFile(KAHRAMANMARAS, 'stationlist.json').toString('utf8'));
  assert.equal(stations.length, m.check.features);
  assert.deepEqual(count(stations.map((s) => s.type)), m.check.station_types);
  assert.deepEqual(count(stations.map((s) => s.id.split('.')[0]!)), m.check.networks);
  for (const top of m.check.top_seismic_pga_pctg) {
    const s = stations.find((x) => x.id === top.id)!;
    assert.deepEqual([s.lon, s.lat], top.lon_lat);
    // The feature's pga is the largest unflagged horizontal channel's (ShakeMap's convention).
    const pgas = s.channels.filter((c) => !/[ZU]$/.test(c.name)).flatMap((c) => c.amplitudes.filter((a) => a.name === 'pga' && a.flag === '0').map((a) => a.value!));
    assert.equal(Math.max(...pgas), top.pga_pctg, top.id);
    assert.ok(s.vs30! > 0);
  }
  assert.ok(stations.every((s) => s.channels.every((c) => c.amplitudes.every((a) => a.unit === '%g' || a.unit === 'cm/s'))));
});

test('South Napa stationlist.xml: 334 stations by network as the manifest counts them, the peak channels it names', () => {
  const m = manifestOf(NAPA);
  const stations = parseStationlistXml(rawFile(NAPA, 'stationlist.xml').toString('utf8'));
  assert.equal(stations.length, m.check['stationlist.xml'].stations);
  assert.deepEqual(count(stations.map((s) => s.id.split('.')[0]!)), m.check['stationlist.xml'].networks);
  for (const [pga, code, , , channel] of m.check['stationlist.xml'].top_pga_pctg) {
    const c = stations.find((s) => s.id === code)!.channels.find((x) => x.name === channel)!;
    assert.equal(c.amplitudes.find((a) => a.name === 'pga')!.value, pga);
  }
  // BG.DRH's first channel, as written: pga 0.5754, pgv 0.6647, psa03 1.7396, psa10 1.1680, psa30 0.4303.
  const drh = stations.find((s) => s.id === 'BG.DRH')!;
  assert.deepEqual(drh.channels[0]!.amplitudes.map((a) => [a.name, a.value, a.unit]), [['pga', 0.5754, '%g'], ['pgv', 0.6647, 'cm/s'], ['sa(0.3)', 1.7396, '%g'], ['sa(1.0)', 1.168, '%g'], ['sa(3.0)', 0.4303, '%g']]);
});

test('the rupture outline, origin and moment tensor: Kahramanmaras 15 + 2 planes 1 to 16 km deep; South Napa M 6.0 at 11.1 km, P axis 201.035', () => {
  // One polygon of two rings: the main trace (16 top vertices, 15 planes) and a splay (3, 2 planes).
  const r = parseRuptureJson(rawFile(KAHRAMANMARAS, 'rupture.json').toString('utf8'));
  assert.equal(r.planes.length, 17);
  assert.ok(r.planes.every((p) => p.top.every((c) => c.depth_km === 1) && p.bottom.every((c) => c.depth_km === 16)));
  assert.deepEqual(r.planes[0]!.top.map((c) => [c.lon, c.lat]), [[36.273, 36.369], [36.389, 36.547]]);
  assert.deepEqual(r.planes[0]!.bottom.map((c) => [c.lon, c.lat]), [[36.273, 36.369], [36.389, 36.547]]);
  assert.equal(r.metadata.mag, manifestOf(KAHRAMANMARAS).event.magnitude);
  assert.equal(r.metadata.rake, 0);
  const e = parseEventXml(rawFile(NAPA, 'event.xml').toString('utf8'));
  assert.deepEqual(e, { id: 'nc72282711', magnitude: 6.0, lat: 38.2152, lon: -122.3123, depth_km: 11.1 });
  assert.deepEqual(parseMomentTensorAxes(rawFile(NAPA, 'moment.xml').toString('utf8')), {
    p: { azimuth: 201.035, plunge: 0.341 }, t: { azimuth: 110.967, plunge: 11.232 }, n: { azimuth: 292.752, plunge: 78.763 },
  });
  assert.throws(() => parseRuptureJson('{"type":"FeatureCollection","features":[{"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0,1],[1,0,1],[1,0,5],[0,0,5]]]]}}]}'), /not a closed top-then-bottom outline/);
});

test('one observation per station and measure, OpenQuake\'s rule: seismic only, no vertical channel, the horizontal channel of largest PGA whole, %g as g; a flagged amplitude is no observation', () => {
  // Hand-made records (not pinned data).
  const amp = (name: string, value: number | null, flag = '0', unit = '%g') => ({ name, value, unit, flag, ln_sigma: 0 });
  const full = (pga: number, sa03: number, sa10: number, flag = '0') => [amp('pga', pga), amp('sa(0.3)', sa03), amp('sa(1.0)', sa10, flag), amp('pgv', 3, '0', 'cm/s')];
  const records: StationRecord[] = [
    { id: 'XX.A', name: 'a', lat: 1, lon: 2, vs30: 400, type: 'seismic', channels: [{ name: 'HNZ', amplitudes: full(90, 90, 90) }, { name: 'HNE', amplitudes: full(10, 20, 5) }, { name: 'HNN', amplitudes: full(12, 15, 4) }] },
    { id: 'XX.B', name: 'b', lat: 1, lon: 2, vs30: null, type: 'seismic', channels: [{ name: 'HNE', amplitudes: full(50, 60, 7, 'Outlier') }, { name: 'HNN', amplitudes: full(40, 50, 6) }] },
    { id: 'XX.C', name: 'c', lat: 1, lon: 2, vs30: null, type: 'seismic', channels: [{ name: 'HNE', amplitudes: [amp('pga', 30, 'Outlier'), amp('sa(0.3)', 1), amp('sa(1.0)', 1)] }] },
    { id: 'XX.D', name: 'd', lat: 1, lon: 2, vs30: null, type: 'seismic', channels: [{ name: 'HNE', amplitudes: [amp('pga', 30), amp('sa(0.3)', 20)] }] },
    { id: 'DYFI.1', name: 'cell', lat: 1, lon: 2, vs30: null, type: 'macroseismic', channels: [] },
  ];
  const r = stationObservations(records);
  // A: HNN has the larger PGA of the horizontals (the vertical's 90 is not read). B: HNE has the
  // larger PGA, its SA(1.0) is flagged: no SA(1.0) observation, the station dropped (OpenQuake drops
  // a station missing a measure). C: its only PGA flagged. D: no SA(1.0).
  assert.deepEqual(r.observations.map((o) => [o.id, o.channel, o.values, o.vs30]), [['XX.A', 'HNN', [0.12, 0.15, 0.04], 400]]);
  assert.deepEqual(r.dropped, { 'a measure missing or flagged on its largest horizontal channel': 3, 'macroseismic (not a seismic station)': 1 });
});
