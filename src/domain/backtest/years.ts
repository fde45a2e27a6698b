// A replay's years: what each design's replay hands back (the work of every year of the window and
// the words of its rules), and the year rules the event designs share: how much of a term an event
// record covers, and what a year of occurrences pays before the annual aggregate.

import { DAY_MS, dayEpoch } from '../../kernel/dates.js';
import { isPartialYear, type SiObservation } from '../quality.js';
import { FAULT_CATALOGUE, type StructureFault } from '../triggers/faults.js';
import type { FeedFacts } from '../triggers/feed.js';
import { roundMoney } from '../triggers/payout.js';
import { termYearOf, type TermRule, type TermWindow } from '../triggers/term.js';
import type { Structure } from '../triggers/terms.js';
import type { OccurrenceOut } from './artifact.js';

export interface Coverage {
  readonly record: 'complete' | 'partial' | 'missing';
  readonly days_covered: number;
  readonly reason: string | null;
}

export interface YearWork {
  readonly term: TermWindow;
  readonly coverage: Coverage;
  readonly occurrences: OccurrenceOut[];
  readonly gross: number | null;
  readonly extra: Record<string, unknown>;
}

/** What a design's replay hands the backtest: every year of the window, and how it was read. */
export interface DesignReplay {
  readonly work: readonly YearWork[];
  readonly selection: Record<string, unknown>;
  readonly occurrence_rule: string;
  readonly index_unit: string;
  readonly unit_note: string;
  /** Daily values the data-quality rule left out (a daily series only). */
  readonly excluded: readonly SiObservation[];
}

export function dataFault(fault: string, path: string, message: string): StructureFault {
  return { fault, kind: FAULT_CATALOGUE[fault]!, path, message };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** The term-year a day (YYYY-MM-DD) belongs to, or null outside every term. */
export function termYearOfDay(rule: TermRule, date: string): number | null {
  return termYearOf(rule, dayEpoch(date));
}

/** How much of a year's term an event record (catalog, extract, archive) covers. */
export function eventCoverage(term: TermWindow, manifest: FeedFacts): Coverage {
  const from = manifest.period_of_record?.from ?? null;
  const to = manifest.period_of_record?.to ?? null;
  const missing = new Set(manifest.years_missing ?? []);
  const start = from === null ? -Infinity : dayEpoch(from);
  const end = to === null ? Infinity : dayEpoch(to) + DAY_MS;
  let covered = 0;
  let inMissingYear = 0;
  for (let t = term.start_ms; t < term.end_ms; t += DAY_MS) {
    if (t < start || t >= end) continue;
    if (missing.has(new Date(t).getUTCFullYear())) { inMissingYear++; continue; }
    covered++;
  }
  if (covered === 0) {
    const reason = inMissingYear > 0 ? 'the archive holds no record for this year (manifest years_missing)'
      : `the term ${term.from} to ${term.to} lies outside the period of record (${from} to ${to})`;
    return { record: 'missing', days_covered: 0, reason };
  }
  return { record: isPartialYear(term.days - covered, term.days) ? 'partial' : 'complete', days_covered: covered, reason: null };
}

/** A year of occurrences before the annual aggregate (term_maximum: the largest occurrence alone). */
export function eventYear(term: TermWindow, coverage: Coverage, list: OccurrenceOut[], s: Structure): YearWork {
  if (coverage.record === 'missing') return { term, coverage, occurrences: [], gross: null, extra: {} };
  let occurrences = list;
  if (s.payout.basis === 'term_maximum' && list.length > 0) {
    // One payout a year, from the largest occurrence value of the term (earliest on ties).
    let best = list[0]!;
    for (const o of list) if (o.value > best.value) best = o;
    occurrences = [best];
  }
  const gross = roundMoney(occurrences.reduce((a, o) => a + o.payout, 0));
  const extra: Record<string, unknown> = s.payout.basis === 'term_maximum'
    ? { term_maximum: occurrences[0] ? { value: occurrences[0].value, unit: occurrences[0].unit, date: occurrences[0].date, event_id: occurrences[0].event_id ?? null } : null }
    : {};
  return { term, coverage, occurrences, gross, extra };
}
