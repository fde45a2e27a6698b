// Structure terms (peril, trigger, financial_structure, period) of a parametric structure, and the
// validator that names each fault.
//
// Faults come in three kinds, answered in different places (SPEC "Request versus job"):
//
// - shape  (POST /objects/{id}/structures, 422 invalid_structure): the terms cannot be read as a
//   structure at all, whatever the pinned data say: a block or member missing or of the wrong type,
//   a member this schema does not know, a name outside the vocabulary (trigger type, measurement
//   variable, unit, aggregation, payout function, basis), a ladder out of order or with fractions
//   outside (0, 1], a linear exhaustion not above its attachment, a duration that is not ISO 8601
//   (or uses years/months, or is not whole days for a daily index), a period that is not a date
//   range of at most one year, a region that is not a valid box or polygon, a box or gate missing.
// - data   (on the job: 422 unbacktestable_structure on a backtest, 422 unpriceable_object on a
//   price): what is found by reading the pinned feed and the model table: an unpriced peril, a
//   trigger or measurement the model for that peril does not read, more than one data source, an
//   unpinned or unknown feed vintage, a feed of the wrong kind, the refused peril/feed combinations
//   (tropical_cyclone or flood on a rainfall series, grid_outage on anything but an outage series,
//   weather_station on an outage series), an element or unit the feed does not hold, a box outside
//   the extract's box, a window outside the period of record.
// - request (POST /structures/{id}/backtest, 422 invalid_request): the window member of the
//   backtest request is not {from_year, to_year} integers in order.

import { coverageArea } from '../hazard/coverage-area.js';
import { parseIsoDuration } from '../../kernel/dates.js';
import { boxWithin, type Box, type Polygon } from '../geo.js';
import { PERIL_CODES, type PerilCode } from '../exposure/types.js';
import type { Gate } from '../tracks/gate.js';
import { isTermFault, termRule, termWindow, type TermRule } from './term.js';
import type { Refusal } from '../../kernel/refusal.js';
import type { LadderLevel, PayoutBasis, PayoutFunction } from './payout.js';

// ---------------------------------------------------------------------------------------------
// Vocabulary

export { PERIL_CODES, type PerilCode };

/** SPEC Perils table: the seven perils with a pricing (and backtest) model. */
export const PRICED_PERILS: readonly PerilCode[] = [
  'earthquake', 'weather_station', 'tropical_cyclone', 'flood', 'wildfire', 'severe_convective_storm', 'grid_outage',
];

