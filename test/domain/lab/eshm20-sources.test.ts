// OpenQuake's rules for ESHM20's sources, each checked against OpenQuake's own test values or an
// independent hand computation: truncated Gutenberg-Richter bins (openquake/hazardlib/tests/mfd/
// truncated_gr_test.py), Leonard 2014 areas, an area source's grid, a fault's floating ruptures, and
// the lane's AAL at a place against the rate of the ruptures reaching it times their expected loss
// computed here by quadrature. Hand-made sources, curves and trees below are written for the test,
// not pinned data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  areaSourcePoints, faultMesh, faultRupture, floatingRupture, medianArea, pointRupture, truncatedGrBins,
  type AreaSource, type SimpleFaultSource,
} from '../../../src/domain/lab/lanes/earthquake/eshm20-sources.js';
import { runEshm20 } from '../../../src/domain/lab/lanes/earthquake/eshm20-lane.js';
import { distancesTo } from '../../../src/domain/hazard/gmpe/rupture.js';
import { kotha2020 } from '../../../src/domain/hazard/gmpe/kotha20.js';
import type { VulnerabilityFunction } from '../../../src/domain/lab/lanes/earthquake/vulnerability.js';
import type { GmpeLogicTree } from '../../../src/domain/lab/lanes/earthquake/eshm20-backbone.js';

