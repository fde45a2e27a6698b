// The replay of a checked structure over any trigger design: the design measures the snapshot
// (src/domain/triggers/design.ts: each term's coverage and occurrences, and the words of its rules),
// and here, once for every design, each year of the window is read from that measurement: the
// occurrences reaching the payout's lowest level (floor), each paid limit × fraction, the term maximum
// alone on a term_maximum basis, and the year's sum before the annual aggregate.

import type { SiObservation } from '../quality.js';
import type { Coverage, MeasuredTerm, OccurrenceReading } from '../triggers/design.js';
import type { FeedRead } from '../triggers/feed.js';
import type { StructureFault } from '../triggers/faults.js';
import { DESIGNS } from '../triggers/index.js';
import { occurrencePayout, roundMoney, triggerLevel } from '../triggers/payout.js';
import type { TriggerData } from '../triggers/records.js';
import { termWindow, type TermWindow } from '../triggers/term.js';
import type { Structure } from '../triggers/terms.js';

/** An occurrence as the artifact lists it: the design's reading and what it pays. */
export interface OccurrenceOut extends OccurrenceReading {
  /** limit × fraction, before the annual aggregate. */
  readonly payout: number;
}

export interface YearWork {
  readonly term: TermWindow;
  readonly coverage: Coverage;
  readonly occurrences: OccurrenceOut[];
  readonly gross: number | null;
  readonly extra: Readonly<Record<string, unknown>>;
}

/** A replay: every year of the window, and how the design read the snapshot. */
export interface DesignReplay {
  readonly work: readonly YearWork[];
  readonly selection: Record<string, unknown>;
  readonly occurrence_rule: string;
  readonly index_unit: string;
  readonly unit_note: string;
  /** Daily values the data-quality rule left out (a daily series only). */
  readonly excluded: readonly SiObservation[];
}

/**
 * Replays a structure (checked against this feed) over the years fromYear..toYear of the snapshot:
 * every year's occurrences and coverage, or the fault the records themselves show.
 */
export function replayYears(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): DesignReplay | StructureFault {
  const measured = DESIGNS[s.design].measure(s, data, feed, fromYear, toYear);
  if ('fault' in measured) return measured;
  const floor = triggerLevel(s.payout);
  const work: YearWork[] = [];
  for (let y = fromYear; y <= toYear; y++) {
    const term = termWindow(s.term, y);
    work.push(yearOf(s, floor, term, measured.term(term)));
  }
  const { selection, occurrence_rule, index_unit, unit_note, excluded } = measured;
  return { work, selection, occurrence_rule, index_unit, unit_note, excluded };
}

/** A year before the annual aggregate (term_maximum: the largest occurrence alone, earliest on ties). */
function yearOf(s: Structure, floor: number, term: TermWindow, measured: MeasuredTerm): YearWork {
  const { coverage } = measured;
  if (coverage.record === 'missing') return { term, coverage, occurrences: [], gross: null, extra: measured.extra ?? {} };
  const { limit } = s.financial;
  let occurrences: OccurrenceOut[] = measured.occurrences
    .filter((o) => o.value >= floor)
    .map((o) => ({ ...o, payout: occurrencePayout(s.payout, limit, o.value) }));
  const termMaximum = s.payout.basis === 'term_maximum';
  if (termMaximum && occurrences.length > 0) {
    let best = occurrences[0]!;
    for (const o of occurrences) if (o.value > best.value) best = o;
    occurrences = [best];
  }
  const gross = roundMoney(occurrences.reduce((a, o) => a + o.payout, 0));
  const top = occurrences[0];
  const extra = measured.extra ?? (termMaximum
    ? { term_maximum: top ? { value: top.value, unit: top.unit, date: top.date, event_id: top.event_id ?? null } : null }
    : {});
  return { term, coverage, occurrences, gross, extra };
}
