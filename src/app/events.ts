// The event catalogs (SPEC: Event catalog rules, Event catalog page, Event footprint): which pinned
// catalog answers a read, the default period, the selection and its page, and an event's footprint.
import type { Box } from '../domain/geo.js';
import { boundingBox, boxWithin } from '../domain/geo.js';
import { selectEvents, type EventFilter } from '../domain/events/selection.js';
import { clusterOccurrences } from '../domain/occurrence.js';
import { coverageArea } from '../domain/hazard/coverage-area.js';
import { catalogPeril, eventCatalog } from '../feeds/readers.js';
import type { CatalogPeril, EventCatalog, QuakeEvent, ReportEvent } from '../domain/hazard/records.js';
import type { Snapshot } from '../feeds/store.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { instant, parseIsoDuration } from '../kernel/dates.js';
import { EVENT_CATALOGUE_SCHEMA, EVENT_FOOTPRINT_SCHEMA, EVENTS_SCHEMA_VERSION } from '../kernel/versions.js';
import { snapshotPath } from './feeds.js';
import type { AppDeps } from './deps.js';
import { PAGE } from './paging.js';

export const DEFAULT_FOOTPRINT_WINDOW = 'P7D';

const CATALOG_PERILS: CatalogPeril[] = ['earthquake', 'severe_convective_storm', 'wildfire'];
const DAY_MS = 86_400_000;

/** The query as given (each parameter once), read for feed and version and carried into the next link. */
export type EventQuery = Readonly<Record<string, string>>;

function noCatalogue(message: string, details?: string[]): Result<never> {
  return refused(refusal(404, 'no_event_catalogue', message, details));
}

function snapshotBox(s: Snapshot): Box {
  const box = coverageArea(s.manifest.coverage).box;
  if (!box) throw new Error(`${s.feed_id} has no box coverage`);
  return box;
}

const edges = (b: Box) => `lat ${b.min_latitude} to ${b.max_latitude}, lon ${b.min_longitude} to ${b.max_longitude}`;

function catalogSnapshots(deps: Pick<AppDeps, 'feeds'>, peril: CatalogPeril): Snapshot[] {
  const store = deps.feeds;
  return (store?.feeds() ?? []).map((id) => store!.get(id)!).filter((s) => catalogPeril(s) === peril);
}

/** Which catalog answers a read (SPEC rules 1 and 2), else 404 no_event_catalogue. */
function resolveSnapshot(deps: Pick<AppDeps, 'feeds'>, peril: CatalogPeril, query: EventQuery, box: Box | undefined): Result<Snapshot> {
  const all = catalogSnapshots(deps, peril);
  const listing = all.map((s) => `${s.feed_id}: ${edges(snapshotBox(s))}`);
  if (query.feed !== undefined) {
    const named = all.find((s) => s.feed_id === query.feed);
    if (!named) return noCatalogue(`No ${peril} catalog is pinned as feed ${query.feed}.`, listing);
    const pinned = deps.feeds!.get(named.feed_id, query.version);
    if (!pinned) {
      return noCatalogue(`Feed ${named.feed_id} has no pinned version ${query.version}; pinned: ${deps.feeds!.versions(named.feed_id).join(', ')}.`);
    }
    return ok(pinned);
  }
  if (box === undefined) {
    return noCatalogue(`Name a catalog with feed=<feed_id>, or give a box (min_lat, max_lat, min_lon, max_lon) that one ${peril} catalog holds.`, listing);
  }
  const holding = all.filter((s) => boxWithin(box, snapshotBox(s)));
  if (holding.length === 0) return noCatalogue(`No single ${peril} catalog holds the box ${edges(box)}; each catalog's edges are listed.`, listing);
  if (holding.length > 1) {
    return noCatalogue(`Several ${peril} catalogs hold the box ${edges(box)}; name one with feed=<feed_id>.`,
      holding.map((s) => `${s.feed_id}: ${edges(snapshotBox(s))}`));
  }
  const pinned = deps.feeds!.get(holding[0]!.feed_id, query.version);
  if (!pinned) return noCatalogue(`Feed ${holding[0]!.feed_id} has no pinned version ${query.version}.`);
  return ok(pinned);
}

