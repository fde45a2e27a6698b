// Index series: a daily series at a station, gauge or county, aggregated over rolling windows and
// paid once a year from the term maximum. Its terms, its checks against the feed, and its
// measurement: rolling windows of whole days lying wholly inside the term, a window with a missing
// day not computed, the term maximum read by the payout function (and fitted by extreme values,
// src/domain/pricing/extreme-value-view.ts).
//
// Units: the daily values stay in the feed's native unit while they are aggregated (sums of GHCN
// tenths stay exact integers), then the window's value is converted to the trigger's unit and
// rounded to 6 decimal places. A trigger without a unit reads the feed's unit, tenths written whole
// (tenths of mm -> mm, tenths of m/s -> m/s; ft3/s, mm and customers as they are).

import { dayEpoch, isoDay, DAY_MS } from '../../kernel/dates.js';
import { nativeUnit as nativeUnitOf, statedUnit } from '../../kernel/units.js';
import type { DailySeries } from '../hazard/records.js';
import { excludedObservations, isPartialYear, siObservation } from '../quality.js';
import { FEED_PATH, type Coverage, type FeedUnderCheck, type IndexMeasurement, type TriggerDesign } from './design.js';
import { classOf, type FeedClass, type FeedFacts, type FeedRead } from './feed.js';
import { dataFault, type Faults, type StructureFault } from './faults.js';
import { roundIndex } from './payout.js';
import { readDuration, show, type Obj } from './read.js';
import type { TriggerData } from './records.js';
import { termWindow, termYearOfDay, type TermRule, type TermWindow } from './term.js';
import type { Structure } from './terms.js';
import {
  DEFAULT_WIND_ELEMENT, GHCN_WIND_ELEMENTS, SERIES_AGGREGATIONS, SERIES_OF_VARIABLE, SERIES_READ_BY_PERIL, type SeriesAggregation, type UnitName,
} from './vocabulary.js';

export interface UnitConversion {
  /** The series' native unit (DailySeries.unit). */
  readonly native_unit: string;
  /** The unit of the index and of the payout levels. */
  readonly unit: UnitName;
  /** index value = native value × factor. */
  readonly factor: number;
}

/**
 * How native values become the trigger's unit, or a message saying why they cannot (an unknown
 * native unit, or a unit of another dimension).
 */
export function seriesConversion(nativeUnit: string, requested: UnitName | null): UnitConversion | { readonly fault: string } {
  const native = nativeUnitOf(nativeUnit);
  if (!native) return { fault: `the series' unit ${JSON.stringify(nativeUnit)} is not one the backtest converts from` };
  const unit = requested ?? (native.whole as UnitName);
  const target = statedUnit(unit);
  if (!target || target.dimension !== native.dimension) {
    return { fault: `the series is in ${nativeUnit} (${native.dimension}); it cannot be read in ${unit}` };
  }
  const factor = native.base / target.base;
  return { native_unit: nativeUnit, unit, factor };
}

export interface WindowValue {
  /** First day of the window. */
  readonly from: string;
  /** Last day of the window (the date the value is dated by). */
  readonly to: string;
  /** In the trigger's unit, rounded to 6 decimal places. */
  readonly value: number;
}

export interface TermIndex {
  readonly year: number;
  readonly term_from: string;
  readonly term_to: string;
  readonly term_days: number;
  /** Term days with no value: null in the series, or outside the series' days. */
  readonly missing_days: number;
  /** Windows of the stated length lying wholly inside the term. */
  readonly windows_in_term: number;
  /** Of which every day has a value. */
  readonly windows_computed: number;
  /** Largest window value (earliest on ties); null when no window was computed. */
  readonly maximum: WindowValue | null;
}

/**
 * A series indexed by day number: values[k] is the native value of the k-th day after `first`
 * (NaN = no usable value). Built once per series (the parsed series is shared and immutable), so a
 * replay reads numbers by offset instead of building a date-keyed map and date strings every run.
 */
