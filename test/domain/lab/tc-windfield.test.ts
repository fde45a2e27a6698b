// Holland (2008) winds as CLIMADA computes them, on CLIMADA's Barbados test track
// (trac_brb_test.csv, put on 1-hour steps) at the pinned test centroids (centr_brb_test.mat).
// Published values: climada_python climada/hazard/test/test_trop_cyclone.py, TestReader.test_set_one_pass,
// metric "equirect", model "H08", at commit 104dfdb64ed00fce6c49a5d67be371f4fca016dd (2024-01-11), the
// last commit whose test read centr_brb_test.mat (the next, ca148c09, moved to a downloaded copy):
//   intensity at centroids [0, 1, 2, 3, 80, 100, 120, 200, 220, 250, 260, 295] =
//   [22.74903, 23.784691, 24.82255, 22.67403, 27.218706, 30.593959, 18.980878, 24.540069,
//    27.826407, 26.846293, 0, 34.568898] m/s; 255 of the 296 centroids non-zero.
// v6.1.0's test_set_one_pass publishes the same values after the b-value clip became
// [1, 2.5] × 0.9² (commit 4b48511d, "Introduce a second version of the Holland 2010 model (#846)"):
// on this track b stays inside both intervals. Tolerance: 1e-4 m/s.
//
// Then the three rules of CLIMADA v6.1.0 the lab follows, each against CLIMADA's own test values
// where it publishes some (climada/hazard/test/test_tc_tracks.py and
// test_trop_cyclone_windfields.py at tag v6.1.0, tolerances as those tests state them) and an
// independent recount elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { climadaDemo } from '../../../src/feeds/climada.js';
import { equalTimestep, hollandB2008, hollandBClip, interpolate, lonBounds, lonNormalize, placeIndex, siTrack, trackWindfield } from '../../../src/domain/lab/lanes/tropical-cyclone/holland-2008.js';
import { estimateRmw, type TcTrack } from '../../../src/domain/lab/lanes/tropical-cyclone/track.js';
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

// numpy.interp's documented behaviour (numpy.org, numpy.interp, Examples: xp = [1, 2, 3],
// fp = [3, 2, 0]; interp(2.5) = 1.0, interp(1.5) = 2.5, interp(2.72) = 0.56), and its rule at a
// knot's own x (compiled_base.c arr_interp: "Avoid potential non-finite interpolation"). Outside the
// knots scipy's interp1d, as xarray calls it (bounds_error=False), answers NaN.
test('linear interpolation as numpy\'s interp: a knot\'s own value even between NaN neighbours, NaN across a NaN, NaN outside', () => {
  assert.deepEqual(interpolate([0, 1, 2], [NaN, 80, NaN], [1], 1), [80]);
  assert.deepEqual(interpolate([0, 1], [NaN, 5], [1], 1), [5]);
  assert.deepEqual(interpolate([0, 1], [5, NaN], [0], 1), [5]);
  for (const x of [0, 0.5, 1.5, 2]) assert.ok(Number.isNaN(interpolate([0, 1, 2], [NaN, 80, NaN], [x], 1)[0]!), `x = ${x}`);
  const [a, b, c] = interpolate([1, 2, 3], [3, 2, 0], [2.5, 1.5, 2.72], 1);
  assert.equal(a, 1);
  assert.equal(b, 2.5);
  assert.ok(Math.abs(c! - 0.56) < 1e-12, `${c}`);
  assert.ok(interpolate([1, 2, 3], [3, 2, 0], [0.5, 3.5], 1).every(Number.isNaN));
});

// A track made up for this test: 6-hourly fixes, a radius of maximum wind reported at 18:00 only
// (as HURDAT2 reports one now and then between fixes without), pressures throughout.
test('the 1-hour resampling keeps a radius reported at a whole-hour fix between fixes without one; the wind field estimates the others from pressure', () => {
  const t0 = Date.UTC(2012, 9, 29, 12);
  const track: TcTrack = {
    sid: 'TEST', name: null, basin: 'NA',
    time: [0, 6, 12].map((h) => t0 + h * 3_600_000), lat: [38, 39, 40], lon: [-72, -73, -74], time_step_h: [6, 6, 6],
    max_wind_kn: [80, 80, 70], central_pressure_hpa: [946, 945, 950], environmental_pressure_hpa: [1010, 1010, 1010],
    rmw_nm: [NaN, 80, NaN],
  };
  const hourly = equalTimestep(track);
  assert.equal(hourly.time.length, 13);
  assert.equal(hourly.rmw_nm[6], 80);
  hourly.rmw_nm.forEach((r, i) => { if (i !== 6) assert.ok(Number.isNaN(r), `step ${i}: ${r}`); });
  // Pressures between fixes: the line through them (numpy: slope · (x − x_j) + y_j).
  assert.equal(hourly.central_pressure_hpa[6], 945);
  assert.ok(Math.abs(hourly.central_pressure_hpa[9]! - 947.5) < 1e-12);
  // At 18:00 the reported 80 nm; elsewhere CLIMADA's estimate from that step's pressure.
  const si = siTrack(hourly);
  assert.equal(si.rad[6], 80 * 1852);
  for (const i of [5, 7]) assert.ok(Math.abs(si.rad[i]! - estimateRmw(NaN, hourly.central_pressure_hpa[i]!) * 1852) < 1e-9);
  assert.ok(si.rad[5]! < 30 * 1852, 'the estimate at 945 hPa is near 17 nm, not 80');
});

