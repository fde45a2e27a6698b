// The planar rupture and its distances. Sizes against Wells and Coppersmith (1994) Table 2A worked
// by hand; distances against an independent brute-force search over points of the plane (a 401 x
// 401 grid of the rupture, so agreement is to the grid's spacing, stated per case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distancesTo, localXY, mechanismOfRake, planarRupture, type PlanarRupture } from '../../../src/domain/hazard/gmpe/rupture.js';

const RAD = Math.PI / 180;

test('Wells and Coppersmith (1994) sizes: M7 strike-slip is 758.6 km2, 13.49 km wide, 56.2 km long', () => {
  const r = planarRupture({ mag: 7, lat: 0, lon: 0, depth_km: 10, strike: 0, dip: 90, rake: 0 });
  // log10 A = -3.42 + 0.90 x 7 = 2.88; log10 W = -0.76 + 0.27 x 7 = 1.13.
  assert.ok(Math.abs(r.width_km - 10 ** 1.13) < 1e-9);
  assert.ok(Math.abs(r.length_km - 10 ** 2.88 / 10 ** 1.13) < 1e-9);
  assert.ok(Math.abs(r.ztor_km - (10 - 10 ** 1.13 / 2)) < 1e-9, 'centred on the hypocentre');
  // A shallow hypocentre: the plane is moved down to start at the surface.
  assert.equal(planarRupture({ mag: 7, lat: 0, lon: 0, depth_km: 2, strike: 0, dip: 90, rake: 0 }).ztor_km, 0);
  // A wide reverse rupture is capped by the 20 km layer: W sin(dip) <= 20.
  const big = planarRupture({ mag: 8, lat: 0, lon: 0, depth_km: 10, strike: 0, dip: 30, rake: 90 });
  assert.ok(Math.abs(big.width_km - 20 / Math.sin(30 * RAD)) < 1e-9);
  assert.ok(Math.abs(big.length_km * big.width_km - 10 ** (-3.99 + 0.98 * 8)) < 1e-6, 'area kept');
  // A hypocentre below the 20 km layer: the plane keeps its scaled width and is centred on it.
  const deep = planarRupture({ mag: 7, lat: 0, lon: 0, depth_km: 90, strike: 0, dip: 70, rake: 90 });
  assert.ok(Math.abs(deep.width_km - 10 ** (-1.61 + 0.41 * 7)) < 1e-9);
  assert.ok(Math.abs(deep.ztor_km - (90 - (deep.width_km * Math.sin(70 * RAD)) / 2)) < 1e-9);
  assert.deepEqual([mechanismOfRake(0), mechanismOfRake(90), mechanismOfRake(-90), mechanismOfRake(180)], ['strike-slip', 'reverse', 'normal', 'strike-slip']);
});

/** Independent distances: the plane's corners from its parameters, then the closest of a grid of plane points. */
function bruteForce(r: PlanarRupture, site: { latitude: number; longitude: number }) {
  const p = localXY(r, site);
  const s = r.strike * RAD;
  const d = r.dip * RAD;
  const u = [Math.sin(s), Math.cos(s), 0];
  const v = [Math.cos(s) * Math.cos(d), -Math.sin(s) * Math.cos(d), Math.sin(d)]; // down dip, depth positive
  const o = [r.top_centre.x - (u[0]! * r.length_km) / 2, r.top_centre.y - (u[1]! * r.length_km) / 2, r.ztor_km];
  let rrup = Infinity;
  let rjb = Infinity;
  const n = 400;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const a = (i / n) * r.length_km;
      const b = (j / n) * r.width_km;
      const q = [o[0]! + a * u[0]! + b * v[0]!, o[1]! + a * u[1]! + b * v[1]!, o[2]! + b * v[2]!];
      rrup = Math.min(rrup, Math.hypot(p.x - q[0]!, p.y - q[1]!, q[2]!));
      rjb = Math.min(rjb, Math.hypot(p.x - q[0]!, p.y - q[1]!));
    }
  }
  return { rrup, rjb, step: Math.max(r.length_km, r.width_km) / n };
}

test('Rjb and Rrup agree with a brute-force search over the plane, for dipping and vertical ruptures', () => {
  const ruptures = [
    planarRupture({ mag: 6.5, lat: 34, lon: -118, depth_km: 12, strike: 120, dip: 40, rake: 90 }),
    planarRupture({ mag: 7.2, lat: 38, lon: 27, depth_km: 10, strike: 270, dip: 90, rake: 0 }),
    planarRupture({ mag: 6.0, lat: 42, lon: 13, depth_km: 8, strike: 150, dip: 50, rake: -90 }),
  ];
  const sites = [[0, 0], [0.1, 0.05], [-0.2, 0.3], [0.5, -0.4], [0.02, -0.15], [-1, -1]] as const;
  for (const r of ruptures) {
    for (const [dlat, dlon] of sites) {
      const site = { latitude: r.hypocentre.lat + dlat, longitude: r.hypocentre.lon + dlon };
      const got = distancesTo(r, site);
      const want = bruteForce(r, site);
      assert.ok(Math.abs(got.rrup - want.rrup) <= want.step, `Rrup ${got.rrup} vs ${want.rrup} (grid ${want.step} km)`);
      assert.ok(Math.abs(got.rjb - want.rjb) <= want.step, `Rjb ${got.rjb} vs ${want.rjb}`);
      assert.ok(got.rrup >= got.rjb - 1e-9 && got.rrup >= r.ztor_km - 1e-9);
    }
  }
});

test('Rx is positive over the hanging wall, Ry0 zero beside the rupture and the excess off its ends', () => {
  // Strike north, dipping east: the hanging wall is east.
  const r = planarRupture({ mag: 6.5, lat: 0, lon: 0, depth_km: 10, strike: 0, dip: 45, rake: 90 });
  const east = distancesTo(r, { latitude: 0, longitude: 0.3 });
  const west = distancesTo(r, { latitude: 0, longitude: -0.3 });
  assert.ok(east.rx > 0 && west.rx < 0 && east.ry0 === 0);
  const north = distancesTo(r, { latitude: 1, longitude: r.hypocentre.lon });
  const alongKm = localXY(r, { latitude: 1, longitude: 0 }).y - r.top_centre.y;
  assert.ok(Math.abs(north.ry0 - (alongKm - r.length_km / 2)) < 1e-9);
  // Hypocentral distance at the epicentre is the depth.
  assert.ok(Math.abs(distancesTo(r, { latitude: 0, longitude: 0 }).rhypo - 10) < 1e-9);
});
