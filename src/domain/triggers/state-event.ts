// The state event design: "an OE-417 event affecting at least N customers in state S (optionally
// of cause C, lasting at least D hours) pays a ladder or linear function of the customers it
// affected", per occurrence, over DOE's annual summaries (2002-2023 read; 2000-2001 are PDF
// tables not read, so those years have no record and are disclosed as missing, never filled).
//
// Terms (trigger.measurement, in the style of max_depth_km and element):
//   variable: customers_affected; unit: customers (optional);
//   state: a USPS code (required); cause: a cause category of domain/outages/causes.ts (optional);
//   min_duration_hours: a number > 0 (optional).
// Selection (every test inclusive), over every row of the record:
// - a start date (rows without one are left out, counted);
// - the row's area placed in the state (domain/outages/areas.ts; unplaced rows are counted);
// - the cause category when a cause is named;
// - a known duration of at least min_duration_hours when one is named (unknown duration: left out);
// - a customers count (Unknown, NA and text the reader does not read: left out, counted);
// - customers at least the payout's lowest level.
// A row naming several states is read in each with its whole count: DOE does not split it.
// Clustering is the occurrence rule every event design shares (domain/occurrence.ts): a cluster
// opens at its first row and holds every later qualifying row within aggregation_window of it; the
// payout reads the largest count. Times are DOE's wall times (no zone stated) read as UTC, so an
// occurrence's year is the year DOE wrote.

import { clusterOccurrences } from '../occurrence.js';
import { STATE_CODES, stateName } from '../outages/areas.js';
import { NAMED_CAUSES } from '../outages/causes.js';
import type { OutageEvent } from '../outages/records.js';
import { eventCoverage } from './coverage.js';
import {
  FEED_PATH, type Coverage, type EmpiricalOccurrence, type FeedUnderCheck, type FittedSample, type IndexMeasurement, type OccurrenceReading,
  type TriggerDesign,
} from './design.js';
import type { FeedRead } from './feed.js';
import type { Faults } from './faults.js';
import { triggerLevel } from './payout.js';
import { isNum, readDuration, readPeakAggregation, show, type Obj } from './read.js';
import type { TriggerData } from './records.js';
import { termYearOf, type TermWindow } from './term.js';
import type { Structure } from './terms.js';
import { STATE_EVENT_FEED, STATE_EVENT_VARIABLE } from './vocabulary.js';

const CODES = new Set(Object.values(STATE_CODES));

/**
 * Reads the state design's members of trigger.measurement (under path p). Another design does not
 * list them among its members, so naming them there is already an unknown_member fault.
 */
export function readStateMembers(f: Faults, m: Obj, p: string, variable: string): { state?: string; cause: string | null; min_duration_hours: number | null } {
  if (variable !== STATE_EVENT_VARIABLE) return { cause: null, min_duration_hours: null };
  let state: string | undefined;
  if (m.state === undefined || m.state === null) {
    f.add('state_missing', `${p}.state`, `${p}.state is missing: the state event design reads the events of one state, named by its USPS code (e.g. "TX")`);
  } else if (typeof m.state !== 'string' || !CODES.has(m.state)) {
    f.add('state_unknown', `${p}.state`, `${p}.state ${show(m.state)} is not a USPS code of a state, DC or PR (${[...CODES].sort().join(', ')})`);
  } else state = m.state;
  let cause: string | null = null;
  if (m.cause !== undefined && m.cause !== null) {
    if (typeof m.cause !== 'string' || !(NAMED_CAUSES as readonly string[]).includes(m.cause)) {
      f.add('cause_unknown', `${p}.cause`, `${p}.cause ${show(m.cause)} is not a cause category (one of ${NAMED_CAUSES.join(', ')})`);
    } else cause = m.cause;
  }
  let minDuration: number | null = null;
  if (m.min_duration_hours !== undefined && m.min_duration_hours !== null) {
    if (!isNum(m.min_duration_hours) || m.min_duration_hours <= 0) {
      f.add('min_duration_hours_invalid', `${p}.min_duration_hours`, `${p}.min_duration_hours must be a number of hours above 0, got ${show(m.min_duration_hours)}`);
    } else minDuration = m.min_duration_hours;
  }
  return { ...(state !== undefined ? { state } : {}), cause, min_duration_hours: minDuration };
}

// ---------------------------------------------------------------------------------------------
// Selection

export interface StateSelectionTerms {
  readonly state: string;
  readonly cause: string | null;
  readonly min_duration_hours: number | null;
  /** Lowest level of the payout (-Infinity: every count). */
  readonly floor: number;
}

export interface StateRow {
  readonly event_id: string;
  readonly epoch_ms: number;
  readonly value: number;
  readonly event: OutageEvent;
}

