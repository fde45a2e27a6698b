// The faults a structure's terms are refused for, each named in one catalogue, and the answer each
// verb gives.
//
// Faults come in three kinds, answered in different places (SPEC "Request versus job"):
//
// - shape  (POST /objects/{id}/structures, 422 invalid_structure): the terms cannot be read as a
//   structure at all, whatever the pinned data say: a block or member missing or of the wrong type,
//   a member this schema does not know, a name outside the vocabulary (trigger type, measurement
//   variable, unit, aggregation, payout function, basis), a ladder out of order or with fractions
//   outside (0, 1], a linear or step-and-linear exhaustion not above its attachment
//   (linear_exhaustion_not_above_attachment), a step-and-linear step outside (0, 1), a duration that is not ISO 8601
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

import { refusal, type Refusal } from '../../kernel/refusal.js';
import type { Structure } from './terms.js';

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
  step_linear_step_out_of_range: 'shape',
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
  // the state design's members (state-event.ts)
  state_missing: 'shape',
  state_unknown: 'shape',
  cause_unknown: 'shape',
  min_duration_hours_invalid: 'shape',
  outage_reading_not_read: 'data',
};

export interface StructureValidation {
  /** No fault of any kind. */
  readonly ok: boolean;
  /** The normalised structure when there is no shape fault, else null. */
  readonly structure: Structure | null;
  readonly shape_faults: readonly StructureFault[];
  readonly data_faults: readonly StructureFault[];
  readonly request_faults: readonly StructureFault[];
}

/** One fault the records themselves show (a unit the series cannot be read in, a window without a recorded year). */
export function dataFault(fault: string, path: string, message: string): StructureFault {
  return { fault, kind: FAULT_CATALOGUE[fault]!, path, message };
}

/** The faults found so far, each named in FAULT_CATALOGUE. */
export class Faults {
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

/** A refusal of terms: every fault named, one detail each. */
export type FaultRefusal = Refusal & { readonly details: readonly string[] };

/**
 * The error to answer with, for a verb: 'structure' (the POST cutting a structure: shape faults
 * only), 'backtest' or 'price' (the job). Null when there is nothing to refuse.
 */
export function faultAnswer(v: StructureValidation, verb: 'structure' | 'backtest' | 'price'): FaultRefusal | null {
  const pick = (faults: readonly StructureFault[], code: string, lead: string): FaultRefusal | null =>
    faults.length === 0 ? null : {
      // In words (the details name each fault's code and path): "the trigger block is missing".
      ...refusal(422, code, `${lead}: ${[...new Set(faults.map((x) => x.message))].join('; ')}`),
      details: faults.map((x) => `${x.fault} at ${x.path || '(terms)'}: ${x.message}`),
    };
  // A price is refused on its job with one code, whatever stops its terms from being replayed.
  const shape = pick(v.shape_faults, verb === 'price' ? FAULT_CODES.data.price : FAULT_CODES.shape, verb === 'price' ? 'the object cannot be priced' : 'the structure cannot be cut');
  if (verb === 'structure' || shape) return shape;
  const request = pick(v.request_faults, FAULT_CODES.request, 'the backtest window is not readable');
  if (request) return request;
  return pick(v.data_faults, FAULT_CODES.data[verb], verb === 'backtest' ? 'the structure cannot be backtested' : 'the object cannot be priced');
}
