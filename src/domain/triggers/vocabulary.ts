// The trigger vocabulary as data: trigger types, the variables each reads and the design each
// selects, units, aggregations, the model each priced peril reads, and which feeds hold what. The
// validator and the designs read these tables; a new entry (a variable, a unit, a peril's model)
// is a row here, not a branch in code.

import { PERIL_CODES, type PerilCode } from '../exposure/types.js';

export { PERIL_CODES, type PerilCode };

/** The four trigger designs, one module each (cat-in-a-box.ts, index-series.ts, track-gate.ts, state-event.ts). */
export type Design = 'cat_in_a_box' | 'index_series' | 'track_gate' | 'state_event';

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

/** The state event design's variable: the customers an OE-417 event affected (state-event.ts). */
export const STATE_EVENT_VARIABLE = 'customers_affected';
/** The pinned record the state design reads, by its whole id (named in words, never read for meaning). */
export const STATE_EVENT_FEED = 'doe-oe417-disturbance-events';

/** The variables each trigger type reads, in the order messages list them, and the design each selects. */
export const DESIGN_OF_VARIABLE: Readonly<Record<TriggerType, Readonly<Record<string, Design>>>> = {
  parametric_cat_in_a_box: Object.fromEntries(CAT_IN_A_BOX_VARIABLES.map((v) => [v, 'cat_in_a_box'])),
  parametric_index: { ...Object.fromEntries(SERIES_VARIABLES.map((v) => [v, 'index_series'])), [GATE_VARIABLE]: 'track_gate', [STATE_EVENT_VARIABLE]: 'state_event' },
};

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
  [STATE_EVENT_VARIABLE]: ['customers'],
  [GATE_VARIABLE]: ['kt', 'm/s', 'category'],
};

// ---------------------------------------------------------------------------------------------
// What each priced peril's model reads, and what each feed holds

/** Designs and measurement variables the model of each priced peril reads (SPEC Perils table). */
export const PERIL_MODELS: Readonly<Record<string, { designs: readonly Design[]; variables: readonly string[]; words: string }>> = {
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
  grid_outage: {
    designs: ['index_series', 'state_event'], variables: ['customers_out', STATE_EVENT_VARIABLE],
    words: `a parametric_index trigger on customers_out over a pinned county outage series, or on customers_affected by the events of one state over the DOE OE-417 record (${STATE_EVENT_FEED})`,
  },
};

export type SeriesType = 'rainfall' | 'wind' | 'discharge' | 'outage';
export type ReportType = 'hail' | 'wind' | 'tornado';

/** The quantity a daily series must hold for each index variable. */
export const SERIES_OF_VARIABLE: Readonly<Record<string, SeriesType>> = {
  precipitation: 'rainfall', wind_speed: 'wind', discharge: 'discharge', customers_out: 'outage',
};
export const REPORT_OF_VARIABLE: Readonly<Record<string, ReportType>> = { hail_diameter: 'hail', wind_speed: 'wind', tornado_rating: 'tornado' };
export const REPORT_UNIT: Readonly<Record<ReportType, UnitName>> = { hail: 'in', wind: 'kt', tornado: 'EF' };

/** The series each peril's index may read. */
export const SERIES_READ_BY_PERIL: Readonly<Record<string, readonly SeriesType[]>> = {
  weather_station: ['rainfall', 'wind', 'discharge'], flood: ['discharge'], tropical_cyclone: ['wind'], grid_outage: ['outage'],
};

/** The event feed a cat-in-a-box trigger of each peril reads (any other peril: a storm report extract). */
export const BOX_FEED_OF_PERIL: Readonly<Record<string, string>> = { earthquake: 'event_catalog', wildfire: 'fire_extract' };
export const BOX_FEED_KINDS = ['event_catalog', 'fire_extract', 'storm_report_set'] as const;

/** Each feed kind in words, as refusals name it. */
export const FEED_KIND_WORDS: Record<string, string> = {
  event_catalog: 'a quake catalog (event_catalog)',
  fire_extract: 'a mapped-fire extract (fire_extract)',
  storm_report_set: 'a storm report extract (storm_report_set)',
  daily_series: 'a daily series (daily_series)',
  outage_series: 'a county outage series (outage_series)',
  outage_event_set: 'a state outage event record (outage_event_set)',
  track_archive: 'a storm-track archive (track_archive)',
};

/** GHCN-Daily elements a wind index may read (daily mean wind and fastest 2-min / 5-s / gust / 1-min / mile). */
export const GHCN_WIND_ELEMENTS = ['AWND', 'WSF2', 'WSF5', 'WSFG', 'WSF1', 'WSFM'] as const;
/** The element read from a GHCN wind feed when the trigger names none (the feed readers default to it too). */
export const DEFAULT_WIND_ELEMENT = 'AWND';

/**
 * What a refusal of the county index's price points to: the state design over the 22 years of DOE
 * OE-417 workbooks (docs/prices.md "Grid outage").
 */
export const STATE_DESIGN_POINTER =
  `state design: a grid_outage parametric_index on customers_affected with trigger.measurement.state (a USPS code) over ` +
  `${STATE_EVENT_FEED} 2023-12-30 reads the DOE OE-417 state event record 2002-2023 (22 counted years) and can be priced (docs/prices.md, Grid outage)`;