export interface DayIndex {
  /** 00:00 UTC of the series' first day. */
  readonly first_ms: number;
  readonly values: Float64Array;
}

const dayIndexes = new WeakMap<object, DayIndex>();

export function seriesDayIndex(series: Pick<DailySeries, 'days'>): DayIndex {
  const cached = dayIndexes.get(series.days);
  if (cached) return cached;
  const days = series.days;
  const first_ms = days.length === 0 ? 0 : dayEpoch(days[0]!.date);
  const span = days.length === 0 ? 0 : Math.round((dayEpoch(days[days.length - 1]!.date) - first_ms) / DAY_MS) + 1;
  const values = new Float64Array(span).fill(Number.NaN);
  for (const d of days) {
    if (typeof d.value === 'number' && Number.isFinite(d.value)) values[Math.round((dayEpoch(d.date) - first_ms) / DAY_MS)] = d.value;
  }
  const index = { first_ms, values };
  dayIndexes.set(series.days, index);
  return index;
}

/**
 * The index over one term: every window of `windowDays` consecutive days lying wholly inside the
 * term, those with a missing day left out, aggregated and converted; the term maximum.
 */
export function termIndex(
  days: DayIndex,
  term: TermWindow,
  windowDays: number,
  aggregation: SeriesAggregation,
  conversion: Pick<UnitConversion, 'factor'>,
): TermIndex {
  if (!Number.isInteger(windowDays) || windowDays < 1) throw new RangeError(`window must be a whole number of days >= 1, got ${windowDays}`);
  const length = term.days;
  const offset = Math.round((term.start_ms - days.first_ms) / DAY_MS);
  const at = (i: number): number => {
    const k = offset + i;
    return k >= 0 && k < days.values.length ? days.values[k]! : Number.NaN;
  };
  let missing = 0;
  for (let i = 0; i < length; i++) if (Number.isNaN(at(i))) missing++;
  let windows = 0;
  let computed = 0;
  let best: { end: number; value: number } | null = null;
  for (let end = windowDays - 1; end < length; end++) {
    windows++;
    // Aggregated in day order, as a plain sum over the window (no running sum: no drift).
    let sum = 0;
    let max = -Infinity;
    let complete = true;
    for (let i = end - windowDays + 1; i <= end; i++) {
      const v = at(i);
      if (Number.isNaN(v)) { complete = false; break; }
      sum += v;
      if (v > max) max = v;
    }
    if (!complete) continue;
    computed++;
    const raw = aggregation === 'max' ? max : aggregation === 'sum' ? sum : sum / windowDays;
    const value = roundIndex(raw * conversion.factor);
    if (best === null || value > best.value) best = { end, value };
  }
  const dayOf = (i: number): string => isoDay(term.start_ms + i * DAY_MS);
  return {
    year: term.year, term_from: term.from, term_to: term.to, term_days: length,
    missing_days: missing, windows_in_term: windows, windows_computed: computed,
    maximum: best === null ? null : { from: dayOf(best.end - windowDays + 1), to: dayOf(best.end), value: best.value },
  };
}

// ---------------------------------------------------------------------------------------------
// Terms and feed checks

function readAggregation(f: Faults, m: Obj, p: string): SeriesAggregation | null {
  if (m.aggregation === undefined || m.aggregation === null) {
    f.add('measurement_aggregation_missing', `${p}.aggregation`,
      `${p}.aggregation is missing: state how the daily values are aggregated over the window (sum, max or mean)`);
    return null;
  }
  if (!SERIES_AGGREGATIONS.includes(m.aggregation as SeriesAggregation)) {
    f.add('measurement_aggregation_unknown', `${p}.aggregation`, `${p}.aggregation ${show(m.aggregation)} is not one of sum, max, mean`);
    return null;
  }
  return m.aggregation as SeriesAggregation;
}

