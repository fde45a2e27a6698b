// The state event frequencies GET /hazard gives for grid_outage, over a tiny hand-made record
// (made here, not published data): rates per counted year recounted by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stateEventSummary } from '../../src/domain/hazard/summary.js';
import { placeArea } from '../../src/domain/outages/areas.js';
import type { OutageEvent, OutageEventSet } from '../../src/domain/outages/records.js';

function row(id: string, date: string, area: string, customers: number | null): OutageEvent {
  return {
    event_id: id, source: { file: `${date.slice(0, 4)}_Annual_Summary.xls`, sheet: 'Sheet1', row: 1 }, fields: {}, date, dated_by_row_above: false,
    start_local: `${date}T00:00`, epoch_ms: Date.parse(`${date}T00:00:00Z`), restored_local: null, duration_hours: null, area,
    placement: placeArea(area), nerc_region: '', event_type: 'Severe Weather', alert_criteria: null, cause: 'severe_weather',
    customers, customers_note: customers === null ? 'unknown' : null, demand_loss_mw: null,
  };
}

test('per state: events and threshold rates per counted year; multi-state rows in each, unplaced rows in none, unread years out', () => {
  const set: OutageEventSet = {
    kind: 'oe417', counts: {}, quirks: [],
    years_not_read: [{ year: 2000, file: '2000_Annual_Summary.pdf', reason: 'a PDF table' }],
    events: [
      row('a', '2000-06-01', 'Texas:', 900000), // a year not read: not counted
      row('b', '2001-06-01', 'Texas:', 120000),
      row('c', '2002-06-01', 'Texas: Oklahoma:', 600000),
      row('d', '2002-07-01', 'Texas: Harris County;', null),
      row('e', '2002-08-01', 'ERCOT Region', 2000000), // names no state
    ],
  };
  const s = stateEventSummary(set, { from: 2000, to: 2002 }) as any;
  assert.equal(s.record.years_counted, 2);
  assert.equal(s.record.unplaced_rows_in_counted_years, 1);
  const tx = s.states.find((r: any) => r.state === 'TX');
  assert.equal(tx.events, 3);
  assert.equal(tx.events_per_year, 1.5);
  assert.equal(tx.events_with_customers_count, 2);
  assert.deepEqual(tx.per_year_at_least, { 50000: 1, 100000: 1, 500000: 0.5, 1000000: 0 });
  assert.equal(tx.largest.event_id, 'c');
  const ok = s.states.find((r: any) => r.state === 'OK');
  assert.equal(ok.events, 1);
  assert.deepEqual(s.states.map((r: any) => r.state), ['OK', 'TX']);
});
