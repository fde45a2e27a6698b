// Cat-in-a-box occurrences: the catalog rows a box trigger reads, clustered with the occurrence
// rule shared with footprints (src/domain/occurrence.ts), each occurrence dated by its first event.
//
// Selection (every test inclusive):
// - earthquake: type == earthquake, a magnitude, the epicentre in the box, depth at most
//   max_depth_km when a limit is set (an event with no depth is then excluded), magnitude at least
//   the payout's lowest level;
// - report extracts: a value and a point, the point in the box, value at least the lowest level;
//   mapped fires also need Incid_Type == Wildfire (the point is the origin encoded in Event_ID).
// Clustering runs over the qualifying rows of the whole extract (never cut at a year or a term), so
// an occurrence is the same one GET /events/{peril}/{id}/footprint shows for that window and floor.
// An occurrence belongs to the term (and year) in which its first event falls; its payout reads the
// cluster's peak, members after the term's end included.

import { boxContains, type Box } from '../geo.js';
import { clusterOccurrences, type CatalogRow, type Occurrence } from '../occurrence.js';
import type { QuakeEvent, ReportEvent } from '../hazard/records.js';

export interface BoxRow extends CatalogRow {
  readonly event_id: string;
  readonly epoch_ms: number;
  /** Value the payout reads (magnitude, inches, knots, rating, acres). */
  readonly value: number;
  /** ISO 8601 UTC, or null where the publisher gives a date only. */
  readonly time: string | null;
  /** Date as published (YYYY-MM-DD). */
  readonly date: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly depth_km: number | null;
}

export interface Selection {
  readonly rows: BoxRow[];
  /** Rows of the snapshot read. */
  readonly events_in_snapshot: number;
  /** Why the other rows were left out: reason -> count (keys sorted). */
  readonly excluded: Record<string, number>;
}

function tally(excluded: Map<string, number>, reason: string): void {
  excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
}

function sorted(excluded: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...excluded.keys()].sort()) out[key] = excluded.get(key)!;
  return out;
}

export interface QuakeSelectionTerms {
  readonly box: Box;
  readonly max_depth_km: number | null;
  /** Lowest level of the payout. */
  readonly floor: number;
}

export function selectQuakes(events: readonly QuakeEvent[], terms: QuakeSelectionTerms): Selection {
  const excluded = new Map<string, number>();
  const rows: BoxRow[] = [];
  for (const e of events) {
    if (e.type !== 'earthquake') { tally(excluded, 'type_not_earthquake'); continue; }
    if (typeof e.magnitude !== 'number' || !Number.isFinite(e.magnitude)) { tally(excluded, 'no_magnitude'); continue; }
    if (!boxContains(terms.box, e)) { tally(excluded, 'outside_box'); continue; }
    if (terms.max_depth_km !== null) {
      if (e.depth_km === null) { tally(excluded, 'no_depth'); continue; }
      if (e.depth_km > terms.max_depth_km) { tally(excluded, 'deeper_than_limit'); continue; }
    }
    if (e.magnitude < terms.floor) { tally(excluded, 'below_lowest_level'); continue; }
    rows.push({
      event_id: e.event_id, epoch_ms: e.epoch_ms, value: e.magnitude, magnitude: e.magnitude, time: e.time,
      date: e.time.slice(0, 10), latitude: e.latitude, longitude: e.longitude, depth_km: e.depth_km,
    });
  }
  return { rows, events_in_snapshot: events.length, excluded: sorted(excluded) };
}

export interface ReportSelectionTerms {
  readonly box: Box;
  readonly floor: number;
  /** Mapped fires: keep Incid_Type == Wildfire only. */
  readonly wildfire_only: boolean;
}

export function selectReports(events: readonly ReportEvent[], terms: ReportSelectionTerms): Selection {
  const excluded = new Map<string, number>();
  const rows: BoxRow[] = [];
  for (const e of events) {
    if (terms.wildfire_only && e.fields.Incid_Type !== 'Wildfire') { tally(excluded, 'incident_type_not_wildfire'); continue; }
    if (typeof e.value !== 'number' || !Number.isFinite(e.value)) { tally(excluded, 'no_value'); continue; }
    if (e.latitude === null || e.longitude === null) { tally(excluded, 'no_point'); continue; }
    if (!boxContains(terms.box, { latitude: e.latitude, longitude: e.longitude })) { tally(excluded, 'outside_box'); continue; }
    if (e.value < terms.floor) { tally(excluded, 'below_lowest_level'); continue; }
    rows.push({
      event_id: e.event_id, epoch_ms: e.epoch_ms, value: e.value, time: e.time, date: e.date,
      latitude: e.latitude, longitude: e.longitude, depth_km: null,
    });
  }
  return { rows, events_in_snapshot: events.length, excluded: sorted(excluded) };
}

/** The occurrence rule over the selected rows (window in ms, measured from each cluster's first event). */
export function boxOccurrences(rows: readonly BoxRow[], windowMs: number): Occurrence<BoxRow>[] {
  return clusterOccurrences(rows, windowMs);
}
