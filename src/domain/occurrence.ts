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

const MS_PER = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1_000 } as const;
const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const WEEK_FORM = new RegExp(`^P${NUMBER}W$`);
const DAY_TIME_FORM = new RegExp(`^P(?:${NUMBER}D)?(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`);

/**
 * Parses an ISO 8601 duration of fixed length into milliseconds: PnW alone, or days and a time part
 * (P7D, PT36H, P1DT12H, PT90M, PT0.5S). A day is 86,400,000 ms (UTC epoch time has no DST and no
 * leap seconds). Years and months are refused because their length depends on the calendar; a
 * decimal fraction is allowed on the last component only (ISO 8601 §4.4.3.2). Rounded to whole ms.
 */
export function parseIsoDuration(text: string): number {
  const datePart = text.startsWith('P') ? text.slice(1).split('T')[0]! : '';
  if (/[YM]/.test(datePart)) {
    throw new RangeError(
      `duration ${JSON.stringify(text)} uses years or months, which have no fixed length; ` +
        'write it in weeks, days or hours (e.g. P365D, P30D)',
    );
  }
  const week = WEEK_FORM.exec(text);
  if (week) return Math.round(toNumber(week[1]!) * MS_PER.W);

  const match = DAY_TIME_FORM.exec(text);
  const parts = match ? ([match[1], match[2], match[3], match[4]] as const) : null;
  const present = parts?.filter((p): p is string => p !== undefined) ?? [];
  const emptyTimePart = text.includes('T') && parts !== null && parts.slice(1).every((p) => p === undefined);
  if (!match || present.length === 0 || emptyTimePart) {
    throw new RangeError(
      `${JSON.stringify(text)} is not an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. P7D, PT36H, P1DT12H)`,
    );
  }
  if (present.slice(0, -1).some((p) => /[.,]/.test(p))) {
    throw new RangeError(`duration ${JSON.stringify(text)} has a fraction on a component other than the last`);
  }
  const [days, hours, minutes, seconds] = parts!;
  const total =
    toNumber(days) * MS_PER.D + toNumber(hours) * MS_PER.H + toNumber(minutes) * MS_PER.M + toNumber(seconds) * MS_PER.S;
  return Math.round(total);
}

function toNumber(component: string | undefined): number {
  return component === undefined ? 0 : Number(component.replace(',', '.'));
}
