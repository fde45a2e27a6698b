// An event catalog page (event-catalogue.v0) as CSV and as GeoJSON (RFC 7946). Both are written
// from the JSON page itself, so they hold the same events with the same values. Pure.
import { csvTable, type Cell } from './csv.js';

type EventView = Record<string, unknown> & { event_id: string; latitude: number | null; longitude: number | null };
/** What the writers read of a page: its events, its feed's kind, and the rest as it is. */
export interface EventCataloguePage { feed: { kind: string }; events: EventView[]; [member: string]: unknown }

/** The event view's members (app/events.ts eventView) for each kind of catalog, in column order. */
const QUAKE_COLUMNS = ['event_id', 'time', 'latitude', 'longitude', 'magnitude', 'magnitude_type', 'depth_km', 'type', 'place', 'footprint'];
const REPORT_COLUMNS = ['event_id', 'time', 'date', 'latitude', 'longitude', 'value', 'unit', 'report_kind'];

export function eventColumns(page: EventCataloguePage): string[] {
  return page.feed.kind === 'event_catalog' ? QUAKE_COLUMNS : REPORT_COLUMNS;
}

export function eventPageCsv(page: EventCataloguePage): string {
  const columns = eventColumns(page);
  return csvTable(columns, page.events.map((e) => columns.map((c) => e[c] as Cell)));
}

/**
 * A FeatureCollection of Points ([longitude, latitude], RFC 7946 §3.1.1), one per event, its
 * properties the event view; an event without coordinates has a null geometry. The page's other
 * members (schema, feed, counts, selection, page) ride along as foreign members.
 */
export function eventPageGeoJson(page: EventCataloguePage): Record<string, unknown> {
  const { events, ...rest } = page;
  return {
    type: 'FeatureCollection',
    ...rest,
    features: events.map((e) => ({
      type: 'Feature',
      id: e.event_id,
      geometry: e.latitude === null || e.longitude === null ? null : { type: 'Point', coordinates: [e.longitude, e.latitude] },
      properties: e,
    })),
  };
}
