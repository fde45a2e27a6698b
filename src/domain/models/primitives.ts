// The registry's v1 vocabulary as data: the measurements, transforms and payout functions a pricing
// model is composed from (the fourth primitive, the feed, is any pinned snapshot a measurement
// reads, listed from the feed store). Each entry carries a sentence, its parameters as JSON Schema
// and what it connects to. The trigger designs of triggers/ are the same vocabulary: a measurement
// selects a design and a variable (DESIGN_OF_VARIABLE), a transform fills a member of the trigger
// terms, a payout function is triggers/payout.ts's (compose.ts writes one into the other).

import type { Design, PerilCode } from '../triggers/vocabulary.js';

type Schema = Record<string, unknown>;

export const PRIMITIVE_KINDS = ['feed', 'measurement', 'transform', 'payout_function'] as const;

/** Feed kinds (MANIFEST.json kind, as the trigger checks class them) a measurement reads. */
export type FeedKind = 'event_catalog' | 'fire_extract' | 'storm_report_set' | 'daily_series' | 'outage_series' | 'track_archive';

export interface MeasurementPrimitive {
  readonly id: string;
  readonly sentence: string;
  readonly parameters: Schema;
  /** The trigger design it is read by. */
  readonly design: Design;
  /** Feed kinds it reads. */
  readonly feed_kinds: readonly FeedKind[];
  /** The peril its structures are written for (a parameter may choose among several). */
  readonly perils: readonly PerilCode[];
  /** Transforms it requires (the design cannot be read without them). */
  readonly requires: readonly string[];
  /** Transforms it does not read. */
  readonly excludes: readonly string[];
}

export interface TransformPrimitive {
  readonly id: string;
  readonly sentence: string;
  readonly parameters: Schema;
  /** Designs it applies to. */
  readonly designs: readonly Design[];
}

export interface PayoutPrimitive {
  readonly id: string;
  readonly sentence: string;
  readonly parameters: Schema;
}

const DURATION: Schema = { type: 'string', pattern: '^P(?:\\d+W|(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?)$', description: 'ISO 8601 duration of fixed length (weeks, days, hours)' };
const LAT: Schema = { type: 'number', minimum: -90, maximum: 90 };
const LON: Schema = { type: 'number', minimum: -180, maximum: 180 };
const BOX: Schema = {
  type: 'object', additionalProperties: false, required: ['type', 'min_latitude', 'max_latitude', 'min_longitude', 'max_longitude'],
  properties: { type: { const: 'box' }, min_latitude: LAT, max_latitude: LAT, min_longitude: LON, max_longitude: LON, name: { type: 'string' } },
};
const POLYGON: Schema = {
  type: 'object', additionalProperties: false, required: ['type', 'coordinates'],
  properties: { type: { const: 'polygon' }, coordinates: { type: 'array', minItems: 3, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } } }, name: { type: 'string' } },
};
const object = (required: readonly string[], properties: Schema): Schema => ({ type: 'object', additionalProperties: false, required, properties });

