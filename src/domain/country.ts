// The country of a point, from the offline borders country-coder ships (OpenStreetMap's, ISO 3166-1
// codes; territories such as Puerto Rico or Guadeloupe answer their own code). No network, no
// gazetteer: at sea, or where no border file reaches, there is no country (null).
import { iso1A2Code, iso1A3Code } from '@rapideditor/country-coder';

/** ISO 3166-1 alpha-2 of the territory holding the point, or null. */
export function countryAlpha2(latitude: number, longitude: number): string | null {
  return iso1A2Code([longitude, latitude], { level: 'territory' });
}

/** ISO 3166-1 alpha-3 of the territory holding the point, or null. */
export function countryAlpha3(latitude: number, longitude: number): string | null {
  return iso1A3Code([longitude, latitude], { level: 'territory' });
}
