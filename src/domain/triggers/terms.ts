// Structure terms as written (peril, trigger, financial_structure, period: what the schema carries)
// and the Structure they are read into once (what the replay, the price and the fitted views read).

import type { Gate } from '../tracks/gate.js';
import type { PayoutBasis, PayoutFunction } from './payout.js';
import type { TermRule } from './term.js';
import {
  GATE_VARIABLE, type CatInABoxVariable, type Design, type PerilCode, type SeriesAggregation, type SeriesVariable, type TriggerType,
  type UnitName,
} from './vocabulary.js';

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


export interface NormalizedMeasurement {
  readonly variable: string;
  /** Canonical unit stated by the trigger, or null (the feed's unit is used). */
  readonly unit: UnitName | null;
  readonly aggregation: SeriesAggregation | null;
  readonly element: string | null;
  readonly max_depth_km: number | null;
  /** The state design's selection (state-event.ts): a USPS code, a cause category, a least duration. */
  readonly state?: string;
  readonly cause?: string | null;
  readonly min_duration_hours?: number | null;
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
