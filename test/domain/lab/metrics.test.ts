import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  computeMetrics, lossAtReturnPeriod, publishable, blockSpread, metricsSchema, aalFigures,
  type EventLoss, type Occurrence,
} from '../../../src/domain/lab/engine/metrics.js';

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(metricsSchema);

test('return periods are published only when the sample holds ten times as many periods', () => {
  assert.deepEqual(publishable(1000, [2, 5, 10, 25, 50, 100, 200, 250, 500, 1000]), {
    published: [2, 5, 10, 25, 50, 100],
    withheld: [
      { return_period: 200, periods_needed: 2000 }, { return_period: 250, periods_needed: 2500 },
      { return_period: 500, periods_needed: 5000 }, { return_period: 1000, periods_needed: 10000 },
    ],
  });
  assert.deepEqual(publishable(99, [10]).published, []);
  assert.deepEqual(publishable(100, [10]).published, [10]);
  assert.deepEqual(publishable(10_000, [1000]).published, [1000]);
});

test('loss at a return period and TVaR on a hand-built table', () => {
  // 20 periods, losses 20, 19, ..., 1 (sorted descending).
  const sorted = Float64Array.from({ length: 20 }, (_, i) => 20 - i);
  // T = 2: r = 10 → the 10th largest, 11; TVaR = mean of 20..11 = 15.5.
  assert.deepEqual(lossAtReturnPeriod(sorted, 2), { loss: 11, tvar: 15.5 });
  // T = 4: r = 5 → 16; TVaR = mean(20..16) = 18.
  assert.deepEqual(lossAtReturnPeriod(sorted, 4), { loss: 16, tvar: 18 });
  // T = 3: r = 6.667 → 15 + 0.667·(14 - 15) = 14.333; TVaR = (20+...+15 + 0.667·14) / 6.667.
  const r = 20 / 3;
  const t3 = lossAtReturnPeriod(sorted, 3);
  assert.ok(Math.abs(t3.loss - (15 - (r - 6))) < 1e-12);
  assert.ok(Math.abs(t3.tvar - (105 + (r - 6) * 14) / r) < 1e-12);
  // T = 20: r = 1 → the largest.
  assert.deepEqual(lossAtReturnPeriod(sorted, 20), { loss: 20, tvar: 20 });
});

test('block spread over whole 1,000-period blocks', () => {
  const agg = new Float64Array(2500);
  for (let p = 0; p < 1000; p++) agg[p] = 1; // block 1: AAL 1
  agg[1000] = 3000; // block 2: AAL 3
  agg[2400] = 1e9; // beyond the last whole block: left out
  const b = blockSpread(agg)!;
  assert.equal(b.count, 2);
  assert.deepEqual(b.aal_by_block, [
    { block: 1, first_period: 1, last_period: 1000, aal: 1 },
    { block: 2, first_period: 1001, last_period: 2000, aal: 3 },
  ]);
  assert.deepEqual([b.min, b.max, b.mean], [1, 3, 2]);
  assert.equal(blockSpread(new Float64Array(999)), null);
});

test('AAL with standard deviation (n - 1) and standard error', () => {
  const a = aalFigures([0, 0, 10, 30]);
  assert.equal(a.mean, 10);
  const sd = Math.sqrt((100 + 100 + 0 + 400) / 3);
  assert.ok(Math.abs(a.standard_deviation! - sd) < 1e-12);
  assert.ok(Math.abs(a.standard_error! - sd / 2) < 1e-12);
});

test('the full block from an event loss table: occurrences, OEP vs AEP, ELT, YLT, places, largest events', () => {
  // 20 periods; events 1..4; event 1 occurs twice.
  const eventLosses: EventLoss[] = [
    { event_id: 1, loss: 100 }, { event_id: 2, loss: 40 }, { event_id: 3, loss: 70 }, { event_id: 4, loss: 0 }, { event_id: 5, loss: 9 },
  ];
  const occurrences: Occurrence[] = [
    { event_id: 1, period: 2 }, { event_id: 2, period: 2 }, { event_id: 3, period: 7 }, { event_id: 1, period: 11 }, { event_id: 4, period: 12 },
    { event_id: 99, period: 3 }, // not in the table: ignored
  ];
  const m = computeMetrics({
    perspective: 'ground_up', lossBasis: 'test', periods: 20, eventLosses, occurrences,
    places: [{ index: 0, loss: 60 }, { index: 3, loss: 180 }], returnPeriods: [2, 5, 10],
  });
  // Period losses: p2 = 140 (max 100), p7 = 70, p11 = 100; AAL = 310 / 20 = 15.5.
  assert.equal(m.average_annual_loss.mean, 15.5);
  // 20 periods: T = 2 published (r = 10, rank 10 → 0), T = 5 and 10 withheld.
  assert.deepEqual(m.exceedance.aep, [{ return_period: 2, loss: 0, tvar: 31 }]);
  assert.deepEqual(m.exceedance.oep, [{ return_period: 2, loss: 0, tvar: 27 }]);
  assert.deepEqual(m.exceedance.withheld.map((w) => w.return_period), [5, 10]);
  assert.deepEqual(m.elt, [
    { event_id: 1, loss: 100, occurrences: 2 }, { event_id: 2, loss: 40, occurrences: 1 },
    { event_id: 3, loss: 70, occurrences: 1 }, { event_id: 5, loss: 9, occurrences: 0 },
  ]);
  assert.deepEqual(m.largest_events.map((e) => e.event_id), [1, 3, 2, 5]);
  assert.deepEqual(m.ylt, [
    { period: 2, loss: 140, max_event_loss: 100, events: 2 },
    { period: 7, loss: 70, max_event_loss: 70, events: 1 },
    { period: 11, loss: 100, max_event_loss: 100, events: 1 },
  ]);
  assert.deepEqual(m.places, [{ index: 0, aal: 3, share: 0.25 }, { index: 3, aal: 9, share: 0.75 }]);
  assert.equal(m.blocks, null);
  assert.ok(m.warnings.some((w) => w.includes('no whole 1000-period block')));
  assert.ok(m.warnings.some((w) => w.includes('never occur')));
  assert.ok(validate(m), JSON.stringify(validate.errors));
});

test('the published JSON Schema accepts a block and refuses a broken one', () => {
  const m = computeMetrics({ perspective: 'net', lossBasis: 'x', periods: 1000, eventLosses: [{ event_id: 1, loss: 5 }], occurrences: [{ event_id: 1, period: 1 }] });
  assert.ok(validate(m), JSON.stringify(validate.errors));
  assert.equal(m.blocks!.count, 1);
  assert.equal(validate({ ...m, aal: { mean: -1, standard_deviation: null, standard_error: null } }), false);
  assert.equal(validate({ ...m, extra: 1 }), false);
  assert.equal(validate({ ...m, schema: 'lab-metrics/2' }), false);
  assert.equal(metricsSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
});

test('bad inputs are refused', () => {
  assert.throws(() => computeMetrics({ perspective: 'x', lossBasis: 'x', periods: 0, eventLosses: [], occurrences: [] }), RangeError);
  assert.throws(() => computeMetrics({ perspective: 'x', lossBasis: 'x', periods: 5, eventLosses: [{ event_id: 1, loss: -1 }], occurrences: [] }), RangeError);
  assert.throws(() => computeMetrics({ perspective: 'x', lossBasis: 'x', periods: 5, eventLosses: [{ event_id: 1, loss: 1 }], occurrences: [{ event_id: 1, period: 6 }] }), RangeError);
});
