// What the earthquake lanes make of their ground-motion fields at the modeled places: per place the
// median and percentiles of ground motion and of the loss ratio over the fields, its mean and median
// loss; over the places, the aggregate loss per field with its mean and percentiles. One event
// carries no frequency, so no annual figure is made here. Pure.
import { quantileSorted } from '../../../stats/quantiles.js';
import { meanLossRatio, type VulnerabilityFunction } from './vulnerability.js';
import { placesOf, type LabLocation } from '../../engine/places.js';
import type { PlaceTerms } from '../../engine/place-terms.js';

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
  return { places, aggregate: aggregateOf(aggregate) };
}

/** The portfolio's loss over the fields: mean, median and percentiles. */
function aggregateOf(perField: Float64Array): Record<string, unknown> {
  const sorted = Float64Array.from(perField).sort();
  const mean = perField.reduce((a, b) => a + b, 0) / perField.length;
  return { mean: round(mean), median: round(quantileSorted(sorted, 0.5)), percentiles: percentilesOf(sorted), unit: 'the unit of the exposure values' };
}

/** An object's OED terms on the fields: each field one call of the module (engine/place-terms.ts). */
export interface FieldTermsViews {
  /** il (insured) and ri (net), each the portfolio's loss over the fields as aggregate gives the ground up. */
  readonly perspectives: { il: { perspective: 'insured'; aggregate: Record<string, unknown> | null }; ri: { perspective: 'net'; aggregate: Record<string, unknown> | null } };
  /** Per modeled place (their order): its mean insured and net loss over the fields. */
  readonly places: { insured: number; net: number }[];
}

/** The terms applied field by field over the modeled places (index: each one's place in the object). */
export function fieldTerms(terms: PlaceTerms, lnIm: Float64Array, index: readonly number[], values: readonly number[], fields: number, fn: VulnerabilityFunction): FieldTermsViews {
  const n = values.length;
  const il = new Float64Array(fields);
  const ri = new Float64Array(fields);
  const placeIl = new Float64Array(terms.places);
  const placeRi = new Float64Array(terms.places);
  const losses = new Float64Array(n);
  for (let f = 0; f < fields; f++) {
    for (let i = 0; i < n; i++) losses[i] = values[i]! * meanLossRatio(fn, Math.exp(lnIm[f * n + i]!));
    const t = terms.event(index, losses, 0, n, placeIl, placeRi, 1 / fields);
    il[f] = t.il;
    ri[f] = t.ri;
  }
  return {
    perspectives: {
      il: { perspective: 'insured', aggregate: n ? aggregateOf(il) : null },
      ri: { perspective: 'net', aggregate: n ? aggregateOf(ri) : null },
    },
    places: index.map((p) => ({ insured: round(placeIl[p]!), net: round(placeRi[p]!) })),
  };
}

/** A place a ground-motion lane values: null coordinates where a stored location has none (unmodeled). */
export interface ValuedPlace { readonly lat: number | null; readonly lon: number | null; readonly value: number }

/** The places of an exposure: the points as sent (with what else they carry, a vs30), or a stored schedule's locations valued. */
export function valuedPlaces<P extends ValuedPlace>(exposure: { readonly points: readonly P[] } | { locations: LabLocation[] }): readonly (P | ValuedPlace)[] {
  return 'points' in exposure ? exposure.points : placesOf(exposure).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value }));
}
