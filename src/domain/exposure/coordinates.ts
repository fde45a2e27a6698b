// Coordinate text → decimal degrees. Reads decimal degrees ("40.4461", "-79.98", "40,4461" with a
// decimal comma), hemisphere letters ("40.4461 N", "W 79.98"), degrees–minutes(–seconds)
// ("40°26'46\"N", "40 26 46 N", "79°58'56.0\"W", "40:26.77"). Values out of range, minutes or
// seconds of 60 or more, and a sign that contradicts the hemisphere are refused with a reason.

export type Axis = 'latitude' | 'longitude';

export type CoordinateReading = { kind: 'empty' } | { kind: 'value'; value: number } | { kind: 'unreadable'; reason: string };

const PLAIN_DECIMAL = /^[-+]?\d{1,3}(?:\.\d+)?$/;
const NUMBER = /\d+(?:[.,]\d+)?/g;
// What may stand between the numbers of a DMS coordinate: degree, minute and second marks.
const DMS_MARKS = /^(?:[\s°º˚'′’‘"″”“:]|DEG(?:REES)?|MIN|SEC)*$/;

const LIMIT: Record<Axis, number> = { latitude: 90, longitude: 180 };
const HEMISPHERES: Record<Axis, string> = { latitude: 'NS', longitude: 'EW' };

function inRange(value: number, axis: Axis): CoordinateReading {
  if (!Number.isFinite(value) || Math.abs(value) > LIMIT[axis]) {
    return { kind: 'unreadable', reason: `${axis} out of range (±${LIMIT[axis]})` };
  }
  return { kind: 'value', value: value === 0 ? 0 : value };
}

export function readCoordinate(raw: string, axis: Axis): CoordinateReading {
  const text = raw.trim();
  if (text === '') return { kind: 'empty' };
  if (PLAIN_DECIMAL.test(text)) return inRange(Number(text), axis);

  let s = text.toUpperCase();
  let hemisphere = '';
  const head = s.charAt(0);
  const tail = s.charAt(s.length - 1);
  if ('NSEW'.includes(head) && head !== '' && !/^[A-Z]{2}/.test(s)) {
    hemisphere = head;
    s = s.slice(1);
  } else if ('NSEW'.includes(tail) && tail !== '' && !/[A-Z]{2}$/.test(s)) {
    hemisphere = tail;
    s = s.slice(0, -1);
  }
  if (hemisphere !== '' && !HEMISPHERES[axis].includes(hemisphere)) {
    return { kind: 'unreadable', reason: `hemisphere ${hemisphere} on a ${axis}` };
  }
  s = s.trim();
  let negative = false;
  if (s.startsWith('-') || s.startsWith('−')) {
    negative = true;
    s = s.slice(1);
  } else if (s.startsWith('+')) {
    s = s.slice(1);
  }
  const numbers = s.match(NUMBER);
  if (numbers === null || numbers.length > 3) return { kind: 'unreadable', reason: `not a ${axis}` };
  if (!DMS_MARKS.test(s.replace(NUMBER, ' '))) return { kind: 'unreadable', reason: `not a ${axis}` };
  const parts = numbers.map((n) => Number(n.replace(',', '.')));
  const [degrees = NaN, minutes = 0, seconds = 0] = parts;
  if (parts.length > 1 && !Number.isInteger(degrees)) return { kind: 'unreadable', reason: 'fractional degrees with minutes' };
  if (parts.length > 2 && !Number.isInteger(minutes)) return { kind: 'unreadable', reason: 'fractional minutes with seconds' };
  if (minutes >= 60 || seconds >= 60) return { kind: 'unreadable', reason: 'minutes or seconds of 60 or more' };
  let value = degrees + minutes / 60 + seconds / 3600;
  if (parts.length > 1) value = Math.round(value * 1e7) / 1e7;
  const southOrWest = hemisphere === 'S' || hemisphere === 'W';
  if (negative && hemisphere !== '' && !southOrWest) {
    return { kind: 'unreadable', reason: `negative ${axis} with hemisphere ${hemisphere}` };
  }
  return inRange(negative || southOrWest ? -value : value, axis);
}

export type PairReading =
  | { kind: 'empty' }
  | { kind: 'pair'; latitude: CoordinateReading; longitude: CoordinateReading }
  | { kind: 'unreadable'; reason: string };

/**
 * "40.4461, -79.98", "40.4461 -79.98", "40°26'46\"N 79°58'56\"W", "40,4461; -79,98": latitude first.
 */
export function readCoordinatePair(raw: string): PairReading {
  const text = raw.trim();
  if (text === '') return { kind: 'empty' };
  let halves: string[] | null = null;
  for (const separator of [';', '/', '|']) {
    if (text.includes(separator)) {
      halves = text.split(separator);
      break;
    }
  }
  if (halves === null) {
    const hemisphere = /^(.*?[0-9"″'′°\s][NS])[\s,]+(.+)$/i.exec(text);
    if (hemisphere !== null) halves = [hemisphere[1] ?? '', hemisphere[2] ?? ''];
  }
  if (halves === null && (text.match(/,/g) ?? []).length === 1) halves = text.split(',');
  if (halves === null) {
    const words = text.split(/\s+/);
    if (words.length === 2) halves = words;
  }
  if (halves === null || halves.length !== 2) return { kind: 'unreadable', reason: 'not a latitude/longitude pair' };
  return {
    kind: 'pair',
    latitude: readCoordinate(halves[0] ?? '', 'latitude'),
    longitude: readCoordinate(halves[1] ?? '', 'longitude'),
  };
}
