// The historical earthquake lane over the pinned ShakeMaps and GEM functions (read through the feed
// store): the spec's refusals (an event without a pinned ShakeMap grid named with its missing input),
// the conditioning (the fields reproduce the ShakeMap's mean and standard deviation at grid points),
// the spatial correlation of the residuals, seeded determinism, unmodeled places, and the loss figures
// worked by hand on hand-made fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shakeMap, structuralVulnerabilityOf } from '../../support/earthquake-inputs.js';
import { parseEsriFloatGrid } from '../../../src/feeds/parsers/esri-float-grid.js';
import { cellOf } from '../../../src/domain/lab/lanes/earthquake/shakemap.js';
import { historicalFields, readHistoricalSpec, runHistoricalQuake } from '../../../src/domain/lab/lanes/earthquake/historical-lane.js';
import { fieldLosses } from '../../../src/domain/lab/lanes/earthquake/field-losses.js';
import { correlation, correlationRangeKm } from '../../../src/domain/lab/lanes/earthquake/fields.js';
import { HISTORICAL_SHAKEMAPS } from '../../../src/domain/lab/lanes/historical-earthquake/lane.js';
import { sa } from '../../../src/domain/hazard/gmpe/types.js';
import { haversineKm } from '../../../src/domain/geo.js';
import type { VulnerabilityFunction } from '../../../src/domain/lab/lanes/earthquake/vulnerability.js';
import { rawFile } from '../../support/feeds.js';

const NORTHRIDGE = 'usgs-shakemap-northridge-1994';
const data = { feed_id: 'gem-vulnerability-europe', version: 'pinned', sha256: 'pinned' };
const spec = (over: Record<string, unknown> = {}) => ({ model: 'openquake-historical-eq', event: 'northridge-1994', exposure: { points: [{ lat: 34.2, lon: -118.5, value: 1_000_000 }] }, ...over });

async function inputs(feedId = NORTHRIDGE) {
  return { map: await shakeMap(feedId), functions: await structuralVulnerabilityOf(), vulnerabilityData: data };
}

test('the spec: defaults filled in; an event without a pinned ShakeMap grid refused naming the missing input (422 invalid_request)', () => {
  const read = readHistoricalSpec(spec(), HISTORICAL_SHAKEMAPS);
  assert.ok(read.ok);
  assert.equal(read.value.vulnerability, 'rc_frame_mid_rise_moderate_code');
  const cases: [Record<string, unknown>, RegExp][] = [
    [spec({ event: 'ridgecrest-2019' }), /ridgecrest-2019 cannot run: its pinned ShakeMap \(usgs-shakemap-ridgecrest-2019 2019-08-15\) holds contour lines only; the missing input is a USGS ShakeMap grid of the mean and standard deviation/],
    [spec({ event: 'nisqually-2001' }), /nisqually-2001 cannot run: no ShakeMap is pinned for it; the missing input is a USGS ShakeMap grid/],
    [spec({ event: 'tohoku-2011' }), /runnable here: northridge-1994, loma-prieta-1989, south-napa-2014, anchorage-2018, kahramanmaras-2023/],
    [spec({ event: 'kobe-1995' }), /event must be one of northridge-1994, .*tohoku-2011/],
    [spec({ vulnerability: 'adobe' }), /vulnerability must be one of/],
    [spec({ rupture: {} }), /rupture is not a member/],
    [spec({ exposure: { points: [] } }), /exposure.points must hold 1 to 2000 places/],
    [spec({ exposure: { points: [{ lat: 34, lon: -118, value: 1, vs30: 300 }] } }), /unknown member vs30/],
  ];
  for (const [body, fault] of cases) {
    const r = readHistoricalSpec(body, HISTORICAL_SHAKEMAPS);
    assert.ok(!r.ok, JSON.stringify(body));
    assert.equal(r.refusal.status, 422);
    assert.equal(r.refusal.code, 'invalid_request');
    assert.ok((r.refusal.details as string[]).some((d) => fault.test(d)), `${fault}: ${(r.refusal.details as string[]).join(' | ')}`);
  }
  assert.ok(readHistoricalSpec(spec({ exposure: { object_id: 'obj_1' } }), HISTORICAL_SHAKEMAPS).ok);
  const both = readHistoricalSpec(spec({ event: 'ridgecrest-2019', vulnerability: 'adobe' }), HISTORICAL_SHAKEMAPS);
  assert.ok(!both.ok && (both.refusal.details as string[]).length === 2, 'every fault at once');
});

/** The raw Northridge floats at a place, read here from the pinned bytes. */
function rawAt(name: string, lat: number, lon: number): number {
  const g = parseEsriFloatGrid(rawFile(NORTHRIDGE, `${name}.hdr`).toString('utf8'), rawFile(NORTHRIDGE, `${name}.flt`));
  return g.values[cellOf(g, lat, lon)]!;
}

