// The term (period) of a structure replayed over historical years.
//
// Rule: the term's calendar part, from the month-day of period.start to the month-day of period.end
// (both days included, UTC days for timed records, the publisher's own day for daily series), is
// replayed in every historical year. A term whose end falls in the calendar year after its start
// (e.g. 1 December to 28 February) crosses New Year and belongs to the year it starts in: the term
// of year Y runs from the start day in Y to the end day in Y + 1. A term is at most one year long.
// 29 February: as a start day it is read as 1 March in common years, as an end day as 28 February.

import { DAY_MS, dayEpoch, isValidDate, isoDay } from '../../kernel/dates.js';

export interface TermRule {
  readonly start_month: number;
  readonly start_day: number;
  readonly end_month: number;
  readonly end_day: number;
  /** The term runs from its start day in year Y to its end day in year Y + 1. */
  readonly crosses_new_year: boolean;
}

export interface TermWindow {
  /** The historical year the term belongs to (the year it starts in). */
  readonly year: number;
  /** First day, YYYY-MM-DD. */
  readonly from: string;
  /** Last day (included), YYYY-MM-DD. */
  readonly to: string;
  /** 00:00 UTC of `from`. */
  readonly start_ms: number;
  /** 00:00 UTC of the day after `to` (exclusive end). */
  readonly end_ms: number;
  readonly days: number;
}

export type TermFault =
  | { readonly fault: 'period_date_invalid'; readonly message: string }
  | { readonly fault: 'period_end_before_start'; readonly message: string }
  | { readonly fault: 'period_longer_than_a_year'; readonly message: string };

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const pad = (n: number): string => String(n).padStart(2, '0');

/** The term rule of a period {start, end} (YYYY-MM-DD, end included), or the fault that refuses it. */
export function termRule(period: { readonly start: string; readonly end: string }): TermRule | TermFault {
  for (const [name, value] of [['start', period.start], ['end', period.end]] as const) {
    if (typeof value !== 'string' || !isValidDate(value)) {
      return { fault: 'period_date_invalid', message: `period.${name} ${JSON.stringify(value)} is not a calendar date YYYY-MM-DD` };
    }
  }
  const [sy, sm, sd] = period.start.split('-').map(Number) as [number, number, number];
  const [ey, em, ed] = period.end.split('-').map(Number) as [number, number, number];
  if (period.end < period.start) {
    return { fault: 'period_end_before_start', message: `period.end ${period.end} is before period.start ${period.start}` };
  }
  // The anniversary of the start (29 February rolls to 1 March): the term must end before it.
  const anniversary = isoDay(Date.UTC(sy + 1, sm - 1, sd));
  if (period.end >= anniversary) {
    return {
      fault: 'period_longer_than_a_year',
      message: `period ${period.start} to ${period.end} is longer than one year; a backtest replays an annual term (end it by ${isoDay(dayEpoch(anniversary) - DAY_MS)})`,
    };
  }
  return { start_month: sm, start_day: sd, end_month: em, end_day: ed, crosses_new_year: ey > sy };
}

export function isTermFault(x: TermRule | TermFault): x is TermFault {
  return 'fault' in x;
}

function startDay(year: number, month: number, day: number): string {
  if (month === 2 && day === 29 && !isLeap(year)) return `${year}-03-01`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function endDay(year: number, month: number, day: number): string {
  if (month === 2 && day === 29 && !isLeap(year)) return `${year}-02-28`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** The term of historical year `year`. */
export function termWindow(rule: TermRule, year: number): TermWindow {
  const from = startDay(year, rule.start_month, rule.start_day);
  const to = endDay(rule.crosses_new_year ? year + 1 : year, rule.end_month, rule.end_day);
  const start_ms = dayEpoch(from);
  const end_ms = dayEpoch(to) + DAY_MS;
  return { year, from, to, start_ms, end_ms, days: Math.round((end_ms - start_ms) / DAY_MS) };
}

/** The historical year whose term holds the instant, or null when it lies outside every term. */
export function termYearOf(rule: TermRule, epochMs: number): number | null {
  const y = new Date(epochMs).getUTCFullYear();
  for (const year of rule.crosses_new_year ? [y - 1, y] : [y]) {
    const w = termWindow(rule, year);
    if (epochMs >= w.start_ms && epochMs < w.end_ms) return year;
  }
  return null;
}

/** The term-year a day (YYYY-MM-DD) belongs to, or null outside every term. */
export function termYearOfDay(rule: TermRule, date: string): number | null {
  return termYearOf(rule, dayEpoch(date));
}

/** The term-years whose terms may hold instants between two times (inclusive), ascending. */
export function termYearsBetween(rule: TermRule, fromMs: number, toMs: number): number[] {
  const first = new Date(fromMs).getUTCFullYear() - (rule.crosses_new_year ? 1 : 0);
  const last = new Date(toMs).getUTCFullYear();
  const out: number[] = [];
  for (let y = first; y <= last; y++) {
    const w = termWindow(rule, y);
    if (w.start_ms <= toMs && w.end_ms > fromMs) out.push(y);
  }
  return out;
}

/** Days of the term, YYYY-MM-DD, in order. */
export function termDays(window: TermWindow): string[] {
  const out: string[] = [];
  for (let t = window.start_ms; t < window.end_ms; t += DAY_MS) out.push(isoDay(t));
  return out;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "1 June to 30 November of every year", "1 December to 28 February (crossing New Year; ...)". */
export function describeTermRule(rule: TermRule): string {
  const from = `${rule.start_day} ${MONTHS[rule.start_month - 1]}`;
  const to = `${rule.end_day} ${MONTHS[rule.end_month - 1]}`;
  const base = `The term runs from ${from} to ${to} (both days included) and is replayed in every historical year of the window`;
  return rule.crosses_new_year
    ? `${base}; it crosses New Year, and the term starting in year Y (ending ${to} of Y + 1) belongs to year Y, the year it starts in.`
    : `${base}.`;
}
