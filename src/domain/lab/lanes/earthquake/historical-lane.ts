// The historical earthquake lane: one of SPEC's ten past events, its ground motion conditioned on the
// event's pinned USGS ShakeMap grid or, for an event with station data and no grid pinned, on its
// stations (station-fields.ts: OpenQuake's conditioned ground-motion fields). ShakeMap's mean and standard deviation at a grid point are already
// conditioned on the event's recordings, so each of 100 seeded fields is
//   ln(ground motion) = ShakeMap mean + ShakeMap standard deviation x epsilon,
// epsilon standard normal and correlated between places after Jayaram and Baker (2009) (fields.ts),
// with no further between-event term: as OpenQuake's ShakeMap-based scenario does (Silva and Horspool
// 2019, "Combining USGS ShakeMaps and the OpenQuake-engine for damage and loss assessment"). Loss by the scenario lane's vulnerability curves, and the scenario
// lane's per-place and aggregate figures (field-losses.ts). Places outside the map are unmodeled and
// counted. An event with neither a ShakeMap grid nor station data pinned (or with contour lines only)
// is refused when the spec is read. Pure: the map or stations and the curves are handed in.
//
// Spec (the lab's model member aside):
//   event          one of HISTORICAL_EVENTS
//   exposure       {points: [{lat, lon, value}]} or {object_id}
//   vulnerability  optional curve id (VULNERABILITY_CURVES), default rc_frame_mid_rise_moderate_code
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { readPoints, type LabPoint } from '../../engine/places.js';
import { imtName } from '../../../hazard/gmpe/types.js';
import { correlationFactor, sampleFields, SPATIAL_CORRELATION } from './fields.js';
import { fieldLosses, fieldTerms, round } from './field-losses.js';
import { PLACE_TERMS_RULE, type PlaceTerms } from '../../engine/place-terms.js';
import { imtReading, readingBasis, sampleShakeMap, shakeMapExtent, type ImtReading, type ShakeMap } from './shakemap.js';
import { OPENQUAKE_CONDITIONING_CORRELATION } from './imt-correlation.js';
import { PLACE_VS30, STATION_CONDITIONING, stationFields } from './station-fields.js';
import type { ShakeMapStations } from './station-data.js';
import { DEFAULT_VULNERABILITY, VULNERABILITY_CURVES, VULNERABILITY_LICENCE, type InputIdentity, type VulnerabilityCurveId, type VulnerabilityFunction } from './vulnerability.js';

export const HISTORICAL_EVENTS = [
  'northridge-1994', 'loma-prieta-1989', 'nisqually-2001', 'south-napa-2014', 'ridgecrest-2019',
  'anchorage-2018', 'puerto-rico-2020', 'kaikoura-2016', 'kahramanmaras-2023', 'tohoku-2011',
] as const;
export type HistoricalEvent = (typeof HISTORICAL_EVENTS)[number];

export const HISTORICAL_FIELDS = 100;
export const HISTORICAL_SEED = 19940117;
export const HISTORICAL_PLACES_MAX = 2000;

/** An event's pinned ShakeMap: the snapshot, and whether it holds a grid of means and deviations, station data (no grid), or contour lines only. */
export interface ShakeMapPin {
  readonly feed_id: string;
  readonly version: string;
  readonly holds: 'grid' | 'stations' | 'contours';
}
export type ShakeMapPins = Readonly<Partial<Record<HistoricalEvent, ShakeMapPin>>>;

export interface HistoricalSpec {
  readonly event: HistoricalEvent;
  readonly exposure: { readonly points: readonly LabPoint[] } | { readonly object_id: string };
  readonly vulnerability: VulnerabilityCurveId;
}

const runnable = (pin: ShakeMapPin | undefined) => pin?.holds === 'grid' || pin?.holds === 'stations';
export const runnableEvents = (pins: ShakeMapPins): HistoricalEvent[] => HISTORICAL_EVENTS.filter((e) => runnable(pins[e]));

