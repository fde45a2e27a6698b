// GET /events/{peril} and GET /events/{peril}/{event_id}/footprint (SPEC: Event catalog rules,
// Event catalog page, Event footprint). Not metered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import type { Box } from '../../domain/geo.js';
import { boundingBox, boxWithin } from '../../domain/geo.js';
import { selectEvents, type EventFilter } from '../../domain/events/selection.js';
import { clusterOccurrences } from '../../domain/occurrence.js';
import { instant, parseIsoDuration } from '../../kernel/dates.js';
import { coverageArea } from '../../domain/hazard/coverage-area.js';
import { catalogPeril, eventCatalog } from '../../feeds/readers.js';
import type { CatalogPeril, EventCatalog } from '../../domain/hazard/records.js';
import type { Snapshot } from '../../feeds/store.js';
import type { QuakeEvent, ReportEvent } from '../../domain/hazard/records.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { snapshotPath } from './feeds.js';
import { eventCatalogue, eventFootprint } from '../schemas/events.js';
import { PAGE } from '../schemas/faults.js';
import { EVENT_CATALOGUE_SCHEMA, EVENT_FOOTPRINT_SCHEMA, EVENTS_SCHEMA_VERSION } from '../../kernel/versions.js';

export const DEFAULT_FOOTPRINT_WINDOW = 'P7D';

const CATALOG_PERILS: CatalogPeril[] = ['earthquake', 'severe_convective_storm', 'wildfire'];
const DAY_MS = 86_400_000;

type Query = Record<string, string>;

function noCatalogue(message: string, details?: string[]): ApiError {
  return new ApiError(404, 'no_event_catalogue', message, details);
}

function snapshotBox(s: Snapshot): Box {
  const box = coverageArea(s.manifest.coverage).box;
  if (!box) throw new Error(`${s.feed_id} has no box coverage`);
  return box;
}

const edges = (b: Box) => `lat ${b.min_latitude} to ${b.max_latitude}, lon ${b.min_longitude} to ${b.max_longitude}`;

function catalogSnapshots(services: Services, peril: CatalogPeril): Snapshot[] {
  const store = services.feeds;
  return (store?.feeds() ?? []).map((id) => store!.get(id)!).filter((s) => catalogPeril(s) === peril);
}

/** A decimal the schema accepted (format decimal), or undefined when not given. */
const decimal = (raw: string | undefined) => (raw === undefined ? undefined : Number(raw));

/** Which catalog answers a read (SPEC rules 1 and 2), else 404 no_event_catalogue. */
function resolveSnapshot(services: Services, peril: CatalogPeril, query: Query, box: Box | undefined): Snapshot {
  const all = catalogSnapshots(services, peril);
  const listing = all.map((s) => `${s.feed_id}: ${edges(snapshotBox(s))}`);
  if (query.feed !== undefined) {
    const named = all.find((s) => s.feed_id === query.feed);
    if (!named) throw noCatalogue(`No ${peril} catalog is pinned as feed ${query.feed}.`, listing);
    const pinned = services.feeds!.get(named.feed_id, query.version);
    if (!pinned) {
      throw noCatalogue(`Feed ${named.feed_id} has no pinned version ${query.version}; pinned: ${services.feeds!.versions(named.feed_id).join(', ')}.`);
    }
    return pinned;
  }
  if (box === undefined) {
    throw noCatalogue(`Name a catalog with feed=<feed_id>, or give a box (min_lat, max_lat, min_lon, max_lon) that one ${peril} catalog holds.`, listing);
  }
  const holding = all.filter((s) => boxWithin(box, snapshotBox(s)));
  if (holding.length === 0) throw noCatalogue(`No single ${peril} catalog holds the box ${edges(box)}; each catalog's edges are listed.`, listing);
  if (holding.length > 1) {
    throw noCatalogue(`Several ${peril} catalogs hold the box ${edges(box)}; name one with feed=<feed_id>.`,
      holding.map((s) => `${s.feed_id}: ${edges(snapshotBox(s))}`));
  }
  const pinned = services.feeds!.get(holding[0]!.feed_id, query.version);
  if (!pinned) throw noCatalogue(`Feed ${holding[0]!.feed_id} has no pinned version ${query.version}.`);
  return pinned;
}

