// Daily-series hazard summary (rainfall, wind, discharge, outages): record length, missing days,
// annual values and return levels from a fitted extreme-value distribution (DOMAIN.md "Extreme values").

import type { DailySeries } from './records.js';
import {
  andersonDarling, fitGevByLMoments, fitGumbelByLMoments, gevQuantile, probabilityPlotCorrelation, returnLevel, selectExtremeValueFit,
  type ExtremeValueFit,
} from '../stats/extreme-value.js';
import { finiteOrNull } from './summary-common.js';
import {
  allowedMissingDays, excludedObservations, PARTIAL_YEAR_MAX_MISSING_SHARE, PUBLISHER_FLAG_RULES, QUALITY_RULE_TEXT, siConversion, siObservation, toSi,
  type SiObservation,
} from '../quality.js';
import { seededRandom } from '../stats/random.js';

export const SERIES_RETURN_PERIODS = [10, 25, 50, 100] as const;
/** A year enters when at most this share of its calendar days lacks a value (the one partial-year rule). */
export const SERIES_MAX_MISSING_FRACTION = PARTIAL_YEAR_MAX_MISSING_SHARE;
/** Return-level confidence intervals: a seeded parametric bootstrap (stated in the answer). */
export const RETURN_LEVEL_CONFIDENCE = { level: 0.9, replicates: 500, seed: 20_270_103 } as const;
/** Fewer annual values than this: no fit. */
export const SERIES_MIN_ANNUAL_VALUES = 10;

export type SeriesAggregation = 'max' | 'sum';

export interface SeriesSummaryOptions {
  /** A plain-language name for the variable (rainfall, wind gust, discharge...); default the series' code. */
  readonly variable?: string;
  /**
   * The unit the caller expects the values in. Values are never converted here: when given it must
   * equal series.unit (convert first, e.g. with toStandardUnits).
   */
  readonly unit?: string;
  /** How a year's value is formed from its days: 'max' the largest daily value (default), 'sum' the year's total. */
  readonly aggregation?: SeriesAggregation;
  /** Default 0.1: a year enters when at most floor(0.1 × its calendar days) days lack a value. */
  readonly maxMissingFraction?: number;
}

export interface YearMissingOut {
  readonly year: number;
  /** 365 or 366. */
  readonly calendar_days: number;
  /** Days of that year inside the series span. */
  readonly days_in_record: number;
  /** Of those, days without a value. */
  readonly missing_in_record: number;
  /** Calendar days before the first or after the last day of the series. */
  readonly outside_record: number;
  /** missing_in_record + outside_record: what the completeness rule reads. */
  readonly missing_days: number;
}

export interface AnnualValue {
  readonly year: number;
  readonly value: number;
  /** First day reaching the annual maximum ('max'); null for an annual total. */
  readonly date: string | null;
  readonly missing_days: number;
}

export interface ExcludedYear {
  readonly year: number;
  readonly missing_days: number;
  readonly allowed_missing_days: number;
}

export interface FitParametersOut {
  readonly distribution: 'gev' | 'gumbel';
  readonly method: 'l-moments';
  readonly location: number | null;
  readonly scale: number | null;
  /** ξ (DOMAIN.md's sign): > 0 heavy upper tail, < 0 bounded, 0 Gumbel. */
  readonly shape: number | null;
}

export interface ReturnLevelOut {
  readonly return_period_years: number;
  readonly annual_exceedance_probability: number;
  readonly value: number | null;
  /** Two-sided interval at RETURN_LEVEL_CONFIDENCE.level; null bounds when there is no fit. */
  readonly confidence_interval: { readonly level: number; readonly lower: number | null; readonly upper: number | null };
  /** T longer than the n years of annual values the fit rests on: an extrapolation. */
  readonly beyond_record: boolean;
}

export interface ExtremeValueOut {
  readonly n: number;
  readonly fit: (FitParametersOut & {
    readonly selection_rule: string;
    readonly shape_z: number | null;
    readonly shape_standard_error: number | null;
    readonly candidates: { readonly gev: FitParametersOut; readonly gumbel: FitParametersOut };
    readonly goodness_of_fit: {
      /** Filliben probability-plot correlation with Gringorten plotting positions. */
      readonly ppcc: number | null;
      /** Anderson–Darling A²; null when a value lies outside the fitted support. */
      readonly anderson_darling_a2: number | null;
      readonly note: string;
    };
  }) | null;
  readonly return_levels: ReturnLevelOut[];
  /** Why there is no fit; null when there is one. */
  readonly reason: string | null;
}