/** Why an event cannot run (the missing input named), or null when its ShakeMap grid or station data is pinned. */
export function missingInput(event: HistoricalEvent, pins: ShakeMapPins): string | null {
  const pin = pins[event];
  if (runnable(pin)) return null;
  const need = `a USGS ShakeMap grid of the mean and standard deviation of ground motion (grid.xml or the raster product), or its station list, for ${event}`;
  return pin
    ? `event ${event} cannot run: its pinned ShakeMap (${pin.feed_id} ${pin.version}) holds contour lines only; the missing input is ${need}`
    : `event ${event} cannot run: no ShakeMap is pinned for it; the missing input is ${need}`;
}

const SPEC_MEMBERS = new Set(['model', 'event', 'exposure', 'vulnerability']);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The spec, checked against the pinned ShakeMaps and with its defaults filled in; 422 invalid_request naming every fault. */
export function readHistoricalSpec(spec: unknown, pins: ShakeMapPins): Result<HistoricalSpec> {
  if (!isObject(spec)) return refused(runSpecRefusal(['the run spec must be an object {model, event, exposure, vulnerability?}']));
  const faults: string[] = [];
  for (const k of Object.keys(spec)) if (!SPEC_MEMBERS.has(k)) faults.push(`${k} is not a member of a historical earthquake spec`);
  const event = HISTORICAL_EVENTS.find((e) => e === spec.event);
  if (!event) faults.push(`event must be one of ${HISTORICAL_EVENTS.join(', ')} (runnable here: ${runnableEvents(pins).join(', ') || 'none'})`);
  else {
    const missing = missingInput(event, pins);
    if (missing) faults.push(`${missing} (runnable here: ${runnableEvents(pins).join(', ') || 'none'})`);
  }
  let exposure: HistoricalSpec['exposure'] | undefined;
  const ex = spec.exposure;
  if (isObject(ex) && 'object_id' in ex) {
    if (Object.keys(ex).length !== 1 || typeof ex.object_id !== 'string') faults.push('exposure {object_id} takes one member, the id of one of your objects');
    else exposure = { object_id: ex.object_id };
  } else {
    const before = faults.length;
    const points = readPoints(ex, faults);
    if (faults.length === before && (points.length === 0 || points.length > HISTORICAL_PLACES_MAX)) faults.push(`exposure.points must hold 1 to ${HISTORICAL_PLACES_MAX} places`);
    if (faults.length === before) exposure = { points };
  }
  const vulnerability = spec.vulnerability === undefined ? DEFAULT_VULNERABILITY : VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)?.id;
  if (!vulnerability) faults.push(`vulnerability must be one of ${VULNERABILITY_CURVES.map((c) => c.id).join(', ')}`);
  if (faults.length || !event || !exposure || !vulnerability) return refused(runSpecRefusal(faults));
  return ok({ event, exposure, vulnerability });
}

export interface HistoricalPlace {
  /** null where a stored schedule's location has no coordinates (unmodeled). */
  readonly lat: number | null;
  readonly lon: number | null;
  readonly value: number;
}

export interface HistoricalOptions {
  readonly map: ShakeMap | ShakeMapStations;
  readonly functions: ReadonlyMap<string, VulnerabilityFunction>;
  readonly vulnerabilityData: InputIdentity;
  readonly seed?: number;
  readonly fields?: number;
  /** A stored object's OED terms (engine/place-terms.ts), applied field by field. */
  readonly terms?: PlaceTerms | null;
}

export const CONDITIONING_METHOD = 'ln(ground motion) at a place = the ShakeMap\'s mean there + the ShakeMap\'s standard deviation there x epsilon, epsilon standard normal and correlated between places; the ShakeMap\'s mean and standard deviation are already conditioned on the event\'s recordings, so no further between-event term is drawn (as OpenQuake\'s ShakeMap-based scenario, Silva and Horspool 2019). A place reads the ShakeMap grid point of the cell it lies in.';

export interface HistoricalFields {
  readonly fn: VulnerabilityFunction;
  readonly reading: ImtReading;
  readonly fields: number;
  readonly seed: number;
  /** The places inside the map, with the ShakeMap's mean of ln(ground motion) and its standard deviation there. */
  readonly modeled: readonly { index: number; lat: number; lon: number; value: number; mean: number; std: number }[];
  readonly unmodeled: readonly { index: number; reason: string }[];
  /** ln(ground motion), row-major fields x modeled places. */
  readonly lnIm: Float64Array;
}

const isStations = (m: ShakeMap | ShakeMapStations): m is ShakeMapStations => 'kind' in m && m.kind === 'stations';