/** The rows of the state the terms select, and why the others were left out (reason → count, keys sorted). */
export function selectStateEvents(events: readonly OutageEvent[], t: StateSelectionTerms): { rows: StateRow[]; excluded: Record<string, number> } {
  const excluded = new Map<string, number>();
  const out = (reason: string): void => void excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
  const rows: StateRow[] = [];
  for (const e of events) {
    if (e.epoch_ms === null) { out('no_start_date'); continue; }
    if (e.placement.unplaced !== null) { out(`area_unplaced_${e.placement.unplaced}`); continue; }
    if (!e.placement.states.includes(t.state)) { out('other_state'); continue; }
    if (t.cause !== null && e.cause !== t.cause) { out('other_cause'); continue; }
    if (t.min_duration_hours !== null) {
      if (e.duration_hours === null) { out('duration_unknown'); continue; }
      if (e.duration_hours < t.min_duration_hours) { out('shorter_than_min_duration'); continue; }
    }
    if (e.customers === null) { out(`customers_${e.customers_note ?? 'unknown'}`); continue; }
    if (e.customers < t.floor) { out('below_lowest_level'); continue; }
    rows.push({ event_id: e.event_id, epoch_ms: e.epoch_ms, value: e.customers, event: e });
  }
  const sorted: Record<string, number> = {};
  for (const k of [...excluded.keys()].sort()) sorted[k] = excluded.get(k)!;
  return { rows, excluded: sorted };
}

const termsOf = (s: Structure, floor: number): StateSelectionTerms => ({
  state: s.measurement.state!, cause: s.measurement.cause ?? null, min_duration_hours: s.measurement.min_duration_hours ?? null, floor,
});

// ---------------------------------------------------------------------------------------------
// Checks, measurement and the fitted sample

function checkFeed(f: Faults, s: Structure, at: FeedUnderCheck): boolean {
  const { feed, cls } = at;
  if (cls.kind !== 'outage_event_set') {
    f.add('feed_kind_not_read', FEED_PATH, `${feed.feed_id} is ${at.kind_words}; the state event design (${STATE_EVENT_VARIABLE}) reads a state outage event record (${STATE_EVENT_FEED})`);
    return false;
  }
  if (cls.reading !== 'oe417') {
    f.add('outage_reading_not_read', FEED_PATH,
      `${feed.feed_id} is the Purdue table, a second reading of the OE-417 record kept for the cross-check; a structure reads the DOE rows themselves (${STATE_EVENT_FEED})`);
    return false;
  }
  return true;
}

/** A year whose DOE table is not read has no record; other years are covered as any event record's. */
function stateCoverage(term: TermWindow, s: FeedRead, notRead: ReadonlyMap<number, string>): Coverage {
  const why = notRead.get(term.year);
  if (why !== undefined) return { record: 'missing', days_covered: 0, reason: why };
  return eventCoverage(term, s.manifest);
}

function occurrenceRule(s: Structure, floor: number): string {
  const t = termsOf(s, floor);
  return `OE-417 rows whose area is placed in ${stateName(t.state)} (${t.state}) by the area rule` +
    `${t.cause ? `, of cause ${t.cause} (keyword rule over the event type)` : ''}` +
    `${t.min_duration_hours !== null ? `, lasting at least ${t.min_duration_hours} hours from start to restoration (a row without both is left out)` : ''}` +
    `, with a customers count of at least ${floor} (the payout's lowest level; a row whose count is Unknown or not a count is left out) ` +
    `are clustered by time only across the whole record: a cluster opens at its first row and holds every later qualifying row within ` +
    `${s.aggregation_window!.duration} of that first row; the payout reads the cluster's largest count (ties to the earliest). ` +
    'A row naming several states is read in each with its whole count (DOE does not split it). Start times are DOE\'s wall times, ' +
    'no zone stated, read as written; an occurrence belongs to the term and year in which its first row falls. ' +
    'The occurrence\'s event_id is its peak row\'s workbook year, sheet and row; event_ids lists every member.';
}