export interface SeriesSummary {
  readonly method: string;
  readonly source_id: string;
  readonly variable: string;
  /** The publisher's element or column code (PRCP, 00060, ...). */
  readonly series_variable: string;
  readonly unit: string;
  readonly aggregation: SeriesAggregation;
  readonly annual_statistic: string;
  readonly record: {
    readonly first_day: string | null;
    readonly last_day: string | null;
    readonly first_day_with_value: string | null;
    readonly last_day_with_value: string | null;
    readonly days: number;
    readonly days_with_value: number;
    /** Days inside the series span without a value. */
    readonly missing_days: number;
    readonly years_with_data: number;
  };
  /** Only years with any missing day (days outside the series span counted), in year order. */
  readonly missing_by_year: YearMissingOut[];
  readonly completeness_rule: { readonly max_missing_fraction: number; readonly text: string };
  readonly annual_values: AnnualValue[];
  readonly years_excluded: ExcludedYear[];
  readonly extreme_value: ExtremeValueOut;
  readonly notes: string[];
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function parameters(fit: ExtremeValueFit): FitParametersOut {
  return {
    distribution: fit.distribution,
    method: fit.method,
    location: finiteOrNull(fit.location),
    scale: finiteOrNull(fit.scale),
    shape: finiteOrNull(fit.shape),
  };
}

function emptyLevels(): ReturnLevelOut[] {
  return SERIES_RETURN_PERIODS.map((t) => ({
    return_period_years: t, annual_exceedance_probability: 1 / t, value: null,
    confidence_interval: { level: RETURN_LEVEL_CONFIDENCE.level, lower: null, upper: null }, beyond_record: true,
  }));
}

/** The q-quantile of sorted values by linear interpolation (type 7). */
function quantileSorted(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Return-level intervals by a parametric bootstrap: B samples of n annual values drawn from the
 * chosen fit (seeded xoshiro128**), each refitted by L-moments with the same family; the interval is
 * the (1 − level)/2 and (1 + level)/2 quantiles of the replicated return levels.
 */
export function returnLevelIntervals(fit: ExtremeValueFit, n: number, periods: readonly number[]): { lower: number | null; upper: number | null }[] {
  const rng = seededRandom(RETURN_LEVEL_CONFIDENCE.seed);
  const refit = fit.distribution === 'gumbel' ? fitGumbelByLMoments : fitGevByLMoments;
  const replicated = periods.map(() => [] as number[]);
  const sample = new Array<number>(n);
  for (let r = 0; r < RETURN_LEVEL_CONFIDENCE.replicates; r++) {
    for (let i = 0; i < n; i++) sample[i] = gevQuantile(rng.uniformOpen(), fit);
    let f: ExtremeValueFit;
    try { f = refit(sample); } catch { continue; }
    periods.forEach((t, j) => { const x = returnLevel(f, t); if (Number.isFinite(x)) replicated[j]!.push(x); });
  }
  const a = (1 - RETURN_LEVEL_CONFIDENCE.level) / 2;
  return replicated.map((xs) => {
    xs.sort((p, q) => p - q);
    return { lower: finiteOrNull(quantileSorted(xs, a)), upper: finiteOrNull(quantileSorted(xs, 1 - a)) };
  });
}

/** Summary of a daily series. Pure: values stay in series.unit. */
export function seriesSummary(series: DailySeries, options: SeriesSummaryOptions = {}): SeriesSummary {
  const aggregation = options.aggregation ?? 'max';
  if (aggregation !== 'max' && aggregation !== 'sum') throw new RangeError(`aggregation must be 'max' or 'sum', got ${String(aggregation)}`);
  if (options.unit !== undefined && options.unit !== series.unit) {
    throw new RangeError(`series is in ${JSON.stringify(series.unit)}, not ${JSON.stringify(options.unit)}: convert it before summarising`);
  }
  const fraction = options.maxMissingFraction ?? SERIES_MAX_MISSING_FRACTION;
  if (!(fraction >= 0 && fraction < 1)) throw new RangeError(`maximum missing fraction must lie in [0, 1), got ${fraction}`);

  const days = series.days;
  const withValue = days.filter((d) => typeof d.value === 'number' && Number.isFinite(d.value));
  const firstDay = days[0]?.date ?? null;
  const lastDay = days.at(-1)?.date ?? null;

  // Per calendar year: days in the record, missing among them, and the year's max / total.
  interface YearAcc { days: number; missing: number; max: number | null; maxDate: string | null; sum: number }
  const byYear = new Map<number, YearAcc>();
  for (const d of days) {
    const year = Number(d.date.slice(0, 4));
    let acc = byYear.get(year);
    if (!acc) byYear.set(year, (acc = { days: 0, missing: 0, max: null, maxDate: null, sum: 0 }));
    acc.days++;
    const v = d.value;
    if (typeof v !== 'number' || !Number.isFinite(v)) { acc.missing++; continue; }
    acc.sum += v;
    if (acc.max === null || v > acc.max) { acc.max = v; acc.maxDate = d.date; }
  }
  const years = [...byYear.keys()].sort((a, b) => a - b);

  const missingByYear: YearMissingOut[] = [];
  const annual: AnnualValue[] = [];
  const excluded: ExcludedYear[] = [];
  for (const year of years) {
    const acc = byYear.get(year)!;
    const calendar = isLeap(year) ? 366 : 365;
    const outside = calendar - acc.days;
    const missing = acc.missing + outside;
    if (missing > 0) {
      missingByYear.push({ year, calendar_days: calendar, days_in_record: acc.days, missing_in_record: acc.missing, outside_record: outside, missing_days: missing });
    }
    const allowed = allowedMissingDays(calendar, fraction);
    if (missing > allowed || acc.max === null) {
      excluded.push({ year, missing_days: missing, allowed_missing_days: allowed });
      continue;
    }
    annual.push(aggregation === 'max'
      ? { year, value: acc.max, date: acc.maxDate, missing_days: missing }
      : { year, value: acc.sum, date: null, missing_days: missing });
  }

  const values = annual.map((a) => a.value);
  const n = values.length;
  let extreme: ExtremeValueOut;
  if (n < SERIES_MIN_ANNUAL_VALUES) {
    extreme = {
      n, fit: null, return_levels: emptyLevels(),
      reason: `${n} complete year(s) of annual values; an extreme-value fit needs at least ${SERIES_MIN_ANNUAL_VALUES}`,
    };
  } else {
    try {
      const selection = selectExtremeValueFit(values);
      const chosen = selection.chosen;
      const a2 = andersonDarling(values, chosen);
      const intervals = returnLevelIntervals(chosen, n, SERIES_RETURN_PERIODS);
      extreme = {
        n,
        fit: {
          ...parameters(chosen),
          selection_rule: selection.rule,
          shape_z: finiteOrNull(selection.z),
          shape_standard_error: finiteOrNull(selection.shapeStandardError),
          candidates: { gev: parameters(selection.gev), gumbel: parameters(selection.gumbel) },
          goodness_of_fit: {
            ppcc: finiteOrNull(probabilityPlotCorrelation(values, chosen)),
            anderson_darling_a2: finiteOrNull(a2),
            note:
              'PPCC: Pearson correlation of the sorted annual values with fitted quantiles at Gringorten positions (Filliben 1975), 1 is a perfect fit; ' +
              'A²: Anderson–Darling statistic (Stephens 1974 form), smaller is better; with fitted parameters its textbook critical values do not apply' +
              (Number.isFinite(a2) ? '' : '; A² is null because an annual value lies outside the fitted support'),
          },
        },
        return_levels: SERIES_RETURN_PERIODS.map((t, j) => ({
          return_period_years: t,
          annual_exceedance_probability: 1 / t,
          value: finiteOrNull(returnLevel(chosen, t)),
          confidence_interval: { level: RETURN_LEVEL_CONFIDENCE.level, ...intervals[j]! },
          beyond_record: t > n,
        })),
        reason: null,
      };
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      extreme = { n, fit: null, return_levels: emptyLevels(), reason: `no fit: ${error.message}` };
    }
  }

  const statistic = aggregation === 'max' ? 'largest daily value of the calendar year' : 'total of the daily values of the calendar year';
  const allowed365 = Math.floor(fraction * 365 + 1e-9);
  const allowed366 = Math.floor(fraction * 366 + 1e-9);
  const ruleText =
    `a calendar year enters when at most ${Number((fraction * 100).toFixed(6))}% of its days lack a value (${allowed365} of 365, ${allowed366} of 366 days); ` +
    'days before the first or after the last day of the series count as missing, so partial first and last years usually drop out';
  const notes = [
    `values in ${series.unit}, as the series holds them (not converted)`,
    `annual value: the ${statistic} (calendar years, by the series' own day convention)`,
    ruleText,
    `extreme-value fit over the annual values by L-moments (Hosking 1990); ${extreme.n >= SERIES_MIN_ANNUAL_VALUES ? 'chosen by the selection rule' : 'no fit below ' + SERIES_MIN_ANNUAL_VALUES + ' annual values'}`,
    'return level x_T = F⁻¹(1 − 1/T): the level exceeded with annual probability 1/T; beyond_record is true when T exceeds n, the number of annual values the fit rests on (an extrapolation beyond the record)',
    `confidence_interval: ${RETURN_LEVEL_CONFIDENCE.level * 100}% parametric bootstrap, ${RETURN_LEVEL_CONFIDENCE.replicates} samples of n annual values from the chosen fit (seed ${RETURN_LEVEL_CONFIDENCE.seed}), each refitted by L-moments with the same family; bounds are the ${((1 - RETURN_LEVEL_CONFIDENCE.level) / 2) * 100}% and ${((1 + RETURN_LEVEL_CONFIDENCE.level) / 2) * 100}% quantiles of the replicated return levels`,
  ];
  if (aggregation === 'sum') notes.push('annual totals of years with a few missing days are low by the missing days\' values (not filled)');

  return {
    method: `annual ${aggregation === 'max' ? 'maxima' : 'totals'} of complete years, GEV or Gumbel by L-moments, return levels at ${SERIES_RETURN_PERIODS.join(', ')} years`,
    source_id: series.source_id,
    variable: options.variable ?? series.variable,
    series_variable: series.variable,
    unit: series.unit,
    aggregation,
    annual_statistic: statistic,
    record: {
      first_day: firstDay,
      last_day: lastDay,
      first_day_with_value: withValue[0]?.date ?? null,
      last_day_with_value: withValue.at(-1)?.date ?? null,
      days: days.length,
      days_with_value: withValue.length,
      missing_days: days.length - withValue.length,
      years_with_data: years.filter((y) => byYear.get(y)!.max !== null).length,
    },
    missing_by_year: missingByYear,
    completeness_rule: { max_missing_fraction: fraction, text: ruleText },
    annual_values: annual,
    years_excluded: excluded,
    extreme_value: extreme,
    notes,
  };
}

export interface SeriesHazardSummary extends SeriesSummary {
  /** The publisher's unit, before the conversion to SI. */
  readonly native_unit: string;
  readonly unit_conversion: { readonly from: string; readonly to: string; readonly factor: number } | null;
  /** Observations excluded by the data-quality rule, with date, native and SI value and reason. */
  readonly excluded_observations: SiObservation[];
  readonly quality_rule: { readonly text: string; readonly publisher_flags: readonly string[] };
}

/**
 * The hazard answer for a daily series: values converted to SI (mm, m/s, m3/s; counts as they are)
 * with the publisher's unit named beside them, and every excluded observation listed.
 */
export function seriesHazardSummary(series: DailySeries, options: Omit<SeriesSummaryOptions, 'unit'> = {}): SeriesHazardSummary {
  const probe = siConversion(series.unit);
  const converted: DailySeries = probe === null ? series : {
    ...series,
    unit: probe.unit,
    days: series.days.map((d) => (d.value === null ? d : { ...d, value: toSi(series.unit, d.value)!.value })),
  };
  const summary = seriesSummary(converted, options);
  return {
    ...summary,
    native_unit: series.unit,
    unit_conversion: probe === null ? null : { from: series.unit, to: probe.unit, factor: probe.factor },
    excluded_observations: excludedObservations(series).map(siObservation),
    quality_rule: { text: QUALITY_RULE_TEXT, publisher_flags: PUBLISHER_FLAG_RULES },
    notes: [
      ...summary.notes.filter((n) => !n.startsWith('values in ')),
      probe === null ? `values in ${series.unit}, the publisher's unit (no SI conversion known)` : `values in ${probe.unit} (SI), converted from the publisher's ${series.unit} (× ${probe.factor}), rounded to 6 decimals`,
    ],
  };
}
