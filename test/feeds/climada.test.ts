// The readers of the pinned CLIMADA tropical-cyclone snapshots (climada-demo-tc, tc-impact-functions)
// through the feed store, checked against what the manifests state of the files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../src/feeds/store.js';
import { climadaDemo, tcCalibration } from '../../src/feeds/climada.js';
import { FEEDS_DIR, latestVersion, manifestOf } from '../support/feeds.js';

const DEMO = 'climada-demo-tc';
const TABLES = 'tc-impact-functions';
const store = await FeedStore.open(FEEDS_DIR, { feeds: [DEMO, TABLES] });
const demo = await climadaDemo(store, store.get(DEMO, latestVersion(DEMO))!);
const calibration = await tcCalibration(store, store.get(TABLES, latestVersion(TABLES))!);

test('the probabilistic Atlantic hazard: 14,450 events × 100 centroids, sparse, with frequencies', () => {
  const h = demo.hazard;
  assert.equal(h.hazard.event_ids.length, 14_450);
  assert.equal(h.hazard.centroidCount, 100);
  assert.equal(h.lat.length, 100);
  assert.equal(h.units, 'm/s');
  assert.equal(h.peril, 'TC');
  assert.equal(h.fraction_departure, 0, 'the stored fraction is 1 wherever stored');
  const m = h.hazard.intensity;
  assert.equal(m.kind, 'sparse');
  if (m.kind !== 'sparse') return;
  // MATLAB stored 116,581 values column by column (the dataset's length); the rows hold them all.
  assert.equal(m.value.length, 116_581);
  assert.equal(m.rowStart[14_450], 116_581);
  // Centroids: a 10 × 10 grid of whole degrees over lat 21 to 30, lon -84 to -75 (the manifest's extent).
  assert.deepEqual([Math.min(...h.lat), Math.max(...h.lat), Math.min(...h.lon), Math.max(...h.lon)], [21, 30, -84, -75]);
  // 1,445 historical tracks, each with 9 synthetic members (orig_event_count 1445 in the file).
  assert.equal(h.orig_event_flag.reduce((a, b) => a + b, 0), 1_445);
  // Each event's frequency is 1 / (161 years × 10 members); rows are in event order.
  assert.ok(Array.from(h.hazard.frequency).every((f) => Math.abs(f - 1 / 1610) < 1e-15));
  assert.deepEqual([h.year[0], h.year[14_449]], [1851, 2011]);
});

test('the demo entity: 50 exposures and their two TC impact functions', () => {
  const e = demo.entity;
  assert.equal(e.exposures.length, 50);
  const total = e.exposures.reduce((a, x) => a + x.value, 0);
  assert.ok(Math.abs(total - 6.570532945599105e11) / 6.570532945599105e11 < 1e-12, `total value ${total}`);
  // South-east Florida (the manifest rounds the extent to lat 26.35 to 26.96, lon -80.75 to -80.04).
  assert.ok(e.exposures.every((x) => x.lat >= 26.34 && x.lat <= 26.96 && x.lon >= -80.75 && x.lon <= -80.04));
  assert.deepEqual(e.impact_functions.map((f) => [f.id, f.peril, f.intensity.length]), [[1, 'TC', 9], [3, 'TC', 9]]);
  assert.deepEqual(e.impact_functions[0]!.intensity.slice(0, 3), [0, 20, 30]);
});

test('the Barbados test track and centroids', () => {
  const t = demo.test_track;
  assert.equal(t.sid, '1951239N12334');
  assert.equal(t.time.length, 38);
  assert.equal(new Date(t.time[0]!).toISOString(), '1951-08-27T06:00:00.000Z');
  // Every pcen is -999 in the file, so every central pressure is CLIMADA's estimate from position and wind.
  assert.ok(Math.abs(t.central_pressure_hpa[0]! - (1026.3401 - 0.05504 * 12.3 - 0.03536 * -25.6 - 0.7357 * 25)) < 1e-9);
  assert.equal(demo.test_centroids.lat.length, 296);
});

test('the calibration tables: regional v_half per approach and the country → region assignment', () => {
  const stated = manifestOf(TABLES).parameters.eberenz_2021_regional_v_half_m_s;
  for (const [approach, key] of [['TDR1.0', 'TDR1.0 (CLIMADA default)'], ['TDR1.5', 'TDR1.5'], ['RMSF', 'RMSF']] as const) {
    for (const [region, v] of Object.entries(stated[key] as Record<string, number>)) {
      assert.ok(Math.abs(calibration.v_half[approach]![region]! - v) < 0.051, `${approach} ${region}: ${calibration.v_half[approach]![region]} vs ${v}`);
    }
  }
  assert.equal(calibration.region_of_country.USA, 'NA2');
  assert.equal(calibration.region_of_country.BRB, 'NA1');
  assert.equal(calibration.region_of_country.PHL, 'WP2');
  assert.equal(Object.keys(calibration.region_of_country).length, 250);
});