export const TRIGGER_TYPES = ['parametric_cat_in_a_box', 'parametric_index'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const CAT_IN_A_BOX_VARIABLES = ['magnitude', 'burned_acres', 'hail_diameter', 'wind_speed', 'tornado_rating', 'report_value'] as const;
export type CatInABoxVariable = (typeof CAT_IN_A_BOX_VARIABLES)[number];

export const SERIES_VARIABLES = ['precipitation', 'wind_speed', 'discharge', 'customers_out'] as const;
export type SeriesVariable = (typeof SERIES_VARIABLES)[number];

export const GATE_VARIABLE = 'max_sustained_wind_in_gate';
export const INDEX_VARIABLES = [...SERIES_VARIABLES, GATE_VARIABLE] as const;

export const SERIES_AGGREGATIONS = ['sum', 'max', 'mean'] as const;
export type SeriesAggregation = (typeof SERIES_AGGREGATIONS)[number];

/** Canonical unit names a trigger may state. */
export type UnitName =
  | 'mm' | 'in' | 'm/s' | 'kt' | 'mph' | 'km/h' | 'ft3/s' | 'm3/s' | 'customers'
  | 'magnitude' | 'acres' | 'EF' | 'category';

const UNIT_ALIASES: Readonly<Record<string, UnitName>> = {
  mm: 'mm', millimetre: 'mm', millimetres: 'mm', millimeter: 'mm', millimeters: 'mm',
  in: 'in', inch: 'in', inches: 'in',
  'm/s': 'm/s', mps: 'm/s', 'm s-1': 'm/s',
  kt: 'kt', kts: 'kt', knot: 'kt', knots: 'kt',
  mph: 'mph',
  'km/h': 'km/h', kph: 'km/h', kmh: 'km/h',
  'ft3/s': 'ft3/s', cfs: 'ft3/s', 'ft^3/s': 'ft3/s', 'ft³/s': 'ft3/s', 'cubic feet per second': 'ft3/s',
  'm3/s': 'm3/s', 'm^3/s': 'm3/s', 'm³/s': 'm3/s', cms: 'm3/s', cumecs: 'm3/s',
  customers: 'customers', count: 'customers',
  magnitude: 'magnitude',
  acres: 'acres', acre: 'acres',
  ef: 'EF', '(e)f': 'EF',
  category: 'category', saffir_simpson_category: 'category',
};

/** The canonical name of a unit as a trigger may write it, or null when unknown. */
export function canonicalUnitName(text: string): UnitName | null {
  return UNIT_ALIASES[text.trim().toLowerCase()] ?? null;
}

/** Units each measurement variable may be stated in. */
export const UNITS_BY_VARIABLE: Readonly<Record<string, readonly UnitName[]>> = {
  magnitude: ['magnitude'],
  burned_acres: ['acres'],
  hail_diameter: ['in'],
  tornado_rating: ['EF'],
  report_value: ['in', 'kt', 'EF', 'acres'],
  precipitation: ['mm', 'in'],
  wind_speed: ['m/s', 'kt', 'mph', 'km/h'],
  discharge: ['ft3/s', 'm3/s'],
  customers_out: ['customers'],
  [GATE_VARIABLE]: ['kt', 'm/s', 'category'],
};
// wind_speed is read in knots as a cat-in-a-box report value (the report's own unit).
const CAT_WIND_UNITS: readonly UnitName[] = ['kt'];

// ---------------------------------------------------------------------------------------------
// Terms as written (what the schema carries)

export interface BoxRegion {
  readonly type: 'box';
  readonly min_latitude: number;
  readonly max_latitude: number;
  /** A box with min_longitude > max_longitude crosses the antimeridian. */
  readonly min_longitude: number;
  readonly max_longitude: number;
}

/** One ring of [longitude, latitude] vertices (closing optional); GeoJSON's [[ring]] is also read. */
export interface PolygonRegion {
  readonly type: 'polygon';
  readonly coordinates: ReadonlyArray<readonly [number, number]> | ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
}

export type Region = BoxRegion | PolygonRegion;

export interface PerilTerms {
  readonly code: PerilCode;
  /** Box (cat-in-a-box) or box/polygon gate (track gate); not read by a daily index. */
  readonly region?: Region;
}

export interface DataSource {
  readonly feed_id: string;
  /** The pinned vintage; required to backtest or price. */
  readonly version?: string;
}

export interface AggregationWindow {
  /** ISO 8601 duration of fixed length (weeks, days, hours...). */
  readonly duration: string;
}

export interface CatInABoxMeasurement {
  readonly variable: CatInABoxVariable;
  /** Focal depth limit (earthquake only); an event with no depth is excluded when set. */
  readonly max_depth_km?: number;
  /** The report's own unit (magnitude, acres, in, kt, EF); optional. */
  readonly unit?: string;
  /** 'max' only: the occurrence's peak is read. */
  readonly aggregation?: 'max';
}

export interface SeriesMeasurement {
  readonly variable: SeriesVariable;
  /** Rolling aggregation of the daily values over aggregation_window.duration. */
  readonly aggregation: SeriesAggregation;
  /** Unit of the index and of the payout levels; default the feed's unit (tenths written whole). */
  readonly unit?: string;
  /** GHCN-Daily element (PRCP; AWND, WSF2, WSF5, ...); default PRCP / AWND. */
  readonly element?: string;
}

export interface GateMeasurement {
  readonly variable: typeof GATE_VARIABLE;
  /** kt (default), m/s or category (Saffir–Simpson). */
  readonly unit?: string;
  readonly aggregation?: 'max';
}

export interface CatInABoxTrigger {
  readonly type: 'parametric_cat_in_a_box';
  readonly data_sources: readonly DataSource[];
  readonly measurement: CatInABoxMeasurement;
  readonly aggregation_window: AggregationWindow;
  readonly payout: PayoutFunction;
}

export interface IndexTrigger {
  readonly type: 'parametric_index';
  readonly data_sources: readonly DataSource[];
  readonly measurement: SeriesMeasurement | GateMeasurement;
  /** Required for a daily series (whole days); not read by a track gate (each storm is one occurrence). */
  readonly aggregation_window?: AggregationWindow;
  readonly payout: PayoutFunction;
}

export type TriggerTerms = CatInABoxTrigger | IndexTrigger;

export interface FinancialStructure {
  /** ISO 4217 code. */
  readonly currency: string;
  /** Per-occurrence limit; every ladder fraction is a fraction of it. */
  readonly limit: number;
  /** Annual aggregate deductible (money) on the year's sum of occurrence payouts; default 0. */
  readonly attachment?: number;
  /** The most a year pays; default the limit. */
  readonly annual_limit?: number;
}

export interface PeriodTerms {
  /** YYYY-MM-DD. */
  readonly start: string;
  /** YYYY-MM-DD, included. */
  readonly end: string;
}

export interface StructureTerms {
  readonly peril: PerilTerms;
  readonly trigger: TriggerTerms;
  readonly financial_structure: FinancialStructure;
  readonly period: PeriodTerms;
}

// ---------------------------------------------------------------------------------------------
// Normalised structure (what the engine reads)

export type Design = 'cat_in_a_box' | 'index_series' | 'track_gate';

export interface NormalizedMeasurement {
  readonly variable: string;
  /** Canonical unit stated by the trigger, or null (the feed's unit is used). */
  readonly unit: UnitName | null;
  readonly aggregation: SeriesAggregation | null;
  readonly element: string | null;
  readonly max_depth_km: number | null;
}

export interface Structure {
  readonly peril: PerilCode;
  readonly region: Region | null;
  /** The region as geo.ts reads it (Box, or Polygon of [lon, lat]); null without a region. */
  readonly gate: Gate | null;
  readonly trigger_type: TriggerType;
  readonly design: Design;
  readonly data_sources: readonly { readonly feed_id: string; readonly version: string | null }[];
  readonly measurement: NormalizedMeasurement;
  /** null for a track gate. */
  readonly aggregation_window: { readonly duration: string; readonly ms: number } | null;
  readonly payout: PayoutFunction & { readonly basis: PayoutBasis };
  readonly financial: {
    readonly currency: string;
    readonly limit: number;
    readonly attachment: number;
    readonly annual_limit: number | null;
    /** annual_limit ?? limit. */
    readonly annual_cap: number;
  };
  readonly period: PeriodTerms;
  readonly term: TermRule;
}

// ---------------------------------------------------------------------------------------------
// Faults

export type FaultKind = 'shape' | 'data' | 'request';

export interface StructureFault {
  /** Stable name of the fault (see FAULT_CATALOGUE). */
  readonly fault: string;
  readonly kind: FaultKind;
  /** Where: a dotted path into the terms (trigger.payout.levels[1].fraction), or window. */
  readonly path: string;
  readonly message: string;
}

/** HTTP error code each kind of fault is answered with, per verb. */
export const FAULT_CODES = {
  shape: 'invalid_structure',
  data: { backtest: 'unbacktestable_structure', price: 'unpriceable_object' },
  request: 'invalid_request',
} as const;

/** Every fault the validator names, with its kind. */
export const FAULT_CATALOGUE: Readonly<Record<string, FaultKind>> = {
  // shape: answered on POST /objects/{id}/structures with 422 invalid_structure
  terms_not_object: 'shape',
  block_missing: 'shape',
  block_not_object: 'shape',
  unknown_member: 'shape',
  member_invalid: 'shape',
  peril_code_missing: 'shape',
  peril_code_unknown: 'shape',
  region_missing: 'shape',
  region_invalid: 'shape',
  trigger_type_missing: 'shape',
  trigger_type_unknown: 'shape',
  data_sources_missing: 'shape',
  data_source_invalid: 'shape',
  measurement_missing: 'shape',
  measurement_variable_missing: 'shape',
  measurement_variable_unknown: 'shape',
  measurement_unit_unknown: 'shape',
  measurement_aggregation_missing: 'shape',
  measurement_aggregation_unknown: 'shape',
  max_depth_km_invalid: 'shape',
  max_depth_km_not_read: 'shape',
  element_invalid: 'shape',
  element_not_read: 'shape',
  aggregation_window_missing: 'shape',
  aggregation_window_duration_invalid: 'shape',
  aggregation_window_not_whole_days: 'shape',
  aggregation_window_longer_than_term: 'shape',
  aggregation_window_not_read: 'shape',
  payout_missing: 'shape',
  payout_function_unknown: 'shape',
  payout_basis_unknown: 'shape',
  ladder_levels_missing: 'shape',
  ladder_level_invalid: 'shape',
  ladder_levels_not_increasing: 'shape',
  ladder_fraction_out_of_range: 'shape',
  ladder_fractions_not_increasing: 'shape',
  linear_level_invalid: 'shape',
  linear_exhaustion_not_above_attachment: 'shape',
  currency_invalid: 'shape',
  limit_invalid: 'shape',
  attachment_invalid: 'shape',
  annual_limit_invalid: 'shape',
  period_date_invalid: 'shape',
  period_end_before_start: 'shape',
  period_longer_than_a_year: 'shape',
  // data: on the job, 422 unbacktestable_structure (backtest) or unpriceable_object (price)
  peril_not_priced: 'data',
  trigger_not_read_for_peril: 'data',
  measurement_not_read_for_peril: 'data',
  more_than_one_data_source: 'data',
  feed_version_not_pinned: 'data',
  feed_not_pinned: 'data',
  feed_kind_not_read: 'data',
  feed_not_read_for_peril: 'data',
  tropical_cyclone_on_rainfall_series: 'data',
  flood_on_rainfall_series: 'data',
  grid_outage_not_on_outage_series: 'data',
  weather_station_on_outage_series: 'data',
  measurement_not_in_feed: 'data',
  element_not_in_feed: 'data',
  unit_not_convertible: 'data',
  region_outside_feed_coverage: 'data',
  feed_has_no_period_of_record: 'data',
  window_outside_period_of_record: 'data',
  no_recorded_year_in_window: 'data',
  // request: the backtest request's window member, 422 invalid_request
  window_invalid: 'request',
};

// ---------------------------------------------------------------------------------------------
// Feed facts (a MANIFEST.json object, or the Manifest type of src/feeds/manifest.ts, fits)

export interface FeedFacts {
  readonly kind?: string;
  readonly perils?: readonly string[];
  readonly period_of_record?: { readonly from: string | null; readonly to: string | null };
  readonly years_missing?: readonly number[];
  readonly years_without_events?: readonly number[];
  readonly units?: Readonly<Record<string, string>>;
  readonly coverage?: object;
  readonly raw?: Readonly<Record<string, unknown>>;
  readonly served_columns?: readonly string[];
}

export interface FeedContext {
  readonly feed_id: string;
  readonly version: string;
  readonly manifest: FeedFacts;
  /** What the feed catalog says the feed is (src/feeds/catalog.ts feedClass). */
  readonly class?: FeedClass;
}

export interface BacktestWindow {
  readonly from_year?: number;
  readonly to_year?: number;
}

export interface ValidationContext {
  /**
   * The pinned snapshot the trigger names: undefined = shape checks only (the POST); null = the
   * feed or vintage is not pinned (a data fault); an object = data checks against its manifest.
   */
  readonly feed?: FeedContext | null;
  /** The backtest request's window, checked against the period of record. */
  readonly window?: BacktestWindow | null;
}

export interface StructureValidation {
  /** No fault of any kind. */
  readonly ok: boolean;
  /** The normalised structure when there is no shape fault, else null. */
  readonly structure: Structure | null;
  readonly shape_faults: readonly StructureFault[];
  readonly data_faults: readonly StructureFault[];
  readonly request_faults: readonly StructureFault[];
}

// ---------------------------------------------------------------------------------------------
// Feed classification: what the feed catalog (src/feeds/catalog.ts) says a feed is. Domain code
// never reads meaning from a feed id; callers pass the class, else only the manifest's kind is known.

export type SeriesType = 'rainfall' | 'wind' | 'discharge' | 'outage';
export type ReportType = 'hail' | 'wind' | 'tornado';

export type FeedClass =
  | { readonly kind: 'event_catalog' }
  | { readonly kind: 'fire_extract' }
  | { readonly kind: 'storm_report_set'; readonly report: ReportType | null }
  /** elements: set for publishers whose files hold several elements (GHCN-Daily), with the one read by default. */
  | { readonly kind: 'daily_series'; readonly series: SeriesType | null; readonly elements?: { readonly default_element: string | null } }
  | { readonly kind: 'outage_series'; readonly series: 'outage' }
  | { readonly kind: 'track_archive' }
  | { readonly kind: 'other'; readonly manifest_kind: string | null };

/** The class a manifest's kind alone gives (no report type, no series quantity). */
export function classifyFeed(manifestKind: string | undefined): FeedClass {
  const kind = manifestKind ?? '';
  if (kind === 'outage_series') return { kind: 'outage_series', series: 'outage' };
  if (kind === 'event_catalog') return { kind: 'event_catalog' };
  if (kind === 'fire_extract') return { kind: 'fire_extract' };
  if (kind === 'storm_report_set') return { kind: 'storm_report_set', report: null };
  if (kind === 'daily_series') return { kind: 'daily_series', series: null };
  if (kind === 'track_archive') return { kind: 'track_archive' };
  return { kind: 'other', manifest_kind: manifestKind ?? null };
}

/** The class of a feed in a validation or replay: the catalog's, passed in, else the manifest's kind. */
export function classOf(feed: { readonly class?: FeedClass; readonly manifest: FeedFacts }): FeedClass {
  return feed.class ?? classifyFeed(feed.manifest.kind);
}

const FEED_KIND_WORDS: Record<string, string> = {
  event_catalog: 'a quake catalog (event_catalog)',
  fire_extract: 'a mapped-fire extract (fire_extract)',
  storm_report_set: 'a storm report extract (storm_report_set)',
  daily_series: 'a daily series (daily_series)',
  outage_series: 'a county outage series (outage_series)',
  track_archive: 'a storm-track archive (track_archive)',
};

/** GHCN-Daily elements a wind index may read (daily mean wind and fastest 2-min / 5-s / gust / 1-min / mile). */
export const GHCN_WIND_ELEMENTS = ['AWND', 'WSF2', 'WSF5', 'WSFG', 'WSF1', 'WSFM'] as const;
/** The element read from a GHCN wind feed when the trigger names none (the feed readers default to it too). */
export const DEFAULT_WIND_ELEMENT = 'AWND';

/** Which reader of src/feeds/readers.ts loads the data a structure reads, and with which element. */
export interface DataRequest {
  readonly feed_id: string;
  readonly version: string | null;
  readonly reader: 'event_catalog' | 'daily_series' | 'track_archive';
  /** Pass to dailySeries(store, snapshot, element); null for other readers and non-GHCN series. */
  readonly element: string | null;
}

export function dataRequest(structure: Structure, feedClass?: FeedClass): DataRequest {
  const source = structure.data_sources[0]!;
  const reader = structure.design === 'cat_in_a_box' ? 'event_catalog' : structure.design === 'track_gate' ? 'track_archive' : 'daily_series';
  return { feed_id: source.feed_id, version: source.version, reader, element: reader === 'daily_series' ? seriesElement(structure, feedClass) : null };
}

/** The element a daily index reads (trigger's element, else the feed's default); null for feeds without elements. */
export function seriesElement(structure: Structure, feedClass: FeedClass | undefined): string | null {
  if (feedClass?.kind !== 'daily_series' || !feedClass.elements) return null;
  return structure.measurement.element ?? feedClass.elements.default_element;
}

// ---------------------------------------------------------------------------------------------
// Shape validation

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

class Faults {
  readonly list: StructureFault[] = [];
  add(fault: string, path: string, message: string): void {
    const kind = FAULT_CATALOGUE[fault];
    if (kind === undefined) throw new Error(`unnamed fault ${fault}`);
    this.list.push({ fault, kind, path, message });
  }
  get count(): number {
    return this.list.length;
  }
}

function checkMembers(f: Faults, o: Obj, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(o).sort()) {
    if (!allowed.includes(key)) {
      f.add('unknown_member', `${path}.${key}`, `${path}.${key} is not a member of ${path} (members read: ${allowed.join(', ')})`);
    }
  }
}