export const MEASUREMENTS: readonly MeasurementPrimitive[] = [
  {
    id: 'magnitude_in_box', design: 'cat_in_a_box', feed_kinds: ['event_catalog'], perils: ['earthquake'],
    sentence: 'The magnitude of each catalog earthquake whose epicentre lies in a box, optionally only those no deeper than a depth limit (an event with no depth is then left out).',
    parameters: object(['region'], { region: BOX, max_depth_km: { type: 'number', minimum: 0 } }),
    requires: ['occurrence_clustering'], excludes: [],
  },
  {
    id: 'daily_series_value', design: 'index_series', feed_kinds: ['daily_series'], perils: ['weather_station', 'flood', 'tropical_cyclone'],
    sentence: 'A daily series value (rainfall, wind or river discharge) read as a rolling sum, mean or maximum over a window of whole days; the year pays on its term maximum.',
    parameters: object(['variable', 'aggregation', 'window'], {
      variable: { enum: ['precipitation', 'wind_speed', 'discharge'] },
      aggregation: { enum: ['sum', 'mean', 'max'] },
      window: { ...DURATION, description: 'rolling window, whole days (P3D)' },
      element: { type: 'string', pattern: '^[A-Z0-9]{4}$', description: 'GHCN-Daily element (PRCP, AWND, WSF5, ...)' },
      peril: { enum: ['weather_station', 'flood', 'tropical_cyclone'], description: 'default: flood for discharge, else weather_station' },
    }),
    requires: [], excludes: ['occurrence_clustering'],
  },
  {
    id: 'strongest_wind_in_gate', design: 'track_gate', feed_kinds: ['track_archive'], perils: ['tropical_cyclone'],
    sentence: 'The strongest maximum sustained wind of each storm-track fix inside a gate (a box or polygon); each storm is one occurrence.',
    parameters: object(['region'], { region: { oneOf: [BOX, POLYGON] } }),
    requires: [], excludes: ['occurrence_clustering'],
  },
  {
    id: 'report_value_in_box', design: 'cat_in_a_box', feed_kinds: ['storm_report_set'], perils: ['severe_convective_storm'],
    sentence: 'The value of each storm report in a box: hail diameter, wind speed or tornado rating, as the report extract holds.',
    parameters: object(['region', 'variable'], { region: BOX, variable: { enum: ['hail_diameter', 'wind_speed', 'tornado_rating'] } }),
    requires: ['occurrence_clustering'], excludes: [],
  },
  {
    id: 'county_customers_out', design: 'index_series', feed_kinds: ['outage_series'], perils: ['grid_outage'],
    sentence: 'Customers out of power in one county, read as a rolling sum, mean or maximum over a window of whole days; the year pays on its term maximum.',
    parameters: object(['aggregation', 'window'], { aggregation: { enum: ['sum', 'mean', 'max'] }, window: DURATION }),
    requires: [], excludes: ['occurrence_clustering'],
  },
  {
    id: 'burned_acres_in_box', design: 'cat_in_a_box', feed_kinds: ['fire_extract'], perils: ['wildfire'],
    sentence: 'The burned acres of each mapped fire whose ignition point lies in a box.',
    parameters: object(['region'], { region: BOX }),
    requires: ['occurrence_clustering'], excludes: [],
  },
];

export const TRANSFORMS: readonly TransformPrimitive[] = [
  {
    id: 'occurrence_clustering', designs: ['cat_in_a_box'],
    sentence: 'Records within a window of the first one are one occurrence, read at its peak (a quake and its aftershocks, a day of reports).',
    parameters: object(['window'], { window: DURATION }),
  },
  {
    id: 'seasonal_term', designs: ['cat_in_a_box', 'index_series', 'track_gate'],
    sentence: 'The part of each year replayed, from a month-day to a month-day (both included; a term crossing New Year belongs to the year it starts in). Without it a run replays the term of the object or request.',
    parameters: object(['start', 'end'], {
      start: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description: 'MM-DD' },
      end: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description: 'MM-DD' },
    }),
  },
  {
    id: 'annual_aggregation', designs: ['cat_in_a_box', 'index_series', 'track_gate'],
    sentence: 'How a year\'s occurrences make its payout: each occurrence paid and summed (per_occurrence), each storm paid (per_event), or the year\'s largest only (term_maximum); the sum is then capped by the annual cap.',
    parameters: object(['basis'], { basis: { enum: ['per_occurrence', 'per_event', 'term_maximum'] } }),
  },
  {
    id: 'unit_conversion', designs: ['cat_in_a_box', 'index_series', 'track_gate'],
    sentence: 'The unit the index is read in and the payout levels are stated in, converted from the feed\'s published unit (mm or in, m/s, kt, mph or km/h, ft3/s or m3/s, kt or Saffir–Simpson category).',
    parameters: object(['unit'], { unit: { type: 'string', minLength: 1 } }),
  },
  {
    id: 'data_quality_exclusion', designs: ['cat_in_a_box', 'index_series', 'track_gate'],
    sentence: 'The data-quality rule: an observation the publisher flags as failing a check, or outside its variable\'s physical bounds, is excluded (a missing day, never filled), and a year whose term lacks more than 10% of its days is partial and left out of n. v1 reads the service\'s one rule; it is applied whether or not a composition names it.',
    parameters: object(['rule'], { rule: { const: 'publisher_flags_and_physical_bounds' }, max_missing_share: { const: 0.1 } }),
  },
];