function curveFunction(spec: HistoricalSpec, functions: ReadonlyMap<string, VulnerabilityFunction>): VulnerabilityFunction {
  const curve = VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)!;
  const fn = functions.get(curve.function_id);
  if (!fn) throw new Error(`vulnerability function ${curve.function_id} is not in the pinned functions`);
  return fn;
}

/** The event's conditioned fields at the places inside its map, in the curve's intensity measure. */
export function historicalFields(spec: HistoricalSpec, places: readonly HistoricalPlace[], options: HistoricalOptions & { readonly map: ShakeMap }): HistoricalFields {
  const fn = curveFunction(spec, options.functions);
  const reading = imtReading(options.map, fn.imt);
  if (!reading) throw new Error(`the ShakeMap of ${spec.event} holds no ${imtName(fn.imt)} and no SA periods around it`);
  const fields = options.fields ?? HISTORICAL_FIELDS;
  const seed = options.seed ?? HISTORICAL_SEED;

  const modeled: HistoricalFields['modeled'][number][] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  places.forEach((p, index) => {
    if (p.lat === null || p.lon === null) { unmodeled.push({ index, reason: 'no coordinates' }); return; }
    const at = sampleShakeMap(reading, p.lat, p.lon);
    if (!at) unmodeled.push({ index, reason: 'outside the ShakeMap grid' });
    else modeled.push({ index, lat: p.lat, lon: p.lon, value: p.value, ...at });
  });

  const n = modeled.length;
  const inputs = { mean: Float64Array.from(modeled, (m) => m.mean), tau: new Float64Array(n), phi: Float64Array.from(modeled, (m) => m.std) };
  const factor = correlationFactor(modeled.map((m) => ({ latitude: m.lat, longitude: m.lon })), fn.imt);
  const lnIm = n ? sampleFields(factor, n, fields, () => inputs, seed) : new Float64Array(0);
  return { fn, reading, fields, seed, modeled, unmodeled, lnIm };
}

/** The result's words on the vulnerability curve. */
function vulnerabilityWords(spec: HistoricalSpec, fn: VulnerabilityFunction, options: HistoricalOptions) {
  const curve = VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)!;
  return {
    id: curve.id, function_id: curve.function_id, label: curve.label, imt: imtName(fn.imt),
    method: 'mean loss ratio read linearly between the function\'s intensity levels, 0 below the first, held at the last; its coefficient of variation is not sampled',
    model_data: options.vulnerabilityData,
    licence: VULNERABILITY_LICENCE,
  };
}

/** The result's terms and perspectives when an object's OED terms applied. */
function termsMembers(terms: PlaceTerms | null | undefined, insured: ReturnType<typeof fieldTerms> | null): Record<string, unknown> {
  return terms && insured ? { terms: { ...terms.stated(), rule: PLACE_TERMS_RULE }, perspectives: insured.perspectives } : {};
}

