// Tropical-cyclone hazard summary near a point: storms passing within a radius, by Saffir–Simpson
// class of the strongest best-track wind while within it, and their annual rates.

import { haversineKm, type GeoPoint } from '../geo.js';
import { saffirSimpsonCategory, trackSamples, type SaffirSimpsonCategory } from '../tracks/gate.js';
import type { Storm } from './records.js';
import {
  checkPoint, checkRadius, compareText, DISTANCE_METHOD, inRecord, rateNote, recordYears, utcYear,
  type PointOut, type RecordYears, type YearSpan,
} from './summary-common.js';
import { LARGEST_LISTED } from './summary-quakes.js';

export const TRACK_DEFAULT_RADIUS_KM = 100;

export interface TrackSummaryOptions {
  /** Default 100 km. */
  readonly radiusKm?: number;
  /** Calendar years (UTC) of the record, for rates; see YearSpan. */
  readonly years: YearSpan;
}

export interface StormPass {
  readonly storm_id: string;
  readonly name: string | null;
  /** Time (ISO 8601 UTC) of the strongest sample within the radius. */
  readonly time: string;
  /** Best-track maximum sustained wind of the storm at that time (kt), not the wind at the point. */
  readonly wind_kt: number;
  readonly category: SaffirSimpsonCategory;
  /** Distance from the point of the strongest sample within the radius. */
  readonly distance_km: number;
  /** Closest sample of the pass to the point. */
  readonly closest_approach_km: number;
  readonly closest_approach_time: string;
  /** The strongest sample is an hourly interpolation between fixes (false: a best-track fix). */
  readonly interpolated: boolean;
}

export interface IntensityClass {
  readonly class: 'below_cat1' | 'cat1' | 'cat2' | 'cat3' | 'cat4' | 'cat5';
  readonly label: string;
  /** Inclusive, kt. */
  readonly min_wind_kt: number | null;
  /** Exclusive, kt; null for Cat 5. */
  readonly max_wind_kt: number | null;
  readonly count: number;
  readonly annual_rate: number;
}

export interface TrackSummary {
  readonly peril: 'tropical_cyclone';
  readonly method: string;
  readonly distance_method: string;
  readonly sampling: string;
  readonly point: PointOut;
  readonly radius_km: number;
  readonly record: RecordYears;
  readonly input: {
    readonly storms: number;
    /** Storms with no fix carrying a wind value: nothing to sample. */
    readonly storms_without_wind: number;
  };
  /** Storms with at least one sample within the radius in the record years. */
  readonly storms_within_radius: number;
  readonly classes: IntensityClass[];
  /** Storms at or above each category (1 = hurricane, 3 = major hurricane). */
  readonly at_least: { readonly category: number; readonly count: number; readonly annual_rate: number }[];
  readonly strongest: StormPass[];
  readonly notes: string[];
}

const CLASSES: readonly { class: IntensityClass['class']; label: string; min: number | null; max: number | null; category: SaffirSimpsonCategory }[] = [
  { class: 'below_cat1', label: 'tropical storm or weaker (< 64 kt)', min: null, max: 64, category: 0 },
  { class: 'cat1', label: 'Category 1 (64–82 kt)', min: 64, max: 83, category: 1 },
  { class: 'cat2', label: 'Category 2 (83–95 kt)', min: 83, max: 96, category: 2 },
  { class: 'cat3', label: 'Category 3 (96–112 kt)', min: 96, max: 113, category: 3 },
  { class: 'cat4', label: 'Category 4 (113–136 kt)', min: 113, max: 137, category: 4 },
  { class: 'cat5', label: 'Category 5 (≥ 137 kt)', min: 137, max: null, category: 5 },
];

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('.000Z', 'Z');
}

/** Each storm's pass within the radius (strongest sample; ties to the earliest), or null. */
function stormPass(storm: Storm, point: GeoPoint, radiusKm: number, record: RecordYears): StormPass | null {
  if (!mayPassWithin(storm, point, radiusKm)) return null;
  let best: { epoch: number; wind: number; distance: number; interpolated: boolean } | null = null;
  let closest: { epoch: number; distance: number } | null = null;
  // Sampled segment by segment, and only the segments whose extent comes near the point: the
  // samples of a segment lie between its two fixes. Fixes are in time order (the parsers sort them).
  const fixes = storm.fixes;
  const samples = [];
  for (let i = 0; i < fixes.length; i += 1) {
    const end = Math.min(i + 2, fixes.length);
    if (!extentNear(fixes, i, end, point, radiusKm)) continue;
    samples.push(...trackSamples(fixes.slice(i, end)));
  }
  for (const s of samples) {
    if (!inRecord(record, utcYear(s.epoch_ms))) continue;
    const distance = haversineKm(point, s);
    if (distance > radiusKm) continue;
    if (best === null || s.max_wind_kt > best.wind) best = { epoch: s.epoch_ms, wind: s.max_wind_kt, distance, interpolated: s.interpolated };
    if (closest === null || distance < closest.distance) closest = { epoch: s.epoch_ms, distance };
  }
  if (best === null || closest === null) return null;
  return {
    storm_id: storm.storm_id,
    name: storm.name,
    time: iso(best.epoch),
    wind_kt: best.wind,
    category: saffirSimpsonCategory(best.wind),
    distance_km: best.distance,
    closest_approach_km: closest.distance,
    closest_approach_time: iso(closest.epoch),
    interpolated: best.interpolated,
  };
}