test('conditioning: over 100 fields the mean and spread at grid points reproduce the ShakeMap\'s mean and standard deviation', async () => {
  // 48 grid points 0.5 degrees apart (at least 45 km: residual correlation below 0.001 at SA(0.6)),
  // each at a cell centre of the 1/60-degree grid.
  const places = [];
  for (let i = 0; i < 6; i++) for (let j = 0; j < 8; j++) places.push({ lat: 32 + i * 0.5 + 1 / 120, lon: -121.5 + j * 0.9 + 1 / 120, value: 1 });
  const s = readHistoricalSpec(spec({ exposure: { points: places } }), HISTORICAL_SHAKEMAPS);
  assert.ok(s.ok);
  const f = historicalFields(s.value, places, await inputs());
  assert.equal(f.modeled.length, 48);
  assert.equal(f.fields, 100);
  // SA(0.6), the default curve's measure: recomputed here from the raw SA(0.3) and SA(1.0) floats.
  const w = Math.log(0.6 / 0.3) / Math.log(1 / 0.3);
  const z2: number[] = [];
  const ratios: number[] = [];
  f.modeled.forEach((m, i) => {
    const mu = (1 - w) * rawAt('psa0p3_mean', m.lat, m.lon) + w * rawAt('psa1p0_mean', m.lat, m.lon);
    const sigma = (1 - w) * rawAt('psa0p3_std', m.lat, m.lon) + w * rawAt('psa1p0_std', m.lat, m.lon);
    assert.ok(Math.abs(m.mean - mu) < 1e-9 && Math.abs(m.std - sigma) < 1e-9);
    let sum = 0;
    for (let k = 0; k < f.fields; k++) sum += f.lnIm[k * f.modeled.length + i]!;
    const mean = sum / f.fields;
    let ss = 0;
    for (let k = 0; k < f.fields; k++) ss += (f.lnIm[k * f.modeled.length + i]! - mean) ** 2;
    const sd = Math.sqrt(ss / (f.fields - 1));
    const z = (mean - mu) / (sigma / Math.sqrt(f.fields));
    // Each z is standard normal: |z| < 4 (a 1 in 16,000 event per place).
    assert.ok(Math.abs(z) < 4, `place ${i}: z ${z.toFixed(2)}`);
    z2.push(z * z);
    ratios.push(sd / sigma);
  });
  // Mean of 48 squared z: expected 1, standard error sqrt(2/48) = 0.20; tolerance three standard errors.
  const meanZ2 = z2.reduce((a, b) => a + b) / z2.length;
  assert.ok(Math.abs(meanZ2 - 1) < 0.61, `mean z^2 ${meanZ2.toFixed(3)}`);
  // Sample sd over 100 fields / sigma: standard error about 0.071 each; each within 0.3 (4.2 standard
  // errors), their mean within 0.04 (the mean of 48 has standard error about 0.01).
  for (const r of ratios) assert.ok(Math.abs(r - 1) < 0.3, `sd ratio ${r.toFixed(3)}`);
  const meanRatio = ratios.reduce((a, b) => a + b) / ratios.length;
  assert.ok(Math.abs(meanRatio - 1) < 0.04, `mean sd ratio ${meanRatio.toFixed(4)}`);
});

test('the residuals of two places 4 km apart are correlated as Jayaram and Baker (2009) say', async () => {
  const places = [{ lat: 34.2, lon: -118.5, value: 1 }, { lat: 34.2, lon: -118.5 + 4 / (111.195 * Math.cos((34.2 * Math.PI) / 180)), value: 1 }];
  const s = readHistoricalSpec(spec({ exposure: { points: places } }), HISTORICAL_SHAKEMAPS);
  assert.ok(s.ok);
  const f = historicalFields(s.value, places, { ...(await inputs()), fields: 2000 });
  const e = [0, 1].map((i) => Array.from({ length: f.fields }, (_, k) => (f.lnIm[k * 2 + i]! - f.modeled[i]!.mean) / f.modeled[i]!.std));
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < f.fields; k++) { sxy += e[0]![k]! * e[1]![k]!; sxx += e[0]![k]! ** 2; syy += e[1]![k]! ** 2; }
  const rho = correlation(haversineKm({ latitude: places[0]!.lat, longitude: places[0]!.lon }, { latitude: places[1]!.lat, longitude: places[1]!.lon }), correlationRangeKm(sa(0.6)));
  // rho = exp(-3 x 4 / 18.82) = 0.53; sampling error of a correlation near 0.5 over 2,000 fields about 0.017: tolerance 0.06.
  assert.ok(Math.abs(sxy / Math.sqrt(sxx * syy) - rho) < 0.06, `${(sxy / Math.sqrt(sxx * syy)).toFixed(3)} vs ${rho.toFixed(3)}`);
});