function readBlock(f: Faults, terms: Obj, name: string): Obj | null {
  const v = terms[name];
  if (v === undefined || v === null) {
    f.add('block_missing', name, `the ${name} block is missing`);
    return null;
  }
  if (!isObj(v)) {
    f.add('block_not_object', name, `${name} must be an object, got ${show(v)}`);
    return null;
  }
  return v;
}

function readRegion(f: Faults, v: unknown, path: string): { region: Region; gate: Gate } | null {
  if (!isObj(v)) {
    f.add('region_invalid', path, `${path} must be an object {type: "box" | "polygon", ...}, got ${show(v)}`);
    return null;
  }
  if (v.type === 'box') {
    checkMembers(f, v, path, ['type', 'min_latitude', 'max_latitude', 'min_longitude', 'max_longitude', 'name']);
    const before = f.count;
    for (const k of ['min_latitude', 'max_latitude'] as const) {
      if (!isNum(v[k]) || (v[k] as number) < -90 || (v[k] as number) > 90) f.add('region_invalid', `${path}.${k}`, `${path}.${k} must be a number in [-90, 90], got ${show(v[k])}`);
    }
    for (const k of ['min_longitude', 'max_longitude'] as const) {
      if (!isNum(v[k]) || (v[k] as number) < -180 || (v[k] as number) > 180) f.add('region_invalid', `${path}.${k}`, `${path}.${k} must be a number in [-180, 180], got ${show(v[k])}`);
    }
    if (f.count > before) return null;
    if ((v.min_latitude as number) > (v.max_latitude as number)) {
      f.add('region_invalid', `${path}.min_latitude`, `${path}.min_latitude ${v.min_latitude} is above max_latitude ${v.max_latitude}`);
      return null;
    }
    const box: BoxRegion = {
      type: 'box', min_latitude: v.min_latitude as number, max_latitude: v.max_latitude as number,
      min_longitude: v.min_longitude as number, max_longitude: v.max_longitude as number,
    };
    const gate: Box = { min_latitude: box.min_latitude, max_latitude: box.max_latitude, min_longitude: box.min_longitude, max_longitude: box.max_longitude };
    return { region: box, gate };
  }
  if (v.type === 'polygon') {
    checkMembers(f, v, path, ['type', 'coordinates', 'name']);
    let ring: unknown = v.coordinates;
    // GeoJSON Polygon coordinates: [[ring]] with one ring (holes are not read).
    if (Array.isArray(ring) && ring.length === 1 && Array.isArray(ring[0]) && Array.isArray((ring[0] as unknown[])[0])) ring = ring[0];
    const ok = Array.isArray(ring) && ring.every((p) => Array.isArray(p) && p.length === 2 && isNum(p[0]) && isNum(p[1])
      && p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90);
    const vertices = ok ? (ring as [number, number][]) : [];
    const distinct = new Set(vertices.map((p) => `${p[0]},${p[1]}`)).size;
    if (!ok || distinct < 3) {
      f.add('region_invalid', `${path}.coordinates`,
        `${path}.coordinates must be a ring of at least three distinct [longitude, latitude] vertices (degrees), or GeoJSON [[ring]] with one ring`);
      return null;
    }
    const polygon: Polygon = vertices.map(([lon, lat]) => [lon, lat] as const);
    return { region: { type: 'polygon', coordinates: polygon }, gate: polygon };
  }
  f.add('region_invalid', `${path}.type`, `${path}.type must be "box" or "polygon", got ${show(v.type)}`);
  return null;
}

