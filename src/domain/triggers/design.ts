// What a trigger design owns: the design-specific part of reading its terms, its checks against a
// pinned feed, the reader its data comes from, its measurement (each term's occurrences and the
// words of its rules) and what its fitted view reads. index.ts dispatches to one of these by the
// design the trigger type and variable select (vocabulary.ts); the backtest replays a measurement
// year by year and the price fits the sample, over any design (src/domain/backtest/replay.ts,
// src/domain/pricing/fit.ts), so a design imports neither.

import type { SiObservation } from '../quality.js';
import type { FeedClass, FeedContext, FeedFacts, FeedRead } from './feed.js';
import type { Faults, StructureFault } from './faults.js';
import type { Obj, PayoutRules } from './read.js';
import type { TriggerData } from './records.js';
import type { TermRule, TermWindow } from './term.js';
import type { Structure } from './terms.js';
import type { Design, SeriesAggregation, UnitName } from './vocabulary.js';

/** Where a fault of the feed read is named. */
export const FEED_PATH = 'trigger.data_sources[0].feed_id';

/** The pinned feed a structure is checked against, as the checks read it. */
export interface FeedUnderCheck {
  readonly feed: FeedContext;
  readonly cls: FeedClass;
  /** The feed's kind in words. */
  readonly kind_words: string;
  /** What the peril's model reads, in words (PERIL_MODELS). */
  readonly model_words: string;
}

/** One occurrence as a design reads it: the value the payout reads and what the record shows of it. */
export interface OccurrenceReading {
  /** Publisher's id: the peak event of a cluster, or the storm id; absent for a daily series. */
  readonly event_id?: string;
  readonly name?: string | null;
  /** ISO 8601 UTC of the peak event / strongest gate sample; null where only a date is published. */
  readonly time?: string | null;
  /** Date of the peak event, or the last day of a series window. */
  readonly date: string;
  /** First and last event (time, or date where only a date is published), or the window's days. */
  readonly from: string;
  readonly to: string;
  readonly value: number;
  readonly unit: string;
  readonly [more: string]: unknown;
}

/** How much of a term the record covers: a partial year is shown and not counted, a missing one has no record. */
export interface Coverage {
  readonly record: 'complete' | 'partial' | 'missing';
  readonly days_covered: number;
  readonly reason: string | null;
}

/** One term of the window as a design measured it. */
export interface MeasuredTerm {
  readonly coverage: Coverage;
  /** Every occurrence the design reads in the term, in order; the replay pays those reaching the lowest level. */
  readonly occurrences: readonly OccurrenceReading[];
  /**
   * What the year's record shows besides its occurrences, where the design states it (a daily
   * index: its term maximum over every window, paying or not, and its days); without it a
   * term_maximum basis shows the largest occurrence paid from.
   */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A design's measurement over a snapshot: how the records were read, and each term of the window. */
export interface IndexMeasurement {
  readonly selection: Record<string, unknown>;
  readonly occurrence_rule: string;
  readonly index_unit: string;
  readonly unit_note: string;
  /** Daily values the data-quality rule left out (a daily series only). */
  readonly excluded: readonly SiObservation[];
  term(term: TermWindow): MeasuredTerm;
}

/** An occurrence a Poisson-rate view counts, in a counted year. */
export interface EmpiricalOccurrence { readonly year: number; readonly value: number; readonly id: string }

/** The feed facts a fitted view reads: the quake catalog's magnitude_floor, and the feed's class. */
export interface FittedFeed {
  readonly manifest: FeedFacts | null;
  readonly class: FeedClass | null;
}

/** What a design's fitted view reads of its records, by the method it is fitted with. */
export type FittedSample =
  | {
    /** Gutenberg–Richter over the occurrence peaks in the counted years (no magnitude floor). */
    readonly method: 'gutenberg_richter_poisson';
    readonly occurrences: readonly { readonly year: number; readonly magnitude: number; readonly event_id: string }[];
    readonly magnitude_floor: number | null;
    readonly sample: Readonly<Record<string, unknown>>;
  }
  /** Extreme values of the term maxima: the backtest's own years are the sample. */
  | { readonly method: 'extreme_value_term_maxima' }
  | {
    /** A Poisson rate × the empirical values of the qualifying occurrences in the counted years. */
    readonly method: 'poisson_empirical_severity';
    readonly occurrences: readonly EmpiricalOccurrence[];
    readonly unit: string;
    readonly sample: Readonly<Record<string, unknown>>;
    /** What the design adds to the view's notes on what an occurrence is. */
    readonly notes?: readonly string[];
  };

export interface TriggerDesign {
  readonly design: Design;
  /** Members trigger.measurement may hold. */
  readonly measurement_members: readonly string[];
  /** Units a variable is read in by this design, where they differ from UNITS_BY_VARIABLE. */
  readonly units?: Readonly<Record<string, readonly UnitName[]>>;
  /** Reads trigger.measurement.aggregation (under path p). */
  readAggregation(f: Faults, m: Obj, p: string): SeriesAggregation | null;
  /** Whether the design reads trigger.aggregation_window (a structure without one is then not read). */
  readonly reads_window: boolean;
  /** Reads trigger.aggregation_window; term is the period's rule when it could be read. */
  readWindow(f: Faults, aw: unknown, term: TermRule | null): { readonly duration: string; readonly ms: number } | null;
  readonly payout: PayoutRules;
  /** The region the design reads in peril.region, or null when it reads none. */
  readonly region: { readonly missing: string; readonly box_only: string | null } | null;
  /**
   * The design's checks against the pinned feed. False when a fault stops the checks before the
   * period of record is read.
   */
  checkFeed(f: Faults, s: Structure, at: FeedUnderCheck): boolean;
  /** Which reader of src/feeds/readers.ts loads its data. */
  readonly reader: 'event_catalog' | 'daily_series' | 'track_archive' | 'outage_events';
  /** The data kinds its measurement reads. */
  readonly data_kinds: readonly TriggerData['kind'][];
  /**
   * Its measurement of the snapshot (the structure checked against that feed) for the years
   * fromYear..toYear, or the fault the records themselves show.
   */
  measure(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): IndexMeasurement | StructureFault;
  /** What its fitted view reads, over the years the burn counts. */
  fittedSample(s: Structure, data: TriggerData, feed: FittedFeed, counted: ReadonlySet<number>): FittedSample;
}
