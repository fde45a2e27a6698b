// The state outage event record for GET /hazard: how often DOE's OE-417 rows placed in each state
// reached a customers count, per counted year. The record is state-level and no state boundaries
// are pinned, so the point asked is not placed in a state: every state's frequencies are listed,
// and the caller reads the row of the state the point lies in.
//
// Rates are rows (events as DOE reported them, not clustered) per counted year: the years of the
// period of record less the years whose files are not read (the 2000-2001 PDF tables). A row
// naming several states counts in each; a row whose area names no state is counted in
// unplaced_rows and in no state; a row whose customers count is not a count is in events but in no
// threshold.

import { stateName } from '../outages/areas.js';
import type { OutageEventSet } from '../outages/records.js';
import type { YearSpan } from './summary-common.js';

/** The customers counts each state's frequencies are given at. */
export const OUTAGE_THRESHOLDS = [50_000, 100_000, 500_000, 1_000_000] as const;

interface StateTally {
  events: number;
  with_count: number;
  at_least: number[];
  largest: { customers: number; event_id: string; date: string | null; area: string } | null;
}

export function stateEventSummary(set: OutageEventSet, span: YearSpan): Record<string, unknown> {
  const notRead = new Set(set.years_not_read.map((n) => n.year));
  const years: number[] = [];
  for (let y = span.from; y <= span.to; y++) if (!notRead.has(y) && !(span.missing ?? []).includes(y)) years.push(y);
  const counted = new Set(years);
  const byState = new Map<string, StateTally>();
  let unplaced = 0;
  for (const e of set.events) {
    if (e.date === null || !counted.has(Number(e.date.slice(0, 4)))) continue;
    if (e.placement.unplaced !== null) { unplaced++; continue; }
    for (const s of e.placement.states) {
      const t = byState.get(s) ?? { events: 0, with_count: 0, at_least: OUTAGE_THRESHOLDS.map(() => 0), largest: null };
      byState.set(s, t);
      t.events++;
      if (e.customers === null) continue;
      t.with_count++;
      OUTAGE_THRESHOLDS.forEach((th, i) => { if (e.customers! >= th) t.at_least[i]!++; });
      if (!t.largest || e.customers > t.largest.customers) t.largest = { customers: e.customers, event_id: e.event_id, date: e.date, area: e.area };
    }
  }
  const n = years.length;
  const rate = (k: number): number | null => (n === 0 ? null : k / n);
  return {
    kind: 'state_event_frequencies',
    record: {
      publisher: 'U.S. DOE OE-417 Electric Emergency Incident and Disturbance Reports, annual summaries',
      years_counted: n,
      from: years[0] ?? null,
      to: years[years.length - 1] ?? null,
      years_not_read: set.years_not_read,
      event_rows: set.events.length,
      unplaced_rows_in_counted_years: unplaced,
      counts: set.counts,
    },
    point_placement: 'not placed: the record is state-level and no state boundaries are pinned; every state is listed, read the row of the state the point lies in',
    thresholds_customers: OUTAGE_THRESHOLDS,
    states: [...byState.keys()].sort().map((s) => {
      const t = byState.get(s)!;
      return {
        state: s, name: stateName(s) ?? s, events: t.events, events_per_year: rate(t.events), events_with_customers_count: t.with_count,
        per_year_at_least: Object.fromEntries(OUTAGE_THRESHOLDS.map((th, i) => [String(th), rate(t.at_least[i]!)])),
        largest: t.largest,
      };
    }),
    method: 'rows per counted year: DOE event rows dated in a counted year and placed in the state by the area rule (a multi-state row counts in each); thresholds read rows whose customers count is published as a count',
    statement: 'History from the pinned record, not a forecast. OE-417 forms and reporting thresholds changed in 2011 and 2015; counts are not homogeneous across years.',
  };
}
