// What the earthquake lanes make of their ground-motion fields at the modeled places: per place the
// median and percentiles of ground motion and of the loss ratio over the fields, its mean and median
// loss; over the places, the aggregate loss per field with its mean and percentiles. One event
// carries no frequency, so no annual figure is made here. Pure.
import { quantileSorted } from '../../../stats/quantiles.js';
import { meanLossRatio, type VulnerabilityFunction } from './vulnerability.js';
import { placesOf, type LabLocation } from '../../engine/places.js';

export const PERCENTILES = [0.05, 0.16, 0.5, 0.84, 0.95] as const;
const PERCENTILE_KEYS = ['p5', 'p16', 'p50', 'p84', 'p95'] as const;

export const round = (x: number, digits = 6) => Number(x.toPrecision(digits));

export function percentilesOf(sorted: Float64Array): Record<(typeof PERCENTILE_KEYS)[number], number> {
  return Object.fromEntries(PERCENTILES.map((p, i) => [PERCENTILE_KEYS[i], round(quantileSorted(sorted, p))])) as never;
}

export interface PlaceFigures {
  readonly ground_motion: { median: number; percentiles: Record<string, number> };
  readonly loss_ratio: { mean: number; median: number; percentiles: Record<string, number> };
  readonly loss: { mean: number; median: number };
}

/**
 * ln(ground motion) of `fields` fields at `values.length` places (row-major fields x places) turned
 * into each place's figures and the aggregate over places (null when no place is modeled).
 */
export function fieldLosses(lnIm: Float64Array, values: readonly number[], fields: number, fn: VulnerabilityFunction): { places: PlaceFigures[]; aggregate: Record<string, unknown> | null } {
  const n = values.length;
  const aggregate = new Float64Array(fields);
  const im = new Float64Array(fields);
  const lr = new Float64Array(fields);
  const places = values.map((value, i) => {
    let lossSum = 0;
    for (let f = 0; f < fields; f++) {
      im[f] = Math.exp(lnIm[f * n + i]!);
      lr[f] = meanLossRatio(fn, im[f]!);
      const loss = value * lr[f]!;
      aggregate[f] = aggregate[f]! + loss;
      lossSum += loss;
    }
    const lrMean = lr.reduce((a, b) => a + b, 0) / fields;
    const imSorted = Float64Array.from(im).sort();
    const lrSorted = Float64Array.from(lr).sort();
    return {
      ground_motion: { median: round(quantileSorted(imSorted, 0.5)), percentiles: percentilesOf(imSorted) },
      loss_ratio: { mean: round(lrMean), median: round(quantileSorted(lrSorted, 0.5)), percentiles: percentilesOf(lrSorted) },
      loss: { mean: round(lossSum / fields), median: round(value * quantileSorted(lrSorted, 0.5)) },
    };
  });
  if (n === 0) return { places, aggregate: null };
  const aggSorted = Float64Array.from(aggregate).sort();
  const aggMean = aggregate.reduce((a, b) => a + b, 0) / fields;
  return { places, aggregate: { mean: round(aggMean), median: round(quantileSorted(aggSorted, 0.5)), percentiles: percentilesOf(aggSorted), unit: 'the unit of the exposure values' } };
}

/** A place a ground-motion lane values: null coordinates where a stored location has none (unmodeled). */
export interface ValuedPlace { readonly lat: number | null; readonly lon: number | null; readonly value: number }

/** The places of an exposure: the points as sent (with what else they carry, a vs30), or a stored schedule's locations valued. */
export function valuedPlaces<P extends ValuedPlace>(exposure: { readonly points: readonly P[] } | { locations: LabLocation[] }): readonly (P | ValuedPlace)[] {
  return 'points' in exposure ? exposure.points : placesOf(exposure).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value }));
}