/** Runs the event on its stations (no ShakeMap grid pinned). */
function runOnStations(spec: HistoricalSpec, places: readonly HistoricalPlace[], options: HistoricalOptions & { readonly map: ShakeMapStations }): Record<string, unknown> {
  const fn = curveFunction(spec, options.functions);
  const fieldCount = options.fields ?? HISTORICAL_FIELDS;
  const seed = options.seed ?? HISTORICAL_SEED;
  const data = options.map;
  const f = stationFields(data, places, fn.imt, fieldCount, seed);
  const figures = fieldLosses(f.lnIm, f.modeled.map((m) => m.value), fieldCount, fn);
  const insured = options.terms ? fieldTerms(options.terms, f.lnIm, f.modeled.map((m) => m.index), f.modeled.map((m) => m.value), fieldCount, fn) : null;
  const { feed_id, version, sha256, files_read } = data.identity;
  return {
    lane: 'historical_earthquake',
    inputs: [{ input: 'vulnerability', ...options.vulnerabilityData }, { input: 'shakemap', feed_id, version, sha256, ...(files_read && { files_read }) }],
    event: spec.event,
    shakemap: { ...data.identity, product: data.product, holds: 'stations', event: data.event },
    ground_motion: {
      basis: 'stations',
      basis_note: `no ShakeMap grid is pinned for ${spec.event}: its ground motion is conditioned on ${(f.words.stations as { used: number }).used} recording stations`,
      imt: imtName(fn.imt), unit: 'g', fields: fieldCount, seed,
      conditioning: STATION_CONDITIONING,
      correlation: OPENQUAKE_CONDITIONING_CORRELATION.words,
      site: `places at Vs30 ${PLACE_VS30} m/s (the spec takes no Vs30); stations at the Vs30 their list gives`,
      ...f.words,
    },
    vulnerability: vulnerabilityWords(spec, fn, options),
    places: f.modeled.map((m, i) => ({
      index: m.index, lat: m.lat, lon: m.lon, value: m.value,
      distances_km: { rjb: round(m.d.rjb), rrup: round(m.d.rrup), rx: round(m.d.rx), ry0: round(m.d.ry0), rhypo: round(m.d.rhypo) },
      gmpe: { median: round(f.perPlace[i]!.gmpe.median), tau: round(f.perPlace[i]!.gmpe.tau), phi: round(f.perPlace[i]!.gmpe.phi) },
      conditioned: { median: round(f.perPlace[i]!.conditioned.median), sigma_ln: round(f.perPlace[i]!.conditioned.sigma) },
      ...figures.places[i]!,
      ...(insured ? insured.places[i]! : {}),
    })),
    aggregate: figures.aggregate,
    ...termsMembers(options.terms, insured),
    frequency: 'one event carries no frequency: no exceedance curve and no annual figure',
    unmodeled: { count: f.unmodeled.length, places: f.unmodeled },
    licence: VULNERABILITY_LICENCE,
  };
}

/** Runs the event over places (the spec's points, or an object's schedule read into points). */
export function runHistoricalQuake(spec: HistoricalSpec, places: readonly HistoricalPlace[], options: HistoricalOptions): Record<string, unknown> {
  const map = options.map;
  if (isStations(map)) return runOnStations(spec, places, { ...options, map });
  const { fn, reading, fields: fieldCount, seed, modeled, unmodeled, lnIm } = historicalFields(spec, places, { ...options, map });
  const figures = fieldLosses(lnIm, modeled.map((m) => m.value), fieldCount, fn);
  const insured = options.terms ? fieldTerms(options.terms, lnIm, modeled.map((m) => m.index), modeled.map((m) => m.value), fieldCount, fn) : null;
  const extent = shakeMapExtent(map);

  const { feed_id, version, sha256, files_read } = map.identity;
  return {
    lane: 'historical_earthquake',
    inputs: [{ input: 'vulnerability', ...options.vulnerabilityData }, { input: 'shakemap', feed_id, version, sha256, ...(files_read && { files_read }) }],
    event: spec.event,
    shakemap: {
      ...map.identity,
      product: map.product,
      holds: 'grid',
      extent: { min_lat: round(extent.min_lat), max_lat: round(extent.max_lat), min_lon: round(extent.min_lon), max_lon: round(extent.max_lon) },
      read_as: readingBasis(reading),
      standard_deviation: map.std_basis,
    },
    ground_motion: {
      basis: 'shakemap_grid',
      basis_note: `the ShakeMap grid pinned for ${spec.event}: its mean and standard deviation, already conditioned on the event's recordings by ShakeMap`,
      imt: imtName(fn.imt), unit: 'g',
      fields: fieldCount,
      seed,
      conditioning: CONDITIONING_METHOD,
      spatial_correlation: SPATIAL_CORRELATION,
      site: 'the ShakeMap\'s own site amplification (its Vs30 map); the spec takes no vs30',
    },
    vulnerability: vulnerabilityWords(spec, fn, options),
    places: modeled.map((m, i) => ({
      index: m.index, lat: m.lat, lon: m.lon, value: m.value,
      shakemap: { median: round(Math.exp(m.mean)), std_ln: round(m.std) },
      ...figures.places[i]!,
      ...(insured ? insured.places[i]! : {}),
    })),
    aggregate: figures.aggregate,
    ...termsMembers(options.terms, insured),
    frequency: 'one event carries no frequency: no exceedance curve and no annual figure',
    unmodeled: { count: unmodeled.length, places: unmodeled },
    licence: VULNERABILITY_LICENCE,
  };
}
