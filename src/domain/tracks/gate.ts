// Track gate crossing (DOMAIN.md "Hazard conventions": a gate is crossed when the track's path,
// interpolated between fixes in substeps of an hour or less, enters it).
//
// Samples are every fix with a wind value plus every whole UTC hour strictly between two consecutive
// fixes that both have one, with position and wind linear in time. A fix without wind is no sample
// and breaks the path on both sides: nothing is invented across it.

import { boxContains, normalizeLongitude, polygonContains, type Box, type GeoPoint, type Polygon } from '../geo.js';

export const HOUR_MS = 3_600_000;

export interface TrackFix {
  readonly epoch_ms: number;
  readonly latitude: number;
  readonly longitude: number;
  /** 1-minute sustained wind in knots; null when the archive holds none. */
  readonly max_wind_kt: number | null;
}

/** A box (inclusive on every edge) or a polygon of [longitude, latitude] vertices (boundary inside). */
export type Gate = Box | Polygon;

/** A predicate on a sample's time, or time windows [startMs, endMs): start inclusive, end exclusive. */
export type TimeFilter = ((epochMs: number) => boolean) | ReadonlyArray<readonly [number, number]>;

export interface TrackSample {
  readonly epoch_ms: number;
  readonly latitude: number;
  /** In [−180, 180). */
  readonly longitude: number;
  readonly max_wind_kt: number;
  /** False for a fix, true for an hourly sample between fixes. */
  readonly interpolated: boolean;
}

export type SaffirSimpsonCategory = 0 | 1 | 2 | 3 | 4 | 5;

export interface GateCrossing extends TrackSample {
  readonly category: SaffirSimpsonCategory;
}

/**
 * Saffir–Simpson category from 1-minute wind in knots (NHC: Cat 1 64–82, 2 83–95, 3 96–112,
 * 4 113–136, 5 >= 137). Lower bounds are used, so an interpolated 82.5 kt is Cat 1; 0 is below Cat 1.
 */
export function saffirSimpsonCategory(windKt: number): SaffirSimpsonCategory {
  if (Number.isNaN(windKt)) throw new RangeError('wind is not a number');
  if (windKt >= 137) return 5;
  if (windKt >= 113) return 4;
  if (windKt >= 96) return 3;
  if (windKt >= 83) return 2;
  if (windKt >= 64) return 1;
  return 0;
}

function withWind(fix: TrackFix): fix is TrackFix & { max_wind_kt: number } {
  return typeof fix.max_wind_kt === 'number' && Number.isFinite(fix.max_wind_kt);
}

/** Fix and hourly samples of a track, in time order (fixes are sorted by time first, stably). */
export function trackSamples(fixes: readonly TrackFix[]): TrackSample[] {
  const sorted = [...fixes].sort((a, b) => a.epoch_ms - b.epoch_ms);
  const samples: TrackSample[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i]!;
    if (!withWind(from)) continue;
    samples.push({
      epoch_ms: from.epoch_ms,
      latitude: from.latitude,
      longitude: normalizeLongitude(from.longitude),
      max_wind_kt: from.max_wind_kt,
      interpolated: false,
    });
    const to = sorted[i + 1];
    if (to === undefined || !withWind(to) || to.epoch_ms <= from.epoch_ms) continue;
    // Across the antimeridian the step runs the short way: −179 to 179 is 2° west, not 358° east.
    const dLon = normalizeLongitude(to.longitude - from.longitude);
    const duration = to.epoch_ms - from.epoch_ms;
    for (let hour = Math.floor(from.epoch_ms / HOUR_MS) + 1; hour * HOUR_MS < to.epoch_ms; hour++) {
      const t = hour * HOUR_MS;
      const f = (t - from.epoch_ms) / duration;
      samples.push({
        epoch_ms: t,
        latitude: from.latitude + f * (to.latitude - from.latitude),
        longitude: normalizeLongitude(from.longitude + f * dLon),
        max_wind_kt: from.max_wind_kt + f * (to.max_wind_kt - from.max_wind_kt),
        interpolated: true,
      });
    }
  }
  return samples;
}

export function gateContains(gate: Gate, point: GeoPoint): boolean {
  return Array.isArray(gate) ? polygonContains(gate as Polygon, point) : boxContains(gate as Box, point);
}

function passesTimeFilter(filter: TimeFilter | undefined, epochMs: number): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(epochMs);
  return filter.some(([start, end]) => epochMs >= start && epochMs < end);
}

/**
 * The strongest sample of a storm inside the gate (and passing the time filter), with its time,
 * position and category; ties go to the earliest sample. Null when no sample is inside.
 */
export function strongestWindInGate(
  fixes: readonly TrackFix[],
  gate: Gate,
  timeFilter?: TimeFilter,
): GateCrossing | null {
  let best: TrackSample | null = null;
  for (const sample of trackSamples(fixes)) {
    if (!passesTimeFilter(timeFilter, sample.epoch_ms) || !gateContains(gate, sample)) continue;
    if (best === null || sample.max_wind_kt > best.max_wind_kt) best = sample;
  }
  return best === null ? null : { ...best, category: saffirSimpsonCategory(best.max_wind_kt) };
}
