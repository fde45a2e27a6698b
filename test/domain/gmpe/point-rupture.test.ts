// OpenQuake's point-rupture plane (hazard/gmpe/point-rupture.ts): sizes and positions against
// OpenQuake's rule worked by hand (openquake/hazardlib/geo/surface/planar.py get_rupdims and
// _build_corners; WC1994 of openquake/hazardlib/scalerel/wc1994.py), and the distances of a plane
// built in the test against an independent computation on the sphere, as OpenQuake measures them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openQuakePointRupture, wc1994MedianArea } from '../../../src/domain/hazard/gmpe/point-rupture.js';
import { distancesTo, planarRupture, type PlanarRupture } from '../../../src/domain/hazard/gmpe/rupture.js';

const RAD = Math.PI / 180;
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

test('WC1994 median area with OpenQuake\'s rake classes: strike-slip within 45 degrees of horizontal', () => {
  close(wc1994MedianArea(6, 40), 10 ** (-3.42 + 0.9 * 6), 1e-9, 'rake 40 is strike-slip');
  close(wc1994MedianArea(6, 180), 10 ** (-3.42 + 0.9 * 6), 1e-9, 'rake 180 is strike-slip');
  close(wc1994MedianArea(6, 50), 10 ** (-3.99 + 0.98 * 6), 1e-9, 'rake 50 is reverse');
  close(wc1994MedianArea(6, -60), 10 ** (-2.87 + 0.82 * 6), 1e-9, 'rake -60 is normal');
  close(wc1994MedianArea(6, -135), 10 ** (-3.42 + 0.9 * 6), 1e-9, 'rake -135 is strike-slip');
});

// A Northridge-like rupture written for the test: M6.7, rake 101 (reverse), strike 122, dip 40, 18 km deep.
const NORTHRIDGE = { mag: 6.7, lat: 34.213, lon: -118.537, depth_km: 18, strike: 122, dip: 40, rake: 101 };

test('the Northridge-like plane by OpenQuake\'s rule, worked by hand: aspect ratio 2, no floor, then a 20 km floor', () => {
  // Area 10^(-3.99 + 0.98 x 6.7) = 376.70 km2; length sqrt(2 x 376.70) = 27.448 km; width 13.724 km;
  // half its height 13.724 sin 40 / 2 = 4.411 km.
  const area = 10 ** (-3.99 + 0.98 * 6.7);
  const length = Math.sqrt(area * 2);
  const width = area / length;
  const halfHeight = (width * Math.sin(40 * RAD)) / 2;
  close(area, 376.704, 1e-3, 'area');
  const free = openQuakePointRupture(NORTHRIDGE, 2, { upper_km: 0, lower_km: null });
  close(free.length_km, length, 1e-9, 'length');
  close(free.width_km, width, 1e-9, 'width');
  close(free.ztor_km, 18 - halfHeight, 1e-9, 'centred on the hypocentre: top at 13.589 km');
  close(free.ztor_km, 13.589, 1e-3, 'top');
  // With a floor at 20 km the bottom (22.411 km) is above it only once the plane moves up 2.411 km,
  // along the dip: 2.411 / tan 40 = 2.873 km towards the strike's left (azimuth 32).
  const floored = openQuakePointRupture(NORTHRIDGE, 2, { upper_km: 0, lower_km: 20 });
  close(floored.ztor_km, 20 - 2 * halfHeight, 1e-9, 'bottom at the floor');
  // The hypocentre stays on the plane: the top edge's midpoint lies (depth - top) / tan(dip) up dip of it.
  for (const r of [free, floored]) {
    const upDip = ((18 - r.ztor_km) / Math.tan(40 * RAD));
    const az = (122 - 90) * RAD;
    close(r.top_centre.x, upDip * Math.sin(az), 1e-9, 'top edge east of the hypocentre');
    close(r.top_centre.y, upDip * Math.cos(az), 1e-9, 'top edge north of the hypocentre');
  }
  // Revision r1's rule for the same rupture: Wells and Coppersmith width 10^(-1.61 + 0.41 x 6.7) and the 20 km layer.
  const r1 = planarRupture(NORTHRIDGE);
  close(r1.ztor_km, 20 - 10 ** (-1.61 + 0.41 * 6.7) * Math.sin(40 * RAD), 1e-9, 'r1 moves the plane up to the 20 km floor');
});