const KM_PER_DEGREE_MIN = 110.5;

/**
 * Interpolated samples lie between consecutive fixes, hence inside the box of the storm's fixes: a
 * storm whose box, widened by the radius, misses the point has no sample within it. Only a cheap
 * screen before sampling; storms spanning more than 180 degrees of longitude are never screened.
 */
function mayPassWithin(storm: Pick<Storm, 'fixes'>, point: GeoPoint, radiusKm: number): boolean {
  return extentNear(storm.fixes, 0, storm.fixes.length, point, radiusKm);
}

/** Whether fixes[from, to) span an extent that, widened by the radius, holds the point. */
function extentNear(fixes: Storm['fixes'], from: number, to: number, point: GeoPoint, radiusKm: number): boolean {
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (let i = from; i < to; i += 1) {
    const f = fixes[i]!;
    if (f.latitude < minLat) minLat = f.latitude;
    if (f.latitude > maxLat) maxLat = f.latitude;
    if (f.longitude < minLon) minLon = f.longitude;
    if (f.longitude > maxLon) maxLon = f.longitude;
  }
  if (maxLon - minLon > 180) return true;
  const dLat = radiusKm / KM_PER_DEGREE_MIN;
  const highest = Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat), Math.abs(point.latitude)) + dLat);
  const dLon = radiusKm / (KM_PER_DEGREE_MIN * Math.cos((highest * Math.PI) / 180));
  if (point.latitude < minLat - dLat || point.latitude > maxLat + dLat) return false;
  // The point may sit across the antimeridian from the track.
  const west = minLon - dLon;
  const east = maxLon + dLon;
  const lon = point.longitude;
  return (lon >= west && lon <= east) || (lon - 360 >= west && lon - 360 <= east) || (lon + 360 >= west && lon + 360 <= east);
}

/** Storms passing near a point. Pure: the caller passes the parsed archive's storms. */
export function trackSummary(storms: readonly Storm[], point: GeoPoint, options: TrackSummaryOptions): TrackSummary {
  const at = checkPoint(point);
  const radiusKm = checkRadius(options.radiusKm ?? TRACK_DEFAULT_RADIUS_KM);
  const record = recordYears(options.years);

  let withoutWind = 0;
  const passes: StormPass[] = [];
  for (const storm of storms) {
    if (!storm.fixes.some((f) => typeof f.max_wind_kt === 'number' && Number.isFinite(f.max_wind_kt))) { withoutWind++; continue; }
    const pass = stormPass(storm, at, radiusKm, record);
    if (pass !== null) passes.push(pass);
  }

  const classes: IntensityClass[] = CLASSES.map((c) => {
    const count = passes.filter((p) => p.category === c.category).length;
    return { class: c.class, label: c.label, min_wind_kt: c.min, max_wind_kt: c.max, count, annual_rate: count / record.years };
  });
  const atLeast = [1, 2, 3, 4, 5].map((category) => {
    const count = passes.filter((p) => p.category >= category).length;
    return { category, count, annual_rate: count / record.years };
  });
  const strongest = [...passes]
    .sort((a, b) => b.wind_kt - a.wind_kt || compareText(a.time, b.time) || compareText(a.storm_id, b.storm_id))
    .slice(0, LARGEST_LISTED);

  return {
    peril: 'tropical_cyclone',
    method:
      'storms with at least one track sample within radius_km of the point in the record years, each classed by the strongest ' +
      'best-track maximum sustained wind among its samples within the radius (Saffir–Simpson), counts divided by the record years',
    distance_method: DISTANCE_METHOD,
    sampling:
      'every best-track fix with a wind value plus every whole UTC hour between two consecutive such fixes, position and wind linear in time; ' +
      'a fix without wind breaks the track on both sides',
    point: at,
    radius_km: radiusKm,
    record,
    input: { storms: storms.length, storms_without_wind: withoutWind },
    storms_within_radius: passes.length,
    classes,
    at_least: atLeast,
    strongest,
    notes: [
      'wind_kt is the best-track 1-minute maximum sustained wind of the storm (anywhere in its circulation) at the sample time, not the wind at the point',
      `a storm counts once, when a sample lies within ${radiusKm} km (inclusive); a track grazing the circle between two hourly samples can be missed`,
      'classes by wind only: Cat 1 64–82 kt, Cat 2 83–95, Cat 3 96–112, Cat 4 113–136, Cat 5 ≥ 137 (lower bounds, so an interpolated 82.5 kt is Cat 1); ' +
        'below_cat1 holds every stage under 64 kt, including extratropical, subtropical and low stages the archive carries',
      'a pass belongs to the UTC year of its samples; samples outside the record years are ignored',
      rateNote(record),
      'strongest: up to 10 passes by wind, ties by time then storm id',
    ],
  };
}