function readPayout(f: Faults, v: unknown, path: string, design: Design | null): (PayoutFunction & { basis: PayoutBasis }) | null {
  if (v === undefined || v === null) {
    f.add('payout_missing', path, `${path} is missing: name a payout function (ladder or linear)`);
    return null;
  }
  if (!isObj(v)) {
    f.add('payout_missing', path, `${path} must be an object, got ${show(v)}`);
    return null;
  }
  const before = f.count;
  const allowedBases: readonly PayoutBasis[] = design === 'cat_in_a_box' ? ['per_occurrence', 'term_maximum']
    : design === 'track_gate' ? ['per_event', 'per_occurrence', 'term_maximum'] : ['term_maximum'];
  const defaultBasis: PayoutBasis = design === 'cat_in_a_box' ? 'per_occurrence' : design === 'track_gate' ? 'per_event' : 'term_maximum';
  let basis: PayoutBasis = defaultBasis;
  if (v.basis !== undefined) {
    if (design !== null && !allowedBases.includes(v.basis as PayoutBasis)) {
      const what = design === 'cat_in_a_box' ? 'a cat-in-a-box trigger pays per occurrence (per_occurrence) or once from the term maximum (term_maximum)'
        : design === 'track_gate' ? 'a track gate pays per storm (per_event) or once from the term maximum (term_maximum)'
        : 'a daily index pays once a year from the term maximum of its rolling windows (term_maximum); overlapping windows are not paid one by one';
      f.add('payout_basis_unknown', `${path}.basis`, `${path}.basis ${show(v.basis)} is not read: ${what}`);
    } else if (design !== null) {
      basis = v.basis === 'per_occurrence' && design === 'track_gate' ? 'per_event' : (v.basis as PayoutBasis);
    }
  }
  if (v.function === 'ladder') {
    checkMembers(f, v, path, ['function', 'levels', 'basis']);
    const levels = v.levels;
    if (!Array.isArray(levels) || levels.length === 0) {
      f.add('ladder_levels_missing', `${path}.levels`, `${path}.levels must be a non-empty list of {at_least, fraction}`);
      return null;
    }
    const read: LadderLevel[] = [];
    levels.forEach((level: unknown, i) => {
      const p = `${path}.levels[${i}]`;
      if (!isObj(level)) {
        f.add('ladder_level_invalid', p, `${p} must be an object {at_least, fraction}, got ${show(level)}`);
        return;
      }
      checkMembers(f, level, p, ['at_least', 'fraction']);
      if (!isNum(level.at_least)) f.add('ladder_level_invalid', `${p}.at_least`, `${p}.at_least must be a finite number, got ${show(level.at_least)}`);
      if (!isNum(level.fraction)) f.add('ladder_level_invalid', `${p}.fraction`, `${p}.fraction must be a finite number, got ${show(level.fraction)}`);
      else if (!(level.fraction > 0 && level.fraction <= 1)) {
        f.add('ladder_fraction_out_of_range', `${p}.fraction`, `${p}.fraction ${level.fraction} is outside (0, 1]: a level pays a fraction of the limit`);
      }
      if (isNum(level.at_least) && isNum(level.fraction)) read.push({ at_least: level.at_least, fraction: level.fraction });
    });
    if (read.length === levels.length) {
      for (let i = 1; i < read.length; i++) {
        if (!(read[i]!.at_least > read[i - 1]!.at_least)) {
          f.add('ladder_levels_not_increasing', `${path}.levels[${i}].at_least`,
            `${path}.levels[${i}].at_least ${read[i]!.at_least} is not above the level before it (${read[i - 1]!.at_least}): list levels from the lowest, each strictly higher`);
        }
        if (!(read[i]!.fraction > read[i - 1]!.fraction)) {
          f.add('ladder_fractions_not_increasing', `${path}.levels[${i}].fraction`,
            `${path}.levels[${i}].fraction ${read[i]!.fraction} is not above the fraction of the level before it (${read[i - 1]!.fraction}): a higher level must pay more`);
        }
      }
    }
    if (f.count > before) return null;
    return { function: 'ladder', levels: read, basis };
  }
  if (v.function === 'linear') {
    checkMembers(f, v, path, ['function', 'attachment', 'exhaustion', 'basis']);
    for (const k of ['attachment', 'exhaustion'] as const) {
      if (!isNum(v[k])) f.add('linear_level_invalid', `${path}.${k}`, `${path}.${k} must be a finite number in the index's unit, got ${show(v[k])}`);
    }
    if (isNum(v.attachment) && isNum(v.exhaustion) && !(v.exhaustion > v.attachment)) {
      f.add('linear_exhaustion_not_above_attachment', `${path}.exhaustion`,
        `${path}.exhaustion ${v.exhaustion} must be above ${path}.attachment ${v.attachment}`);
    }
    if (f.count > before) return null;
    return { function: 'linear', attachment: v.attachment as number, exhaustion: v.exhaustion as number, basis };
  }
  f.add('payout_function_unknown', `${path}.function`, `${path}.function must be "ladder" or "linear", got ${show(v.function)}`);
  return null;
}

function readUnit(f: Faults, v: unknown, path: string, variable: string, allowed: readonly UnitName[]): UnitName | null {
  if (v === undefined) return null;
  const unit = typeof v === 'string' ? canonicalUnitName(v) : null;
  if (unit === null || !allowed.includes(unit)) {
    f.add('measurement_unit_unknown', path, `${path} ${show(v)} is not a unit ${variable} is read in (one of ${allowed.join(', ')})`);
    return null;
  }
  return unit;
}