test('OpenQuake\'s rule at the layer\'s edges: moved down below the top, the width cut to the layer, the area kept', () => {
  const shallow = openQuakePointRupture({ ...NORTHRIDGE, depth_km: 3 }, 2, { upper_km: 0, lower_km: null });
  assert.equal(shallow.ztor_km, 0, 'a plane that would cross the surface starts at it');
  const layered = openQuakePointRupture({ ...NORTHRIDGE, depth_km: 8 }, 2, { upper_km: 5, lower_km: null });
  assert.equal(layered.ztor_km, 5, 'and at the upper seismogenic depth when one is given');
  // M8 reverse dipping 30 between 0 and 20 km: the width cut to 20 / sin 30 = 40 km, the length 10^(-3.99 + 7.84) / 40.
  const big = openQuakePointRupture({ ...NORTHRIDGE, mag: 8, dip: 30, rake: 90, depth_km: 10 }, 1.5, { upper_km: 0, lower_km: 20 });
  close(big.width_km, 40, 1e-9, 'width cut to the layer');
  close(big.length_km, 10 ** (-3.99 + 0.98 * 8) / 40, 1e-9, 'length grown to keep the area');
  assert.equal(big.ztor_km, 0, 'the plane fills the layer');
  // A vertical plane: no horizontal move.
  const vertical = openQuakePointRupture({ ...NORTHRIDGE, dip: 90, rake: 0, depth_km: 2 }, 2, { upper_km: 0, lower_km: null });
  assert.equal(vertical.ztor_km, 0);
  close(Math.hypot(vertical.top_centre.x, vertical.top_centre.y), 0, 1e-9, 'vertical plane above its hypocentre');
});

// ---- An independent computation on the sphere (R = 6371 km, as OpenQuake's geodetic module) ----
const R = 6371;
type LonLat = { lon: number; lat: number };

