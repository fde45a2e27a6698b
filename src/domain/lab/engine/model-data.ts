// The model data an Oasis-style lane supplies to the generic stages (keys → ground-up → financial).
// The stages never read a file or a lane's formats: a lane parses its own model files into this
// shape and keys its locations into items with its own area-peril lookup. Four parts, as the
// framework keeps them: the area-peril lookup (locations → items), event footprints (event →
// area-peril → intensity-bin probabilities), vulnerability (vulnerability → intensity bin →
// damage-bin probabilities) and the damage bins.

/** The damage bin dictionary; bin_index of position b is b + 1. */
export interface DamageBins {
  count: number;
  from: Float64Array;
  to: Float64Array;
  interpolation: Float64Array;
}

/** The event set and its occurrence table (one row per occurrence of an event in a period). */
export interface EventOccurrence {
  periods: number;
  eventId: Int32Array;
  period: Int32Array;
  /**
   * When in its period each occurrence falls, when the table gives dates (ktools occurrence_lt:
   * occ_year, occ_month, occ_day, and occ_hour, occ_minute when granular): [year, month, day, hour,
   * minute] at 5r..5r+4. Hour and minute are 0 without granular dates, as oasislmf writes them
   * (pytools plt/manager.py, occ_get_date).
   */
  date?: Int32Array;
}

/**
 * Event footprints in compressed rows: events ascending (eventId), each with entries (one per
 * area-peril, ascending) from eventStart[i] to eventStart[i+1]; each entry's intensity bins from
 * entryStart[j] to entryStart[j+1] in binId / binProb.
 */
export interface EventFootprints {
  eventId: Int32Array;
  eventStart: Int32Array;
  entryAreaperil: Int32Array;
  entryStart: Int32Array;
  binId: Int32Array;
  binProb: Float64Array;
  eventIndex: Map<number, number>;
}

/**
 * Vulnerability: vulnerability id → index v; prob[(v * intensityStride + intensity_bin_id) *
 * damageBins.count + (damage_bin_id - 1)] is P(damage bin | intensity bin).
 */
export interface Vulnerabilities {
  ids: Int32Array;
  index: Map<number, number>;
  intensityStride: number;
  prob: Float64Array;
  /** Rows present per (v, intensity bin): 1 when the vulnerability gives that intensity bin. */
  present: Uint8Array;
}

/** The part of a model's settings the stages read: each peril's correlation group. */
export interface ModelSettingsSummary {
  defaultSamples: number | null;
  /** peril_correlation_group null when the model settings give none for the peril. */
  supportedPerils: { id: string; desc: string; peril_correlation_group: number | null }[];
  correlation: { peril_correlation_group: number; damage_correlation_value: number; hazard_correlation_value: number }[];
}

/** Everything the ground-up and financial stages need from a model, whatever lane it comes from. */
export interface ModelData {
  /** The event set, ascending. */
  events: Int32Array;
  occurrence: EventOccurrence;
  footprint: EventFootprints;
  vulnerability: Vulnerabilities;
  damageBins: DamageBins;
  /** The highest area-peril id any footprint entry or item may name. */
  maxAreaperilId: number;
  settings: ModelSettingsSummary | null;
}

/** A place the lookup could not key, and why (the lane names its reasons). */
export interface UnmodeledPlace<Reason extends string = string> {
  index: number;
  reason: Reason;
}

/** One item, as a key record (for reporting and tests). */
export interface ItemKey {
  place: number;
  peril: string;
  coverage_type: number;
  areaperil_id: number;
  vulnerability_id: number;
  tiv: number;
}

/**
 * The lookup's output: modeled locations and their items in flat typed arrays. Items of location l
 * are locItemStart[l] .. locItemStart[l+1]-1; coverage slot c of a location (index into
 * coverageTypes) has value covTiv[l * coverageTypes.length + c].
 */
export interface KeyedPortfolio<Reason extends string = string> {
  placeCount: number;
  perils: string[];
  coverageTypes: number[];
  locPlace: Int32Array;
  locItemStart: Int32Array;
  covTiv: Float64Array;
  itemPeril: Uint8Array;
  itemCoverage: Uint8Array;
  itemAreaperil: Int32Array;
  itemVulnerability: Int32Array; // vulnerability index in the model, -1 when the model lacks it
  itemVulnerabilityId: Int32Array;
  itemTiv: Float64Array;
  unmodeled: UnmodeledPlace<Reason>[];
  /** Items the lookup made but dropped, counted by why. */
  dropped: { zero_value: number; no_area_peril: number; no_vulnerability: number; boundary_ties: number };
}

/** A lane's area-peril lookup: its locations keyed into items against its model data. */
export type AreaPerilLookup<M extends ModelData, L, Reason extends string = string> =
  (model: M, locations: readonly L[]) => KeyedPortfolio<Reason>;

/** Flat key records of a keyed portfolio, in item order. */
export function itemKeys(p: KeyedPortfolio): ItemKey[] {
  const out: ItemKey[] = [];
  for (let l = 0; l < p.locPlace.length; l++) {
    for (let i = p.locItemStart[l]!; i < p.locItemStart[l + 1]!; i++) {
      out.push({
        place: p.locPlace[l]!,
        peril: p.perils[p.itemPeril[i]!]!,
        coverage_type: p.coverageTypes[p.itemCoverage[i]!]!,
        areaperil_id: p.itemAreaperil[i]!,
        vulnerability_id: p.itemVulnerabilityId[i]!,
        tiv: p.itemTiv[i]!,
      });
    }
  }
  return out;
}