/** The perils whose record is an event catalog; any other is 404 no_event_catalogue. */
export function catalogPerilOf(peril: string): Result<CatalogPeril> {
  if ((CATALOG_PERILS as string[]).includes(peril)) return ok(peril as CatalogPeril);
  return noCatalogue(`No event catalog is served for ${peril}: its pinned record is a gridded or daily series, or it has none. Catalogs answer for ${CATALOG_PERILS.join(', ')}.`,
    CATALOG_PERILS.map((p) => `peril ${p} has event catalogs`));
}

function feedBlock(s: Snapshot) {
  return { id: s.feed_id, kind: s.manifest.kind ?? null, version: s.version, vintage: s.version, sha256: s.sha256, links: { self: snapshotPath(s) } };
}

function eventView(catalog: EventCatalog, e: QuakeEvent | ReportEvent) {
  if (catalog.kind === 'quake') {
    const q = e as QuakeEvent;
    return {
      event_id: q.event_id, time: q.time, latitude: q.latitude, longitude: q.longitude,
      magnitude: q.magnitude, magnitude_type: q.mag_type, depth_km: q.depth_km, type: q.type, place: q.place ?? null,
      footprint: `/events/earthquake/${encodeURIComponent(q.event_id)}/footprint`,
    };
  }
  const r = e as ReportEvent;
  return {
    event_id: r.event_id, time: r.time ?? r.date, date: r.date, latitude: r.latitude, longitude: r.longitude,
    value: r.value, unit: r.unit, report_kind: r.kind,
  };
}

/** The default period: the snapshot's period of record through the end of its last day. */
function defaultPeriod(s: Snapshot, events: readonly { epoch_ms: number }[]): { from: number; to: number } {
  const p = s.manifest.period_of_record;
  let from = p?.from ? Date.parse(`${p.from}T00:00:00Z`) : Infinity;
  let to = p?.to ? Date.parse(`${p.to}T00:00:00Z`) + DAY_MS : -Infinity;
  // Local report times can fall past midnight UTC of the last day: the default never cuts a row off.
  // Widened to whole UTC days, so the period still runs through the end of its last day.
  for (const e of events) {
    if (e.epoch_ms < from) from = Math.floor(e.epoch_ms / DAY_MS) * DAY_MS;
    if (e.epoch_ms >= to) to = (Math.floor(e.epoch_ms / DAY_MS) + 1) * DAY_MS;
  }
  return { from, to };
}

/** What a page of a catalog selects, as the edge read it; an absent bound takes its default. */
export interface EventSelection {
  peril: CatalogPeril;
  query: EventQuery;
  box: Box | undefined;
  minMagnitude: number | undefined;
  maxDepthKm: number | undefined;
  minValue: number | undefined;
  fromMs: number | undefined;
  toMs: number | undefined;
  limit: number;
  offset: number;
}

const BOX_KEYS = ['min_lat', 'max_lat', 'min_lon', 'max_lon'] as const;

/**
 * The selection a catalog query asks for. Each value's form (a decimal, an instant, a page size) is
 * the caller's to check first (the HTTP route's schema does); what is checked here is what only the
 * parameters together say: which filters fit the peril, a whole box, a version with something to pin.
 */
export function eventSelection(peril: CatalogPeril, query: EventQuery): Result<EventSelection> {
  const faults: string[] = [];
  const decimal = (key: string) => (query[key] === undefined ? undefined : Number(query[key]));
  const isQuake = peril === 'earthquake';
  if (isQuake && query.min_value !== undefined) faults.push('min_value applies to report extracts only; an earthquake catalog takes min_magnitude');
  if (!isQuake && query.min_magnitude !== undefined) faults.push('min_magnitude applies to earthquake catalogs only; report extracts take min_value in their own unit');
  if (!isQuake && query.max_depth_km !== undefined) faults.push('max_depth_km applies to earthquake catalogs only');
  const given = BOX_KEYS.filter((k) => query[k] !== undefined);
  if (given.length > 0 && given.length < 4) faults.push(`a box needs all four of min_lat, max_lat, min_lon, max_lon (given: ${given.join(', ')})`);
  let box: Box | undefined;
  if (given.length === 4) {
    const [minLat, maxLat, minLon, maxLon] = BOX_KEYS.map((k) => decimal(k)!);
    box = { min_latitude: minLat!, max_latitude: maxLat!, min_longitude: minLon!, max_longitude: maxLon! };
    if (minLat! > maxLat! || minLon! > maxLon!) faults.push('the box needs min_lat <= max_lat and min_lon <= max_lon');
    if (minLat! < -90 || maxLat! > 90 || minLon! < -180 || maxLon! > 180) faults.push('the box lies outside latitude -90..90 or longitude -180..180');
  }
  if (query.version !== undefined && query.feed === undefined && box === undefined) faults.push('version pins the vintage of a named feed (feed=) or of the catalog a box resolves to');
  if (faults.length > 0) return refused(refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults));
  return ok({
    peril, query, box,
    minMagnitude: decimal('min_magnitude'),
    maxDepthKm: decimal('max_depth_km'),
    minValue: decimal('min_value'),
    fromMs: query.from === undefined ? undefined : instant(query.from),
    toMs: query.to === undefined ? undefined : instant(query.to),
    limit: query.limit === undefined ? PAGE.default : Number(query.limit),
    offset: query.offset === undefined ? 0 : Number(query.offset),
  });
}

