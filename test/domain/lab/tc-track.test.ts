// A best-track storm read as a track the way CLIMADA v6.1.0 reads one (track.ts): the pressure and
// radius estimates against CLIMADA's own test values (climada/hazard/test/test_tc_tracks.py at tag
// v6.1.0, tolerances as those tests state them), and the whole-track pressure rule of its
// processed-track reader (tc_tracks.py _read_ibtracs_csv_single) on its Barbados test track, on a
// storm made up here and on Grace 1991 from the pinned HURDAT2 archive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FeedStore } from '../../../src/feeds/store.js';
import { climadaDemo } from '../../../src/feeds/climada.js';
import { parseHurdat2 } from '../../../src/feeds/parsers/hurdat2.js';
import { estimatePressure, estimateRmw, trackOfStorm, trackPressures } from '../../../src/domain/lab/lanes/tropical-cyclone/track.js';
import type { Storm } from '../../../src/domain/hazard/records.js';
import { FEEDS_DIR, latestVersion } from '../../support/feeds.js';

/** CLIMADA's fit written out here (tc_tracks.py _estimate_pressure's coefficients). */
const fit = (lat: number, lon: number, kn: number) => 1026.3401 - 0.05504 * lat - 0.03536 * lon - 0.7357 * kn;

// test_estimate_params_pass: ref_pres [nan, 993, 990, 986, nan, 1004, nan]
// (assert_array_almost_equal, decimal=0: |error| < 1.5 hPa); ref_rmw [17, 33, nan, 25, nan,
// 43.95543761, 13] (decimal 6: 1.5e-6 nm).
test('CLIMADA\'s pressure and radius estimates on its test values', () => {
  const cen = [-999, 993, NaN, -1, 0, 1004, NaN];
  const vmax = [45, NaN, 50, 55, 0, 60, 75];
  const lat = [13.8, 13.9, 14, 14.1, 14.1, NaN, -999];
  const lon = [NaN, -52.8, -54.4, -56, -58.4, -59.7, -61.1];
  const refPres = [NaN, 993, 990, 986, NaN, 1004, NaN];
  cen.forEach((p, i) => {
    const got = estimatePressure(p, lat[i]!, lon[i]!, vmax[i]!);
    if (Number.isNaN(refPres[i]!)) assert.ok(Number.isNaN(got), `${i}: ${got}`);
    else assert.ok(Math.abs(got - refPres[i]!) < 1.5, `${i}: ${got} vs ${refPres[i]}`);
  });
  assert.ok(Math.abs(estimatePressure(NaN, 14, -54.4, 50) - fit(14, -54.4, 50)) < 1e-12);

  const rmw = [17, 33, -1, 25, NaN, -5, 13];
  const refRmw = [17, 33, NaN, 25, NaN, 43.95543761, 13];
  rmw.forEach((r, i) => {
    const got = estimateRmw(r, cen[i]!);
    if (Number.isNaN(refRmw[i]!)) assert.ok(Number.isNaN(got), `${i}: ${got}`);
    else assert.ok(Math.abs(got - refRmw[i]!) < 1.5e-6, `${i}: ${got} vs ${refRmw[i]}`);
  });
});

// test_from_processed_ibtracs_csv: 38 fixes, lon[11] = -39.60, lat[23] = 14.10, time_step[7] = 6,
// max_sustained_wind[21] = 55, radius_max_wind 0 throughout, central_pressure[29] = 976 (0 places:
// |error| < 0.5 hPa), environmental pressure 1010.
test('CLIMADA\'s Barbados test track read as its processed-track reader reads it', async () => {
  const DEMO = 'climada-demo-tc';
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [DEMO] });
  const t = (await climadaDemo(store, store.get(DEMO, latestVersion(DEMO))!)).test_track;
  assert.equal(t.time.length, 38);
  assert.equal(t.lon[11], -39.6);
  assert.equal(t.lat[23], 14.1);
  assert.equal(t.time_step_h[7], 6);
  assert.equal(t.max_wind_kn[21], 55);
  assert.ok(t.rmw_nm.every((r) => r === 0));
  assert.ok(Math.abs(t.central_pressure_hpa[29]! - 976) < 0.5, `${t.central_pressure_hpa[29]}`);
  assert.ok(t.environmental_pressure_hpa.every((p) => p === 1010));
});

// A storm made up for this test: four fixes, the third without a pressure, the last without a wind.
const made: Storm = {
  storm_id: 'AL992000', name: 'TEST', basin: 'AL',
  fixes: [
    { lat: 20, lon: -60, wind: 50, pres: 990 },
    { lat: 21, lon: -61, wind: 60, pres: 985 },
    { lat: 22, lon: -62, wind: 70, pres: null },
    { lat: 23, lon: -63, wind: null, pres: 975 },
  ].map((f, i) => {
    const epoch_ms = Date.UTC(2000, 8, 1, 6 * i);
    return { time: new Date(epoch_ms).toISOString(), epoch_ms, latitude: f.lat, longitude: f.lon, max_wind_kt: f.wind, min_pressure_mb: f.pres };
  }),
};

test('one fix without a central pressure: every fix\'s pressure is the estimate (a fix without wind has none); a full track keeps its own', () => {
  const track = trackOfStorm(made);
  made.fixes.slice(0, 3).forEach((f, i) => assert.ok(Math.abs(track.central_pressure_hpa[i]! - fit(f.latitude, f.longitude, f.max_wind_kt!)) < 1e-12, `fix ${i}`));
  assert.ok(Number.isNaN(track.central_pressure_hpa[3]!));
  const full = trackOfStorm({ ...made, fixes: made.fixes.map((f) => ({ ...f, min_pressure_mb: f.min_pressure_mb ?? 980 })) });
  assert.deepEqual(full.central_pressure_hpa, [990, 985, 980, 975]);
  assert.deepEqual(trackPressures([990, 0], [20, 21], [-60, -61], [50, 60]), [fit(20, -60, 50), fit(21, -61, 60)]);
});

test('Grace 1991 (HURDAT2 AL111991): its last fix has no pressure, so every fix carries the estimate', () => {
  const ATL = 'noaa-nhc-hurdat2-atlantic';
  const dir = join(FEEDS_DIR, ATL, latestVersion(ATL));
  const archive = parseHurdat2(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.txt'))!), 'utf8'));
  const grace = archive.storms.find((s) => s.storm_id === 'AL111991')!;
  assert.equal(grace.fixes.at(-1)!.min_pressure_mb, null);
  assert.ok(grace.fixes.slice(0, -1).every((f) => f.min_pressure_mb !== null));
  const track = trackOfStorm(grace);
  grace.fixes.forEach((f, i) => assert.ok(Math.abs(track.central_pressure_hpa[i]! - fit(f.latitude, f.longitude, f.max_wind_kt!)) < 1e-12, `fix ${i}`));
  // Reported 982 hPa at 12Z on 29 October; the estimate from 85 kn is about 20 hPa deeper.
  const i = grace.fixes.findIndex((f) => f.time === '1991-10-29T12:00:00Z');
  assert.equal(grace.fixes[i]!.min_pressure_mb, 982);
  assert.ok(track.central_pressure_hpa[i]! < 970, `${track.central_pressure_hpa[i]}`);
});
