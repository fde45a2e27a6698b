// An OpenQuake user's own inputs as the scenario-risk lane reads them: an exposure model (NRML 0.4
// or 0.5), vulnerability models (NRML 0.5 vulnerabilityFunction with LN, BT or PM distributions, or
// NRML 0.4 discreteVulnerabilitySet), and ground-motion fields (gmf_data.csv with its sites.csv).
// The readers of feeds/parsers/oq-*.ts return these; the lane reads nothing else. Types only.

/** How an asset's cost is stated (openquake/risklib/asset.py, CostCalculator). */
export type OqCostTypeKind = 'aggregated' | 'per_asset' | 'per_area';

export interface OqCostType {
  readonly name: string;
  readonly type: OqCostTypeKind;
  readonly unit: string;
}

export interface OqAssetCost {
  readonly value: number;
  /** As written: an amount (deductible_is_absolute) or a fraction of the value. */
  readonly deductible?: number;
  readonly insurance_limit?: number;
}

export interface OqAsset {
  readonly id: string;
  readonly taxonomy: string;
  /** 1 when the asset names none, as OpenQuake reads it for risk. */
  readonly number: number;
  /** 1 when the asset names none. */
  readonly area: number;
  readonly lon: number;
  readonly lat: number;
  /** By cost type name (structural, nonstructural, contents, business_interruption, ...). */
  readonly costs: Readonly<Record<string, OqAssetCost>>;
  /** Occupants by period (day, night, transit, ...). */
  readonly occupants: Readonly<Record<string, number>>;
  readonly tags: Readonly<Record<string, string>>;
}

export interface OqExposureModel {
  readonly nrml: string;
  readonly id: string;
  readonly category: string;
  readonly description: string;
  readonly cost_types: readonly OqCostType[];
  /** <area type unit> of the conversions, when per_area costs need it. */
  readonly area: { readonly type: 'aggregated' | 'per_asset'; readonly unit: string } | null;
  /** <deductible isAbsolute>, true when absent (as OpenQuake reads it). */
  readonly deductible_is_absolute: boolean;
  readonly insurance_limit_is_absolute: boolean;
  readonly occupancy_periods: readonly string[];
  readonly tag_names: readonly string[];
  readonly assets: readonly OqAsset[];
}

interface FunctionBase {
  /** The taxonomy the function is for. */
  readonly id: string;
  /** Intensity measure type as written: PGA, SA(0.3), MMI, ... */
  readonly imt: string;
  /** Ascending intensity levels. */
  readonly imls: readonly number[];
}

/** A discrete function with a lognormal (LN) or beta (BT) loss-ratio distribution. */
export interface OqContinuousFunction extends FunctionBase {
  readonly dist: 'LN' | 'BT';
  readonly mean_lrs: readonly number[];
  readonly cov_lrs: readonly number[];
}

/** A function with an explicit probability mass over loss ratios at each level (dist="PM"). */
export interface OqPmfFunction extends FunctionBase {
  readonly dist: 'PM';
  readonly loss_ratios: readonly number[];
  /** probs[m][l]: the probability of loss_ratios[m] at imls[l]. */
  readonly probs: readonly (readonly number[])[];
}

export type OqVulnerabilityFunction = OqContinuousFunction | OqPmfFunction;

export interface OqVulnerabilityModel {
  readonly nrml: string;
  readonly id: string;
  readonly asset_category: string;
  readonly loss_category: string;
  readonly functions: readonly OqVulnerabilityFunction[];
}

export interface OqSite {
  /** As the files name it: a site_id (or the row's ordinal) or a custom_site_id. */
  readonly id: string;
  readonly lon: number;
  readonly lat: number;
}

/**
 * Ground-motion fields as columns, one row per (site, event): rows[r] at site site_index[r] and
 * event event_index[r] (indexes into sites and events), with one value column per intensity measure.
 */
export interface OqGmfs {
  readonly sites: readonly OqSite[];
  /** The distinct event ids, ascending. */
  readonly events: readonly number[];
  /** Intensity measure types as the columns name them (gmv_ prefix dropped). */
  readonly imts: readonly string[];
  readonly site_index: Int32Array;
  readonly event_index: Int32Array;
  /** values[i][r]: intensity measure imts[i] on row r. */
  readonly values: readonly Float64Array[];
}
