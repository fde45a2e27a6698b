// The climada-impact lane's rules against CLIMADA's own published test expectations on CLIMADA's
// demo data (the pinned climada-demo-tc: atl_prob_no_name.mat, the same 14,450 × 100 hazard as
// CLIMADA's test_tc_florida; demo_today.xlsx), at CLIMADA's tolerances, and hand-worked small cases.
// Published values, climada_python at bb9595944fcf673152ea53e61efbafeb0b1e4406:
//   climada/engine/test/test_impact_calc.py
//     test_calc_impact_TC_pass: at_event[0] = at_event[7225] = at_event[14449] = 0,
//       at_event[13809] 1.472482938320243e8 and at_event[12147] 7.076504723057620e10 (delta 1),
//       eai_exp[0] 1.518553670803242e8 (delta 1), eai_exp[25] 1.373490457046383e8 and
//       eai_exp[49] 1.066837260150042e8 (6 places), tot_value 6.570532945599105e11 (7 places),
//       aai_agg 6.512201157564421e9 (5 places); with fraction 0.6 on every stored intensity, each × 0.6.
//     test_calc_insured_impact_pass (cover / 1e3, deductible + 1e5): at_event[13809] 62989686,
//       at_event[12147] 657053294, eai_exp[0] 3072092, [25] 2778593, [49] 2716548, aai_agg 143180396 (delta 1);
//       _no_cover: 147188636, 70761282665, 151847975, 137341654, 106676521, aai_agg 6511839456;
//       _no_deductible: 62989686, 657053294, 3072413, 2778914, 2716831, aai_agg 143195738.
//     test_single_exp_zero_mdr: fraction stored as zeros, Emanuel USA function: at_event [0.00250988804927603, 0] (rtol 1e-5).
//   climada/engine/test/test_impact.py TestFreqCurve test_ref_value_pass and test_ref_value_rp_pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readClimadaExposuresInput, readClimadaHazardInput, readClimadaImpactFunctionsInput } from '../../../src/feeds/parsers/climada-inputs.js';
import { runClimadaImpact, type ClimadaImpactInputs, type ClimadaImpactSpec } from '../../../src/domain/lab/lanes/climada-impact/climada-impact.js';
import { freqCurve, numpySum } from '../../../src/domain/lab/lanes/climada-impact/impact-calc.js';
import { assignCentroids, defaultThreshold, kmToDegree, resolution1d } from '../../../src/domain/lab/lanes/climada-impact/assign-centroids.js';
import { emanuelCurve, EMANUEL_US_V_HALF } from '../../../src/domain/lab/lanes/tropical-cyclone/impact-functions.js';
import type { ClimadaExposuresInput, ClimadaHazardInput, ClimadaImpactFunctionsInput } from '../../../src/domain/lab/user-inputs.js';
import { rawFile } from '../../support/feeds.js';

const DEMO = 'climada-demo-tc';
const hazard = await readClimadaHazardInput(rawFile(DEMO, 'atl_prob_no_name.mat'));
const exposures = await readClimadaExposuresInput(rawFile(DEMO, 'demo_today.xlsx'));
const functions = await readClimadaImpactFunctionsInput(rawFile(DEMO, 'demo_today.xlsx'));

const SPEC: ClimadaImpactSpec = { hazard: 'h', exposures: 'e', impact_functions: 'f', haz_type: null, assign: { distance: 'euclidean', threshold_km: null }, insured: false, return_periods: null };
const input = <K extends 'climada-hazard' | 'climada-exposures' | 'climada-impact-functions'>(kind: K, value: unknown) => ({ id: `inp_${kind}`, kind, sha256: '0'.repeat(64), value }) as never;
function run(h: ClimadaHazardInput, e: ClimadaExposuresInput, spec: Partial<ClimadaImpactSpec> = {}, f: ClimadaImpactFunctionsInput = functions) {
  const inputs: ClimadaImpactInputs = { hazard: input('climada-hazard', h), exposures: input('climada-exposures', e), impact_functions: input('climada-impact-functions', f) };
  const r = runClimadaImpact(inputs, { ...SPEC, ...spec });
  if (!r.ok) assert.fail(JSON.stringify(r.refusal));
  return r.value as any;
}
/** unittest's assertAlmostEqual(a, b, places): round(a - b, places) == 0. */
const almost = (a: number, b: number, places: number) => Math.abs(a - b) < 0.5 * 10 ** -places;
const within = (a: number, b: number, delta: number) => Math.abs(a - b) <= delta;