const ANNUAL_CAP: Schema = { type: 'number', exclusiveMinimum: 0, description: 'the most a year pays, as a multiple of the limit (default 1); a run\'s financial_structure.annual_limit, when stated, is used instead' };

export const PAYOUT_FUNCTIONS: readonly PayoutPrimitive[] = [
  {
    id: 'ladder',
    sentence: 'Levels of the index each paying a fraction of the limit: a value pays the fraction of the highest level it reaches, else nothing; a year pays at most the annual cap.',
    parameters: object(['levels'], {
      levels: {
        type: 'array', minItems: 1,
        items: object(['at_least', 'fraction'], { at_least: { type: 'number' }, fraction: { type: 'number', exclusiveMinimum: 0, maximum: 1 } }),
      },
      annual_cap: ANNUAL_CAP,
    }),
  },
  {
    id: 'linear',
    sentence: 'Linear between an attachment and an exhaustion level of the index: limit × clamp((x − attachment) / (exhaustion − attachment), 0, 1); a year pays at most the annual cap.',
    parameters: object(['attachment', 'exhaustion'], { attachment: { type: 'number' }, exhaustion: { type: 'number' }, annual_cap: ANNUAL_CAP }),
  },
  {
    id: 'step_linear',
    sentence: 'Step-and-linear between an attachment and an exhaustion level of the index: nothing below the attachment; on reaching it (inclusive) the step fraction of the limit, then linear up to the whole limit at the exhaustion: limit × (step + (1 − step) × (x − attachment) / (exhaustion − attachment)); a year pays at most the annual cap. The exhaustion must be above the attachment.',
    parameters: object(['attachment', 'step', 'exhaustion'], {
      attachment: { type: 'number' },
      step: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'the fraction of the limit paid on reaching the attachment' },
      exhaustion: { type: 'number' },
      annual_cap: ANNUAL_CAP,
    }),
  },
];

export const MEASUREMENT_IDS = MEASUREMENTS.map((m) => m.id);
export const TRANSFORM_IDS = TRANSFORMS.map((t) => t.id);
export const PAYOUT_FUNCTION_IDS = PAYOUT_FUNCTIONS.map((p) => p.id);

export const measurementOf = (id: string): MeasurementPrimitive | undefined => MEASUREMENTS.find((m) => m.id === id);
export const transformOf = (id: string): TransformPrimitive | undefined => TRANSFORMS.find((t) => t.id === id);
export const payoutFunctionOf = (id: string): PayoutPrimitive | undefined => PAYOUT_FUNCTIONS.find((p) => p.id === id);

/** The measurement of each (design, variable) of the trigger vocabulary. */
export function measurementOfVariable(design: Design, variable: string): MeasurementPrimitive | undefined {
  // The grid_outage state event design is not a primitive of the v1 vocabulary (docs/models.md).
  if (design === 'state_event') return undefined;
  if (design === 'track_gate') return measurementOf('strongest_wind_in_gate');
  if (design === 'index_series') return measurementOf(variable === 'customers_out' ? 'county_customers_out' : 'daily_series_value');
  if (variable === 'magnitude') return measurementOf('magnitude_in_box');
  if (variable === 'burned_acres') return measurementOf('burned_acres_in_box');
  return measurementOf('report_value_in_box');
}