/** The point at a distance and azimuth on the sphere (the great-circle destination). */
function pointAt(p: LonLat, azimuthDeg: number, km: number): LonLat {
  const d = km / R;
  const az = azimuthDeg * RAD;
  const lat1 = p.lat * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(az));
  const lon2 = p.lon * RAD + Math.atan2(Math.sin(az) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lon: lon2 / RAD, lat: lat2 / RAD };
}
const greatCircleKm = (a: LonLat, b: LonLat) => {
  const h = Math.sin(((b.lat - a.lat) * RAD) / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(((b.lon - a.lon) * RAD) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
};
const azimuthDeg = (a: LonLat, b: LonLat) => {
  const y = Math.sin((b.lon - a.lon) * RAD) * Math.cos(b.lat * RAD);
  const x = Math.cos(a.lat * RAD) * Math.sin(b.lat * RAD) - Math.sin(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.cos((b.lon - a.lon) * RAD);
  return Math.atan2(y, x) / RAD;
};
const cartesian = (p: LonLat, depth: number) => {
  const r = R - depth;
  return [r * Math.cos(p.lat * RAD) * Math.cos(p.lon * RAD), r * Math.cos(p.lat * RAD) * Math.sin(p.lon * RAD), r * Math.sin(p.lat * RAD)] as const;
};

/** The plane's corners as OpenQuake's _build_corners places them: from its centre along the diagonals. */
function cornersOf(r: PlanarRupture) {
  const sin = Math.sin(r.dip * RAD);
  const cos = Math.cos(r.dip * RAD);
  const centreDepth = r.ztor_km + (r.width_km * sin) / 2;
  // The centre: from the hypocentre along the dip by the vertical move's horizontal part.
  const move = (centreDepth - r.hypocentre.depth_km) / Math.tan(r.dip * RAD);
  const centre = Math.abs(move) < 1e-12 ? { lon: r.hypocentre.lon, lat: r.hypocentre.lat } : pointAt({ lon: r.hypocentre.lon, lat: r.hypocentre.lat }, move > 0 ? r.strike + 90 : r.strike - 90, Math.abs(move));
  const halfL = r.length_km / 2;
  const halfW = (r.width_km * cos) / 2;
  const theta = Math.atan(halfW / halfL) / RAD;
  const diag = Math.hypot(halfL, halfW);
  return {
    topLeft: pointAt(centre, r.strike + 180 + theta, diag), topRight: pointAt(centre, r.strike - theta, diag),
    bottomLeft: pointAt(centre, r.strike + 180 - theta, diag), bottomRight: pointAt(centre, r.strike + theta, diag),
    top: r.ztor_km, bottom: r.ztor_km + r.width_km * sin,
  };
}

/** Rrup and Rjb by the closest of a 301 x 301 mesh of the plane; Rx and Ry0 from the top edge's great circle. */
function onTheSphere(r: PlanarRupture, site: LonLat) {
  const c = cornersOf(r);
  const s = cartesian(site, 0);
  let rrup = Infinity;
  let rjb = Infinity;
  const n = 300;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const a = i / n;
      const b = j / n;
      const lerp = (k: 'lon' | 'lat') => (1 - b) * ((1 - a) * c.topLeft[k] + a * c.topRight[k]) + b * ((1 - a) * c.bottomLeft[k] + a * c.bottomRight[k]);
      const p = { lon: lerp('lon'), lat: lerp('lat') };
      const q = cartesian(p, c.top + b * (c.bottom - c.top));
      rrup = Math.min(rrup, Math.hypot(s[0] - q[0], s[1] - q[1], s[2] - q[2]));
      rjb = Math.min(rjb, greatCircleKm(site, p));
    }
  }
  // Cross-track distance from the great circle through the top corners (positive to its right, the
  // dip side, as OpenQuake's get_rx), and along-track distance from the top-left corner for Ry0.
  const d13 = greatCircleKm(c.topLeft, site) / R;
  const delta = (azimuthDeg(c.topLeft, site) - azimuthDeg(c.topLeft, c.topRight)) * RAD;
  const rx = Math.asin(Math.sin(d13) * Math.sin(delta)) * R;
  const along = Math.sign(Math.cos(delta)) * Math.acos(Math.cos(d13) / Math.cos(rx / R)) * R;
  const ry0 = along < 0 ? -along : along > r.length_km ? along - r.length_km : 0;
  return { rrup, rjb, rx, ry0, step: Math.max(r.length_km, r.width_km) / n };
}

test('distances of a hand-made plane against the sphere: Rrup, Rjb, Rx and Ry0 within 1% of the site\'s distance from the epicentre past the mesh step', (t) => {
  // Hand-made ruptures (not from a feed), placed by OpenQuake's rule. The lab's flat projection about
  // the hypocentre errs in proportion to a site's distance from it (well under 1% within its reach),
  // which Ry0, a difference of two long distances, shows undiluted; the mesh step bounds the search's
  // own error for Rrup and Rjb; 0.05 km covers rounding near zero.
  const ruptures = [
    openQuakePointRupture(NORTHRIDGE, 2, { upper_km: 0, lower_km: null }),
    openQuakePointRupture({ mag: 7.1, lat: 38.3, lon: 27.1, depth_km: 10, strike: 275, dip: 60, rake: -90 }, 1.5, { upper_km: 0, lower_km: 15 }),
    openQuakePointRupture({ mag: 6.2, lat: -33.4, lon: -70.6, depth_km: 6, strike: 20, dip: 90, rake: 180 }, 2, { upper_km: 2, lower_km: null }),
  ];
  const offsets = [[0, 0], [0.18, 0.05], [-0.2, 0.3], [0.45, -0.5], [0.02, -0.15], [-0.6, -0.4], [0.9, 0.1]] as const;
  let worst = 0;
  for (const r of ruptures) {
    for (const [dlat, dlon] of offsets) {
      const site = { lat: r.hypocentre.lat + dlat, lon: r.hypocentre.lon + dlon };
      const got = distancesTo(r, { latitude: site.lat, longitude: site.lon });
      const want = onTheSphere(r, site);
      const epicentral = Math.max(greatCircleKm({ lon: r.hypocentre.lon, lat: r.hypocentre.lat }, site), 1);
      for (const k of ['rrup', 'rjb', 'rx', 'ry0'] as const) {
        const mesh = k === 'rrup' || k === 'rjb' ? want.step : 0;
        const past = Math.max(0, Math.abs(got[k] - want[k]) - mesh - 0.05);
        worst = Math.max(worst, past / epicentral);
        close(got[k], want[k], 0.01 * epicentral + mesh + 0.05, `${k} at (${site.lat}, ${site.lon}), M${r.mag}`);
      }
    }
  }
  t.diagnostic(`largest difference past the mesh step and 0.05 km: ${(worst * 100).toFixed(3)}% of the epicentral distance`);
});