/** Shortest term the rule gives (29 February makes some years a day longer). */
function shortestTermDays(rule: TermRule): number {
  return Math.min(termWindow(rule, 2001).days, termWindow(rule, 2004).days, termWindow(rule, 2003).days);
}

function readShape(f: Faults, input: unknown): Structure | null {
  if (!isObj(input)) {
    f.add('terms_not_object', '', `the structure terms must be an object with peril, trigger, financial_structure and period, got ${show(input)}`);
    return null;
  }
  const peril = readBlock(f, input, 'peril');
  const trigger = readBlock(f, input, 'trigger');
  const fin = readBlock(f, input, 'financial_structure');
  const period = readBlock(f, input, 'period');

  // period (read first: a daily index's window is checked against the term's length)
  let term: TermRule | null = null;
  if (period) {
    checkMembers(f, period, 'period', ['start', 'end']);
    const rule = termRule({ start: period.start as string, end: period.end as string });
    if (isTermFault(rule)) f.add(rule.fault, rule.fault === 'period_date_invalid' ? 'period' : 'period.end', rule.message);
    else term = rule;
  }

  // peril
  let code: PerilCode | null = null;
  if (peril) {
    if (peril.code === undefined || peril.code === null) f.add('peril_code_missing', 'peril.code', 'peril.code is missing: a structure is written for one peril');
    else if (!PERIL_CODES.includes(peril.code as PerilCode)) {
      f.add('peril_code_unknown', 'peril.code', `peril.code ${show(peril.code)} is not in the peril vocabulary (${PERIL_CODES.join(', ')})`);
    } else code = peril.code as PerilCode;
  }

  // trigger
  let triggerType: TriggerType | null = null;
  let design: Design | null = null;
  let measurement: NormalizedMeasurement | null = null;
  let sources: { feed_id: string; version: string | null }[] | null = null;
  let windowMs: { duration: string; ms: number } | null = null;
  let payout: (PayoutFunction & { basis: PayoutBasis }) | null = null;
  let needsRegion = false;
  if (trigger) {
    checkMembers(f, trigger, 'trigger', ['type', 'data_sources', 'measurement', 'aggregation_window', 'payout']);
    if (trigger.type === undefined || trigger.type === null) {
      f.add('trigger_type_missing', 'trigger.type', `trigger.type is missing (one of ${TRIGGER_TYPES.join(', ')})`);
    } else if (!TRIGGER_TYPES.includes(trigger.type as TriggerType)) {
      f.add('trigger_type_unknown', 'trigger.type', `trigger.type ${show(trigger.type)} is not one of ${TRIGGER_TYPES.join(', ')}`);
    } else triggerType = trigger.type as TriggerType;

    // data_sources
    const ds = trigger.data_sources;
    if (!Array.isArray(ds) || ds.length === 0) {
      f.add('data_sources_missing', 'trigger.data_sources', 'trigger.data_sources must list the pinned feed read: [{feed_id, version}]');
    } else {
      const before = f.count;
      const read: { feed_id: string; version: string | null }[] = [];
      ds.forEach((s: unknown, i) => {
        const p = `trigger.data_sources[${i}]`;
        if (!isObj(s)) return f.add('data_source_invalid', p, `${p} must be an object {feed_id, version}, got ${show(s)}`);
        checkMembers(f, s, p, ['feed_id', 'version']);
        if (typeof s.feed_id !== 'string' || s.feed_id.trim() === '') f.add('data_source_invalid', `${p}.feed_id`, `${p}.feed_id must be a non-empty string`);
        if (s.version !== undefined && s.version !== null && (typeof s.version !== 'string' || s.version.trim() === '')) {
          f.add('data_source_invalid', `${p}.version`, `${p}.version must be a non-empty string (the pinned vintage)`);
        }
        read.push({ feed_id: String(s.feed_id), version: typeof s.version === 'string' ? s.version : null });
      });
      if (f.count === before) sources = read;
    }

    // measurement
    const m = trigger.measurement;
    if (!isObj(m)) {
      f.add('measurement_missing', 'trigger.measurement', `trigger.measurement must be an object naming the variable read, got ${show(m)}`);
    } else if (m.variable === undefined || m.variable === null) {
      f.add('measurement_variable_missing', 'trigger.measurement.variable', 'trigger.measurement.variable is missing');
    } else if (triggerType !== null) {
      const variables: readonly string[] = triggerType === 'parametric_cat_in_a_box' ? CAT_IN_A_BOX_VARIABLES : INDEX_VARIABLES;
      const variable = String(m.variable);
      if (typeof m.variable !== 'string' || !variables.includes(variable)) {
        f.add('measurement_variable_unknown', 'trigger.measurement.variable',
          `trigger.measurement.variable ${show(m.variable)} is not read by a ${triggerType} trigger (one of ${variables.join(', ')})`);
      } else {
        design = triggerType === 'parametric_cat_in_a_box' ? 'cat_in_a_box' : variable === GATE_VARIABLE ? 'track_gate' : 'index_series';
        const before = f.count;
        const p = 'trigger.measurement';
        if (design === 'cat_in_a_box') checkMembers(f, m, p, ['variable', 'max_depth_km', 'unit', 'aggregation']);
        else if (design === 'track_gate') checkMembers(f, m, p, ['variable', 'unit', 'aggregation']);
        else checkMembers(f, m, p, ['variable', 'aggregation', 'unit', 'element']);
        const allowedUnits = design === 'cat_in_a_box' && variable === 'wind_speed' ? CAT_WIND_UNITS : UNITS_BY_VARIABLE[variable]!;
        const unit = readUnit(f, m.unit, `${p}.unit`, variable, allowedUnits);
        let aggregation: SeriesAggregation | null = null;
        if (design === 'index_series') {
          if (m.aggregation === undefined || m.aggregation === null) {
            f.add('measurement_aggregation_missing', `${p}.aggregation`,
              `${p}.aggregation is missing: state how the daily values are aggregated over the window (sum, max or mean)`);
          } else if (!SERIES_AGGREGATIONS.includes(m.aggregation as SeriesAggregation)) {
            f.add('measurement_aggregation_unknown', `${p}.aggregation`, `${p}.aggregation ${show(m.aggregation)} is not one of sum, max, mean`);
          } else aggregation = m.aggregation as SeriesAggregation;
        } else if (m.aggregation !== undefined && m.aggregation !== 'max') {
          f.add('measurement_aggregation_unknown', `${p}.aggregation`,
            `${p}.aggregation ${show(m.aggregation)} is not read: ${design === 'cat_in_a_box' ? 'an occurrence pays on its peak' : 'a gate reads the strongest wind'} (max)`);
        }
        let maxDepth: number | null = null;
        if (m.max_depth_km !== undefined && m.max_depth_km !== null) {
          if (variable !== 'magnitude') f.add('max_depth_km_not_read', `${p}.max_depth_km`, `${p}.max_depth_km is read for earthquake magnitude only`);
          else if (!isNum(m.max_depth_km) || m.max_depth_km < 0) f.add('max_depth_km_invalid', `${p}.max_depth_km`, `${p}.max_depth_km must be a number >= 0 (km), got ${show(m.max_depth_km)}`);
          else maxDepth = m.max_depth_km;
        }
        let element: string | null = null;
        if (m.element !== undefined && m.element !== null) {
          if (variable !== 'precipitation' && variable !== 'wind_speed') f.add('element_not_read', `${p}.element`, `${p}.element names a GHCN-Daily element; it is read for precipitation and wind_speed only`);
          else if (typeof m.element !== 'string' || !/^[A-Z0-9]{4}$/.test(m.element)) f.add('element_invalid', `${p}.element`, `${p}.element must be a GHCN-Daily element code such as PRCP, AWND or WSF5, got ${show(m.element)}`);
          else element = m.element;
        }
        if (f.count === before) measurement = { variable, unit, aggregation, element, max_depth_km: maxDepth };
      }
    }

    // aggregation_window
    const aw = trigger.aggregation_window;
    if (design === 'track_gate') {
      if (aw !== undefined && aw !== null) {
        f.add('aggregation_window_not_read', 'trigger.aggregation_window',
          'trigger.aggregation_window is not read by a track gate: each storm is one occurrence, named by its storm id');
      }
    } else if (design !== null) {
      if (!isObj(aw) || aw.duration === undefined) {
        f.add('aggregation_window_missing', 'trigger.aggregation_window.duration',
          design === 'cat_in_a_box' ? 'trigger.aggregation_window.duration is missing: the occurrence window (e.g. P7D) clusters catalog rows'
            : 'trigger.aggregation_window.duration is missing: the window (whole days, e.g. P3D) the daily values are aggregated over');
      } else {
        checkMembers(f, aw, 'trigger.aggregation_window', ['duration']);
        let ms: number | null = null;
        try {
          if (typeof aw.duration !== 'string') throw new RangeError(`${show(aw.duration)} is not a string`);
          ms = parseIsoDuration(aw.duration);
        } catch (e) {
          f.add('aggregation_window_duration_invalid', 'trigger.aggregation_window.duration', `trigger.aggregation_window.duration: ${(e as Error).message}`);
        }
        if (ms !== null && design === 'index_series') {
          if (ms <= 0 || ms % 86_400_000 !== 0) {
            f.add('aggregation_window_not_whole_days', 'trigger.aggregation_window.duration',
              `trigger.aggregation_window.duration ${aw.duration} is not a whole number of days (at least P1D): a daily series is aggregated over whole days`);
            ms = null;
          } else if (term !== null && ms / 86_400_000 > shortestTermDays(term)) {
            f.add('aggregation_window_longer_than_term', 'trigger.aggregation_window.duration',
              `trigger.aggregation_window.duration ${aw.duration} is longer than the term (${shortestTermDays(term)} days): no window lies wholly inside it`);
            ms = null;
          }
        }
        if (ms !== null) windowMs = { duration: aw.duration as string, ms };
      }
    }

    payout = readPayout(f, trigger.payout, 'trigger.payout', design);
    needsRegion = design === 'cat_in_a_box' || design === 'track_gate';
  }

  // region (peril block; a daily index does not read it)
  let region: { region: Region; gate: Gate } | null = null;
  if (peril && needsRegion) {
    if (peril.region === undefined || peril.region === null) {
      f.add('region_missing', 'peril.region',
        design === 'track_gate' ? 'peril.region is missing: a track gate is drawn in peril.region (box or polygon)' : 'peril.region is missing: a cat-in-a-box trigger reads the box in peril.region');
    } else {
      region = readRegion(f, peril.region, 'peril.region');
      if (region && design === 'cat_in_a_box' && region.region.type !== 'box') {
        f.add('region_invalid', 'peril.region.type', 'peril.region.type must be "box" for a cat-in-a-box trigger (a polygon gate is read by a track gate)');
        region = null;
      }
    }
  }

  // financial_structure
  let financial: Structure['financial'] | null = null;
  if (fin) {
    checkMembers(f, fin, 'financial_structure', ['currency', 'limit', 'attachment', 'annual_limit']);
    const before = f.count;
    if (typeof fin.currency !== 'string' || !/^[A-Z]{3}$/.test(fin.currency)) {
      f.add('currency_invalid', 'financial_structure.currency', `financial_structure.currency must be an ISO 4217 code (three capital letters), got ${show(fin.currency)}`);
    }
    if (!isNum(fin.limit) || fin.limit <= 0) f.add('limit_invalid', 'financial_structure.limit', `financial_structure.limit must be a number above 0, got ${show(fin.limit)}`);
    if (fin.attachment !== undefined && (!isNum(fin.attachment) || fin.attachment < 0)) {
      f.add('attachment_invalid', 'financial_structure.attachment', `financial_structure.attachment must be a number >= 0 (annual aggregate, money), got ${show(fin.attachment)}`);
    }
    if (fin.annual_limit !== undefined && fin.annual_limit !== null && (!isNum(fin.annual_limit) || fin.annual_limit <= 0)) {
      f.add('annual_limit_invalid', 'financial_structure.annual_limit', `financial_structure.annual_limit must be a number above 0, got ${show(fin.annual_limit)}`);
    }
    if (f.count === before) {
      const annual = isNum(fin.annual_limit) ? fin.annual_limit : null;
      financial = {
        currency: fin.currency as string, limit: fin.limit as number, attachment: isNum(fin.attachment) ? fin.attachment : 0,
        annual_limit: annual, annual_cap: annual ?? (fin.limit as number),
      };
    }
  }

  if (f.count > 0 || !code || !triggerType || !design || !measurement || !sources || !payout || !financial || !term || !period) return null;
  if (design !== 'track_gate' && windowMs === null) return null;
  if (needsRegion && region === null) return null;
  return {
    peril: code,
    region: region?.region ?? null,
    gate: region?.gate ?? null,
    trigger_type: triggerType,
    design,
    data_sources: sources,
    measurement,
    aggregation_window: windowMs,
    payout,
    financial,
    period: { start: period.start as string, end: period.end as string },
    term,
  };
}

