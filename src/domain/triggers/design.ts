// What a trigger design owns: the design-specific part of reading its terms, its checks against a
// pinned feed, the reader its data comes from, and its fitted view. index.ts dispatches to one of
// these by the design the trigger type and variable select (vocabulary.ts).

import type { BacktestData, FeedRead } from '../backtest/artifact.js';
import type { DesignReplay } from '../backtest/years.js';
import type { FittedView, FittedViewInput } from '../pricing/fitted-view.js';
import type { FeedClass, FeedContext } from './feed.js';
import type { Faults, StructureFault } from './faults.js';
import type { Obj, PayoutRules } from './read.js';
import type { TermRule } from './term.js';
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
  readonly reader: 'event_catalog' | 'daily_series' | 'track_archive';
  /** The data kinds its replay reads. */
  readonly data_kinds: readonly BacktestData['kind'][];
  /**
   * Its replay over the years fromYear..toYear of the snapshot (the structure checked against that
   * feed): every year's occurrences and coverage, or the fault the records themselves show.
   */
  replay(s: Structure, data: BacktestData, feed: FeedRead, fromYear: number, toYear: number): DesignReplay | StructureFault;
  /** The fitted frequency–severity view of its annual payout. */
  fittedView(input: FittedViewInput): FittedView;
}