test('test_calc_impact_TC_pass: the published at_event, eai_exp, tot_value and aai_agg at CLIMADA\'s tolerances', () => {
  const r = run(hazard, exposures);
  assert.equal(r.assignment.unassigned, 0);
  assert.equal(r.at_event.length, 14450);
  assert.equal(r.at_event[0], 0);
  assert.equal(r.at_event[7225], 0);
  assert.equal(r.at_event[14449], 0);
  assert.ok(within(r.at_event[13809], 1.472482938320243e8, 1), `${r.at_event[13809]}`);
  assert.ok(within(r.at_event[12147], 7.076504723057620e10, 1), `${r.at_event[12147]}`);
  assert.equal(r.eai_exp.length, 50);
  assert.ok(within(r.eai_exp[0], 1.518553670803242e8, 1));
  assert.ok(almost(r.eai_exp[25], 1.373490457046383e8, 6), `${r.eai_exp[25]}`);
  assert.ok(almost(r.eai_exp[49], 1.066837260150042e8, 6), `${r.eai_exp[49]}`);
  assert.ok(almost(r.tot_value, 6.570532945599105e11, 7), `${r.tot_value}`);
  assert.ok(almost(r.aai_agg, 6.512201157564421e9, 5), `${r.aai_agg}`);
  // Event identity beside each impact: the MATLAB file has no names, so the ids stand for them.
  assert.deepEqual(r.events[0], { event_id: 1, event_name: '1', date: '1851-06-25', frequency: hazard.frequency[0] });
});

test('test_calc_impact_TC_pass with fraction 0.6 on every stored intensity: every figure × 0.6', () => {
  const x = 0.6;
  const withFraction: ClimadaHazardInput = { ...hazard, fraction: { ...hazard.intensity, value: new Float64Array(hazard.intensity.value.length).fill(x) } };
  const r = run(withFraction, exposures);
  assert.ok(within(r.at_event[13809], 1.472482938320243e8 * x, 1));
  assert.ok(within(r.at_event[12147], 7.076504723057620e10 * x, 1));
  assert.ok(within(r.eai_exp[0], 1.518553670803242e8 * x, 1));
  assert.ok(almost(r.eai_exp[25], 1.373490457046383e8 * x, 6), `${r.eai_exp[25] - 1.373490457046383e8 * x}`);
  assert.ok(almost(r.eai_exp[49], 1.066837260150042e8 * x, 6), `${r.eai_exp[49] - 1.066837260150042e8 * x}`);
  assert.ok(almost(r.tot_value, 6.570532945599105e11, 7));
  assert.ok(almost(r.aai_agg, 6.512201157564421e9 * x, 5), `${r.aai_agg - 6.512201157564421e9 * x}`);
});

test('test_calc_insured_impact_pass and its no-cover and no-deductible variants: the published insured figures (delta 1)', () => {
  // The test's exposures, built here from the demo's as CLIMADA's test builds them: cover / 1e3, deductible + 1e5.
  const base = { ...exposures, cover: exposures.cover!.map((c) => c / 1e3), deductible: exposures.deductible!.map((d) => d + 1e5) };
  const cases: [string, ClimadaExposuresInput, number[]][] = [
    ['cover and deductible', base, [62989686, 657053294, 3072092, 2778593, 2716548, 143180396]],
    ['no cover', { ...base, cover: null }, [147188636, 70761282665, 151847975, 137341654, 106676521, 6511839456]],
    ['no deductible', { ...base, deductible: null }, [62989686, 657053294, 3072413, 2778914, 2716831, 143195738]],
  ];
  for (const [what, e, [a13809, a12147, e0, e25, e49, aai]] of cases) {
    const r = run(hazard, e, { insured: true });
    const ins = r.insured;
    assert.equal(ins.at_event[0], 0, what);
    assert.equal(ins.at_event[7225], 0, what);
    assert.equal(ins.at_event[14449], 0, what);
    for (const [got, want] of [[ins.at_event[13809], a13809], [ins.at_event[12147], a12147], [ins.eai_exp[0], e0], [ins.eai_exp[25], e25], [ins.eai_exp[49], e49], [ins.aai_agg, aai]] as [number, number][]) {
      assert.ok(within(got, want, 1), `${what}: ${got} vs ${want}`);
    }
    // Ground up stays the published ground-up (test_calc_insured_impact_no_insurance: aai_agg 6512201157, delta 1).
    assert.ok(within(r.aai_agg, 6512201157, 1), what);
  }
});