const RAD = Math.PI / 180;
const haversine = (a: [number, number], b: [number, number]) => {
  const h = Math.sin((b[1] - a[1]) * RAD / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin((b[0] - a[0]) * RAD / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
};

test('truncated GR bins: OpenQuake\'s own test values (truncated_gr_test.py), to their tolerance 1e-14', () => {
  // TruncatedGRMFDMFDGetRatesTestCase.test_1 and test_2: the same three bins from unaligned limits.
  const expected = [[5.5, 2.846049894e-5], [6.5, 2.846049894e-6], [7.5, 2.846049894e-7]];
  for (const [min_mag, max_mag] of [[5.0, 8.0], [5.1, 7.9]]) {
    const bins = truncatedGrBins({ a: 0.5, b: 1.0, min_mag: min_mag!, max_mag: max_mag! }, 1.0);
    assert.equal(bins.length, 3);
    bins.forEach((bin, i) => {
      assert.ok(Math.abs(bin.mag - expected[i]![0]!) <= 1e-14);
      assert.ok(Math.abs(bin.rate - expected[i]![1]!) <= 1e-14, `${bin.rate}`);
    });
  }
  // TruncatedGRMFDMFDRoundingTestCase: 0.61 and 0.94 round to 0.6 and 0.9, three bins from 0.65.
  const rounded = truncatedGrBins({ a: 1, b: 0.2, min_mag: 0.61, max_mag: 0.94 }, 0.1);
  assert.equal(rounded.length, 3);
  assert.ok(Math.abs(rounded[0]!.mag - 0.65) < 1e-12);
});

test('truncated GR bins of ESHM20\'s first area source (ALAS003), by hand: 33 bins, rates telescoping to N(>=4.5) - N(>=7.8)', () => {
  const [a, b] = [4.0442, 0.9057];
  const bins = truncatedGrBins({ a, b, min_mag: 4.5, max_mag: 7.8 });
  assert.equal(bins.length, 33);
  assert.ok(Math.abs(bins[0]!.mag - 4.55) < 1e-12 && Math.abs(bins[32]!.mag - 7.75) < 1e-12);
  // The first bin: 10^(a - 4.5 b) - 10^(a - 4.6 b) = 2.1960... (relative 1e-12).
  const first = 10 ** (a - 4.5 * b) - 10 ** (a - 4.6 * b);
  assert.ok(Math.abs(bins[0]!.rate / first - 1) < 1e-12);
  const total = bins.reduce((s, x) => s + x.rate, 0);
  const direct = 10 ** (a - 4.5 * b) - 10 ** (a - 7.8 * b);
  assert.ok(Math.abs(total / direct - 1) < 1e-12, `${total} vs ${direct}`);
  // At or above M 5 (the lane's minimum magnitude): bins from 5.05, 10^(a - 5b) - 10^(a - 7.8b).
  const above5 = bins.filter((x) => x.mag >= 5).reduce((s, x) => s + x.rate, 0);
  assert.ok(Math.abs(above5 / (10 ** (a - 5 * b) - 10 ** (a - 7.8 * b)) - 1) < 1e-12);
});

test('scaling relations: PointMSR 1e-4 km2; Leonard 2014 interplate and SCR by rake (scalerel/leonard2014.py)', () => {
  assert.equal(medianArea('PointMSR', 7.5, 0), 1e-4);
  assert.ok(Math.abs(medianArea('Leonard2014_Interplate', 6.5, 0)! - 10 ** 2.51) < 1e-9);
  assert.ok(Math.abs(medianArea('Leonard2014_Interplate', 6.5, -90)! - 10 ** 2.5) < 1e-9);
  assert.ok(Math.abs(medianArea('Leonard2014_SCR', 6.5, 180)! - 10 ** 2.32) < 1e-9);
  assert.ok(Math.abs(medianArea('Leonard2014_SCR', 6.5, 90)! - 10 ** 2.31) < 1e-9);
  assert.equal(medianArea('WC1994', 6.5, 0), undefined);
});

const square = (lon: number, lat: number, side: number): [number, number][] => [[lon, lat], [lon + side, lat], [lon + side, lat + side], [lon, lat + side], [lon, lat]];
const areaSource = (polygon: [number, number][], over: Partial<AreaSource> = {}): AreaSource => ({
  kind: 'area', id: 'hand', name: 'hand', tectonic_region: 'Shallow Default', msr: 'PointMSR', aspect_ratio: 1, upper_depth_km: 0, lower_depth_km: 20,
  mfd: { a: 3, b: 1, min_mag: 6.0, max_mag: 6.1 }, polygon, nodal_planes: [{ strike: 0, dip: 90, rake: 0, probability: 1 }], hypo_depths: [{ depth_km: 10, probability: 1 }], ...over,
});

test('an area source as a 10 km grid: the points inside, about one per 100 km2', () => {
  // A 1-degree square at 40 N: 111.19 x 84.6 km, about 94 grid points (boundary rows make up to 10% either way).
  const pts = areaSourcePoints(areaSource(square(20, 40, 1)));
  assert.ok(pts.lat.length >= 85 && pts.lat.length <= 105, `${pts.lat.length}`);
  for (let i = 0; i < pts.lat.length; i++) assert.ok(pts.lat[i]! > 40 && pts.lat[i]! < 41 && pts.lon[i]! > 20 && pts.lon[i]! < 21);
  // Neighbouring points 10 km apart (0.2 km tolerance: the projection against a great circle).
  const d = haversine([pts.lon[0]!, pts.lat[0]!], [pts.lon[1]!, pts.lat[1]!]);
  assert.ok(Math.abs(d - 10) < 0.2, `${d}`);
  // Too small a polygon keeps its mean vertex.
  const tiny = areaSourcePoints(areaSource(square(20, 40, 0.01)));
  assert.equal(tiny.lat.length, 1);
});

test('a point rupture under PointMSR is a 10 m square at the hypocentre: Rjb the epicentral distance, Rrup the hypocentral', () => {
  const r = pointRupture({ mag: 6.5, lat: 40, lon: 20, depth_km: 8.4, strike: 46.79, dip: 56.56, rake: 0, area_km2: 1e-4, aspect_ratio: 1, upper_depth_km: 0, lower_depth_km: 14 });
  assert.ok(Math.abs(r.length_km - 0.01) < 1e-12 && Math.abs(r.width_km - 0.01) < 1e-12);
  const site = { latitude: 40.2, longitude: 20.1 };
  const repi = haversine([20, 40], [20.1, 40.2]);
  const d = distancesTo(r, site);
  // 0.05 km: the plane's 10 m, and the flat projection against the great circle at 24 km.
  assert.ok(Math.abs(d.rjb - repi) < 0.05, `${d.rjb} vs ${repi}`);
  assert.ok(Math.abs(d.rrup - Math.hypot(repi, 8.4)) < 0.05);
  // A large rupture is kept in the layer: width capped at 14 / sin(dip), the plane from 0 to 14 km.
  const big = pointRupture({ mag: 7.5, lat: 40, lon: 20, depth_km: 12, strike: 0, dip: 90, rake: 0, area_km2: 10 ** 3.51, aspect_ratio: 1, upper_depth_km: 0, lower_depth_km: 14 });
  assert.ok(Math.abs(big.width_km - 14) < 1e-9 && Math.abs(big.ztor_km) < 1e-9 && Math.abs(big.length_km - 10 ** 3.51 / 14) < 1e-9);
});

test('a simple fault\'s floating ruptures (simple_fault.py): sizes, positions and the first position\'s plane', () => {
  // Hand-made: a straight vertical strike-slip fault 50 km along the equator, 2 to 15 km deep.
  const fault: SimpleFaultSource = {
    kind: 'simple_fault', id: 'F', name: 'F', tectonic_region: 'Shallow Default', msr: 'Leonard2014_Interplate', aspect_ratio: 2.6,
    upper_depth_km: 2, lower_depth_km: 15, mfd: { a: 4, b: 0.87, min_mag: 6.3, max_mag: 6.9 }, dip: 90, rake: 0,
    trace: [[0, 0], [50 / 111.19, 0]],
  };
  const mesh = faultMesh(fault);
  // Mesh: round(50 / 5) + 1 = 11 columns, round(13 / 5) + 1 = 4 rows.
  assert.deepEqual([mesh.cols, mesh.rows], [11, 4]);
  // M 6.35: area 10^(6.35 - 3.99) = 229.1 km2, length sqrt(229.1 x 2.6) = 24.4, width 9.39: 6 columns,
  // 3 rows (round(24.4 / 5) + 1, round(9.39 / 5) + 1), floating over 11 - 6 + 1 = 6 by 4 - 3 + 1 = 2 positions.
  assert.deepEqual(floatingRupture(mesh, 6.35), { cols: 6, rows: 3, along: 6, down: 2 });
  // M 6.85: area 724 km2 > the mesh's 50 x 15: the whole fault, one position.
  assert.deepEqual(floatingRupture(mesh, 6.85), { cols: 11, rows: 4, along: 1, down: 1 });
  const r = faultRupture(mesh, 6.35, { cols: 6, rows: 3 }, 0, 1);
  // Columns 0-5 span 25 km of the 50; rows 1-2 of 0-3 start at 2 + 13/3 km and span 2 x 13/3 km.
  // 0.01 km: the test's 111.19 km a degree against the projection's 111.195.
  assert.ok(Math.abs(r.length_km - 25) < 0.01 && Math.abs(r.width_km - 26 / 3) < 1e-9 && Math.abs(r.ztor_km - (2 + 13 / 3)) < 1e-9);
  assert.ok(Math.abs(r.strike - 90) < 1e-9);
  // A site 10 km north of the trace's 10th km: Rjb 10 km; one 10 km beyond the rupture's east end: Ry0 10.
  const north = distancesTo(r, { latitude: 10 / 111.19, longitude: 10 / 111.19 });
  assert.ok(Math.abs(north.rjb - 10) < 0.01, `${north.rjb}`);
  const east = distancesTo(r, { latitude: 0, longitude: 35 / 111.19 });
  assert.ok(Math.abs(east.ry0 - 10) < 0.01 && Math.abs(east.rjb - 10) < 0.01, `${east.ry0}`);
});

test('the lane\'s AAL at a place: the rate of the ruptures reaching it times their expected loss by quadrature, within 4 standard errors', () => {
  // Hand-made: one small area source (one grid point, its mean vertex) of one magnitude bin, M 6.05
  // at 10 km depth; a place 15 km east; one ground-motion branch; a linear curve on PGA.
  const polygon = square(30, 40, 0.02);
  const source = areaSource(polygon, { mfd: { a: 6.5, b: 1, min_mag: 6.0, max_mag: 6.1 } });
  const tree: GmpeLogicTree = { tree_id: 'hand', tectonic_region: 'Shallow Default', branches: [{ branch_id: 'central', gsim: 'KothaEtAl2020ESHM20SlopeGeology', args: {}, weight: 1 }] };
  const curve: VulnerabilityFunction = { id: 'hand', imt: { kind: 'PGA' }, imls: [0.01, 1], mean_lr: [0, 0.5], cov_lr: [0, 0] };
  const epicentre: [number, number] = [30.01, 40.01];
  const place = { index: 0, lat: 40.01, lon: 30.01 + 15 / (111.19 * Math.cos(40.01 * RAD)), value: 1_000_000 };
  const [branches, years] = [4, 2500];
  const r = runEshm20({
    places: [place], buildingClass: 'rc_infilled_frame_moderate_code_4', vulnerability: curve, gmpeTree: tree, branches, yearsPerBranch: years,
    source: { kind: 'area_sources', model: { name: 'hand', area: [source], faults: [] }, file: 'hand.xml' },
  }) as any;
  // The rate: the one bin's, 10^(6.5 - 6.0) - 10^(6.5 - 6.1) = 0.6730 a year.
  const rate = 10 ** 0.5 - 10 ** 0.4;
  assert.ok(Math.abs(r.branches[0].rate_m_min / rate - 1) < 1e-12);
  const T = branches * years;
  assert.ok(Math.abs(r.sample.ruptures - rate * T) < 4 * Math.sqrt(rate * T), `${r.sample.ruptures} ruptures`);
  assert.equal(r.sample.ruptures_reaching_places, r.sample.ruptures);
  // The model at the place (Kotha et al. 2020, ESHM20 Vs30 form, central branch), Rjb the epicentral distance.
  const rjb = haversine(epicentre, [place.lon, place.lat]);
  const gm = kotha2020({ form: 'eshm20' }).predict({
    rupture: { mag: 6.05, rake: 0, dip: 90, ztor: 10, width: 0.01, hypo_depth: 10 },
    site: { vs30: 800, vs30measured: false, z1pt0: NaN, z2pt5: NaN, backarc: false },
    distances: { rjb, rrup: Math.hypot(rjb, 10), rx: 0, ry0: rjb, rhypo: Math.hypot(rjb, 10) },
  }, { kind: 'PGA' });
  const sigma = Math.hypot(gm.tau, gm.phi);
  // E[L] and E[L^2] over ln PGA ~ N(mean, tau^2 + phi^2), the curve read linearly, 0 below 0.01 g, held above 1 g (trapezoid, z in +-8, 16,001 nodes).
  const lr = (pga: number) => (pga < 0.01 ? 0 : pga >= 1 ? 0.5 : 0.5 * (pga - 0.01) / 0.99);
  let [m1, m2] = [0, 0];
  const n = 16_000;
  for (let k = 0; k <= n; k++) {
    const z = -8 + (16 * k) / n;
    const w = (k === 0 || k === n ? 0.5 : 1) * (16 / n) * Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
    const loss = place.value * lr(Math.exp(gm.mean + sigma * z));
    m1 += w * loss;
    m2 += w * loss * loss;
  }
  const expected = rate * m1;
  const standardError = Math.sqrt((rate * m2) / T);
  const aal = r.metrics.average_annual_loss.mean;
  assert.ok(Math.abs(aal - expected) < 4 * standardError, `AAL ${aal} vs ${expected} ± ${standardError}`);
  assert.ok(standardError / expected < 0.05, 'the test resolves the AAL to a few per cent');
});