/**
 * GET /events/{peril}: the catalog a read resolves to (named, or the one holding the box), the
 * events selected within the period (by default the snapshot's period of record) and one page of them.
 */
export async function eventPage(deps: Pick<AppDeps, 'feeds'>, input: EventSelection): Promise<Result<Record<string, unknown>>> {
  const { peril, query, box, minMagnitude, maxDepthKm: maxDepth, minValue, fromMs: from, toMs: to, limit, offset } = input;
  const isQuake = peril === 'earthquake';
  const resolved = resolveSnapshot(deps, peril, query, box);
  if (!resolved.ok) return resolved;
  const snapshot = resolved.value;
  const catalog = await eventCatalog(deps.feeds!, snapshot);
  const period = defaultPeriod(snapshot, catalog.events);
  const floor = catalog.kind === 'quake' ? catalog.magnitudeFloor ?? Math.min(...catalog.events.map((e) => e.magnitude ?? Infinity)) : null;
  if (isQuake && minMagnitude !== undefined && floor !== null && minMagnitude < floor) {
    return refused(refusals.invalidRequest(422, `min_magnitude ${minMagnitude} is below this catalog's minimum of ${floor}; the snapshot holds nothing smaller.`));
  }
  const defaulted: string[] = [];
  if (query.feed === undefined) defaulted.push('feed');
  if (query.version === undefined) defaulted.push('version');
  if (box === undefined) defaulted.push('box');
  if (from === undefined) defaulted.push('from');
  if (to === undefined) defaulted.push('to');
  if (isQuake && minMagnitude === undefined) defaulted.push('min_magnitude');
  if (query.limit === undefined) defaulted.push('limit');
  if (query.offset === undefined) defaulted.push('offset');
  const filter: EventFilter = {
    fromMs: from ?? period.from, toMs: to ?? period.to, box: box ?? snapshotBox(snapshot),
    ...(minMagnitude !== undefined ? { minMagnitude } : {}),
    ...(maxDepth !== undefined ? { maxDepthKm: maxDepth } : {}),
    ...(minValue !== undefined ? { minValue } : {}),
  };
  if (filter.fromMs >= filter.toMs) return refused(refusals.invalidRequest(422, 'from must be before to (from inclusive, to exclusive).'));
  const selected = selectEvents(catalog.events as readonly (QuakeEvent | ReportEvent)[], filter);
  const page = selected.slice(offset, offset + limit);
  const selection: Record<string, unknown> = {
    box: filter.box,
    from: new Date(filter.fromMs).toISOString(),
    to: new Date(filter.toMs).toISOString(),
    period_bounds: { from: 'inclusive', to: 'exclusive', box: 'inclusive on every edge' },
    defaulted,
  };
  if (isQuake) {
    selection.minimum_magnitude = minMagnitude ?? floor;
    selection.max_depth_km = maxDepth ?? null;
  } else {
    selection.minimum_value = minValue ?? null;
    selection.unit = (catalog as Extract<EventCatalog, { kind: 'report' }>).unit;
  }
  let next: string | null = null;
  if (offset + limit < selected.length) {
    const params = new URLSearchParams({ ...query, feed: snapshot.feed_id, version: snapshot.version, limit: String(limit), offset: String(offset + limit) });
    next = `/events/${peril}?${params.toString()}`;
  }
  return ok({
    schema: EVENT_CATALOGUE_SCHEMA,
    schema_version: EVENTS_SCHEMA_VERSION,
    feed: feedBlock(snapshot),
    counts: { events_in_snapshot: catalog.events.length, selected: selected.length, returned: page.length },
    selection,
    page: { limit, offset, next },
    events: page.map((e) => eventView(catalog, e)),
  });
}

