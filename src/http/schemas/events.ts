// GET /events/{peril} and its footprint (SPEC: Event catalog rules). The query's values are text
// in named formats; which parameters go together is the route's rule, not the schema's.
import { CSV_OFFER, GEOJSON_OFFER, JSON_OFFER, formatParameter } from '../negotiate.js';
import { operation, published, queryOf, text } from './operation.js';

/** An event catalog page is served as JSON (event-catalogue.v0), CSV or GeoJSON. */
export const EVENT_PAGE_OFFERS = [JSON_OFFER, CSV_OFFER, GEOJSON_OFFER] as const;

const PERIL = { type: 'object', properties: { peril: { type: 'string', description: 'earthquake, severe_convective_storm or wildfire.' } }, required: ['peril'] };

export const eventCatalogue = operation({
  id: 'listEvents',
  summary: 'A page of a peril\'s event catalog, from one pinned snapshot',
  description: 'The catalog is named by feed=, or is the one extract holding the whole box. min_magnitude and max_depth_km apply to earthquake catalogs, min_value to report extracts; a box needs all four edges. Not metered.',
  params: PERIL,
  query: queryOf({
    feed: text(undefined, 'The feed id of the catalog.'),
    version: text(undefined, 'The pinned vintage of that feed (default: the latest).'),
    min_magnitude: text('decimal', 'Magnitude floor, never below the snapshot\'s minimum; earthquake only.'),
    max_depth_km: text('decimal', 'Focal depth limit; earthquake only.'),
    min_value: text('decimal', 'Level in a report extract\'s own unit; report extracts only.'),
    from: text('instant', 'Start, inclusive (a bare date is midnight UTC).'),
    to: text('instant', 'End, exclusive.'),
    min_lat: text('decimal', 'Box edge, inclusive; all four edges or none.'),
    max_lat: text('decimal', 'Box edge, inclusive.'),
    min_lon: text('decimal', 'Box edge, inclusive.'),
    max_lon: text('decimal', 'Box edge, inclusive.'),
    limit: text('page-limit', 'Page size: default 100, ceiling 1000.'),
    offset: text('page-offset', 'Events skipped; follow page.next.'),
    format: formatParameter(EVENT_PAGE_OFFERS),
  }),
  errors: ['invalid_request', 'no_event_catalogue', 'not_acceptable'],
  responses: {
    200: {
      description: 'The page (event-catalogue.v0). As CSV or GeoJSON, the next page is the Link header\'s rel="next".',
      schema: published('event-catalogue.v0'),
      headers: { Link: 'CSV and GeoJSON only: <page.next>; rel="next", in the same format.' },
      alternatives: {
        'text/csv': 'One row per event, its columns the event view\'s members (RFC 4180, header row, CRLF).',
        'application/geo+json': 'A FeatureCollection of Points ([longitude, latitude]), properties the event view; the page\'s other members as foreign members.',
      },
    },
  },
});

export const eventFootprint = operation({
  id: 'readEventFootprint',
  summary: 'The occurrence an earthquake belongs to: its cluster and extent',
  params: { type: 'object', properties: { ...PERIL.properties, event_id: { type: 'string', description: 'The publisher\'s event id.' } }, required: ['peril', 'event_id'] },
  query: queryOf({
    window: text('iso-duration', 'The aggregation window, measured from the cluster\'s first event (default P7D).'),
    min_magnitude: text('decimal', 'The magnitude floor of the clustered events (default: the catalog\'s).'),
  }),
  errors: ['invalid_request', 'no_event_catalogue', 'no_event_footprint', 'not_found'],
  responses: { 200: { description: 'The footprint (event-footprint.v0).', schema: published('event-footprint.v0') } },
});