/** Shortest term the rule gives (29 February makes some years a day longer). */
function shortestTermDays(rule: TermRule): number {
  return Math.min(termWindow(rule, 2001).days, termWindow(rule, 2004).days, termWindow(rule, 2003).days);
}

/** Whole days, at least one, and no longer than the shortest term: a window lies wholly inside a term. */
function readWindow(f: Faults, aw: unknown, term: TermRule | null): { duration: string; ms: number } | null {
  const window = readDuration(f, aw, 'trigger.aggregation_window.duration is missing: the window (whole days, e.g. P3D) the daily values are aggregated over');
  if (window === null) return null;
  const { duration, ms } = window;
  if (ms <= 0 || ms % 86_400_000 !== 0) {
    f.add('aggregation_window_not_whole_days', 'trigger.aggregation_window.duration',
      `trigger.aggregation_window.duration ${duration} is not a whole number of days (at least P1D): a daily series is aggregated over whole days`);
    return null;
  }
  if (term !== null && ms / 86_400_000 > shortestTermDays(term)) {
    f.add('aggregation_window_longer_than_term', 'trigger.aggregation_window.duration',
      `trigger.aggregation_window.duration ${duration} is longer than the term (${shortestTermDays(term)} days): no window lies wholly inside it`);
    return null;
  }
  return window;
}