// CLIMADA's test_interp_track_pass (test_tc_tracks.py, v6.1.0) on the same track: 223 steps,
// lon[11] = -27.426151640151684 and lat[23] = 12.300006169591480 (assertAlmostEqual: 7 places),
// max_sustained_wind[21] = 25 (assertEqual), central_pressure finite, [29] = 1008 (0 places);
// test_estimate_rmw_pass: estimate_rmw of the resampled track in km (× 1.852) at steps
// [0, 10, 128, 129, 130, 189, 190, 191, 192, 200] = [87, 87, 56, 55, 54, 53, 55, 57, 58, 71] (0 places).
test('CLIMADA\'s resampling and radius estimates of its Barbados test track', () => {
  const track = equalTimestep(demo.test_track);
  assert.equal(track.time.length, 223);
  assert.ok(Math.abs(track.lon[11]! - -27.426151640151684) < 5e-8, `lon[11] ${track.lon[11]}`);
  assert.ok(Math.abs(track.lat[23]! - 12.300006169591480) < 5e-8, `lat[23] ${track.lat[23]}`);
  assert.equal(track.max_wind_kn[21], 25);
  assert.ok(track.time_step_h.every((h) => h === 1));
  assert.ok(track.central_pressure_hpa.every(Number.isFinite));
  assert.ok(Math.abs(track.central_pressure_hpa[29]! - 1008) < 0.5);
  const steps = [0, 10, 128, 129, 130, 189, 190, 191, 192, 200];
  const km = [87, 87, 56, 55, 54, 53, 55, 57, 58, 71];
  steps.forEach((i, k) => {
    const r = estimateRmw(track.rmw_nm[i]!, track.central_pressure_hpa[i]!) * 1.852;
    assert.ok(Math.abs(r - km[k]!) < 0.5, `step ${i}: ${r} km vs ${km[k]}`);
  });
});

// CLIMADA's test_bs_holland_2008_pass (test_trop_cyclone_windfields.py, v6.1.0, "Compare to MATLAB
// reference"): hol_b = [NaN, 1.27, 1.27] (assert_allclose, atol 1e-2). The clip interval's lower end
// with the 0.9 factor is published by test_B_holland_1980_pass: 0.810 (atol 1e-3).
test('Holland\'s b as CLIMADA\'s _bs_holland_2008: its test values, and clipped to [1, 2.5] × 0.9² = [0.81, 2.025]', () => {
  const lat = [12.299999504631234, 12.299999504631343, 12.299999279463769];
  const pdelta = [4.74, 4.73, 4.73].map((p) => p * 100);
  const cen = [1005.2585, 1005.2633, 1005.2682].map((p) => p * 100);
  const vtrans = [NaN, 5.241999541820597, 5.123882725120426];
  const b = lat.map((l, i) => hollandB2008(pdelta[i]!, cen[i]!, i === 0 ? 0 : cen[i - 1]!, 3600, l, vtrans[i]!));
  assert.ok(Number.isNaN(b[0]!));
  for (const v of b.slice(1)) assert.ok(Math.abs(v - 1.27) <= 1e-2, `${v}`);

  const [lo, hi] = hollandBClip();
  assert.ok(Math.abs(lo - 0.81) < 1e-15 && Math.abs(hi - 2.025) < 1e-15, `${lo}, ${hi}`);
  assert.ok(Math.abs(lo - 0.810) <= 1e-3);
  // Holland (2008) eq. 11, written out here: hPa, hPa per hour, m/s.
  const raw = (dp: number, dpdt: number, la: number, v: number) => -4.4e-5 * dp * dp + 0.01 * dp + 0.03 * dpdt - 0.014 * Math.abs(la) + 0.15 * v ** (0.6 * (1 - dp / 215)) + 1;
  const at = (dp: number, dpdt: number, la: number, v: number) => hollandB2008(dp * 100, 100_000, 100_000 - dpdt * 100, 3600, la, v);
  // Made-up steps: a weak storm far north (raw 0.17), one in the band the old clip raised to 1
  // (raw 0.90, kept now), one filling fast (raw 2.10, kept before, 2.025 now), and a clip bound.
  assert.ok(raw(1, 0, 60, 0) < lo);
  assert.equal(at(1, 0, 60, 0), lo);
  assert.ok(raw(1, 0, 7.85, 0) > lo && raw(1, 0, 7.85, 0) < 1);
  assert.ok(Math.abs(at(1, 0, 7.85, 0) - raw(1, 0, 7.85, 0)) < 1e-12);
  assert.ok(raw(100, 10, 5, 10) > hi && raw(100, 10, 5, 10) < 2.5);
  assert.equal(at(100, 10, 5, 10), hi);
  assert.ok(Math.abs(at(100, 0, 5, 10) - raw(100, 0, 5, 10)) < 1e-12);
});
