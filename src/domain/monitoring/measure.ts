// A structure in force, measured against a pinned snapshot: the index so far in the current term,
// the level it reaches, the payout fraction that level implies and the distances to attachment and
// exhaustion. The replay is the backtest's own (replayYears over one term), so monitoring
// and backtest read the same occurrences, windows and crossings.
//
// Rules (docs/monitoring.md):
// - In force: {from, to} (YYYY-MM-DD, both included), the structure's period by default. The terms
//   measured are the structure's annual terms (its term rule) that overlap it, each cut to it; the
//   current term is the last one that has begun by today, else the first.
// - as_of: the last day the snapshot holds (its period of record's end; a daily series' last day
//   when the manifest states none). A term that begins after as_of lies ahead of the record: it is
//   measured as nothing, status ahead_of_record, never a zero.
// - The index value: the largest value read in the term so far, whether or not it reaches the
//   lowest level: a daily index's term maximum of its rolling windows; a box's largest event in the
//   box; a gate's strongest crossing. The occurrences listed are those that reach the lowest level
//   (they are what the payout function reads), each with the publisher's event or storm id.
// - The level reached: the highest payout level (ladder at_least, or attachment and exhaustion)
//   at or below the index value. Distances are in the index's unit, 0 once reached.

import { replayYears, type OccurrenceOut } from '../backtest/replay.js';
import type { Box } from '../geo.js';
import { selectQuakes, selectReports } from '../triggers/cat-in-a-box.js';
import { classOf, type FeedRead } from '../triggers/feed.js';
import type { StructureFault } from '../triggers/faults.js';
import { payoutFraction, payoutLevels, roundIndex, triggerLevel } from '../triggers/payout.js';
import type { TriggerData } from '../triggers/records.js';
import { isTermFault, termRule, termWindow, termYearsBetween, type TermRule } from '../triggers/term.js';
import type { Structure } from '../triggers/terms.js';
import { gateCrossings, type GateUnit } from '../triggers/track-gate.js';
import { selectStateEvents } from '../triggers/state-event.js';
import type { OutageEvent } from '../outages/records.js';
import { DAY_MS, dayEpoch, isoDay, isValidDate } from '../../kernel/dates.js';

export interface InForce {
  /** YYYY-MM-DD, included. */
  readonly from: string;
  /** YYYY-MM-DD, included. */
  readonly to: string;
}

/** A term of the structure cut to the days in force. */
export interface MeasuredTerm {
  /** The term-year (the year the structure's term starts in). */
  readonly year: number;
  readonly from: string;
  readonly to: string;
}

export type MeasurementStatus = 'ahead_of_record' | 'in_progress' | 'complete' | 'no_record';

export interface MeasuredOccurrence {
  readonly event_id: string | null;
  readonly name?: string | null;
  readonly date: string;
  readonly time: string | null;
  readonly value: number;
  readonly event_ids?: readonly string[];
  /** The fraction of the limit this occurrence's value implies (before the annual aggregate). */
  readonly payout_fraction: number;
}

export interface Measurement {
  readonly status: MeasurementStatus;
  /** Why, for ahead_of_record and no_record; null otherwise. */
  readonly reason: string | null;
  readonly term: MeasuredTerm;
  readonly feed: { readonly feed_id: string; readonly version: string; readonly sha256: string };
  /** The last day the snapshot holds. */
  readonly as_of: string | null;
  readonly index: {
    /** Null when nothing is measured (ahead of the record) or nothing was read in the term so far. */
    readonly value: number | null;
    readonly unit: string;
    /** When the value was read: the event's or crossing's time, or a window's last day. */
    readonly at: string | null;
    /** The publisher's id of the event or storm that gave the value; null for a daily index. */
    readonly event_id: string | null;
    /** The aggregation window, for a daily index: its first and last day. */
    readonly window: { readonly from: string; readonly to: string } | null;
  };
  /** Occurrences so far that reach the lowest level (cat-in-a-box and gates: per occurrence). */
  readonly occurrences: readonly MeasuredOccurrence[];
  /** The highest level reached: its place among the levels (1 = attachment) and its index value; null below. */
  readonly level: { readonly reached: number; readonly of: number; readonly at_least: number } | null;
  /** The fraction of the limit the index value implies; not a claim (the annual aggregate and the parties decide). */
  readonly payout_fraction: number | null;
  readonly attachment: number;
  readonly exhaustion: number;
  readonly distance_to_attachment: number | null;
  readonly distance_to_exhaustion: number | null;
}

/** The terms of the structure that overlap the days in force, each cut to them, in order. */
export function termsInForce(rule: TermRule, inForce: InForce): MeasuredTerm[] {
  const from = dayEpoch(inForce.from);
  const to = dayEpoch(inForce.to);
  return termYearsBetween(rule, from, to + DAY_MS - 1).map((year) => {
    const w = termWindow(rule, year);
    return { year, from: w.from > inForce.from ? w.from : inForce.from, to: w.to < inForce.to ? w.to : inForce.to };
  }).filter((t) => t.from <= t.to);
}