test('a run: the same seed the same result, places outside the map or without coordinates unmodeled and counted', async () => {
  const points = [{ lat: 34.2, lon: -118.5, value: 1_000_000 }, { lat: 34.05, lon: -118.25, value: 2_000_000 }, { lat: 40.7, lon: -74, value: 5_000_000 }];
  const s = readHistoricalSpec(spec({ exposure: { points } }), HISTORICAL_SHAKEMAPS);
  assert.ok(s.ok);
  const opts = await inputs();
  const withNull = [...points, { lat: null, lon: null, value: 1 }];
  const a = runHistoricalQuake(s.value, withNull, opts) as any;
  const b = runHistoricalQuake(s.value, withNull, opts) as any;
  assert.deepEqual(a, b);
  assert.notDeepEqual((runHistoricalQuake(s.value, points, { ...opts, seed: 7 }) as any).aggregate, a.aggregate);
  assert.deepEqual(a.unmodeled, { count: 2, places: [{ index: 2, reason: 'outside the ShakeMap grid' }, { index: 3, reason: 'no coordinates' }] });
  assert.equal(a.places.length, 2);
  assert.equal(a.ground_motion.imt, 'SA(0.6)');
  assert.match(a.ground_motion.spatial_correlation, /Jayaram and Baker \(2009\)/);
  assert.match(a.ground_motion.conditioning, /ShakeMap's mean there \+ the ShakeMap's standard deviation there x epsilon/);
  assert.match(a.shakemap.read_as, /between the map's SA\(0\.3\) and SA\(1\) grids/);
  assert.equal(a.shakemap.feed_id, NORTHRIDGE);
  assert.match(a.licence, /CC BY-NC-SA 4\.0/);
  assert.match(a.frequency, /no annual figure/);
  // The aggregate mean is the sum of the places' mean losses (to the 6 significant figures written).
  const sum = a.places.reduce((t: number, p: any) => t + p.loss.mean, 0);
  assert.ok(Math.abs(a.aggregate.mean - sum) / sum < 1e-5);
  // The nearer place to the epicentre shakes harder on the map, and so in the fields' median.
  assert.ok(a.places[0].shakemap.median > a.places[1].shakemap.median && a.places[0].ground_motion.median > a.places[1].ground_motion.median);
  // The median of 100 fields lies near the map's median: within 4 standard errors of ln (1.2533 sigma / 10 for a median).
  for (const p of a.places) assert.ok(Math.abs(Math.log(p.ground_motion.median / p.shakemap.median)) < 4 * 1.2533 * p.shakemap.std_ln / 10);
});

test('the grid.xml events run too (Anchorage, Loma Prieta), their SA deviation taken from STDPGA as stated', async () => {
  for (const [event, feedId, point] of [['anchorage-2018', 'usgs-shakemap-anchorage-2018', { lat: 61.2, lon: -149.9, value: 1 }], ['loma-prieta-1989', 'usgs-shakemap-loma-prieta-1989', { lat: 37.8, lon: -122.27, value: 1 }]] as const) {
    const s = readHistoricalSpec(spec({ event, exposure: { points: [point] } }), HISTORICAL_SHAKEMAPS);
    assert.ok(s.ok);
    const r = runHistoricalQuake(s.value, [point], await inputs(feedId)) as any;
    assert.equal(r.places.length, 1, event);
    assert.match(r.shakemap.standard_deviation, /STDPGA/);
    assert.ok(r.places[0].shakemap.median > 0.05, `${event}: a place near the epicentre shook (${r.places[0].shakemap.median} g)`);
  }
});

test('loss figures worked by hand: two places, three hand-made fields, one hand-made curve', () => {
  // Hand-made curve (not pinned data): PGA levels 0.1, 0.2, 0.4 g with mean loss ratios 0.01, 0.05, 0.25.
  const curve: VulnerabilityFunction = { id: 'hand', imt: { kind: 'PGA' }, imls: [0.1, 0.2, 0.4], mean_lr: [0.01, 0.05, 0.25], cov_lr: [0, 0, 0] };
  // Fields x places: (0.15, 0.3), (0.05, 1.0), (0.2, 0.4) g; values 1,000 and 500.
  const lnIm = Float64Array.from([0.15, 0.3, 0.05, 1.0, 0.2, 0.4], Math.log);
  const r = fieldLosses(lnIm, [1000, 500], 3, curve);
  // Place 0: loss ratios 0.03, 0, 0.05 -> losses 30, 0, 50 (mean 26.6667, median ratio 0.03 -> 30).
  assert.deepEqual(r.places[0]!.loss, { mean: 26.6667, median: 30 });
  assert.deepEqual({ mean: r.places[0]!.loss_ratio.mean, median: r.places[0]!.loss_ratio.median }, { mean: 0.0266667, median: 0.03 });
  assert.equal(r.places[0]!.ground_motion.median, 0.15);
  // Place 1: 0.15, 0.25 (held at the last level), 0.25 -> 75, 125, 125.
  assert.deepEqual(r.places[1]!.loss, { mean: 108.333, median: 125 });
  // Aggregate per field 105, 125, 175: mean 135, median 125; p5 = 105 + 0.1 x 20 = 107, p95 = 125 + 0.9 x 50 = 170 (type 7).
  const agg = r.aggregate as any;
  assert.equal(agg.mean, 135);
  assert.equal(agg.median, 125);
  assert.equal(agg.percentiles.p5, 107);
  assert.equal(agg.percentiles.p95, 170);
  assert.equal(fieldLosses(new Float64Array(0), [], 3, curve).aggregate, null);
});
