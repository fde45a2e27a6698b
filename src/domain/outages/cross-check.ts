// The two readings of one record compared: the Purdue table (built from OE-417) against the DOE
// rows it was built from, over the years both hold and the service reads (2002 to July 2016; the
// 2000-2001 DOE tables are PDFs not read).
//
// The rule: a Purdue event matches a DOE row placed in its state (areas.ts) whose start date lies
// within one day of the Purdue start date; among several, the row with the same customers count,
// else the nearest date, else the first in the workbook. A match agrees when both state the same
// customers count, or neither states one; it disagrees when the counts differ or only one states
// one. A Purdue event with no such DOE row is unmatched (its DOE row may name no state, or lie in
// a year not read). The rate is agreeing matches over matches.

import { DAY_MS, dayEpoch } from '../../kernel/dates.js';
import type { OutageEvent, PurdueOutage } from './records.js';

export interface CrossCheckPair {
  readonly purdue_obs: string;
  readonly doe_event_id: string;
  readonly state: string;
  readonly date: string;
  readonly purdue_customers: number | null;
  readonly doe_customers: number | null;
  readonly agrees: boolean;
}

export interface CrossCheck {
  readonly years: { readonly from: number; readonly to: number };
  readonly purdue_events: number;
  readonly matched: number;
  readonly unmatched: number;
  readonly agreeing: number;
  readonly disagreeing: number;
  /** agreeing / matched. */
  readonly agreement_rate: number;
  readonly rule: string;
  readonly pairs: readonly CrossCheckPair[];
  readonly unmatched_obs: readonly string[];
}

export const CROSS_CHECK_RULE = 'A Purdue event matches a DOE row placed in its state whose start date is within one day of its own '
  + '(several: same customers count first, then nearest date, then workbook order). A match agrees when both state the same '
  + 'customers count or neither states one; otherwise it disagrees. Rate = agreeing / matched.';

export function crossCheck(doe: readonly OutageEvent[], purdue: readonly PurdueOutage[], years: { from: number; to: number }): CrossCheck {
  const byState = new Map<string, OutageEvent[]>();
  for (const e of doe) {
    if (e.date === null) continue;
    for (const s of e.placement.states) {
      const list = byState.get(s) ?? [];
      list.push(e);
      byState.set(s, list);
    }
  }
  const pairs: CrossCheckPair[] = [];
  const unmatched: string[] = [];
  const inYears = purdue.filter((p) => p.date !== null && p.year >= years.from && p.year <= years.to);
  for (const p of inYears) {
    const t = dayEpoch(p.date!);
    const candidates = (byState.get(p.postal_code) ?? []).filter((e) => Math.abs(dayEpoch(e.date!) - t) <= DAY_MS);
    if (candidates.length === 0) { unmatched.push(p.event_id); continue; }
    const best = [...candidates].sort((a, b) =>
      Number(b.customers === p.customers) - Number(a.customers === p.customers)
      || Math.abs(dayEpoch(a.date!) - t) - Math.abs(dayEpoch(b.date!) - t))[0]!;
    pairs.push({
      purdue_obs: p.event_id, doe_event_id: best.event_id, state: p.postal_code, date: p.date!,
      purdue_customers: p.customers, doe_customers: best.customers, agrees: best.customers === p.customers,
    });
  }
  const agreeing = pairs.filter((x) => x.agrees).length;
  return {
    years, purdue_events: inYears.length, matched: pairs.length, unmatched: unmatched.length, agreeing,
    disagreeing: pairs.length - agreeing, agreement_rate: pairs.length === 0 ? 0 : agreeing / pairs.length,
    rule: CROSS_CHECK_RULE, pairs, unmatched_obs: unmatched,
  };
}
