// State-level outage events as the publishers list them: DOE's OE-417 annual summaries (one row per
// reported disturbance) and the Purdue table built from them (Mukherjee, Nateghi and Hastak 2018).
// Each keeps the publisher's fields verbatim beside what the service reads from them.

import type { CauseCategory } from './causes.js';

/** Where a row's free-text area was placed (areas.ts): the states and counties it names, or why none. */
export interface AreaPlacement {
  /** USPS codes of the US states (with DC and PR) the area names, in the order written. */
  readonly states: readonly string[];
  /** Counties or parishes named under a state ("Florida: Citrus County;"), as written, by state. */
  readonly counties: Readonly<Record<string, readonly string[]>>;
  /** null when placed; else why the area names no state. */
  readonly unplaced: null | 'no_state_named' | 'outside_united_states' | 'empty';
}

/** One DOE OE-417 event row. `fields` are the workbook's cells as published (continuation rows joined). */
export interface OutageEvent {
  /** `<year>:<sheet>:<row>`: the workbook (by year), its sheet and 1-based row; DOE gives no event id. */
  readonly event_id: string;
  readonly source: { readonly file: string; readonly sheet: string; readonly row: number };
  /** The publisher's columns by their own header, verbatim (text as written, numbers as stored). */
  readonly fields: Readonly<Record<string, string | number | null>>;
  /** Date the event began (YYYY-MM-DD), or null when the row states none readable. */
  readonly date: string | null;
  /** An undated sub-row (DOE's per-state split of the event above) takes the date and time of the row above. */
  readonly dated_by_row_above: boolean;
  /** Start as written (wall time, zone not stated by DOE), ISO 8601 without offset; null without a time. */
  readonly start_local: string | null;
  /** Milliseconds of the written wall time read as UTC: orders and clusters rows, never a true instant. */
  readonly epoch_ms: number | null;
  /** Restoration as written, ISO 8601 without offset; null when Unknown or unreadable. */
  readonly restored_local: string | null;
  /** Restoration minus start, in hours; null when either is unknown. */
  readonly duration_hours: number | null;
  readonly area: string;
  readonly placement: AreaPlacement;
  readonly nerc_region: string;
  /** Event type (2011 on) or type of disturbance (2002-2010), verbatim. */
  readonly event_type: string;
  /** Alert criteria (2015 on), verbatim; null before. */
  readonly alert_criteria: string | null;
  readonly cause: CauseCategory;
  readonly customers: number | null;
  /** Why customers is null, or how a text count was read ('text', 'million', 'approximate'). */
  readonly customers_note: string | null;
  readonly demand_loss_mw: number | null;
}

/** One row of the Purdue major-outage table: its columns as published, and the few read. */
export interface PurdueOutage {
  /** OBS as published. */
  readonly event_id: string;
  readonly row: number;
  readonly fields: Readonly<Record<string, string | number | null>>;
  readonly year: number;
  readonly state: string;
  readonly postal_code: string;
  readonly date: string | null;
  readonly start_local: string | null;
  readonly cause_category: string;
  readonly cause_detail: string | null;
  readonly duration_minutes: number | null;
  readonly customers: number | null;
  readonly demand_loss_mw: number | null;
}

/** What a parsed outage feed holds. */
export interface OutageEventSet {
  readonly kind: 'oe417' | 'purdue';
  readonly events: readonly OutageEvent[];
  readonly purdue?: readonly PurdueOutage[];
  /** Years whose files are pinned but not read (the 2000-2001 PDF tables), with why. */
  readonly years_not_read: readonly { readonly year: number; readonly file: string; readonly reason: string }[];
  /** Counts the reading discloses: rows read, placed, unplaced by reason, customers unknown... */
  readonly counts: Readonly<Record<string, number>>;
  readonly quirks: readonly string[];
}
