// A lab result as published (domain/lab/engine/publication.ts): the currency named, every
// lab-metrics/1 block's money rounded to the currency's minor unit wherever a lane puts the block,
// and the rest (shares, ratios, counts, other members) left as the lane wrote it. The metrics are
// computed here by computeMetrics over a hand-made event loss table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics } from '../../../src/domain/lab/engine/metrics.js';
import { publishedResult } from '../../../src/domain/lab/engine/publication.js';

const metrics = computeMetrics({
  perspective: 'ground_up', lossBasis: 'hand-made', periods: 20,
  // 205,600 as a sum of damage ratios times values gives float noise: 0.1 + 0.2 style.
  eventLosses: [{ event_id: 1, loss: 205600.00082459996 }, { event_id: 2, loss: 0.1 + 0.2 }, { event_id: 3, loss: 1234.5678 }],
  occurrences: [{ event_id: 1, period: 3 }, { event_id: 2, period: 3 }, { event_id: 3, period: 7 }, { event_id: 3, period: 9 }],
  places: [{ index: 0, loss: 100.123 }, { index: 1, loss: 300.456 }],
  returnPeriods: [2],
});

test('money in cents: the ELT, YLT, AAL and its spread, curves with TVaR, places; shares and counts untouched', () => {
  const out = publishedResult({ lane: 'x', metrics, note: 0.1 + 0.2 }, 'USD') as any;
  assert.equal(out.currency, 'USD');
  assert.deepEqual(out.metrics.elt.map((e: any) => e.loss), [205600, 0.3, 1234.57]);
  assert.deepEqual(out.metrics.ylt.map((y: any) => [y.loss, y.max_event_loss]), [[205600.3, 205600], [1234.57, 1234.57], [1234.57, 1234.57]]);
  // The AAL is the exact period losses' mean, rounded once: (205600.30082... + 2 × 1234.5678) / 20.
  assert.equal(out.metrics.average_annual_loss.mean, Math.round(((205600.00082459996 + 0.3 + 2 * 1234.5678) / 20) * 100) / 100);
  for (const p of [...out.metrics.exceedance.oep, ...out.metrics.exceedance.aep]) {
    assert.equal(p.loss, Math.round(p.loss * 100) / 100);
    assert.equal(p.tvar, Math.round(p.tvar * 100) / 100);
  }
  assert.deepEqual(out.metrics.places.map((p: any) => p.aal), [5.01, 15.02]);
  assert.deepEqual(out.metrics.places.map((p: any) => p.share), metrics.places.map((p) => p.share));
  assert.equal(out.metrics.events_with_loss, 3);
  assert.equal(out.note, 0.1 + 0.2, 'members outside a metrics block are the lane\'s own');
});

test("a currency's own minor unit: JPY whole, BHD thousandths; none named keeps cents and says null", () => {
  assert.deepEqual((publishedResult({ metrics }, 'JPY') as any).metrics.elt.map((e: any) => e.loss), [205600, 0, 1235]);
  assert.deepEqual((publishedResult({ metrics }, 'BHD') as any).metrics.elt.map((e: any) => e.loss), [205600.001, 0.3, 1234.568]);
  const none = publishedResult({ metrics }, null) as any;
  assert.equal(none.currency, null);
  assert.deepEqual(none.metrics.elt.map((e: any) => e.loss), [205600, 0.3, 1234.57]);
});

test('blocks found anywhere: per perspective, in arrays, with a sensitivity block', () => {
  const withSensitivity = { ...metrics, sensitivity: { method: 'm', base_aal: 1.005001, variants: [{ label: 'v', factor: 1.1, aal_change: 0.123456789, average_annual_loss: { mean: 2.3456, standard_deviation: null, standard_error: null }, oep: [], aep: [{ return_period: 2, loss: 9.999, tvar: 10.0049 }] }] } };
  const out = publishedResult({ perspectives: { il: withSensitivity, list: [metrics] } }, 'EUR') as any;
  assert.equal(out.perspectives.il.sensitivity.base_aal, 1.01);
  assert.equal(out.perspectives.il.sensitivity.variants[0].aal_change, 0.123456789);
  assert.equal(out.perspectives.il.sensitivity.variants[0].average_annual_loss.mean, 2.35);
  assert.deepEqual(out.perspectives.il.sensitivity.variants[0].aep[0], { return_period: 2, loss: 10, tvar: 10 });
  assert.equal(out.perspectives.list[0].elt[0].loss, 205600);
});