/**
 * Why days in force cannot be read, or null: dates and their order (the request's fault, `dates`),
 * then at least one day of the structure's term (the structure's, `no_term`).
 */
export function inForceFault(rule: TermRule, inForce: InForce): { readonly kind: 'dates' | 'no_term'; readonly message: string } | null {
  for (const [name, value] of [['from', inForce.from], ['to', inForce.to]] as const) {
    if (typeof value !== 'string' || !isValidDate(value)) return { kind: 'dates', message: `in_force.${name} ${JSON.stringify(value)} is not a calendar date YYYY-MM-DD` };
  }
  if (inForce.to < inForce.from) return { kind: 'dates', message: `in_force.to ${inForce.to} is before in_force.from ${inForce.from}` };
  if (termsInForce(rule, inForce).length === 0) return { kind: 'no_term', message: `in_force ${inForce.from} to ${inForce.to} holds no day of the structure's term` };
  return null;
}

/** The term measured today: the last term in force that has begun, else the first. */
export function currentTerm(rule: TermRule, inForce: InForce, today: string): MeasuredTerm {
  const terms = termsInForce(rule, inForce);
  if (terms.length === 0) throw new Error(`in force ${inForce.from}..${inForce.to} holds no term`);
  const begun = terms.filter((t) => t.from <= today);
  return begun.length > 0 ? begun[begun.length - 1]! : terms[0]!;
}

/** The last day a snapshot holds, as its manifest states it. */
export function asOf(feed: FeedRead, data: TriggerData): string | null {
  const to = feed.manifest.period_of_record?.to;
  if (typeof to === 'string') return to;
  if (data.kind === 'series') return data.series.days[data.series.days.length - 1]?.date ?? null;
  return null;
}

/** Measures a structure (checked against this snapshot) over the current term. */
export function measure(s: Structure, inForce: InForce, today: string, feed: FeedRead, data: TriggerData): Measurement | StructureFault {
  const term = currentTerm(s.term, inForce, today);
  const asof = asOf(feed, data);
  const levels = [...new Set(payoutLevels(s.payout))].sort((a, b) => a - b);
  const attachment = triggerLevel(s.payout);
  const exhaustion = levels[levels.length - 1]!;
  const base = { term, feed: { feed_id: feed.feed_id, version: feed.version, sha256: feed.sha256 }, as_of: asof, attachment, exhaustion };
  const unit = indexUnit(s, feed, data);
  const nothing = (status: MeasurementStatus, reason: string): Measurement => ({
    ...base, status, reason, index: { value: null, unit, at: null, event_id: null, window: null }, occurrences: [], level: null,
    payout_fraction: null, distance_to_attachment: null, distance_to_exhaustion: null,
  });
  if (asof !== null && term.from > asof) {
    return nothing('ahead_of_record', `the term ${term.from} to ${term.to} begins after the last day the snapshot holds (${asof}): nothing is measured yet`);
  }
  // The term cut to the days in force, as a term rule of its own, replayed by the design.
  const rule = termRule({ start: term.from, end: term.to });
  if (isTermFault(rule)) throw new Error(rule.message);
  const cut: Structure = { ...s, period: { start: term.from, end: term.to }, term: rule };
  const replayed = replayYears(cut, data, feed, term.year, term.year);
  if ('fault' in replayed) return replayed;
  const work = replayed.work[0]!;
  if (work.coverage.record === 'missing') return nothing('no_record', work.coverage.reason ?? 'the snapshot holds no record for this term');
  const window = termWindow(rule, term.year);
  const peak = largestSoFar(cut, data, feed, window.start_ms, window.end_ms, work.extra, unit);
  const value = peak?.value ?? null;
  const reached = value === null ? [] : levels.filter((l) => value >= l);
  const status: MeasurementStatus = asof === null || asof >= term.to ? 'complete' : 'in_progress';
  return {
    ...base,
    status,
    reason: null,
    index: { value, unit: replayed.index_unit, at: peak?.at ?? null, event_id: peak?.event_id ?? null, window: peak?.window ?? null },
    occurrences: s.design === 'index_series' ? [] : work.occurrences.map((o) => occurrenceOut(s, o)),
    level: reached.length === 0 ? null : { reached: reached.length, of: levels.length, at_least: reached[reached.length - 1]! },
    payout_fraction: value === null ? null : payoutFraction(s.payout, value),
    distance_to_attachment: value === null ? null : roundIndex(Math.max(0, attachment - value)),
    distance_to_exhaustion: value === null ? null : roundIndex(Math.max(0, exhaustion - value)),
  };
}

function occurrenceOut(s: Structure, o: OccurrenceOut): MeasuredOccurrence {
  return {
    event_id: o.event_id ?? null,
    ...(o.name !== undefined ? { name: o.name } : {}),
    date: o.date,
    time: o.time ?? null,
    value: o.value,
    ...(Array.isArray(o.event_ids) ? { event_ids: o.event_ids as string[] } : {}),
    payout_fraction: payoutFraction(s.payout, o.value),
  };
}

