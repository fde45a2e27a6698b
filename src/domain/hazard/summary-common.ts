// Shared pieces of the hazard summaries (GET /hazard): the point, the radius, the record's years,
// and the rule that every number leaving a summary is finite (null otherwise).

import { EARTH_MEAN_RADIUS_KM, type GeoPoint } from '../geo.js';

/**
 * The record's calendar years, both ends included. `missing` lists years inside the span that the
 * archive holds no record for (a manifest's years_missing): they are left out of the year count and
 * their events are not counted (DOMAIN.md: such years are excluded from n, never zeros).
 */
export interface YearSpan {
  readonly from: number;
  readonly to: number;
  readonly missing?: readonly number[];
}

export interface RecordYears {
  readonly from: number;
  readonly to: number;
  /** Years of the span that the record does not cover (sorted, inside the span only). */
  readonly years_missing: number[];
  /** The years rates are divided by: (to − from + 1) − years_missing.length. */
  readonly years: number;
}

export interface PointOut {
  readonly latitude: number;
  readonly longitude: number;
}

export const DISTANCE_METHOD =
  `great-circle distance by the haversine formula on a sphere of the mean earth radius ${EARTH_MEAN_RADIUS_KM} km`;

/** The number when finite, else null (a summary never carries NaN or ±Infinity). */
export function finiteOrNull(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

export function checkPoint(point: GeoPoint): PointOut {
  const { latitude, longitude } = point;
  if (!(Number.isFinite(latitude) && latitude >= -90 && latitude <= 90)) {
    throw new RangeError(`latitude must lie in [−90, 90], got ${latitude}`);
  }
  if (!(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180)) {
    throw new RangeError(`longitude must lie in [−180, 180], got ${longitude}`);
  }
  return { latitude, longitude };
}

export function checkRadius(radiusKm: number): number {
  if (!(Number.isFinite(radiusKm) && radiusKm > 0)) throw new RangeError(`radius must be a positive number of km, got ${radiusKm}`);
  return radiusKm;
}

export function recordYears(span: YearSpan): RecordYears {
  const { from, to } = span;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to) {
    throw new RangeError(`record years must be integers with from <= to, got ${from}..${to}`);
  }
  for (const y of span.missing ?? []) {
    if (!Number.isInteger(y)) throw new RangeError(`missing year must be an integer, got ${y}`);
  }
  const missing = [...new Set(span.missing ?? [])].filter((y) => y >= from && y <= to).sort((a, b) => a - b);
  const years = to - from + 1 - missing.length;
  if (years <= 0) throw new RangeError(`record ${from}..${to} has no covered year once the missing years are removed`);
  return { from, to, years_missing: missing, years };
}

/** Whether an event of calendar year `year` belongs to the record (inside the span, not a missing year). */
export function inRecord(record: RecordYears, year: number): boolean {
  return year >= record.from && year <= record.to && !record.years_missing.includes(year);
}

export function utcYear(epochMs: number): number {
  return new Date(epochMs).getUTCFullYear();
}

/** A note naming how rates were formed, shared word for word by the event summaries. */
export function rateNote(record: RecordYears): string {
  const missing =
    record.years_missing.length === 0
      ? ''
      : `, less ${record.years_missing.length} year(s) the record does not cover (${record.years_missing.join(', ')}), whose events are not counted`;
  return (
    `annual rate = count / ${record.years} record years (${record.from}–${record.to} inclusive${missing}); ` +
    'a covered year without a qualifying event counts as a zero'
  );
}

/** Code-unit order, independent of the host's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
