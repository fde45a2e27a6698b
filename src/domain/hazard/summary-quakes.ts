// Earthquake hazard summary near a point: counts and annual rates by magnitude band, the largest
// events, and a Gutenberg–Richter fit (DOMAIN.md "Fitted views").

import { haversineKm, type GeoPoint } from '../geo.js';
import type { QuakeEvent } from './records.js';
import { annualExceedanceRate, fitGutenbergRichter, DEFAULT_MAGNITUDE_BIN, MC_TIE_BREAK } from '../stats/gutenberg-richter.js';
import {
  checkPoint, checkRadius, compareText, DISTANCE_METHOD, finiteOrNull, inRecord, rateNote, recordYears, utcYear,
  type PointOut, type RecordYears, type YearSpan,
} from './summary-common.js';

export const QUAKE_DEFAULT_RADIUS_KM = 150;
/** Band floors; each band is [floor, next floor), the last is [8.0, ∞). */
export const QUAKE_BAND_FLOORS = [6.0, 6.5, 7.0, 7.5, 8.0] as const;
/** Magnitudes whose fitted annual exceedance rate is reported. */
export const QUAKE_FITTED_MAGNITUDES = [6.5, 7.0, 7.5] as const;
/** The fit uses the events within the radius when at least this many, else the whole extract. */
export const QUAKE_MIN_EVENTS_FOR_LOCAL_FIT = 20;
export const LARGEST_LISTED = 10;

export interface QuakeSummaryOptions {
  /** Default 150 km. */
  readonly radiusKm?: number;
  /** Calendar years of the record (origin time, UTC), for rates; see YearSpan. */
  readonly years: YearSpan;
  /** The catalog's stated magnitude floor (e.g. the manifest's magnitude_floor), or null if none. */
  readonly magnitudeFloor?: number | null;
}

export interface MagnitudeBand {
  readonly label: string;
  /** Inclusive. */
  readonly min_magnitude: number;
  /** Exclusive; null for the open top band. */
  readonly max_magnitude: number | null;
  readonly count: number;
  readonly annual_rate: number;
}

export interface MagnitudeExceedance {
  readonly min_magnitude: number;
  readonly count: number;
  readonly annual_rate: number;
}

export interface LargestQuake {
  readonly event_id: string;
  readonly time: string;
  readonly magnitude: number;
  readonly mag_type: string;
  readonly depth_km: number | null;
  readonly distance_km: number;
  readonly latitude: number;
  readonly longitude: number;
  readonly place: string | null;
}

export type QuakeFitScope = 'within_radius' | 'extract';

export interface GutenbergRichterOut {
  readonly method: string;
  readonly mc_method: string;
  readonly a_annual: number | null;
  readonly a_count: number | null;
  readonly b: number | null;
  readonly b_standard_error_aki: number | null;
  readonly b_standard_error_shi_bolt: number | null;
  /** Completeness magnitude used: max(maximum curvature, catalog floor snapped up to the ΔM grid). */
  readonly mc: number;
  readonly mc_max_curvature: number;
  readonly floor_magnitude: number | null;
  readonly bin_width: number;
  /** Events with binned magnitude >= Mc (the N of the fit). */
  readonly n: number;
  readonly mean_magnitude: number | null;
  readonly years: number;
  readonly annual_rate_at_mc: number | null;
}

export interface FittedRate {
  readonly min_magnitude: number;
  readonly annual_rate: number | null;
  /** 1 / annual_rate, null when the rate is zero or not finite. */
  readonly return_period_years: number | null;
}

export interface QuakeFitOut {
  readonly fit_scope: QuakeFitScope;
  readonly scope_rule: string;
  /** Earthquakes (with a magnitude, in the record years) handed to the fit. */
  readonly events_in_scope: number;
  readonly fit: GutenbergRichterOut | null;
  /** λ(m) from the fit, for the fit scope's area (the circle, or the whole extract's coverage). */
  readonly annual_rates: FittedRate[];
  /** Why there is no fit; null when there is one. */
  readonly reason: string | null;
}