test('test_single_exp_zero_mdr: a stored fraction of zeros leaves no impact... except where CLIMADA keeps none stored: its published at_event', () => {
  // CLIMADA's test data, written here: one centroid (-26.16, 28.20), two events of 31.5 and 19.0 m/s,
  // frequency 1/2 each, fraction stored as a csr of zeros (so empty: nnz 0, 1 everywhere), one
  // exposure of value 1 at (-26.17, 28.22) assigned with threshold 1 degree, Emanuel's USA function.
  const h: ClimadaHazardInput = {
    haz_type: 'TC', units: 'm/s', frequency_unit: '1/year', event_id: [0, 1], event_name: ['0', '1'], date: [0, 1],
    frequency: Float64Array.of(0.5, 0.5), lat: Float64Array.of(-26.16), lon: Float64Array.of(28.2),
    intensity: { rowStart: Int32Array.of(0, 1, 2), column: Int32Array.of(0, 0), value: Float64Array.of(31.5, 19.0) },
    fraction: null,
  };
  const e: ClimadaExposuresInput = { value_unit: '', latitude: Float64Array.of(-26.17), longitude: Float64Array.of(28.22), value: Float64Array.of(1), deductible: null, cover: null, region_id: null, impf: { TC: Float64Array.of(1) } };
  const emanuel = emanuelCurve(1, EMANUEL_US_V_HALF);
  const f = { functions: [{ haz_type: 'TC', id: 1, name: 'Emanuel 2011', intensity_unit: 'm/s', intensity: [...emanuel.intensity], mdd: [...emanuel.mdd], paa: [...emanuel.paa] }] };
  const r = run(h, e, { assign: { distance: 'euclidean', threshold_km: 1 / kmToDegree(1) } }, f);
  const imp = 0.00250988804927603;
  assert.ok(Math.abs(r.at_event[0] - imp) <= 1e-5 * imp, `${r.at_event[0]}`);
  assert.equal(r.at_event[1], 0);
  assert.ok(Math.abs(r.aai_agg - imp / 2) <= 1e-5 * imp / 2);
});

test('TestFreqCurve test_ref_value_pass and test_ref_value_rp_pass: CLIMADA\'s own return periods, and interpolated ones, exactly', () => {
  const freq = new Array(10).fill(6.211180124223603e-04);
  const atEvent = [0, 0.400665463736549e9, 3.150330960044466e9, 3.715826406781887e9, 2.900244271902339e9, 0.778570745161971e9, 0.698736262566472e9, 0.381063674256423e9, 0.569142464157450e9, 0.467572545849132e9];
  const own = freqCurve(atEvent, freq);
  assert.deepEqual(own.return_per, [161, 178.88888888888889, 201.25, 230, 268.33333333333331, 322, 402.5, 536.66666666666663, 805, 1610]);
  assert.deepEqual(own.impact, [0, 0.381063674256423e9, 0.400665463736549e9, 0.467572545849132e9, 0.569142464157450e9, 0.698736262566472e9, 0.778570745161971e9, 2.900244271902339e9, 3.150330960044466e9, 3.715826406781887e9]);
  const asked = freqCurve(atEvent, freq, [100, 500, 1000]);
  assert.deepEqual(asked.return_per, [100, 500, 1000]);
  assert.deepEqual(asked.impact, [0, 2320408028.5695677, 3287314329.129928]);
});

test('hand-worked: deductible × PAA on stored intensities, cover clips to [0, cover], no cover leaves a negative insured impact', () => {
  // Written here: one centroid, three events of intensity 10, 20 and (none stored); one exposure of value 1000;
  // a function with MDD 0 → 0.5 and PAA 0.5 → 1 over intensities 0 → 20 (so MDR(0) = 0).
  const h: ClimadaHazardInput = {
    haz_type: 'XX', units: '', frequency_unit: '1/year', event_id: [1, 2, 3], event_name: ['a', 'b', 'c'], date: [0, 0, 0],
    frequency: Float64Array.of(0.1, 0.01, 0.5), lat: Float64Array.of(0), lon: Float64Array.of(0),
    intensity: { rowStart: Int32Array.of(0, 1, 2, 2), column: Int32Array.of(0, 0), value: Float64Array.of(10, 20) },
    fraction: null,
  };
  const f = { functions: [{ haz_type: 'XX', id: 7, name: '', intensity_unit: '', intensity: [0, 20], mdd: [0, 0.5], paa: [0.5, 1] }] };
  const exp = (deductible: number | null, cover: number | null): ClimadaExposuresInput => ({
    value_unit: 'USD', latitude: Float64Array.of(0), longitude: Float64Array.of(0), value: Float64Array.of(1000),
    deductible: deductible === null ? null : Float64Array.of(deductible), cover: cover === null ? null : Float64Array.of(cover), region_id: null, impf: { XX: Float64Array.of(7) },
  });
  // Event 1: I = 10: MDD 0.25, PAA 0.75: impact 1000 × 0.1875 = 187.5; event 2: I = 20: 1000 × 0.5 × 1 = 500.
  const one = { insured: true, assign: { distance: 'euclidean' as const, threshold_km: 1 } };
  const gu = run(h, exp(null, null), one, f);
  assert.deepEqual(gu.at_event, [187.5, 500, 0]);
  assert.equal(gu.aai_agg, 0.1 * 187.5 + 0.01 * 500);
  // Deductible 100: 187.5 − 0.75 × 100 = 112.5; 500 − 1 × 100 = 400; cover 300 clips 400 to 300.
  assert.deepEqual(run(h, exp(100, 300), one, f).insured.at_event, [112.5, 300, 0]);
  // Deductible 400 and no cover: 187.5 − 300 = −112.5 stays negative, as CLIMADA leaves it; with a cover it is clipped to 0.
  assert.deepEqual(run(h, exp(400, null), one, f).insured.at_event, [-112.5, 100, 0]);
  assert.deepEqual(run(h, exp(400, 1e9), one, f).insured.at_event, [0, 100, 0]);
  // MDR(0) ≠ 0 (MDD 0.1 at 0): every event damages, intensity 0 where none is stored; the deductible only where one is.
  const g = { functions: [{ ...f.functions[0]!, mdd: [0.1, 0.5] }] };
  const dense = run(h, exp(100, null), one, g);
  // MDD(10) = 0.1 + 0.02 × 10 is 0.30000000000000004 in binary: compared to 1e-12 relative.
  const near = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]!) <= 1e-12 * Math.abs(b[i]!));
  assert.ok(near(dense.at_event, [225, 500, 50]), `${dense.at_event}`);
  assert.ok(near(dense.insured.at_event, [225 - 75, 400, 50]), `${dense.insured.at_event}`);
});

