// One location's plain fields, read from their cells: coordinates (a latitude and a longitude
// column, or one coordinates column), year built and storeys. Pure: each answers its value and,
// when it could not read the cell as given, the reason for the row's fidelity note.
import { readCoordinate, readCoordinatePair, type CoordinateReading } from './coordinates.js';

export interface FieldReading<T> {
  value: T;
  reasons: string[];
}

const YEAR = /^\d{1,4}(?:\.0+)?$/;
const WHOLE = /^-?\d+(?:\.0+)?$/;

/**
 * Latitude and longitude, both or neither: one without the other, either unreadable, or 0, 0 (the
 * way many systems write "no coordinates") leaves both null with a reason.
 */
export function readLocationCoordinates(
  latText: string,
  lonText: string,
  pairText: string,
  fromPairColumn: boolean,
): FieldReading<{ latitude: number | null; longitude: number | null }> {
  const none = { latitude: null, longitude: null };
  let lat: CoordinateReading;
  let lon: CoordinateReading;
  if (fromPairColumn) {
    const pair = readCoordinatePair(pairText);
    if (pair.kind === 'empty') return { value: none, reasons: [] };
    if (pair.kind === 'unreadable') return { value: none, reasons: [`coordinates '${pairText}': ${pair.reason}; coordinates null`] };
    lat = pair.latitude;
    lon = pair.longitude;
  } else {
    lat = readCoordinate(latText, 'latitude');
    lon = readCoordinate(lonText, 'longitude');
  }
  if (lat.kind === 'empty' && lon.kind === 'empty') return { value: none, reasons: [] };
  const reasons: string[] = [];
  if (lat.kind === 'unreadable') reasons.push(`latitude '${fromPairColumn ? pairText : latText}': ${lat.reason}; coordinates null`);
  if (lon.kind === 'unreadable') reasons.push(`longitude '${fromPairColumn ? pairText : lonText}': ${lon.reason}; coordinates null`);
  if (reasons.length > 0) return { value: none, reasons };
  if (lat.kind !== 'value' || lon.kind !== 'value') {
    const given = lat.kind === 'value' ? 'latitude' : 'longitude';
    const missing = lat.kind === 'value' ? 'longitude' : 'latitude';
    return { value: none, reasons: [`${given} given without ${missing}; coordinates null`] };
  }
  if (lat.value === 0 && lon.value === 0) return { value: none, reasons: ['coordinates 0, 0 read as missing; coordinates null'] };
  return { value: { latitude: lat.value, longitude: lon.value }, reasons: [] };
}

/** A four-digit year from 1000 to 2100 ("1985", "1985.0"); 0 is OED's "unknown". */
export function readYearBuilt(text: string): FieldReading<number | null> {
  if (text === '') return { value: null, reasons: [] };
  if (YEAR.test(text)) {
    const year = Math.trunc(Number(text));
    if (year === 0) return { value: null, reasons: [] };
    if (year >= 1000 && year <= 2100) return { value: year, reasons: [] };
  }
  return { value: null, reasons: [`year built '${text}' is not a year; null`] };
}

/** A whole number of storeys; 0 is OED's "unknown", −1/−2/−3 its unknown low/mid/high rise. */
export function readStoreys(text: string): FieldReading<number | null> {
  if (text === '') return { value: null, reasons: [] };
  if (WHOLE.test(text)) {
    const storeys = Math.trunc(Number(text));
    if (storeys === 0) return { value: null, reasons: [] };
    if (storeys >= -3 && storeys <= 300) return { value: storeys, reasons: [] };
  }
  return { value: null, reasons: [`storeys '${text}' is not a number of storeys; null`] };
}

/** A whole number of days (a period of indemnity: CEDE DaysCovered, OED BIPOI). */
export function readDays(text: string): FieldReading<number | null> {
  if (text === '') return { value: null, reasons: [] };
  if (WHOLE.test(text)) {
    const days = Math.trunc(Number(text));
    if (days >= 0 && days <= 36_600) return { value: days, reasons: [] };
  }
  return { value: null, reasons: [`days covered '${text}' is not a number of days; null`] };
}
