import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EARTH_MEAN_RADIUS_KM,
  boundingBox,
  boxContains,
  haversineKm,
  polygonContains,
  type Box,
  type Polygon, boxWithin } from '../../src/domain/geo.js';

const p = (latitude: number, longitude: number) => ({ latitude, longitude });
const close = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} vs ${expected} ± ${tolerance}`);

test('haversine: arcs of the 6371.0088 km mean-radius sphere', () => {
  const oneDegree = (EARTH_MEAN_RADIUS_KM * Math.PI) / 180; // 111.19508 km
  close(oneDegree, 111.19508, 1e-5);
  close(haversineKm(p(0, 0), p(1, 0)), oneDegree, 1e-9);
  close(haversineKm(p(0, 0), p(0, 90)), (EARTH_MEAN_RADIUS_KM * Math.PI) / 2, 1e-9);
  // Antipodes: haversine is ill-conditioned there (asin near 1 keeps ~√ε relative), so 1 m, not 1 µm.
  close(haversineKm(p(10, 20), p(-10, -160)), EARTH_MEAN_RADIUS_KM * Math.PI, 1e-3);
  close(haversineKm(p(0, 179.5), p(0, -179.5)), oneDegree, 1e-9); // across the antimeridian
  // At 60° N a degree of longitude is about half a degree of arc: 2R·asin(cos60°·sin0.5°).
  close(haversineKm(p(60, 0), p(60, 1)), 2 * EARTH_MEAN_RADIUS_KM * Math.asin(0.5 * Math.sin(Math.PI / 360)), 1e-9);
  assert.equal(haversineKm(p(35.6, 139.7), p(35.6, 139.7)), 0);
  close(haversineKm(p(35.6, 139.7), p(34.05, -118.25)), haversineKm(p(34.05, -118.25), p(35.6, 139.7)), 1e-9);
});

test('box containment is inclusive on every edge and corner', () => {
  const box: Box = { min_latitude: 34, max_latitude: 36, min_longitude: 139, max_longitude: 141 };
  for (const inside of [p(35, 140), p(34, 140), p(36, 140), p(35, 139), p(35, 141), p(34, 139), p(36, 141)]) {
    assert.ok(boxContains(box, inside), JSON.stringify(inside));
  }
  for (const outside of [p(33.999999, 140), p(36.000001, 140), p(35, 138.999999), p(35, 141.000001)]) {
    assert.ok(!boxContains(box, outside), JSON.stringify(outside));
  }
});

test('a box with min_longitude > max_longitude crosses the antimeridian; ±180 is one meridian', () => {
  const box: Box = { min_latitude: -20, max_latitude: -10, min_longitude: 170, max_longitude: -170 };
  for (const lon of [170, 175, 180, -180, -175, -170]) assert.ok(boxContains(box, p(-15, lon)), String(lon));
  for (const lon of [169.9, -169.9, 0]) assert.ok(!boxContains(box, p(-15, lon)), String(lon));
  const eastEdge: Box = { min_latitude: 0, max_latitude: 1, min_longitude: 175, max_longitude: 180 };
  assert.ok(boxContains(eastEdge, p(0.5, -180)));
});

test('polygon: ray casting with the boundary inside, concave shapes, open or closed rings', () => {
  // A U shape (vertices [lon, lat]) opening north: the notch 2 < lon < 3, lat > 1 is outside.
  // p() takes (latitude, longitude).
  const u: Polygon = [[0, 0], [5, 0], [5, 4], [3, 4], [3, 1], [2, 1], [2, 4], [0, 4]];
  assert.ok(polygonContains(u, p(2, 1))); // west arm
  assert.ok(polygonContains(u, p(3, 4))); // east arm
  assert.ok(polygonContains(u, p(0.5, 2.5))); // base, below the notch
  assert.ok(!polygonContains(u, p(3, 2.5))); // in the notch
  assert.ok(!polygonContains(u, p(4.5, 2.5))); // north of the notch
  assert.ok(!polygonContains(u, p(-0.001, 2))); // just south of the base
  // Edges and vertices count as inside.
  assert.ok(polygonContains(u, p(0, 2.5))); // south edge
  assert.ok(polygonContains(u, p(2.5, 0))); // west edge
  assert.ok(polygonContains(u, p(2, 3))); // the notch's east wall, lon 3
  assert.ok(polygonContains(u, p(1, 2.5))); // the notch's floor, lat 1
  assert.ok(polygonContains(u, p(4, 2))); // vertex [2, 4]
  assert.ok(polygonContains(u, p(0, 0))); // vertex [0, 0]
  const closed: Polygon = [...u, [0, 0]];
  for (const q of [p(2, 1), p(3, 2.5), p(0.5, 1), p(0, 2.5)]) assert.equal(polygonContains(closed, q), polygonContains(u, q));
  assert.equal(polygonContains([[0, 0], [1, 1]], p(0, 0)), false);
});

test('polygon across the antimeridian takes each edge the short way', () => {
  const gate: Polygon = [[175, 10], [-175, 10], [-175, 20], [175, 20]];
  for (const lon of [175, 178, 180, -180, -178, -175]) assert.ok(polygonContains(gate, p(15, lon)), String(lon));
  for (const lon of [174, -174, 0, 90]) assert.ok(!polygonContains(gate, p(15, lon)), String(lon));
});

test('bounding box of points, antimeridian-aware', () => {
  assert.equal(boundingBox([]), null);
  assert.deepEqual(boundingBox([p(1, 2), p(-3, 4), p(5, -6)]), {
    min_latitude: -3,
    max_latitude: 5,
    min_longitude: -6,
    max_longitude: 4,
  });
  assert.deepEqual(boundingBox([p(0, 10)]), { min_latitude: 0, max_latitude: 0, min_longitude: 10, max_longitude: 10 });
  const across = boundingBox([p(10, 178), p(12, -179), p(11, 179.5)]);
  assert.deepEqual(across, { min_latitude: 10, max_latitude: 12, min_longitude: 178, max_longitude: -179 });
  assert.ok(boxContains(across!, p(11, 180)));
  assert.ok(!boxContains(across!, p(11, 0)));
  assert.deepEqual(boundingBox([p(0, 170), p(1, 180)]), { min_latitude: 0, max_latitude: 1, min_longitude: 170, max_longitude: 180 });
});

test('a point exactly on a box edge is inside (no modular rounding)', () => {
  // -116.45 was shifted to -116.45000000000002 by a modulo step and fell outside.
  const box = { min_latitude: 41.9, max_latitude: 49.1, min_longitude: -124.9, max_longitude: -116.45 };
  assert.equal(boxContains(box, { latitude: 45, longitude: -116.45 }), true);
  assert.equal(boxContains(box, { latitude: 45, longitude: -124.9 }), true);
  assert.equal(boxContains(box, { latitude: 45, longitude: -116.4499 }), false);
});

test('boxWithin: edges may coincide; a box across the antimeridian holds boxes on both sides', () => {
  const outer = { min_latitude: 30, max_latitude: 40, min_longitude: -120, max_longitude: -110 };
  assert.equal(boxWithin(outer, outer), true);
  assert.equal(boxWithin({ min_latitude: 31, max_latitude: 39, min_longitude: -119, max_longitude: -111 }, outer), true);
  assert.equal(boxWithin({ min_latitude: 31, max_latitude: 41, min_longitude: -119, max_longitude: -111 }, outer), false);
  assert.equal(boxWithin({ min_latitude: 31, max_latitude: 39, min_longitude: -121, max_longitude: -111 }, outer), false);
  const pacific = { min_latitude: -10, max_latitude: 10, min_longitude: 170, max_longitude: -170 };
  assert.equal(boxWithin({ min_latitude: 0, max_latitude: 5, min_longitude: 175, max_longitude: -175 }, pacific), true);
  assert.equal(boxWithin({ min_latitude: 0, max_latitude: 5, min_longitude: 160, max_longitude: 175 }, pacific), false);
});