function measure(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): IndexMeasurement {
  if (data.kind !== 'outage_events') throw new Error('the state event design reads outage events');
  const floor = triggerLevel(s.payout);
  const sel = selectStateEvents(data.events, termsOf(s, floor));
  const occurrences = clusterOccurrences(sel.rows, s.aggregation_window!.ms);
  const byYear = new Map<number, OccurrenceReading[]>();
  for (const occ of occurrences) {
    const year = termYearOf(s.term, occ.first.epoch_ms);
    if (year === null || year < fromYear || year > toYear) continue;
    const peak = occ.peak.event;
    const last = occ.events[occ.events.length - 1]!.event;
    const list = byYear.get(year) ?? [];
    list.push({
      event_id: peak.event_id, time: null, date: peak.date!, from: occ.first.event.start_local ?? occ.first.event.date!, to: last.start_local ?? last.date!,
      value: peak.customers!, unit: 'customers', state: s.measurement.state, states_named: peak.placement.states, area: peak.area, event_type: peak.event_type, cause: peak.cause,
      nerc_region: peak.nerc_region, start_local: peak.start_local, restored_local: peak.restored_local, duration_hours: peak.duration_hours,
      customers_as_published: peak.fields[Object.keys(peak.fields).find((k) => /^Number of Customers Affected/i.test(k)) ?? ''] ?? null,
      source: peak.source, event_count: occ.events.length, event_ids: occ.events.map((e) => e.event_id),
    });
    byYear.set(year, list);
  }
  const notRead = new Map(data.years_not_read.map((n) => [n.year, `the ${n.year} DOE table (${n.file}) is not read: ${n.reason}`]));
  return {
    selection: {
      events_in_record: data.events.length, qualifying_rows: sel.rows.length, occurrences_in_record: occurrences.length,
      excluded: sel.excluded, state: s.measurement.state, cause: s.measurement.cause ?? null, min_duration_hours: s.measurement.min_duration_hours ?? null,
      minimum_value: floor, unit: 'customers', years_not_read: data.years_not_read, record_counts: data.counts,
    },
    occurrence_rule: occurrenceRule(s, floor),
    index_unit: 'customers',
    unit_note: 'Customers affected as DOE published them (Number of Customers Affected), read as a count only where the cell is one; OE-417 reporting thresholds and forms changed in 2011 and 2015, so counts are not homogeneous across years.',
    excluded: [],
    term: (term) => ({ coverage: stateCoverage(term, feed, notRead), occurrences: byYear.get(term.year) ?? [] }),
  };
}

/** What the state design's price rests on besides the views' own rules (the price lists them as assumptions). */
export const STATE_EVENT_NOTES: readonly string[] = [
  'An occurrence is a cluster of OE-417 rows placed in the state (the backtest\'s occurrence rule); its value is the largest customers count DOE published for it.',
  'Area Affected is free text: a row is placed in the states it names by the documented area rule (src/domain/outages/areas.ts); rows naming no state (utility systems, cities, regions) are left out and counted in the sample\'s excluded.area_unplaced_*, never guessed into a state.',
  'A row naming several states counts in each with its whole customers figure: DOE does not split it, so a multi-state event is read at its total in every state it names.',
  'Customers counts DOE published as Unknown, NA, ranges or other text are left out (excluded.customers_*), not read as zero: the record of small events is thinner than of large ones.',
  'OE-417 reporting thresholds and forms changed (EIA-417 to OE-417 in 2011, a revised form in 2015): more events are reported from 2011 on, so the rate is read over the whole record with no adjustment for the change.',
  'The 2000 and 2001 DOE tables are PDFs the service does not read: those years have no record (years_missing), never filled.',
];

function fittedSample(s: Structure, data: TriggerData, counted: ReadonlySet<number>): FittedSample {
  if (data.kind !== 'outage_events') throw new Error('the state event design reads outage events');
  const floor = triggerLevel(s.payout);
  const sel = selectStateEvents(data.events, termsOf(s, floor));
  const occurrences = clusterOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), value: o.peak.value, id: o.peak.event_id }))
    .filter((o): o is EmpiricalOccurrence => o.year !== null && counted.has(o.year));
  return {
    method: 'poisson_empirical_severity', occurrences, unit: 'customers',
    sample: { rows_selected: sel.rows.length, excluded: sel.excluded, qualifying_occurrences: occurrences.length, minimum_value: floor, unit: 'customers', state: s.measurement.state },
    notes: STATE_EVENT_NOTES,
  };
}

export const STATE_EVENT: TriggerDesign = {
  design: 'state_event',
  measurement_members: ['variable', 'unit', 'aggregation', 'state', 'cause', 'min_duration_hours'],
  readAggregation: (f, m, p) => readPeakAggregation(f, m, p, 'an occurrence pays on its largest customers count'),
  reads_window: true,
  readWindow: (f, aw) => readDuration(f, aw, 'trigger.aggregation_window.duration is missing: the occurrence window (e.g. P3D) clusters OE-417 rows of one storm or disturbance'),
  payout: {
    bases: ['per_occurrence'], default_basis: 'per_occurrence',
    bases_read: 'the state event design pays per occurrence (per_occurrence)',
  },
  region: null,
  checkFeed,
  reader: 'outage_events',
  data_kinds: ['outage_events'],
  measure,
  fittedSample: (s, data, _feed, counted) => fittedSample(s, data, counted),
};
