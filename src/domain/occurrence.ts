// Occurrences: catalog rows clustered by time only (SPEC "Occurrence rule"; DOMAIN.md "Occurrence").
//
// A cluster opens at its first event and holds every later event whose time is within the window of
// that first event, boundary included: epoch_ms − first.epoch_ms <= window. The first event beyond
// opens the next cluster. The window is never measured from the previous event, so a run of events
// each a day apart does not chain into one endless occurrence.

/** A catalog row as the clustering reads it: the publisher's id, its time, and its intensity. */
export interface CatalogRow {
  readonly event_id: string;
  readonly epoch_ms: number;
  /** Earthquake magnitude; read in preference to value when it is a finite number. */
  readonly magnitude?: number | null;
  /** A report extract's value (inches, knots, rating, acres); null when the publisher gave none. */
  readonly value?: number | null;
}

export interface Occurrence<T extends CatalogRow> {
  /** The event that opened the cluster (earliest; ties by smallest event_id). */
  readonly first: T;
  /** Every row collapsed into this occurrence, in time order. */
  readonly events: readonly T[];
  /** The row the payout reads: largest intensity; ties to the earliest, then the smallest event_id. */
  readonly peak: T;
  /** first.epoch_ms. */
  readonly from: number;
  /** epoch_ms of the cluster's last event (so to − from <= window). */
  readonly to: number;
}

/** The intensity a payout reads from a row: magnitude if present, else value, else null. */
export function rowIntensity(row: CatalogRow): number | null {
  if (typeof row.magnitude === 'number' && Number.isFinite(row.magnitude)) return row.magnitude;
  if (typeof row.value === 'number' && Number.isFinite(row.value)) return row.value;
  return null;
}

function compareIds(a: string, b: string): number {
  // Code-unit order, not locale order, so the result never depends on the host's locale.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Catalog order: by time, then by event_id. */
export function compareCatalogRows(a: CatalogRow, b: CatalogRow): number {
  return a.epoch_ms - b.epoch_ms || compareIds(a.event_id, b.event_id);
}

/** True when `candidate` should replace `current` as the peak of a cluster held in catalog order. */
function outranks(candidate: CatalogRow, current: CatalogRow): boolean {
  const c = rowIntensity(candidate);
  const p = rowIntensity(current);
  if (c === null) return false;
  if (p === null) return true;
  // Only a strictly larger value wins: rows arrive in catalog order, so ties stay with the earlier row.
  return c > p;
}

/**
 * Clusters catalog rows into occurrences by time only. Rows may come in any order; they are put in
 * catalog order (epoch_ms, then event_id) first. A row without an intensity still belongs to its
 * cluster but is the peak only when no row of the cluster has one.
 */
export function clusterOccurrences<T extends CatalogRow>(rows: readonly T[], windowMs: number): Occurrence<T>[] {
  if (!Number.isFinite(windowMs) || windowMs < 0) {
    throw new RangeError(`aggregation window must be a finite, non-negative number of ms, got ${windowMs}`);
  }
  for (const row of rows) {
    if (!Number.isFinite(row.epoch_ms)) throw new RangeError(`event ${row.event_id} has no finite epoch_ms`);
  }
  const sorted = [...rows].sort(compareCatalogRows);
  const occurrences: Occurrence<T>[] = [];
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i]!;
    const events: T[] = [first];
    let peak = first;
    i += 1;
    while (i < sorted.length && sorted[i]!.epoch_ms - first.epoch_ms <= windowMs) {
      const row = sorted[i]!;
      events.push(row);
      if (outranks(row, peak)) peak = row;
      i += 1;
    }
    occurrences.push({ first, events, peak, from: first.epoch_ms, to: events[events.length - 1]!.epoch_ms });
  }
  return occurrences;
}