// ---------------------------------------------------------------------------------------------
// Data validation (against the model table and the pinned feed)

/** Designs and measurement variables the model of each priced peril reads (SPEC Perils table). */
const MODEL_TABLE: Readonly<Record<string, { designs: readonly Design[]; variables: readonly string[]; words: string }>> = {
  earthquake: { designs: ['cat_in_a_box'], variables: ['magnitude'], words: 'a parametric_cat_in_a_box trigger on magnitude over a pinned quake catalog' },
  wildfire: { designs: ['cat_in_a_box'], variables: ['burned_acres', 'report_value'], words: 'a parametric_cat_in_a_box trigger on burned acres over a pinned mapped-fire extract' },
  severe_convective_storm: {
    designs: ['cat_in_a_box'], variables: ['hail_diameter', 'wind_speed', 'tornado_rating', 'report_value'],
    words: 'a parametric_cat_in_a_box trigger on the report value (hail diameter, wind speed or tornado rating) over a pinned storm report extract',
  },
  weather_station: {
    designs: ['index_series'], variables: ['precipitation', 'wind_speed', 'discharge'],
    words: 'a parametric_index trigger over a pinned daily rainfall, wind or river-discharge series',
  },
  flood: { designs: ['index_series'], variables: ['discharge'], words: 'a parametric_index trigger over a pinned daily river-gauge discharge series' },
  tropical_cyclone: {
    designs: ['index_series', 'track_gate'], variables: ['wind_speed', GATE_VARIABLE],
    words: 'a parametric_index trigger over a pinned daily wind series (wind_speed), or over a pinned storm-track archive with a gate in peril.region (max_sustained_wind_in_gate)',
  },
  grid_outage: { designs: ['index_series'], variables: ['customers_out'], words: 'a parametric_index trigger on customers_out over a pinned county outage series' },
};

