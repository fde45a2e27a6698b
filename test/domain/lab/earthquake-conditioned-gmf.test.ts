// Conditioned ground motion against OpenQuake's published test values: the USGS ShakeMap 4.1
// verification cases as openquake/hazardlib/tests/calc/conditioned_gmfs_test.py runs them (its data
// in _conditioned_gmfs_test_data.py: a GMPE of mean 0, tau 0.6 and phi 0.8 everywhere, spatial
// correlation exp(-h/10) with h in km, cross-measure correlations Ts/Tl, stations and 481 targets
// along latitude 38 from -123 to -121), each compared at OpenQuake's own tolerance (rtol 1e-4), the
// zeros at 1e-6 (OpenQuake's 1e-4 where no target sits on the zero), distances on OpenQuake's
// 6371 km sphere; then hand-worked cases on a GMPE with a non-zero mean; an independent
// recomputation by plain Gaussian conditioning; the pseudo-inverse; and the choice of the measures a
// target is conditioned on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conditionedMean, conditioningPlan, conditioningSystem, type ConditioningPlaces } from '../../../src/domain/lab/lanes/earthquake/conditioned-gmf.js';
import { bakerJayaram2008, godaAtkinson2009, jb2009RangeKm, type ConditioningCorrelation } from '../../../src/domain/lab/lanes/earthquake/imt-correlation.js';
import { covariancePseudoInverse, symmetricEigen, symmetricPseudoInverse } from '../../../src/domain/stats/symmetric-eigen.js';
import { PGA, sa, type Imt } from '../../../src/domain/hazard/gmpe/types.js';