test('hand-worked: value 0 and unassigned exposures take no impact; tot_value counts value > 0 with a centroid', () => {
  const h: ClimadaHazardInput = {
    haz_type: 'XX', units: '', frequency_unit: '1/year', event_id: [1], event_name: ['a'], date: [0],
    frequency: Float64Array.of(1), lat: Float64Array.of(0, 1), lon: Float64Array.of(0, 1),
    intensity: { rowStart: Int32Array.of(0, 2), column: Int32Array.of(0, 1), value: Float64Array.of(20, 20) },
    fraction: null,
  };
  const f = { functions: [{ haz_type: 'XX', id: 1, name: '', intensity_unit: '', intensity: [0, 20], mdd: [0, 0.5], paa: [1, 1] }] };
  // Centroids (0, 0) and (1, 1). Default threshold: twice the resolution, 2 × 1° = 2°. A point 4.1° away takes no centroid.
  const e: ClimadaExposuresInput = { value_unit: '', latitude: Float64Array.of(0, 0, 5), longitude: Float64Array.of(0, 1.2, 0), value: Float64Array.of(0, 10, 10), deductible: null, cover: null, region_id: null, impf: { XX: Float64Array.of(1, 1, 1) } };
  const r = run(h, e, {}, f);
  assert.equal(r.assignment.threshold_deg, 2);
  assert.deepEqual(r.exposures.map((x: { centroid: number }) => x.centroid), [0, 1, -1]);
  assert.deepEqual(r.eai_exp, [0, 5, 0]);
  assert.equal(r.tot_value, 10);
});

test('hand-worked assignment: exact first, nearest by straight-line degrees (the lower index on a tie), great-circle on request, the antimeridian by great circle', () => {
  assert.equal(resolution1d([0, 1, 2, 5]), 1);
  // Steps between neighbours in the given order decide: 0.5 lies between 0 and 1 but no neighbours step by 0.5.
  assert.equal(resolution1d([0, 1, 0.5, 3]), 0.5);
  assert.equal(defaultThreshold([0, 0, 1, 1], [0, 1, 0, 1]), 2);
  const c = { lat: [0, 0, 60], lon: [0, 2, 0] };
  const euclid = assignCentroids({ lat: [0, 0, 60.5], lon: [2, 1, 1.5] }, c, 'euclidean', 3);
  assert.deepEqual(Array.from(euclid.centroid), [1, 0, 2]);
  assert.deepEqual([euclid.exact, euclid.nearest, euclid.unassigned], [1, 2, 0]);
  // At 60° N, 1.5° of longitude is nearer by great circle than by degrees: both find centroid 2, but a
  // threshold of 1.2° keeps it only by great circle (angle ≈ 0.86°), not in straight degrees (≈ 1.58°).
  assert.deepEqual(Array.from(assignCentroids({ lat: [60.5], lon: [1.5] }, c, 'euclidean', 1.2).centroid), [-1]);
  assert.deepEqual(Array.from(assignCentroids({ lat: [60.5], lon: [1.5] }, c, 'haversine', 1.2).centroid), [2]);
  // Across the antimeridian: 179.9 and -179.9 are 0.2° apart on the globe.
  const am = assignCentroids({ lat: [0], lon: [179.9] }, { lat: [0, 0], lon: [-179.9, 170] }, 'euclidean', 1);
  assert.deepEqual(Array.from(am.centroid), [0]);
  assert.equal(numpySum([1e16, 1, -1e16]), 0);
});