const SERIES_OF_VARIABLE: Readonly<Record<string, SeriesType>> = {
  precipitation: 'rainfall', wind_speed: 'wind', discharge: 'discharge', customers_out: 'outage',
};
const REPORT_OF_VARIABLE: Readonly<Record<string, ReportType>> = { hail_diameter: 'hail', wind_speed: 'wind', tornado_rating: 'tornado' };
const REPORT_UNIT: Readonly<Record<ReportType, UnitName>> = { hail: 'in', wind: 'kt', tornado: 'EF' };

function coverageBoxOf(manifest: FeedFacts): Box | null {
  return coverageArea(manifest.coverage).box;
}

function regionBox(region: Region): Box {
  if (region.type === 'box') return region;
  const ring = (Array.isArray(region.coordinates[0]?.[0]) ? region.coordinates[0] : region.coordinates) as ReadonlyArray<readonly [number, number]>;
  const lats = ring.map((p) => p[1]);
  const lons = ring.map((p) => p[0]);
  return { min_latitude: Math.min(...lats), max_latitude: Math.max(...lats), min_longitude: Math.min(...lons), max_longitude: Math.max(...lons) };
}

function boxesIntersect(a: Box, b: Box): boolean {
  if (a.max_latitude < b.min_latitude || a.min_latitude > b.max_latitude) return false;
  if (a.min_longitude > a.max_longitude || b.min_longitude > b.max_longitude) return true; // antimeridian: not screened
  return !(a.max_longitude < b.min_longitude || a.min_longitude > b.max_longitude);
}

const yearOf = (date: string | null | undefined): number | null => (typeof date === 'string' && /^\d{4}-/.test(date) ? Number(date.slice(0, 4)) : null);

/** First and last calendar year of the feed's period of record, or null. */
export function recordYears(manifest: FeedFacts): { from: number; to: number } | null {
  const from = yearOf(manifest.period_of_record?.from);
  const to = yearOf(manifest.period_of_record?.to);
  return from === null || to === null ? null : { from, to };
}

function checkWindow(f: Faults, window: BacktestWindow | null | undefined): void {
  if (window === undefined || window === null) return;
  if (!isObj(window)) return f.add('window_invalid', 'window', `window must be an object {from_year, to_year}, got ${show(window)}`);
  checkMembers(f, window as Obj, 'window', ['from_year', 'to_year']);
  for (const k of ['from_year', 'to_year'] as const) {
    const v = window[k];
    if (v !== undefined && !Number.isInteger(v)) f.add('window_invalid', `window.${k}`, `window.${k} must be an integer year, got ${show(v)}`);
  }
  if (Number.isInteger(window.from_year) && Number.isInteger(window.to_year) && window.from_year! > window.to_year!) {
    f.add('window_invalid', 'window', `window.from_year ${window.from_year} is after window.to_year ${window.to_year}`);
  }
}