// openquake/hazardlib/geo/geodetic.py geodetic_distance: haversine on a sphere of 6371 km.
function oqDistance(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const ratio = (a: Imt, b: Imt) => {
  const ta = a.kind === 'SA' ? a.period : 0;
  const tb = b.kind === 'SA' ? b.period : 0;
  return ta === tb ? 1 : Math.min(ta, tb) / Math.max(ta, tb);
};
// The test data's DummySpatialCorrelationModel and Dummy cross-correlations.
const DUMMY: ConditioningCorrelation = {
  spatial: (_imt, h) => Math.exp(-0.1 * h), withinCross: ratio, betweenCross: ratio,
  words: { spatial: 'exp(-h/10)', within_cross: 'Ts/Tl', between_cross: 'Ts/Tl' },
};

/** numpy.round(numpy.linspace(-123, -121, 481), 5), as the test data lays its targets. */
const TARGETS = Array.from({ length: 481 }, (_, i) => Math.round((-123 + (2 * i) / 480) * 1e5) / 1e5);

function places(stationLons: readonly number[], targetLons: readonly number[] = TARGETS): ConditioningPlaces {
  const S = stationLons.length;
  const N = targetLons.length;
  const DD = new Float64Array(S * S);
  const YD = new Float64Array(N * S);
  const YY = new Float64Array(N * N);
  stationLons.forEach((a, i) => stationLons.forEach((b, j) => { DD[i * S + j] = oqDistance(a, 38, b, 38); }));
  targetLons.forEach((a, i) => stationLons.forEach((b, j) => { YD[i * S + j] = oqDistance(a, 38, b, 38); }));
  targetLons.forEach((a, i) => targetLons.forEach((b, j) => { YY[i * N + j] = oqDistance(a, 38, b, 38); }));
  return { stations: S, targets: N, DD, YD, YY };
}

/** The conditioned mean and total standard deviation at the targets for the zero-mean GMPE (one measure, PGA). */
function zeroMean(stationLons: readonly number[], observed: readonly number[], lnSigma: readonly number[], target: Imt = PGA, observedImt: Imt = PGA, targetLons: readonly number[] = TARGETS) {
  const p = places(stationLons, targetLons);
  const plan = conditioningPlan(target, [observedImt]);
  const S = stationLons.length;
  const N = targetLons.length;
  const full = (v: number, n: number) => new Float64Array(n).fill(v);
  const sigmas = { tauD: plan.conditioning.map(() => full(0.6, S)), phiD: plan.conditioning.map(() => full(0.8, S)), tauY: full(0.6, N), phiY: full(0.8, N) };
  const sys = conditioningSystem(plan, p, sigmas, Float64Array.from(lnSigma, (s) => s * s), DUMMY);
  const { mean, bias } = conditionedMean(sys, Float64Array.from(observed), new Float64Array(N));
  const sig = Array.from({ length: N }, (_, i) => Math.sqrt(sys.covW[i * N + i]! + sys.covB[i * N + i]!));
  return { mu: [...mean], sig, bias, sys };
}

const close = (got: number, want: number, rtol = 1e-4, what = '') => assert.ok(Math.abs(got - want) <= (want === 0 ? 1e-6 : rtol * Math.abs(want)), `${what} ${got} vs ${want} (rtol ${rtol}, atol 1e-6 at 0)`);
const zero = (got: number, what = '') => assert.ok(Math.abs(got) <= 1e-6, `${what} ${got} vs 0 (atol 1e-6)`);
const min = (a: number[]) => Math.min(...a);
const max = (a: number[]) => Math.max(...a);

test('ShakeMap verification case 01 (OpenQuake test_case_01): two stations observing the median, mean 0 throughout, sigma 0 at them and between 0.8 and 1 far away', () => {
  const { mu, sig } = zeroMean([-122.17083, -121.8375], [0, 0], [0, 0], PGA, PGA, Array.from({ length: 241 }, (_, i) => Math.round((-122.5 + i / 240) * 1e5) / 1e5));
  mu.forEach((m) => zero(m, 'mu'));
  zero(min(sig), 'min sigma');
  assert.ok(max(sig) > 0.8 && max(sig) < 1.0, String(max(sig)));
});

test('case 02: observations +1 and -1: the mean spans -1 to 1 and passes 0, sigma 0 at the stations', () => {
  const { mu, sig } = zeroMean([-122.17083, -121.8375], [1, -1], [0, 0]);
  close(min(mu), -1, 1e-4, 'min mu');
  close(max(mu), 1, 1e-4, 'max mu');
  // No target lies exactly midway between the stations: OpenQuake's own atol, 1e-4.
  assert.ok(Math.min(...mu.map(Math.abs)) <= 1e-4);
  zero(min(sig), 'min sigma');
  assert.ok(max(sig) > 0.8 && max(sig) < 1.0);
});

test('case 03: one station observing +1: mean 0.36 far away (the between-event shift), 1 at the station; sigma sqrt(0.8704) far away', () => {
  const { mu, sig, bias } = zeroMean([-122.17083], [1], [0]);
  close(min(mu), 0.36, 1e-4, 'min mu');
  close(max(mu), 1, 1e-4, 'max mu');
  zero(min(sig), 'min sigma');
  close(max(sig), Math.sqrt(0.8704), 1e-4, 'max sigma');
  close(bias.mean, 0.36, 1e-12, 'nominal bias');
});

test('case 04: two stations at one place both observing +1 (a singular station covariance, pseudo-inverted): as case 03', () => {
  const { mu, sig } = zeroMean([-122.17083, -122.17083], [1, 1], [0, 0]);
  close(min(mu), 0.36, 1e-4, 'min mu');
  close(max(mu), 1, 1e-4, 'max mu');
  zero(min(sig), 'min sigma');
  close(max(sig), Math.sqrt(0.8704), 1e-4, 'max sigma');
});

test('case 04b: the two stations one degree apart: min mean 0.52970, max sigma 0.89955', () => {
  const { mu, sig } = zeroMean([-122.17083, -121.17083], [1, 1], [0, 0]);
  close(min(mu), 0.5297, 1e-4, 'min mu');
  close(max(mu), 1, 1e-4, 'max mu');
  zero(min(sig), 'min sigma');
  close(max(sig), 0.89955, 1e-4, 'max sigma');
});

test('case 05: two stations at one place observing +1 and -1: mean 0 everywhere, max sigma sqrt(0.8704)', () => {
  const { mu, sig } = zeroMean([-122.17083, -122.17083], [1, -1], [0, 0]);
  mu.forEach((m) => assert.ok(Math.abs(m) <= 1e-4, String(m)));
  zero(min(sig), 'min sigma');
  close(max(sig), Math.sqrt(0.8704), 1e-4, 'max sigma');
});

test('case 08: one station with observation sigma 0, 0.75, 1.5, 3 and 6: bias, mean and sigma at the station and far away as the test data\'s closed forms', () => {
  const [tau, phi, obs] = [0.6, 0.8, 1];
  for (const addon of [0, 0.75, 1.5, 3, 6]) {
    const v = addon ** 2;
    const varH = 1 / (1 + tau ** 2 / (phi ** 2 + v));
    const bias = (tau / (phi ** 2 + v)) * obs * varH * tau;
    const muObs = bias + (phi ** 2 / (phi ** 2 + v)) * (obs - bias);
    const cObs = tau * (1 - phi ** 2 / (phi ** 2 + v));
    const sigObs = Math.sqrt(phi ** 2 * (1 - phi ** 2 / (phi ** 2 + v)) + cObs ** 2 * varH);
    const sigFar = Math.sqrt(phi ** 2 + tau ** 2 * varH);
    const { mu, sig } = zeroMean([-122.17083], [obs], [addon]);
    close(min(mu), bias, 1e-4, `bias ${addon}`);
    close(max(mu), muObs, 1e-4, `mean at the station ${addon}`);
    close(min(sig), sigObs, 1e-4, `sigma at the station ${addon}`);
    close(max(sig), sigFar, 1e-4, `sigma far away ${addon}`);
  }
});

test('hand-worked: one station, a GMPE median of ln 0.1 g, tau 0.5, phi 0.6: at the station the mean is the observation; 500 km away the median shifted by tau x E[H]', () => {
  // Hand-made numbers. Observation ln(0.2 g); zeta = ln 2. Native PGA, one station:
  // var(H|y) = 1 / (1 + tau^2/phi^2), E[H|y] = tau/phi^2 * zeta * var(H|y); B = tau E[H];
  // at the station: mean = mu + B + (zeta - B) = ln 0.2; far away: mean = mu + B.
  const [tau, phi] = [0.5, 0.6];
  const zeta = Math.log(2);
  const p = places([-122], [-122, -116.3]);
  const plan = conditioningPlan(PGA, [PGA]);
  const sys = conditioningSystem(plan, p, { tauD: [Float64Array.of(tau)], phiD: [Float64Array.of(phi)], tauY: Float64Array.of(tau, tau), phiY: Float64Array.of(phi, phi) }, Float64Array.of(0), DUMMY);
  const mu = Math.log(0.1);
  const { mean, betweenEvent } = conditionedMean(sys, Float64Array.of(zeta), Float64Array.of(mu, mu));
  const varH = 1 / (1 + tau ** 2 / phi ** 2);
  const eH = (tau / phi ** 2) * zeta * varH;
  assert.ok(Math.abs(betweenEvent - eH) < 1e-12);
  assert.ok(Math.abs(mean[0]! - Math.log(0.2)) < 1e-12, `at the station ${mean[0]}`);
  assert.ok(Math.abs(mean[1]! - (mu + tau * eH)) < 1e-12, `far away ${mean[1]}`);
  // Variance: 0 at the station; far away phi^2 + tau^2 var(H|y).
  assert.ok(sys.covW[0]! + sys.covB[0]! < 1e-12);
  assert.ok(Math.abs(sys.covW[3]! + sys.covB[3]! - (phi ** 2 + tau ** 2 * varH)) < 1e-9);
});

test('a target measure not recorded: conditioned on the recorded periods bracketing it, or the nearest outside their range', () => {
  const observed = [PGA, sa(0.3), sa(1.0)];
  assert.deepEqual(conditioningPlan(sa(1.0), observed), { target: sa(1.0), conditioning: [sa(1.0)], native: true });
  assert.deepEqual(conditioningPlan(sa(0.6), observed).conditioning, [sa(0.3), sa(1.0)]);
  assert.deepEqual(conditioningPlan(sa(2.0), observed).conditioning, [sa(1.0)]);
  assert.deepEqual(conditioningPlan(sa(0.1), observed).conditioning, [PGA, sa(0.3)]);
  // Hand-worked, one station recording SA(0.3) and SA(1.0) equal to the median: no shift anywhere.
  const p = places([-122], [-122, -121]);
  const plan = conditioningPlan(sa(0.6), [sa(0.3), sa(1.0)]);
  const one = (v: number) => Float64Array.of(v);
  const sys = conditioningSystem(plan, p, { tauD: [one(0.5), one(0.45)], phiD: [one(0.6), one(0.55)], tauY: Float64Array.of(0.48, 0.48), phiY: Float64Array.of(0.58, 0.58) }, Float64Array.of(0, 0), DUMMY);
  assert.equal(sys.B, 3);
  const { mean } = conditionedMean(sys, Float64Array.of(0, 0), Float64Array.of(-1, -1));
  assert.ok(Math.abs(mean[0]! + 1) < 1e-12 && Math.abs(mean[1]! + 1) < 1e-12);
  // A positive residual at both periods raises SA(0.6) at the station more than 1 degree away.
  const up = conditionedMean(sys, Float64Array.of(0.5, 0.5), Float64Array.of(-1, -1)).mean;
  assert.ok(up[0]! > up[1]! && up[1]! > -1);
});

test('an independent recomputation: the conditioned mean and variance equal plain Gaussian conditioning of the joint prior (targets and stations, between- and within-event), bracketed SA(0.6) on SA(0.3) and SA(1.0)', () => {
  // Hand-made: 4 stations, 3 targets, sigmas varying by place, the dummy correlations above. The joint
  // prior of Y (target measure at the targets) and D (each conditioning measure at each station):
  // Y = muY + tauY H_t + W_Y, D_k = muD_k + tauD_k H_k + W_k + e (var e = observation variance),
  // H = (H_t, H_1, H_2) with correlation corr(T_a, T_b), W jointly with the spatial cross model.
  // Then E[Y|D] = muY + S_YD S_DD^-1 (y - muD) and Var = S_YY - S_YD S_DD^-1 S_DY, by a plain
  // Gauss-Jordan inverse here. Engler's partition (appendix B) must give the same (Engler et al.
  // 2022; OpenQuake's newer joint path states the identity).
  const st = [-122.3, -122.1, -121.95, -121.7];
  const tg = [-122.2, -121.8, -121.0];
  const p = places(st, tg);
  const [S, N] = [st.length, tg.length];
  const target = sa(0.6);
  const plan = conditioningPlan(target, [PGA, sa(0.3), sa(1.0)]);
  assert.deepEqual(plan.conditioning, [sa(0.3), sa(1.0)]);
  const f = (base: number, step: number, n: number) => Float64Array.from({ length: n }, (_, i) => base + step * i);
  const sig = { tauD: [f(0.40, 0.01, S), f(0.45, -0.01, S)], phiD: [f(0.60, 0.02, S), f(0.55, 0.01, S)], tauY: f(0.42, 0.01, N), phiY: f(0.58, -0.02, N) };
  const obsVar = Float64Array.from({ length: 2 * S }, (_, i) => (i % 3) * 0.01);
  const zeta = Float64Array.from({ length: 2 * S }, (_, i) => Math.sin(i + 1) * 0.7);
  const muY = f(-1.5, 0.2, N);
  const sys = conditioningSystem(plan, p, sig, obsVar, DUMMY);
  const got = conditionedMean(sys, zeta, muY).mean;

  const c = plan.conditioning;
  const bracket = [target, ...c];
  const M = 2 * S;
  const rho = (a: Imt, b: Imt, h: number) => (a === b || ratio(a, b) === 1 ? DUMMY.spatial(a, h) : Math.max(DUMMY.spatial(a, h), DUMMY.spatial(b, h)) * ratio(a, b));
  const SDD = Array.from({ length: M }, (_, i) => Array.from({ length: M }, (_, j) => {
    const [k, s] = [Math.floor(i / S), i % S];
    const [l, t] = [Math.floor(j / S), j % S];
    return sig.tauD[k]![s]! * sig.tauD[l]![t]! * ratio(bracket[k + 1]!, bracket[l + 1]!)
      + sig.phiD[k]![s]! * sig.phiD[l]![t]! * rho(c[k]!, c[l]!, p.DD[s * S + t]!) + (i === j ? obsVar[i]! : 0);
  }));
  const SYD = Array.from({ length: N }, (_, y) => Array.from({ length: M }, (_, j) => {
    const [l, t] = [Math.floor(j / S), j % S];
    return sig.tauY[y]! * sig.tauD[l]![t]! * ratio(target, c[l]!) + sig.phiY[y]! * sig.phiD[l]![t]! * rho(target, c[l]!, p.YD[y * S + t]!);
  }));
  const SYY = (y: number, z: number) => sig.tauY[y]! * sig.tauY[z]! + sig.phiY[y]! * sig.phiY[z]! * DUMMY.spatial(target, p.YY[y * N + z]!);
  // Gauss-Jordan inverse of SDD.
  const A = SDD.map((row, i) => [...row, ...Array.from({ length: M }, (_, j) => (i === j ? 1 : 0))]);
  for (let i = 0; i < M; i++) {
    let best = i;
    for (let r = i + 1; r < M; r++) if (Math.abs(A[r]![i]!) > Math.abs(A[best]![i]!)) best = r;
    [A[i], A[best]] = [A[best]!, A[i]!];
    const d = A[i]![i]!;
    for (let j = 0; j < 2 * M; j++) A[i]![j] = A[i]![j]! / d;
    for (let r = 0; r < M; r++) if (r !== i) { const m = A[r]![i]!; for (let j = 0; j < 2 * M; j++) A[r]![j] = A[r]![j]! - m * A[i]![j]!; }
  }
  const inv = A.map((row) => row.slice(M));
  for (let y = 0; y < N; y++) {
    const w = Array.from({ length: M }, (_, j) => SYD[y]!.reduce((acc, v, q) => acc + v * inv[q]![j]!, 0));
    const mean = muY[y]! + w.reduce((acc, v, j) => acc + v * zeta[j]!, 0);
    const variance = SYY(y, y) - w.reduce((acc, v, j) => acc + v * SYD[y]![j]!, 0);
    assert.ok(Math.abs(got[y]! - mean) < 1e-10, `mean at target ${y}: ${got[y]} vs ${mean}`);
    const v = sys.covW[y * N + y]! + sys.covB[y * N + y]!;
    assert.ok(Math.abs(v - variance) < 1e-10, `variance at target ${y}: ${v} vs ${variance}`);
  }
});

test('the correlation models as OpenQuake writes them: JB2009 ranges, Baker-Jayaram 2008, Goda-Atkinson 2009 (values worked here from their formulas)', () => {
  assert.equal(jb2009RangeKm(PGA, true), 40.7);
  assert.ok(Math.abs(jb2009RangeKm(sa(0.6), true) - 31.7) < 1e-12);
  assert.ok(Math.abs(jb2009RangeKm(sa(0.6), false) - 18.82) < 1e-12);
  assert.ok(Math.abs(jb2009RangeKm(sa(2), true) - 29.4) < 1e-12);
  // Baker-Jayaram, both periods above 0.109 s: c1 = 1 - cos(pi/2 - 0.366 ln(1/0.3)).
  assert.ok(Math.abs(bakerJayaram2008(sa(0.3), sa(1)) - (1 - Math.cos(Math.PI / 2 - 0.366 * Math.log(1 / 0.3)))) < 1e-15);
  assert.equal(bakerJayaram2008(sa(1), sa(1)), 1);
  // Goda-Atkinson, 0.3 and 1.0 s (Tmin >= 0.25, so no theta2 term).
  const lr = Math.log10(1 / 0.3);
  assert.ok(Math.abs(godaAtkinson2009(sa(0.3), sa(1)) - (1 - Math.cos(Math.PI / 2 - 1.374 * lr) + 1 + Math.cos(-1.5 * lr)) / 3) < 1e-15);
  assert.equal(godaAtkinson2009(PGA, PGA), 1);
});

test('the symmetric eigen-decomposition and pseudo-inverse: A v = lambda v on a random 40 x 40, A A+ A = A on a rank-deficient one', () => {
  let seed = 11;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
  const n = 40;
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) { const v = rnd(); A[i * n + j] = v; A[j * n + i] = v; }
  const { values, vectors } = symmetricEigen(A, n);
  for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += A[i * n + j]! * vectors[k * n + j]!;
    assert.ok(Math.abs(s - values[k]! * vectors[k * n + i]!) < 1e-12);
  }
  // Rank 2: the outer products of two vectors.
  const u = Array.from({ length: 6 }, rnd);
  const w = Array.from({ length: 6 }, rnd);
  const R = new Float64Array(36);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) R[i * 6 + j] = u[i]! * u[j]! + w[i]! * w[j]!;
  const P = symmetricPseudoInverse(R, 6);
  const mul = (X: Float64Array, Y: Float64Array) => { const Z = new Float64Array(36); for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) { let s = 0; for (let k = 0; k < 6; k++) s += X[i * 6 + k]! * Y[k * 6 + j]!; Z[i * 6 + j] = s; } return Z; };
  const back = mul(mul(R, P), R);
  back.forEach((v, i) => assert.ok(Math.abs(v - R[i]!) < 1e-12));
  // A covariance: the Cholesky route gives the eigen route's pseudo-inverse (here the inverse), and
  // falls back to it when singular (R above).
  const G = new Float64Array(36);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) { let v = i === j ? 0.1 : 0; for (let k = 0; k < 6; k++) v += (u[i]! * k + w[k]!) * (u[j]! * k + w[k]!); G[i * 6 + j] = v; }
  const byCholesky = covariancePseudoInverse(G, 6);
  symmetricPseudoInverse(G, 6).forEach((v, i) => assert.ok(Math.abs(v - byCholesky[i]!) < 1e-9 * Math.max(1, Math.abs(v)), `${v} vs ${byCholesky[i]}`));
  covariancePseudoInverse(R, 6).forEach((v, i) => assert.ok(Math.abs(v - P[i]!) < 1e-12));
});