export interface QuakeSummary {
  readonly peril: 'earthquake';
  readonly method: string;
  readonly distance_method: string;
  readonly point: PointOut;
  readonly radius_km: number;
  readonly record: RecordYears;
  readonly magnitude_floor: number | null;
  readonly input: {
    readonly events: number;
    readonly not_earthquake: number;
    readonly earthquakes_without_magnitude: number;
    readonly earthquakes_outside_record_years: number;
    /** Earthquakes with a magnitude in the record years: the extract the fit falls back on. */
    readonly earthquakes_counted: number;
  };
  readonly within_radius: number;
  /** Earthquakes within the radius below the lowest band floor (6.0), if the catalog holds any. */
  readonly below_lowest_band: number;
  readonly bands: MagnitudeBand[];
  readonly at_least: MagnitudeExceedance[];
  readonly largest: LargestQuake[];
  readonly gutenberg_richter: QuakeFitOut;
  readonly notes: string[];
}

function bandLabel(i: number): string {
  const lo = QUAKE_BAND_FLOORS[i]!;
  const hi = QUAKE_BAND_FLOORS[i + 1];
  return hi === undefined ? `M ≥ ${lo.toFixed(1)}` : `${lo.toFixed(1)} ≤ M < ${hi.toFixed(1)}`;
}

function fittedRates(fit: ReturnType<typeof fitGutenbergRichter> | null): FittedRate[] {
  return QUAKE_FITTED_MAGNITUDES.map((m) => {
    const rate = fit === null ? null : finiteOrNull(annualExceedanceRate(fit, m));
    return { min_magnitude: m, annual_rate: rate, return_period_years: rate !== null && rate > 0 ? finiteOrNull(1 / rate) : null };
  });
}

/**
 * Earthquakes near a point. Pure: the caller passes the parsed catalog (e.g. parseComcat's records),
 * the point and the record years.
 */
