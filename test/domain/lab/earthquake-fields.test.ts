// Ground-motion fields: seeded determinism, and the empirical correlation of the within-event
// residuals against separation follows Jayaram and Baker (2009). The places are hand-made (a line
// of points 2 km apart); the check pools 2,000 fields, so the sampling error of a correlation near
// 0.5 is about 0.02: tolerance 0.06 (three standard errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cholesky, correlation, correlationFactor, correlationRangeKm, sampleFields } from '../../../src/domain/lab/lanes/earthquake/fields.js';
import { PGA, sa } from '../../../src/domain/hazard/gmpe/types.js';

const KM_PER_DEG = (6371.0088 * Math.PI) / 180;
const places = Array.from({ length: 12 }, (_, i) => ({ latitude: 0, longitude: (2 * i) / KM_PER_DEG }));
const n = places.length;
const zero = new Float64Array(n);
const ones = new Float64Array(n).fill(1);

test('the correlation range of Jayaram and Baker (2009), case 1', () => {
  assert.equal(correlationRangeKm(PGA), 8.5);
  assert.ok(Math.abs(correlationRangeKm(sa(0.5)) - 17.1) < 1e-12);
  assert.ok(Math.abs(correlationRangeKm(sa(2)) - 29.4) < 1e-12);
  assert.ok(Math.abs(correlation(8.5, 8.5) - Math.exp(-3)) < 1e-15);
});

test('the Cholesky factor rebuilds its matrix, and two places at one spot are fully dependent', () => {
  const m = new Float64Array([4, 2, 0.4, 2, 5, 1, 0.4, 1, 3]);
  const l = cholesky(m, 3);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += l[i * 3 + k]! * l[j * 3 + k]!;
    assert.ok(Math.abs(s - m[i * 3 + j]!) < 1e-12);
  }
  const twin = correlationFactor([{ latitude: 1, longitude: 1 }, { latitude: 1, longitude: 1 }], PGA);
  const f = sampleFields(twin, 2, 50, () => ({ mean: new Float64Array(2), tau: new Float64Array(2), phi: new Float64Array(2).fill(1) }), 7);
  for (let k = 0; k < 50; k++) assert.ok(Math.abs(f[2 * k]! - f[2 * k + 1]!) < 1e-12);
});

test('the same seed gives the same fields; another seed others', () => {
  const factor = correlationFactor(places, PGA);
  const inputs = () => ({ mean: zero, tau: ones, phi: ones });
  const a = sampleFields(factor, n, 20, inputs, 42);
  const b = sampleFields(factor, n, 20, inputs, 42);
  const c = sampleFields(factor, n, 20, inputs, 43);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

test('the within-event residuals are correlated as exp(-3h/b) by separation', () => {
  for (const imt of [PGA, sa(1)]) {
    const factor = correlationFactor(places, imt);
    const fields = 2000;
    const f = sampleFields(factor, n, fields, () => ({ mean: zero, tau: zero, phi: ones }), 2009);
    for (const lag of [1, 2, 4, 8]) {
      let sxy = 0;
      let count = 0;
      for (let k = 0; k < fields; k++) for (let i = 0; i + lag < n; i++) { sxy += f[k * n + i]! * f[k * n + i + lag]!; count++; }
      const empirical = sxy / count;
      const expected = correlation(2 * lag, correlationRangeKm(imt));
      assert.ok(Math.abs(empirical - expected) < 0.06, `${imt.kind} h=${2 * lag} km: empirical ${empirical.toFixed(3)}, model ${expected.toFixed(3)}`);
    }
    let ss = 0;
    for (let k = 0; k < fields * n; k++) ss += f[k]! ** 2;
    assert.ok(Math.abs(ss / (fields * n) - 1) < 0.06, 'unit variance');
  }
});
