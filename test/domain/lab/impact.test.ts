import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { computeImpact, impactLosses, interpolateClamped, type Hazard, type Exposures, type ImpactFunctionSet } from '../../../src/domain/lab/engine/impact.js';
import { computeMetrics, metricsSchema } from '../../../src/domain/lab/engine/metrics.js';

// A tiny hazard made by hand for this test (not model data): 2 events, 3 centroids.
//   event 11 (frequency 0.1):  intensities 10, 30, 0
//   event 12 (frequency 0.02): intensities 50, 20, 60
// Impact function 1: intensity 0, 20, 40 → mdd 0, 0.2, 0.6 and paa 1, 0.5, 1.
//   MDR(10) = 0.1 × 0.75 = 0.075; MDR(30) = 0.4 × 0.75 = 0.3; MDR(20) = 0.2 × 0.5 = 0.1;
//   MDR(50) = held at 0.6 × 1 = 0.6.
// Impact function 2: intensity 0, 100 → mdd 0.05, 1 and paa 1, 1 (MDD(0) > 0 on purpose).
//   MDR(60) = 0.05 + 0.95 × 0.6 = 0.62; intensity 0 causes no impact.
// Places: A 1000 at centroid 0 (fn 1), B 2000 at centroid 1 (fn 1), C 500 at centroid 2 (fn 2),
// D 700 at no centroid (fn 1).
//   event 11: A 75, B 600, C 0 (intensity 0)         → 675
//   event 12: A 600, B 200, C 310                    → 1110
//   eai_exp: A 0.1·75 + 0.02·600 = 19.5; B 60 + 4 = 64; C 0.02·310 = 6.2; D 0
//   aai_agg = 89.7 (= 0.1·675 + 0.02·1110)
const functions: ImpactFunctionSet = [
  { id: 1, intensity: [0, 20, 40], mdd: [0, 0.2, 0.6], paa: [1, 0.5, 1] },
  { id: 2, intensity: [0, 100], mdd: [0.05, 1], paa: [1, 1] },
];
const exposures: Exposures = {
  points: [
    { value: 1000, centroid: 0, impf_id: 1 },
    { value: 2000, centroid: 1, impf_id: 1 },
    { value: 500, centroid: 2, impf_id: 2 },
    { value: 700, centroid: -1, impf_id: 1 },
  ],
};
const dense: Hazard = {
  event_ids: [11, 12], frequency: [0.1, 0.02], centroidCount: 3,
  intensity: { kind: 'dense', values: [10, 30, 0, 50, 20, 60] },
};
const sparse: Hazard = {
  ...dense,
  intensity: { kind: 'sparse', rowStart: [0, 2, 5], centroid: [0, 1, 0, 1, 2], value: [10, 30, 50, 20, 60] },
};

function close(actual: ArrayLike<number>, expected: number[]): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i]! - expected[i]!) < 1e-9, `${i}: ${actual[i]} vs ${expected[i]}`);
}

for (const [name, hazard] of [['dense', dense], ['sparse', sparse]] as const) {
  test(`computeImpact on a hand-made hazard (${name} intensity) matches the figures worked by hand`, () => {
    const r = computeImpact(hazard, exposures, functions);
    assert.ok(r.ok);
    const imp = r.value;
    assert.deepEqual(Array.from(imp.event_ids), [11, 12]);
    close(imp.at_event, [675, 1110]);
    close(imp.eai_exp, [19.5, 64, 6.2, 0]);
    assert.ok(Math.abs(imp.aai_agg - 89.7) < 1e-9, String(imp.aai_agg));
    assert.deepEqual(Array.from(imp.imp_mat.rowStart), [0, 2, 5]);
    assert.deepEqual(Array.from(imp.imp_mat.place), [0, 1, 0, 1, 2]);
    close(imp.imp_mat.loss, [75, 600, 600, 200, 310]);
  });
}

test('impact functions interpolate linearly and hold their end values outside the intensities', () => {
  assert.equal(interpolateClamped([0, 20, 40], [0, 0.2, 0.6], -5), 0);
  assert.equal(interpolateClamped([0, 20, 40], [0, 0.2, 0.6], 500), 0.6);
  assert.ok(Math.abs(interpolateClamped([0, 20, 40], [0, 0.2, 0.6], 30) - 0.4) < 1e-15);
  assert.equal(interpolateClamped([5], [0.3], 1), 0.3);
});

test('inconsistent impact inputs are refused with every fault named, as 422 invalid_request', () => {
  const r = computeImpact(
    { event_ids: [1, 2], frequency: [0.1], centroidCount: 2, intensity: { kind: 'dense', values: [1, 2, 3] } },
    { points: [{ value: 10, centroid: 5, impf_id: 9 }] },
    [{ id: 1, intensity: [10, 0], mdd: [0, 1], paa: [1] }],
  );
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.refusal.status, 422);
  assert.equal(r.refusal.code, 'invalid_request');
  const details = r.refusal.details ?? [];
  for (const part of ['2 events but 1 frequencies', 'not events × centroids = 4', 'one mdd and one paa', 'intensities must ascend', 'centroid 5', 'impact function 9']) {
    assert.ok(details.some((d) => d.includes(part)), `${part} in ${details.join(' | ')}`);
  }
});

test('an impact and an occurrence table give a valid lab-metrics/1 result', () => {
  const r = computeImpact(dense, exposures, functions);
  assert.ok(r.ok);
  // Hand-made occurrence table over 10 periods: event 11 in periods 1 and 4, event 12 in period 4.
  const occurrences = [{ event_id: 11, period: 1 }, { event_id: 11, period: 4 }, { event_id: 12, period: 4 }];
  const { eventLosses, places } = impactLosses(r.value, occurrences);
  close(eventLosses.map((e) => e.loss), [675, 1110]);
  // Places over every occurrence: A 2·75 + 600 = 750, B 2·600 + 200 = 1400, C 310, D 0.
  close(places.map((p) => p.loss), [750, 1400, 310, 0]);
  const m = computeMetrics({ perspective: 'ground_up', lossBasis: 'test', periods: 10, eventLosses, occurrences, places, returnPeriods: [1] });
  assert.ok(new Ajv2020({ allErrors: true, strict: true }).compile(metricsSchema)(m));
  // AAL = (675 + 675 + 1110) / 10 = 246.
  assert.ok(Math.abs(m.average_annual_loss.mean - 246) < 1e-9, String(m.average_annual_loss.mean));
  close(m.places.map((p) => p.aal), [75, 140, 31, 0]);
});