/** GET /events/{peril}/{event_id}/footprint: the occurrence an earthquake belongs to, clustered by time from its first event. */
export async function eventFootprint(
  deps: Pick<AppDeps, 'feeds'>,
  input: { peril: CatalogPeril; eventId: string; query: EventQuery },
): Promise<Result<Record<string, unknown>>> {
  const { peril, eventId, query } = input;
  // The values' forms are the caller's to check first, as for eventSelection.
  const minMagnitude = query.min_magnitude === undefined ? undefined : Number(query.min_magnitude);
  const window = query.window ?? DEFAULT_FOOTPRINT_WINDOW;
  let windowMs: number;
  try {
    windowMs = parseIsoDuration(window);
  } catch (error) {
    const fault = `window: ${(error as Error).message}`;
    return refused(refusals.invalidRequest(422, `The query is not acceptable: ${fault}.`, [fault]));
  }
  // The publisher's id names one event in one catalog (SPEC rule 3).
  for (const snapshot of catalogSnapshots(deps, peril)) {
    const catalog = await eventCatalog(deps.feeds!, snapshot);
    const event = (catalog.events as readonly (QuakeEvent | ReportEvent)[]).find((e) => e.event_id === eventId);
    if (!event) continue;
    if (catalog.kind !== 'quake') {
      return refused(refusal(404, 'no_event_footprint', `${eventId} is a report in ${snapshot.feed_id}; report-extract events have no footprint.`));
    }
    const quake = event as QuakeEvent;
    const floor = minMagnitude ?? catalog.magnitudeFloor ?? 0;
    if (quake.type !== 'earthquake') {
      return refused(refusal(404, 'no_event_footprint', `${eventId} is a ${quake.type}, not an earthquake; occurrences cluster earthquakes only.`));
    }
    if (quake.magnitude === null || quake.magnitude < floor) {
      return refused(refusals.invalidRequest(422, `${eventId} has magnitude ${quake.magnitude ?? 'unknown'}, below min_magnitude ${floor}: it belongs to no occurrence at that floor.`));
    }
    const rows = catalog.events.filter((e) => e.type === 'earthquake' && e.magnitude !== null && e.magnitude >= floor);
    const occurrence = clusterOccurrences(rows, windowMs).find((o) => o.events.some((e) => e.event_id === eventId))!;
    const extent = boundingBox(occurrence.events.map((e) => ({ latitude: e.latitude, longitude: e.longitude })))!;
    return ok({
      schema: EVENT_FOOTPRINT_SCHEMA,
      schema_version: EVENTS_SCHEMA_VERSION,
      event_id: eventId,
      event: eventView(catalog, quake),
      feed: feedBlock(snapshot),
      footprint: {
        occurrence: {
          window,
          window_measured_from: 'the first event of the cluster, never the previous one',
          from: new Date(occurrence.from).toISOString(),
          to: new Date(occurrence.to).toISOString(),
          event_count: occurrence.events.length,
          peak_event_id: occurrence.peak.event_id,
          minimum_magnitude: floor,
          events: occurrence.events.map((e) => ({ event_id: e.event_id, time: e.time, magnitude: e.magnitude, latitude: e.latitude, longitude: e.longitude, depth_km: e.depth_km })),
        },
        extent,
      },
      limitations: [
        'This is a cluster of catalog solutions (epicentres and magnitudes) grouped by time only, not a shaking map.',
        'No ground-motion field is published: intensity at a site is not modelled here.',
        `Events of type earthquake at or above magnitude ${floor} are clustered across the whole extract; the window runs from each cluster's first event.`,
      ],
    });
  }
  return refused(refusals.notFound(`No ${peril} event ${eventId} in any pinned catalog`));
}
