import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOUR_MS,
  saffirSimpsonCategory,
  strongestWindInGate,
  trackSamples,
  type TrackFix,
} from '../../src/domain/tracks/gate.js';
import type { Box, Polygon } from '../../src/domain/geo.js';

const T0 = Date.UTC(2020, 8, 1); // 2020-09-01T00:00Z
const at = (hours: number) => T0 + hours * HOUR_MS;
const fix = (hours: number, latitude: number, longitude: number, max_wind_kt: number | null): TrackFix => ({
  epoch_ms: at(hours),
  latitude,
  longitude,
  max_wind_kt,
});
const close = (actual: number, expected: number, tolerance = 1e-9, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected}`);

// Six-hourly fixes 3° of latitude and 6° of longitude apart, weakening from 100 to 70 kt:
// hourly samples at 01..05Z: lat 20.5, 21, 21.5, 22, 22.5; lon −79, −78, −77, −76, −75; wind 95, 90, 85, 80, 75.
const straddling = [fix(0, 20, -80, 100), fix(6, 23, -74, 70)];
const narrowGate: Box = { min_latitude: 21.2, max_latitude: 21.8, min_longitude: -77.5, max_longitude: -76.5 };

test('a gate between two fixes is crossed by an interpolated hourly sample', () => {
  assert.equal(straddling.some((f) => f.longitude >= -77.5 && f.longitude <= -76.5), false);
  const crossing = strongestWindInGate(straddling, narrowGate);
  assert.ok(crossing);
  assert.equal(crossing.epoch_ms, at(3));
  close(crossing.latitude, 21.5);
  close(crossing.longitude, -77);
  close(crossing.max_wind_kt, 85);
  assert.equal(crossing.interpolated, true);
  assert.equal(crossing.category, 2);
});

test('hourly samples: every fix plus each whole UTC hour strictly between, linear in time', () => {
  // 00:30Z (10 N, 140 E, 50 kt) to 02:45Z (12.25 N, 137.75 E, 95 kt), 135 minutes apart:
  // 01:00Z is 30/135 = 2/9 of the way: 10.5 N, 139.5 E, 60 kt; 02:00Z is 90/135 = 2/3: 11.5 N, 138.5 E, 80 kt.
  const samples = trackSamples([fix(2.75, 12.25, 137.75, 95), fix(0.5, 10, 140, 50)]);
  assert.deepEqual(
    samples.map((s) => [s.epoch_ms, s.interpolated]),
    [
      [at(0.5), false],
      [at(1), true],
      [at(2), true],
      [at(2.75), false],
    ],
  );
  close(samples[1]!.latitude, 10.5);
  close(samples[1]!.longitude, 139.5);
  close(samples[1]!.max_wind_kt, 60);
  close(samples[2]!.latitude, 11.5);
  close(samples[2]!.longitude, 138.5);
  close(samples[2]!.max_wind_kt, 80);
  // Fixes on whole hours are not repeated as hourly samples.
  assert.deepEqual(
    trackSamples(straddling).map((s) => (s.epoch_ms - T0) / HOUR_MS),
    [0, 1, 2, 3, 4, 5, 6],
  );
});

test('a fix without wind is no sample and nothing is interpolated across it', () => {
  // The middle fix sits in the gate, and so would hourly samples on both sides of it.
  const gate: Box = { min_latitude: 24, max_latitude: 26, min_longitude: -66.5, max_longitude: -62 };
  const track = [fix(0, 25, -70, 100), fix(6, 25, -64, null), fix(12, 25, -58, 60)];
  assert.equal(strongestWindInGate(track, gate), null);
  assert.deepEqual(
    trackSamples(track).map((s) => (s.epoch_ms - T0) / HOUR_MS),
    [0, 12],
  );
  // With a wind at the middle fix the same track crosses: 04Z at 66 W, 100 + (90 − 100)·4/6 = 93.33 kt.
  const withWind = [fix(0, 25, -70, 100), fix(6, 25, -64, 90), fix(12, 25, -58, 60)];
  const crossing = strongestWindInGate(withWind, gate);
  assert.equal(crossing?.epoch_ms, at(4));
  close(crossing!.longitude, -66);
  close(crossing!.max_wind_kt, 100 - 10 * (4 / 6));
});

test('across the antimeridian the track is interpolated the short way and longitudes normalised', () => {
  // 178 E to 178 W in 4 h is 4° east: 179 E, 180, 179 W at 01, 02, 03Z; wind 120 → 100.
  const track = [fix(0, 10, 178, 120), fix(4, 10, -178, 100)];
  const samples = trackSamples(track);
  assert.deepEqual(samples.map((s) => s.longitude), [178, 179, -180, -179, -178]);
  assert.ok(samples.every((s) => Math.abs(s.longitude) >= 178)); // never the long way round via 0°

  const wrappingBox: Box = { min_latitude: 9, max_latitude: 11, min_longitude: 179.5, max_longitude: -179.5 };
  const polygon: Polygon = [[179.5, 9], [-179.5, 9], [-179.5, 11], [179.5, 11]];
  const eastOfDateline: Box = { min_latitude: 9, max_latitude: 11, min_longitude: -180, max_longitude: -179.5 };
  for (const gate of [wrappingBox, polygon, eastOfDateline]) {
    const crossing = strongestWindInGate(track, gate);
    assert.equal(crossing?.epoch_ms, at(2), JSON.stringify(gate));
    close(crossing!.max_wind_kt, 110);
    assert.equal(crossing!.category, 3);
  }
});

test('time filter: windows are [start, end); a predicate works the same way', () => {
  assert.equal(strongestWindInGate(straddling, narrowGate, [[at(3), at(4)]])?.epoch_ms, at(3));
  assert.equal(strongestWindInGate(straddling, narrowGate, [[at(0), at(3)]]), null);
  assert.equal(strongestWindInGate(straddling, narrowGate, [[at(0), at(1)], [at(2), at(3) + 1]])?.epoch_ms, at(3));
  assert.equal(strongestWindInGate(straddling, narrowGate, (t) => t >= at(4)), null);
  // A wide gate under a filter keeps the strongest sample that passes it.
  const wide: Box = { min_latitude: 0, max_latitude: 40, min_longitude: -100, max_longitude: -60 };
  assert.equal(strongestWindInGate(straddling, wide)?.max_wind_kt, 100);
  assert.equal(strongestWindInGate(straddling, wide, [[at(2), at(5)]])?.max_wind_kt, 90);
});

test('ties go to the earliest sample; no sample inside gives null', () => {
  const steady = [fix(0, 20, -80, 90), fix(2, 20, -78, 90)];
  const wide: Box = { min_latitude: 0, max_latitude: 40, min_longitude: -100, max_longitude: -60 };
  assert.equal(strongestWindInGate(steady, wide)?.epoch_ms, at(0));
  const elsewhere: Box = { min_latitude: -10, max_latitude: 0, min_longitude: 0, max_longitude: 10 };
  assert.equal(strongestWindInGate(steady, elsewhere), null);
  assert.equal(strongestWindInGate([], wide), null);
});

test('Saffir–Simpson categories from knots (64, 83, 96, 113, 137 lower bounds)', () => {
  const cases: Array<[number, number]> = [
    [0, 0], [63, 0], [63.9, 0], [64, 1], [82, 1], [82.5, 1], [83, 2], [95, 2], [96, 3],
    [112, 3], [113, 4], [136, 4], [137, 5], [185, 5],
  ];
  for (const [kt, category] of cases) assert.equal(saffirSimpsonCategory(kt), category, `${kt} kt`);
  assert.throws(() => saffirSimpsonCategory(Number.NaN), RangeError);
});