function checkData(f: Faults, s: Structure, context: ValidationContext): void {
  const model = MODEL_TABLE[s.peril];
  if (!model) {
    f.add('peril_not_priced', 'peril.code',
      `peril ${s.peril} has no pricing model (priced perils: ${PRICED_PERILS.join(', ')}); a ${s.peril} structure cannot be backtested or priced`);
    return;
  }
  if (!model.designs.includes(s.design)) {
    f.add('trigger_not_read_for_peril', 'trigger.type',
      `a ${s.peril} structure is read as ${model.words}; a ${s.trigger_type} trigger measuring ${s.measurement.variable} is not read by the ${s.peril} model`);
    return;
  }
  const v = s.measurement.variable;
  if (v === 'precipitation' && (s.peril === 'tropical_cyclone' || s.peril === 'flood')) {
    f.add(s.peril === 'flood' ? 'flood_on_rainfall_series' : 'tropical_cyclone_on_rainfall_series', 'trigger.measurement.variable',
      `a ${s.peril} structure written on rainfall is refused: ${model.words}`);
    return;
  }
  if (!model.variables.includes(v)) {
    f.add('measurement_not_read_for_peril', 'trigger.measurement.variable', `the ${s.peril} model does not read ${v}: it reads ${model.words}`);
    return;
  }
  if (s.data_sources.length > 1) {
    f.add('more_than_one_data_source', 'trigger.data_sources', `trigger.data_sources lists ${s.data_sources.length} feeds; a backtest reads exactly one pinned feed`);
    return;
  }
  const source = s.data_sources[0]!;
  if (source.version === null) {
    f.add('feed_version_not_pinned', 'trigger.data_sources[0].version', `trigger.data_sources[0] names ${source.feed_id} without a version: pin the vintage read`);
    return;
  }
  const feed = context.feed;
  if (feed === undefined) return;
  if (feed === null) {
    f.add('feed_not_pinned', 'trigger.data_sources[0]', `${source.feed_id} version ${source.version} is not a pinned snapshot (GET /feeds lists them)`);
    return;
  }
  if (feed.feed_id !== source.feed_id || feed.version !== source.version) {
    throw new Error(`validation context names ${feed.feed_id}/${feed.version} but the trigger reads ${source.feed_id}/${source.version}`);
  }
  const cls = classOf(feed);
  const kindWords = FEED_KIND_WORDS[cls.kind] ?? `a ${cls.kind === 'other' ? cls.manifest_kind ?? 'feed of unknown kind' : cls.kind}`;
  const p = 'trigger.data_sources[0].feed_id';

  if (s.design === 'cat_in_a_box') {
    const wanted = s.peril === 'earthquake' ? 'event_catalog' : s.peril === 'wildfire' ? 'fire_extract' : 'storm_report_set';
    if (cls.kind !== wanted) {
      const fault = ['event_catalog', 'fire_extract', 'storm_report_set'].includes(cls.kind) ? 'feed_not_read_for_peril' : 'feed_kind_not_read';
      f.add(fault, p, `${feed.feed_id} is ${kindWords}; a ${s.peril} cat-in-a-box trigger reads ${FEED_KIND_WORDS[wanted]}`);
      return;
    }
    if (cls.kind === 'storm_report_set') {
      const want = REPORT_OF_VARIABLE[v];
      if (cls.report === null) {
        f.add('measurement_not_in_feed', p, `${feed.feed_id}: the report type (hail, wind, tornado) cannot be told from the feed id`);
        return;
      }
      if (want !== undefined && want !== cls.report) {
        f.add('measurement_not_in_feed', 'trigger.measurement.variable', `${feed.feed_id} is a ${cls.report} report extract; it holds no ${v}`);
        return;
      }
      const own = REPORT_UNIT[cls.report];
      if (s.measurement.unit !== null && s.measurement.unit !== own) {
        f.add('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id} reports in ${own}; a ladder is written in the report's own unit`);
      }
    } else if (cls.kind === 'fire_extract' && s.measurement.unit !== null && s.measurement.unit !== 'acres') {
      f.add('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id} maps burned area in acres; the ladder is written in acres`);
    }
    const coverage = coverageBoxOf(feed.manifest);
    if (coverage && s.region && !boxWithin(regionBox(s.region), coverage)) {
      f.add('region_outside_feed_coverage', 'peril.region',
        `peril.region is not wholly inside ${feed.feed_id}'s box (${coverage.min_latitude} to ${coverage.max_latitude} N, ${coverage.min_longitude} to ${coverage.max_longitude} E): events outside the extract are not in it`);
    }
  } else if (s.design === 'track_gate') {
    if (cls.kind !== 'track_archive') {
      f.add('feed_kind_not_read', p, `${feed.feed_id} is ${kindWords}; a track gate (max_sustained_wind_in_gate) reads a storm-track archive`);
      return;
    }
    const coverage = coverageBoxOf(feed.manifest);
    if (coverage && s.region && !boxesIntersect(regionBox(s.region), coverage)) {
      f.add('region_outside_feed_coverage', 'peril.region', `the gate in peril.region lies outside every track of ${feed.feed_id} (extent ${coverage.min_latitude} to ${coverage.max_latitude} N, ${coverage.min_longitude} to ${coverage.max_longitude} E)`);
    }
  } else {
    if (cls.kind !== 'daily_series' && cls.kind !== 'outage_series') {
      f.add('feed_kind_not_read', p, `${feed.feed_id} is ${kindWords}; a parametric_index on ${v} reads a daily series`);
      return;
    }
    const series = cls.series;
    // The combinations SPEC refuses by name.
    if (series === 'rainfall' && (s.peril === 'tropical_cyclone' || s.peril === 'flood')) {
      f.add(s.peril === 'flood' ? 'flood_on_rainfall_series' : 'tropical_cyclone_on_rainfall_series', p,
        `a ${s.peril} structure written on a rainfall series (${feed.feed_id}) is refused: ${model.words}`);
      return;
    }
    if (s.peril === 'grid_outage' && series !== 'outage') {
      f.add('grid_outage_not_on_outage_series', p, `a grid_outage structure reads a county outage series only; ${feed.feed_id} is ${kindWords}`);
      return;
    }
    if (s.peril === 'weather_station' && series === 'outage') {
      f.add('weather_station_on_outage_series', p, `a weather_station structure is not written on a county outage series (${feed.feed_id}): ${model.words}`);
      return;
    }
    if (series === null) {
      f.add('feed_kind_not_read', p, `${feed.feed_id}: what the series measures (rainfall, wind, discharge, outages) cannot be told from the feed`);
      return;
    }
    const allowedSeries: Record<string, readonly SeriesType[]> = {
      weather_station: ['rainfall', 'wind', 'discharge'], flood: ['discharge'], tropical_cyclone: ['wind'], grid_outage: ['outage'],
    };
    if (!(allowedSeries[s.peril] ?? []).includes(series)) {
      f.add('feed_not_read_for_peril', p, `${feed.feed_id} is a ${series} series; the ${s.peril} model reads ${model.words}`);
      return;
    }
    if (SERIES_OF_VARIABLE[v] !== series) {
      f.add('measurement_not_in_feed', 'trigger.measurement.variable', `${feed.feed_id} is a ${series} series; it holds no ${v}`);
      return;
    }
    const element = s.measurement.element;
    if (cls.kind === 'daily_series' && cls.elements) {
      const served = (feed.manifest.served_columns ?? (feed.manifest.raw?.served_columns as string[] | undefined)) ?? null;
      const units = Object.keys(feed.manifest.units ?? {});
      const candidates = series === 'rainfall' ? ['PRCP'] : GHCN_WIND_ELEMENTS.filter((e) => units.includes(e));
      const held = served ? candidates.filter((e) => served.includes(e)) : candidates;
      const chosen = element ?? (series === 'rainfall' ? 'PRCP' : DEFAULT_WIND_ELEMENT);
      if (!held.includes(chosen)) {
        f.add('element_not_in_feed', 'trigger.measurement.element',
          `${feed.feed_id} holds no ${chosen}${element === null ? ' (the default element)' : ''}; elements it holds for ${v}: ${held.join(', ') || 'none'}`);
      }
    } else if (element !== null) {
      f.add('element_not_in_feed', 'trigger.measurement.element', `${feed.feed_id} is not a GHCN-Daily feed; it has no element ${element}`);
    }
  }

  // Window against the period of record.
  const years = recordYears(feed.manifest);
  if (years === null) {
    f.add('feed_has_no_period_of_record', p, `${feed.feed_id} states no period of record; nothing to replay`);
    return;
  }
  const w = context.window;
  if (w && (Number.isInteger(w.from_year) || Number.isInteger(w.to_year))) {
    const from = w.from_year ?? years.from;
    const to = w.to_year ?? years.to;
    if (from < years.from || to > years.to) {
      f.add('window_outside_period_of_record', 'window',
        `window ${from} to ${to} is outside ${feed.feed_id}'s period of record (${feed.manifest.period_of_record?.from} to ${feed.manifest.period_of_record?.to}: years ${years.from} to ${years.to}); it is refused, never clipped`);
    }
  }
}

/**
 * Validates structure terms. Without a context (or with context.feed undefined) only the shape is
 * checked (the POST); with the pinned snapshot's manifest, the data faults too (the job).
 */
export function validateStructure(terms: unknown, context: ValidationContext = {}): StructureValidation {
  const shape = new Faults();
  const structure = readShape(shape, terms);
  if (structure && shape.count === 0) return checkStructure(structure, context);
  const request = new Faults();
  checkWindow(request, context.window);
  return { ok: shape.count === 0 && request.count === 0, structure: null, shape_faults: shape.list, data_faults: [], request_faults: request.list };
}

/**
 * Checks a structure already read from its terms (validateStructure(...).structure) against the
 * window and the pinned feed, without reading the terms again: a job reads the terms once, finds
 * the feed they name, then checks them against it.
 */
export function checkStructure(structure: Structure, context: ValidationContext): StructureValidation {
  const request = new Faults();
  checkWindow(request, context.window);
  const data = new Faults();
  if (request.count === 0) checkData(data, structure, context);
  return { ok: data.count === 0 && request.count === 0, structure, shape_faults: [], data_faults: data.list, request_faults: request.list };
}

/** A refusal of terms: every fault named, one detail each. */
export type FaultRefusal = Refusal & { readonly details: readonly string[] };

/**
 * The error to answer with, for a verb: 'structure' (the POST cutting a structure: shape faults
 * only), 'backtest' or 'price' (the job). Null when there is nothing to refuse.
 */
export function faultAnswer(v: StructureValidation, verb: 'structure' | 'backtest' | 'price'): FaultRefusal | null {
  const pick = (faults: readonly StructureFault[], code: string, lead: string): FaultRefusal | null =>
    faults.length === 0 ? null : {
      status: 422, code,
      message: `${lead}: ${faults.map((x) => x.fault).join(', ')}`,
      details: faults.map((x) => `${x.fault} at ${x.path || '(terms)'}: ${x.message}`),
    };
  // A price is refused on its job with one code, whatever stops its terms from being replayed.
  const shape = pick(v.shape_faults, verb === 'price' ? FAULT_CODES.data.price : FAULT_CODES.shape, verb === 'price' ? 'the object cannot be priced' : 'the structure cannot be cut');
  if (verb === 'structure' || shape) return shape;
  const request = pick(v.request_faults, FAULT_CODES.request, 'the backtest window is not readable');
  if (request) return request;
  return pick(v.data_faults, FAULT_CODES.data[verb], verb === 'backtest' ? 'the structure cannot be backtested' : 'the object cannot be priced');
}
