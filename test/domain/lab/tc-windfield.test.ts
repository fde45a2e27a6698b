// Holland (2008) winds as CLIMADA computes them, on CLIMADA's Barbados test track
// (trac_brb_test.csv, put on 1-hour steps) at the pinned test centroids (centr_brb_test.mat).
// Published values: climada_python climada/hazard/test/test_trop_cyclone.py, TestReader.test_set_one_pass,
// metric "equirect", model "H08", at commit 104dfdb64ed00fce6c49a5d67be371f4fca016dd (2024-01-11), the
// last commit whose test read centr_brb_test.mat (the next, ca148c09, moved to a downloaded copy):
//   intensity at centroids [0, 1, 2, 3, 80, 100, 120, 200, 220, 250, 260, 295] =
//   [22.74903, 23.784691, 24.82255, 22.67403, 27.218706, 30.593959, 18.980878, 24.540069,
//    27.826407, 26.846293, 0, 34.568898] m/s; 255 of the 296 centroids non-zero.
// Tolerance: 1e-4 m/s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { climadaDemo } from '../../../src/feeds/climada.js';
import { equalTimestep, interpolate, lonBounds, lonNormalize, placeIndex, trackWindfield } from '../../../src/domain/lab/lanes/tropical-cyclone/holland-2008.js';
import { FEEDS_DIR, latestVersion } from '../../support/feeds.js';

const DEMO = 'climada-demo-tc';
const store = await FeedStore.open(FEEDS_DIR, { feeds: [DEMO] });
const demo = await climadaDemo(store, store.get(DEMO, latestVersion(DEMO))!);

const IDX = [0, 1, 2, 3, 80, 100, 120, 200, 220, 250, 260, 295];
const PUBLISHED = [22.74903, 23.784691, 24.82255, 22.67403, 27.218706, 30.593959, 18.980878, 24.540069, 27.826407, 26.846293, 0, 34.568898];

test('Holland 2008 on the Barbados test track matches CLIMADA\'s test values to 1e-4 m/s; 255 of 296 centroids non-zero', () => {
  const track = equalTimestep(demo.test_track);
  // 6-hourly fixes from 1951-08-27 06Z to 1951-09-05 12Z: 222 hours, 223 hourly steps.
  assert.equal(track.time.length, 223);
  const c = demo.test_centroids;
  const w = trackWindfield(track, placeIndex(c.lat, c.lon));
  const full = new Float64Array(c.lat.length);
  w.place.forEach((p, k) => { full[p] = w.wind[k]!; });
  assert.equal(w.place.length, 255);
  assert.equal(Array.from(full).filter((v) => v > 0).length, 255);
  IDX.forEach((i, k) => assert.ok(Math.abs(full[i]! - PUBLISHED[k]!) < 1e-4, `centroid ${i}: ${full[i]} vs ${PUBLISHED[k]}`));
  assert.equal(full[260], 0);
  assert.ok(Array.from(w.wind).every((v) => v >= 17.5));
});

test('the not-a-knot cubic reproduces a cubic exactly; fewer fixes fall back to quadratic and linear', () => {
  const xs = [0, 6, 12, 18, 30, 36];
  const f = (x: number) => 0.001 * x ** 3 - 0.05 * x ** 2 + 0.3 * x + 12;
  const q = [1, 7.5, 13, 25, 35];
  interpolate(xs, xs.map(f), q, 3).forEach((v, i) => assert.ok(Math.abs(v - f(q[i]!)) < 1e-9));
  const g = (x: number) => 2 * x * x - x + 1;
  interpolate([0, 6, 12], [0, 6, 12].map(g), [3, 9], 2).forEach((v, i) => assert.ok(Math.abs(v - g([3, 9][i]!)) < 1e-9));
  assert.deepEqual(interpolate([0, 6], [10, 16], [3], 1), [13]);
});

test('longitudes across the antimeridian: bounds and normalisation as CLIMADA writes them', () => {
  assert.deepEqual(lonBounds([-179, 175, 178]), [175, 181]);
  assert.equal(lonNormalize(-179, 178), 181);
  assert.equal(lonNormalize(190), -170);
  assert.equal(lonNormalize(180), 180);
});