function indexUnit(s: Structure, feed: FeedRead, data: TriggerData): string {
  if (data.kind === 'quakes') return 'magnitude';
  if (data.kind === 'tracks') return s.measurement.unit ?? 'kt';
  if (data.kind === 'reports') return data.unit ?? data.events[0]?.unit ?? (classOf(feed).kind === 'fire_extract' ? 'acres' : '');
  if (data.kind === 'outage_events') return 'customers';
  return s.measurement.unit ?? data.series.unit;
}

interface Peak {
  readonly value: number;
  readonly at: string | null;
  readonly event_id: string | null;
  readonly window: { readonly from: string; readonly to: string } | null;
}

/** The largest value read in the term so far, below the lowest level too (see the header). */
function largestSoFar(s: Structure, data: TriggerData, feed: FeedRead, startMs: number, endMs: number, extra: Record<string, unknown>, unit: string): Peak | null {
  if (data.kind === 'series') {
    const m = extra.term_maximum as { value: number; date: string; from: string; to: string } | null | undefined;
    return m ? { value: m.value, at: m.to, event_id: null, window: { from: m.from, to: m.to } } : null;
  }
  if (data.kind === 'tracks') {
    const year = new Date(startMs).getUTCFullYear();
    let best: Peak | null = null;
    for (const c of gateCrossings(data.storms, s.gate!, s.term, unit as GateUnit)) {
      if (c.year !== year) continue;
      if (!best || c.value > best.value) best = { value: c.value, at: new Date(c.crossing.epoch_ms).toISOString(), event_id: c.storm_id, window: null };
    }
    return best;
  }
  if (data.kind === 'outage_events') return largestStateEvent(s, data.events, startMs, endMs);
  const box = s.gate as Box;
  const rows = data.kind === 'quakes'
    ? selectQuakes(data.events, { box, max_depth_km: s.measurement.max_depth_km, floor: -Infinity }).rows
    : selectReports(data.events, { box, floor: -Infinity, wildfire_only: classOf(feed).kind === 'fire_extract' }).rows;
  let best: Peak | null = null;
  for (const r of rows) {
    if (r.epoch_ms < startMs || r.epoch_ms >= endMs) continue;
    // Ties go to the earliest event, as an occurrence's peak does.
    if (!best || r.value > best.value || (r.value === best.value && (r.time ?? r.date) < (best.at ?? ''))) {
      best = { value: r.value, at: r.time ?? r.date, event_id: r.event_id, window: null };
    }
  }
  return best;
}

/** The state design's largest count in the term so far (every count, below the lowest level too). */
function largestStateEvent(s: Structure, events: readonly OutageEvent[], startMs: number, endMs: number): Peak | null {
  const { rows } = selectStateEvents(events, { state: s.measurement.state!, cause: s.measurement.cause ?? null, min_duration_hours: s.measurement.min_duration_hours ?? null, floor: -Infinity });
  let best: Peak | null = null;
  for (const r of rows) {
    if (r.epoch_ms < startMs || r.epoch_ms >= endMs) continue;
    if (!best || r.value > best.value) best = { value: r.value, at: r.event.start_local ?? r.event.date, event_id: r.event_id, window: null };
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Moves

/** What a comparison keeps of a measurement. */
export interface MeasurementMark {
  readonly feed_version: string;
  readonly sha256: string;
  readonly status: MeasurementStatus;
  readonly term: { readonly from: string; readonly to: string };
  readonly index_value: number | null;
  /** Levels reached (0 below the attachment). */
  readonly level: number;
  readonly distance_to_attachment: number | null;
}

export function markOf(m: Measurement): MeasurementMark {
  return {
    feed_version: m.feed.version, sha256: m.feed.sha256, status: m.status, term: { from: m.term.from, to: m.term.to },
    index_value: m.index.value, level: m.level?.reached ?? 0, distance_to_attachment: m.distance_to_attachment,
  };
}

export const EVENT_TYPES = ['monitoring.level_reached', 'monitoring.level_left', 'monitoring.measurement_moved'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Whether the measurement moved from `before` to `after`, and how: a higher level reached
 * (level_reached), a level no longer reached (level_left: a publisher revised the record), or the
 * index value changed at the same level (measurement_moved; a first value read counts). A new
 * snapshot that leaves the value and level as they were, or a new term starting, moves nothing.
 */
export function moveOf(before: MeasurementMark, after: MeasurementMark): EventType | null {
  if (before.term.from !== after.term.from) return null;
  if (after.level > before.level) return 'monitoring.level_reached';
  if (after.level < before.level) return 'monitoring.level_left';
  if (after.index_value !== before.index_value) return 'monitoring.measurement_moved';
  return null;
}

/** Today's date (UTC) for a clock reading. */
export const dayOf = (at: Date): string => isoDay(at.getTime());