export function quakeSummary(events: readonly QuakeEvent[], point: GeoPoint, options: QuakeSummaryOptions): QuakeSummary {
  const at = checkPoint(point);
  const radiusKm = checkRadius(options.radiusKm ?? QUAKE_DEFAULT_RADIUS_KM);
  const record = recordYears(options.years);
  const floor = options.magnitudeFloor ?? null;
  if (floor !== null && !Number.isFinite(floor)) throw new RangeError(`magnitude floor must be finite, got ${floor}`);

  let notEarthquake = 0;
  let withoutMagnitude = 0;
  let outsideYears = 0;
  const counted: (QuakeEvent & { magnitude: number })[] = [];
  for (const e of events) {
    if (e.type !== 'earthquake') { notEarthquake++; continue; }
    if (typeof e.magnitude !== 'number' || !Number.isFinite(e.magnitude)) { withoutMagnitude++; continue; }
    if (!inRecord(record, utcYear(e.epoch_ms))) { outsideYears++; continue; }
    counted.push(e as QuakeEvent & { magnitude: number });
  }

  const near = counted
    .map((e) => ({ event: e, distance: haversineKm(at, e) }))
    .filter((x) => x.distance <= radiusKm);

  const bands: MagnitudeBand[] = QUAKE_BAND_FLOORS.map((lo, i) => {
    const hi = QUAKE_BAND_FLOORS[i + 1] ?? null;
    const count = near.filter((x) => x.event.magnitude >= lo && (hi === null || x.event.magnitude < hi)).length;
    return { label: bandLabel(i), min_magnitude: lo, max_magnitude: hi, count, annual_rate: count / record.years };
  });
  const atLeast: MagnitudeExceedance[] = QUAKE_BAND_FLOORS.map((lo) => {
    const count = near.filter((x) => x.event.magnitude >= lo).length;
    return { min_magnitude: lo, count, annual_rate: count / record.years };
  });
  const belowLowest = near.filter((x) => x.event.magnitude < QUAKE_BAND_FLOORS[0]).length;

  const largest: LargestQuake[] = [...near]
    .sort((a, b) => b.event.magnitude - a.event.magnitude || a.event.epoch_ms - b.event.epoch_ms || compareText(a.event.event_id, b.event.event_id))
    .slice(0, LARGEST_LISTED)
    .map(({ event: e, distance }) => ({
      event_id: e.event_id,
      time: e.time,
      magnitude: e.magnitude,
      mag_type: e.mag_type,
      depth_km: finiteOrNull(e.depth_km),
      distance_km: distance,
      latitude: e.latitude,
      longitude: e.longitude,
      place: e.place ?? null,
    }));

  const scope: QuakeFitScope = near.length >= QUAKE_MIN_EVENTS_FOR_LOCAL_FIT ? 'within_radius' : 'extract';
  const magnitudes = (scope === 'within_radius' ? near.map((x) => x.event) : counted).map((e) => e.magnitude);
  let fit: ReturnType<typeof fitGutenbergRichter> | null = null;
  let reason: string | null = null;
  if (magnitudes.length < 2) {
    reason = `the fit scope holds ${magnitudes.length} earthquake(s); a b-value needs at least two at or above Mc`;
  } else {
    try {
      fit = fitGutenbergRichter(magnitudes, { years: record.years, ...(floor !== null && { floorMagnitude: floor }) });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      reason = error.message;
    }
  }
  const gr: GutenbergRichterOut | null =
    fit === null
      ? null
      : {
          method: 'maximum-likelihood b (Aki 1965) with Utsu binning correction: b = log10(e) / (M̄ − (Mc − ΔM/2)); a from N(≥Mc)',
          mc_method: `maximum curvature (Wiemer & Wyss 2000), raised to the catalog floor snapped up to the ΔM grid when higher; tie-break: ${MC_TIE_BREAK}`,
          a_annual: finiteOrNull(fit.aAnnual),
          a_count: finiteOrNull(fit.aCount),
          b: finiteOrNull(fit.b),
          b_standard_error_aki: finiteOrNull(fit.standardErrorAki),
          b_standard_error_shi_bolt: finiteOrNull(fit.standardErrorShiBolt),
          mc: fit.mc,
          mc_max_curvature: fit.mcMaxCurvature,
          floor_magnitude: fit.floorMagnitude,
          bin_width: fit.binWidth,
          n: fit.n,
          mean_magnitude: finiteOrNull(fit.meanMagnitude),
          years: fit.years,
          annual_rate_at_mc: finiteOrNull(fit.annualRateAtMc),
        };

  const scopeRule =
    `the earthquakes within the radius when there are at least ${QUAKE_MIN_EVENTS_FOR_LOCAL_FIT}, ` +
    'otherwise every earthquake of the extract (its whole coverage area), in the record years';
  const notes = [
    'only events of type "earthquake" with a magnitude count; other types (e.g. nuclear explosions) and rows without a magnitude are left out and counted under input',
    `an event is within the radius when the ${DISTANCE_METHOD} from the point to its epicentre is at most ${radiusKm} km`,
    'magnitude bands are half-open, [lower, upper): an M 6.5 counts in 6.5–7.0, not 6.0–6.5; the top band is M ≥ 8.0',
    'magnitudes are the catalog\'s preferred magnitudes, of mixed type (mag_type), compared as published',
    rateNote(record),
    'largest: up to 10 events within the radius, by magnitude, ties by time then event id',
    `Gutenberg–Richter fit scope: ${scope === 'within_radius' ? 'the events within the radius' : 'the whole extract (fewer than ' + QUAKE_MIN_EVENTS_FOR_LOCAL_FIT + ' events within the radius)'}; ` +
      `ΔM = ${DEFAULT_MAGNITUDE_BIN}; fitted rates λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc)) are for the fit scope` +
      (scope === 'extract' ? ', i.e. the extract\'s whole coverage area, not the circle around the point' : ''),
  ];
  if (floor !== null) notes.push(`catalog magnitude floor ${floor}: Mc is never below it`);

  return {
    peril: 'earthquake',
    method:
      'count of catalog earthquakes with epicentre within radius_km of the point and origin year (UTC) in the record, ' +
      'by half-open magnitude band, each divided by the record years; Gutenberg–Richter fit for the fitted rates',
    distance_method: DISTANCE_METHOD,
    point: at,
    radius_km: radiusKm,
    record,
    magnitude_floor: floor,
    input: {
      events: events.length,
      not_earthquake: notEarthquake,
      earthquakes_without_magnitude: withoutMagnitude,
      earthquakes_outside_record_years: outsideYears,
      earthquakes_counted: counted.length,
    },
    within_radius: near.length,
    below_lowest_band: belowLowest,
    bands,
    at_least: atLeast,
    largest,
    gutenberg_richter: {
      fit_scope: scope,
      scope_rule: scopeRule,
      events_in_scope: magnitudes.length,
      fit: gr,
      annual_rates: fittedRates(fit),
      reason,
    },
    notes,
  };
}