function requireCatalogPeril(peril: string): CatalogPeril {
  if ((CATALOG_PERILS as string[]).includes(peril)) return peril as CatalogPeril;
  throw noCatalogue(`No event catalog is served for ${peril}: its pinned record is a gridded or daily series, or it has none. Catalogs answer for ${CATALOG_PERILS.join(', ')}.`,
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

/** A peril with no catalog is answered 404 before its query is checked. */
const perilFirst = {
  preValidation: async (request: FastifyRequest) => { requireCatalogPeril((request.params as { peril: string }).peril); },
};

export function eventRoutes(app: FastifyInstance, services: Services) {
  app.get('/events/:peril', { ...eventCatalogue, ...perilFirst }, async (request) => {
    const peril = requireCatalogPeril((request.params as { peril: string }).peril);
    const query = request.query as Query;
    const faults: string[] = [];
    const isQuake = peril === 'earthquake';
    if (isQuake && query.min_value !== undefined) faults.push('min_value applies to report extracts only; an earthquake catalog takes min_magnitude');
    if (!isQuake && query.min_magnitude !== undefined) faults.push('min_magnitude applies to earthquake catalogs only; report extracts take min_value in their own unit');
    if (!isQuake && query.max_depth_km !== undefined) faults.push('max_depth_km applies to earthquake catalogs only');
    const boxKeys = ['min_lat', 'max_lat', 'min_lon', 'max_lon'] as const;
    const given = boxKeys.filter((k) => query[k] !== undefined);
    if (given.length > 0 && given.length < 4) faults.push(`a box needs all four of min_lat, max_lat, min_lon, max_lon (given: ${given.join(', ')})`);
    const [minLat, maxLat, minLon, maxLon] = boxKeys.map((k) => decimal(query[k]));
    let box: Box | undefined;
    if (given.length === 4) {
      box = { min_latitude: minLat!, max_latitude: maxLat!, min_longitude: minLon!, max_longitude: maxLon! };
      if (minLat! > maxLat! || minLon! > maxLon!) faults.push('the box needs min_lat <= max_lat and min_lon <= max_lon');
      if (minLat! < -90 || maxLat! > 90 || minLon! < -180 || maxLon! > 180) faults.push('the box lies outside latitude -90..90 or longitude -180..180');
    }
    const minMagnitude = decimal(query.min_magnitude);
    const maxDepth = decimal(query.max_depth_km);
    const minValue = decimal(query.min_value);
    const limit = query.limit === undefined ? PAGE.default : Number(query.limit);
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    const from = query.from === undefined ? undefined : instant(query.from);
    const to = query.to === undefined ? undefined : instant(query.to);
    if (query.version !== undefined && query.feed === undefined && box === undefined) faults.push('version pins the vintage of a named feed (feed=) or of the catalog a box resolves to');
    if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);

    const snapshot = resolveSnapshot(services, peril, query, box);
    const catalog = await eventCatalog(services.feeds!, snapshot);
    const period = defaultPeriod(snapshot, catalog.events);
    const floor = catalog.kind === 'quake' ? catalog.magnitudeFloor ?? Math.min(...catalog.events.map((e) => e.magnitude ?? Infinity)) : null;
    if (isQuake && minMagnitude !== undefined && floor !== null && minMagnitude < floor) {
      throw refusals.invalidRequest(422, `min_magnitude ${minMagnitude} is below this catalog's minimum of ${floor}; the snapshot holds nothing smaller.`);
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
    if (filter.fromMs >= filter.toMs) throw refusals.invalidRequest(422, 'from must be before to (from inclusive, to exclusive).');
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
    return {
      schema: EVENT_CATALOGUE_SCHEMA,
      schema_version: EVENTS_SCHEMA_VERSION,
      feed: feedBlock(snapshot),
      counts: { events_in_snapshot: catalog.events.length, selected: selected.length, returned: page.length },
      selection,
      page: { limit, offset, next },
      events: page.map((e) => eventView(catalog, e)),
    };
  });

  app.get('/events/:peril/:event_id/footprint', { ...eventFootprint, ...perilFirst }, async (request) => {
    const { peril: rawPeril, event_id: eventId } = request.params as { peril: string; event_id: string };
    const peril = requireCatalogPeril(rawPeril);
    const query = request.query as Query;
    const window = query.window ?? DEFAULT_FOOTPRINT_WINDOW;
    const windowMs = parseIsoDuration(window);
    const minMagnitude = decimal(query.min_magnitude);

    // The publisher's id names one event in one catalog (SPEC rule 3).
    for (const snapshot of catalogSnapshots(services, peril)) {
      const catalog = await eventCatalog(services.feeds!, snapshot);
      const event = (catalog.events as readonly (QuakeEvent | ReportEvent)[]).find((e) => e.event_id === eventId);
      if (!event) continue;
      if (catalog.kind !== 'quake') {
        throw new ApiError(404, 'no_event_footprint', `${eventId} is a report in ${snapshot.feed_id}; report-extract events have no footprint.`);
      }
      const quake = event as QuakeEvent;
      const floor = minMagnitude ?? catalog.magnitudeFloor ?? 0;
      if (quake.type !== 'earthquake') {
        throw new ApiError(404, 'no_event_footprint', `${eventId} is a ${quake.type}, not an earthquake; occurrences cluster earthquakes only.`);
      }
      if (quake.magnitude === null || quake.magnitude < floor) {
        throw refusals.invalidRequest(422, `${eventId} has magnitude ${quake.magnitude ?? 'unknown'}, below min_magnitude ${floor}: it belongs to no occurrence at that floor.`);
      }
      const rows = catalog.events.filter((e) => e.type === 'earthquake' && e.magnitude !== null && e.magnitude >= floor);
      const occurrence = clusterOccurrences(rows, windowMs).find((o) => o.events.some((e) => e.event_id === eventId))!;
      const extent = boundingBox(occurrence.events.map((e) => ({ latitude: e.latitude, longitude: e.longitude })))!;
      return {
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
      };
    }
    throw refusals.notFound(`No ${peril} event ${eventId} in any pinned catalog`);
  });
}
