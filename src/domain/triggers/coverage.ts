// How much of a term a record covers, and the terms of the event designs (cat-in-a-box, track
// gate): occurrences found across the whole snapshot, each listed in the term-year it belongs to.

import { DAY_MS, dayEpoch } from '../../kernel/dates.js';
import { isPartialYear } from '../quality.js';
import type { Coverage, MeasuredTerm, OccurrenceReading } from './design.js';
import type { FeedFacts } from './feed.js';
import type { TermWindow } from './term.js';

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

/** An event design's terms: each term's coverage, and the occurrences of its term-year in the order found. */
export function eventTerms(found: Iterable<{ readonly year: number; readonly occurrence: OccurrenceReading }>, manifest: FeedFacts): (term: TermWindow) => MeasuredTerm {
  const byYear = new Map<number, OccurrenceReading[]>();
  for (const { year, occurrence } of found) {
    const list = byYear.get(year) ?? [];
    list.push(occurrence);
    byYear.set(year, list);
  }
  return (term) => ({ coverage: eventCoverage(term, manifest), occurrences: byYear.get(term.year) ?? [] });
}
