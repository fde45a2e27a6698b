// The few members a list shows of a stored document, read once when it is written (and by the
// migration for documents written before), so a list never reads a document. Pure.

type Document = Record<string, unknown>;

const record = (value: unknown): Document | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Document : undefined;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const whole = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/** peril.code of an object, structure or structure's terms; null when it names none. */
export function perilCode(document: Document): string | null {
  return text(record(document.peril)?.code);
}

export interface ObjectSummary {
  peril: string | null;
  /** How many locations its exposure holds. */
  locations: number | null;
  /** The name of its first source file (what an ingest read), or null. */
  source: string | null;
}

export function objectSummary(document: Document): ObjectSummary {
  const locations = record(document.exposure)?.locations;
  return summaryOf(document, Array.isArray(locations) ? locations.length : null);
}

/** The summary from an object's peril and provenance members and its location count. */
export function summaryOf(members: Document, locations: number | null): ObjectSummary {
  const sources = record(members.provenance)?.source_files;
  return {
    peril: perilCode(members),
    locations,
    source: text(record(Array.isArray(sources) ? sources[0] : undefined)?.name),
  };
}

export interface BacktestSummary {
  peril: string | null;
  feed_id: string | null;
  feed_version: string | null;
  from_year: number | null;
  to_year: number | null;
}

/** A backtest artifact's structure peril, pinned feed and window. */
export function backtestSummary(artifact: Document): BacktestSummary {
  const feed = record(artifact.feed);
  const window = record(artifact.window);
  return {
    peril: perilCode(record(artifact.structure) ?? {}),
    feed_id: text(feed?.feed_id),
    feed_version: text(feed?.version),
    from_year: whole(window?.from_year),
    to_year: whole(window?.to_year),
  };
}
