// Daily index over a term: rolling windows of whole days lying wholly inside the term, a window
// with a missing day not computed, the term maximum read by the payout function.
//
// Units: the daily values stay in the feed's native unit while they are aggregated (sums of GHCN
// tenths stay exact integers), then the window's value is converted to the trigger's unit and
// rounded to 6 decimal places. A trigger without a unit reads the feed's unit, tenths written whole
// (tenths of mm -> mm, tenths of m/s -> m/s; ft3/s, mm and customers as they are).

import { dayEpoch, isoDay, DAY_MS } from '../../kernel/dates.js';
import { nativeUnit as nativeUnitOf, statedUnit } from '../../kernel/units.js';
import type { DailySeries } from '../hazard/records.js';
import { roundIndex } from './payout.js';
import type { SeriesAggregation, UnitName } from './index.js';
import type { TermWindow } from './term.js';

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