function checkFeed(f: Faults, s: Structure, at: FeedUnderCheck): boolean {
  const { feed, cls } = at;
  const kindWords = at.kind_words;
  const v = s.measurement.variable;
  const p = FEED_PATH;
  if (cls.kind !== 'daily_series' && cls.kind !== 'outage_series') {
    f.add('feed_kind_not_read', p, `${feed.feed_id} is ${kindWords}; a parametric_index on ${v} reads a daily series`);
    return false;
  }
  const series = cls.series;
  // The combinations SPEC refuses by name.
  if (series === 'rainfall' && (s.peril === 'tropical_cyclone' || s.peril === 'flood')) {
    f.add(s.peril === 'flood' ? 'flood_on_rainfall_series' : 'tropical_cyclone_on_rainfall_series', p,
      `a ${s.peril} structure written on a rainfall series (${feed.feed_id}) is refused: ${at.model_words}`);
    return false;
  }
  if (s.peril === 'grid_outage' && series !== 'outage') {
    f.add('grid_outage_not_on_outage_series', p, `a grid_outage structure reads a county outage series only; ${feed.feed_id} is ${kindWords}`);
    return false;
  }
  if (s.peril === 'weather_station' && series === 'outage') {
    f.add('weather_station_on_outage_series', p, `a weather_station structure is not written on a county outage series (${feed.feed_id}): ${at.model_words}`);
    return false;
  }
  if (series === null) {
    f.add('feed_kind_not_read', p, `${feed.feed_id}: what the series measures (rainfall, wind, discharge, outages) cannot be told from the feed`);
    return false;
  }
  if (!(SERIES_READ_BY_PERIL[s.peril] ?? []).includes(series)) {
    f.add('feed_not_read_for_peril', p, `${feed.feed_id} is a ${series} series; the ${s.peril} model reads ${at.model_words}`);
    return false;
  }
  if (SERIES_OF_VARIABLE[v] !== series) {
    f.add('measurement_not_in_feed', 'trigger.measurement.variable', `${feed.feed_id} is a ${series} series; it holds no ${v}`);
    return false;
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
  return true;
}

// ---------------------------------------------------------------------------------------------
// Measurement: the window's terms over the snapshot

/** The element a daily index reads (trigger's element, else the feed's default); null for feeds without elements. */
export function seriesElement(structure: Structure, feedClass: FeedClass | undefined): string | null {
  if (feedClass?.kind !== 'daily_series' || !feedClass.elements) return null;
  return structure.measurement.element ?? feedClass.elements.default_element;
}

/** A year with no computable window has no record; one lacking more than 10% of its days is partial. */
function seriesCoverage(t: TermIndex, manifest: FeedFacts): Coverage {
  if (t.windows_computed === 0) {
    const listed = (manifest.years_missing ?? []).includes(t.year);
    const reason = listed ? 'the archive holds no record for this year (manifest years_missing)'
      : t.missing_days === t.term_days ? 'no value on any day of the term' : 'no window of the term has a value on every day';
    return { record: 'missing', days_covered: t.term_days - t.missing_days, reason };
  }
  return { record: isPartialYear(t.missing_days, t.term_days) ? 'partial' : 'complete', days_covered: t.term_days - t.missing_days, reason: null };
}

function occurrenceRule(s: Structure, windowDays: number): string {
  return `The daily values are aggregated by ${s.measurement.aggregation} over every window of ${windowDays} consecutive day${windowDays === 1 ? '' : 's'} ` +
    'lying wholly inside the year\'s term; a window with a missing day is not computed (never filled). The term maximum (largest window, ' +
    'earliest on ties, dated by its last day) is read by the payout function once a year (basis term_maximum).';
}

/** The term maximum of the rolling windows in each year of the window, paid once a year. */
function measure(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): IndexMeasurement | StructureFault {
  if (data.kind !== 'series') throw new Error('a daily index reads a series');
  const conversion = seriesConversion(data.series.unit, s.measurement.unit);
  if ('fault' in conversion) {
    return dataFault('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id}: ${conversion.fault}`);
  }
  const windowDays = Math.round(s.aggregation_window!.ms / DAY_MS);
  const dayMap = seriesDayIndex(data.series);
  const first = termWindow(s.term, fromYear);
  const last = termWindow(s.term, toYear);
  const excluded = excludedObservations(data.series, first.from, last.to)
    .filter((o) => { const y = termYearOfDay(s.term, o.date); return y !== null && y >= fromYear && y <= toYear; })
    .map(siObservation);
  const unit = conversion.unit;
  return {
    selection: {
      source_id: data.series.source_id,
      variable: data.series.variable,
      element: seriesElement(s, classOf(feed)),
      native_unit: conversion.native_unit,
      unit,
      factor: conversion.factor,
      days_in_series: data.series.days.length,
      first_day: data.series.days[0]?.date ?? null,
      last_day: data.series.days[data.series.days.length - 1]?.date ?? null,
    },
    occurrence_rule: occurrenceRule(s, windowDays),
    index_unit: unit,
    unit_note: `The series is in ${conversion.native_unit}; windows are aggregated in that unit and then converted to ${unit}` +
      (conversion.factor === 1 ? '' : ` (× ${conversion.factor})`) + ', rounded to 6 decimal places.',
    excluded,
    term: (term) => {
      const t = termIndex(dayMap, term, windowDays, s.measurement.aggregation!, conversion);
      const max = t.maximum;
      return {
        coverage: seriesCoverage(t, feed.manifest),
        occurrences: max === null ? [] : [{ date: max.to, from: max.from, to: max.to, value: max.value, unit }],
        extra: {
          term_maximum: max === null ? null : { value: max.value, unit, date: max.to, from: max.from, to: max.to },
          term_days: t.term_days,
          missing_days: t.missing_days,
          windows_in_term: t.windows_in_term,
          windows_computed: t.windows_computed,
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------

export const INDEX_SERIES: TriggerDesign = {
  design: 'index_series',
  measurement_members: ['variable', 'aggregation', 'unit', 'element'],
  readAggregation,
  reads_window: true,
  readWindow,
  payout: {
    bases: ['term_maximum'], default_basis: 'term_maximum',
    bases_read: 'a daily index pays once a year from the term maximum of its rolling windows (term_maximum); overlapping windows are not paid one by one',
  },
  region: null,
  checkFeed,
  reader: 'daily_series',
  data_kinds: ['series'],
  measure,
  // Extreme values of the term maxima: the backtest's own years are the sample.
  fittedSample: () => ({ method: 'extreme_value_term_maxima' }),
};
