// Data quality of measured observations: one rule per measured variable, applied where a daily
// series is parsed, so the backtest, the price, the hazard summary and monitoring all read the
// same values. An observation is excluded when the publisher's own quality flag says it failed a
// check, or when it lies outside the variable's physical bounds below. An excluded day has no
// value (null, never filled) and keeps its raw value and reason in the day's flags
// ("excluded=<reason>;raw=<native value>"), so every consumer can list it (excludedObservations).
//
// The same module holds the one partial-year rule: a year whose term (or calendar year) lacks
// more than PARTIAL_YEAR_MAX_MISSING_SHARE of its days is partial, left out of n everywhere.

import { baseConversion, nativeUnit } from '../kernel/units.js';

/** A year lacking more than this share of its days (term days, or calendar days) is partial. */
export const PARTIAL_YEAR_MAX_MISSING_SHARE = 0.1;

/** Days a year of `days` days may lack and still count: floor(share × days). */
export function allowedMissingDays(days: number, share: number = PARTIAL_YEAR_MAX_MISSING_SHARE): number {
  return Math.floor(share * days + 1e-9);
}

/** True when a year of `days` days lacking `missing` of them is partial (left out of n). */
export function isPartialYear(missing: number, days: number, share: number = PARTIAL_YEAR_MAX_MISSING_SHARE): boolean {
  return missing > allowedMissingDays(days, share);
}

export const PARTIAL_YEAR_RULE =
  `A year whose term lacks more than ${PARTIAL_YEAR_MAX_MISSING_SHARE * 100}% of its days (floor(${PARTIAL_YEAR_MAX_MISSING_SHARE} × term days); ` +
  'days with no value, excluded by the quality rule, or outside the record all count as lacking) is partial: it is named in ' +
  'data_coverage.partial_years and left out of n, exactly as the hazard summaries leave out calendar years.';

export type MeasuredVariable = 'rainfall' | 'wind_speed' | 'discharge' | 'customers_out';

export interface QualityBounds {
  /** The unit the bounds are stated in (SI, or a count). */
  readonly unit: string;
  /** Values below this are excluded (inclusive bound). */
  readonly minimum: number;
  /** Values above this are excluded (inclusive bound); null when only a per-record bound applies. */
  readonly maximum: number | null;
  readonly why: string;
}

/** The documented bounds, per measured variable. */
export const QUALITY_BOUNDS: Readonly<Record<MeasuredVariable, QualityBounds>> = {
  rainfall: {
    unit: 'mm/day', minimum: 0, maximum: 1825,
    why: 'no negative rain; 1,825 mm is the world 24-hour record (Foc-Foc, La Réunion, 1966), so a larger day total is not a measurement',
  },
  wind_speed: {
    unit: 'm/s', minimum: 0, maximum: 75,
    why: 'no negative speed; a daily wind or gust above 75 m/s at a land station is physically implausible outside the strongest tropical cyclone eyewalls (DOMAIN.md "Data quality")',
  },
  discharge: {
    unit: 'm3/s', minimum: 0, maximum: 350_000,
    why: 'no negative mean daily flow at these gauges; 350,000 m3/s is above the largest river flows ever gauged (the Amazon at Óbidos)',
  },
  customers_out: {
    unit: 'customers', minimum: 0, maximum: null,
    why: 'no negative count; a snapshot reporting more customers out than the county\'s customer count in the same row is not a measurement',
  },
};

/** Publisher flags: which mark a value the publisher itself does not stand behind. */
export const PUBLISHER_FLAG_RULES: readonly string[] = [
  'GHCN-Daily: a non-blank QFLAG (the value failed an NCEI quality check) excludes the value; MFLAG T (trace) is kept as 0.',
  'USGS NWIS daily values: A (approved), P (provisional) and e (estimated) are the publisher\'s published values and are kept (counted in the parse quirks); ' +
    'a value qualified < or > (true value beyond it), X (erroneous), or one of the no-measurement codes (Ice, Eqp, Bkw, Dis, Mnt, Ssn, Rat, Fld, Pr, Zfl, ***) is excluded; -999999 and a non-numeric value cell are no value.',
  'Bureau of Meteorology CDO: Quality N (not yet quality controlled, not failed) is kept and flagged Q=N; a multi-day accumulation is not one day\'s value (null, total kept).',
  'KNMI: the file carries no quality flag; only the bounds apply.',
  'GEMA/HS outages: the feed carries no quality flag; a snapshot is screened against the bounds before the daily peak is taken.',
];

export const QUALITY_RULE_TEXT =
  'An observation is excluded (no value that day, never filled, listed with date, value and reason) when the publisher\'s own quality ' +
  'flag marks it as failed, or when it lies outside the physical bounds of its variable: ' +
  (Object.entries(QUALITY_BOUNDS) as [MeasuredVariable, QualityBounds][])
    .map(([v, b]) => `${v} ${b.minimum} to ${b.maximum ?? 'the row\'s own ceiling'} ${b.unit}`).join('; ') +
  '. The same rule is applied where the series is parsed, so backtests, prices, hazard summaries and monitoring read the same values.';

export type ExclusionReason =
  | 'publisher_quality_flag'
  | 'publisher_qualifier'
  | 'below_physical_bound'
  | 'above_physical_bound'
  | 'above_customer_count';

/**
 * The reason an observation (in the bounds' unit) is excluded, or null when it is kept.
 * `ceiling` is a per-record upper bound (the county's customer count for an outage snapshot).
 */
export function screenObservation(variable: MeasuredVariable, value: number, ceiling?: number | null): ExclusionReason | null {
  const b = QUALITY_BOUNDS[variable];
  if (value < b.minimum) return 'below_physical_bound';
  if (b.maximum !== null && value > b.maximum) return 'above_physical_bound';
  if (ceiling !== undefined && ceiling !== null && Number.isFinite(ceiling) && value > ceiling) return 'above_customer_count';
  return null;
}

/** The measured variable of a publisher element or column, or null when no rule covers it. */
export function measuredVariable(element: string): MeasuredVariable | null {
  const e = element.toUpperCase();
  if (e === 'PRCP' || e === 'RD' || e.startsWith('RAINFALL')) return 'rainfall';
  if (/^(AWND|WSF[0-9GM]|WSFI)$/.test(e)) return 'wind_speed';
  if (e === '00060') return 'discharge';
  if (e === 'OUTAGE_COUNT') return 'customers_out';
  return null;
}

/** Screens a value in a native unit; null when kept (or when no rule covers the element or unit). */
export function screenNative(element: string, unitName: string, raw: number, ceiling?: number | null): ExclusionReason | null {
  const variable = measuredVariable(element);
  const factor = nativeUnit(unitName)?.base;
  if (variable === null || factor === undefined) return raw < 0 ? 'below_physical_bound' : null;
  return screenObservation(variable, raw * factor, ceiling);
}

/** The flag tokens written on an excluded day. */
export function exclusionFlags(reason: ExclusionReason, raw: number, detail?: string): string[] {
  return [`excluded=${reason}`, `raw=${raw}`, ...(detail ? [`detail=${detail}`] : [])];
}

export interface ExcludedObservation {
  /** The publisher's element or column code the value belongs to (PRCP, WSF5, 00060, ...). */
  readonly element: string;
  readonly date: string;
  /** The publisher's value in the series' native unit. */
  readonly value: number;
  readonly unit: string;
  readonly reason: string;
  /** The publisher's flag or code behind a flag exclusion, when there is one. */
  readonly detail?: string;
}

function flagTokens(flags: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const token of (flags ?? '').split(';')) {
    const i = token.indexOf('=');
    if (i > 0) out.set(token.slice(0, i), token.slice(i + 1));
  }
  return out;
}

/**
 * Every excluded observation of a series (optionally only days from..to, inclusive), in date order:
 * the days whose flags carry excluded=<reason> and raw=<value> (for a day built from several
 * readings, the largest excluded one).
 */
export function excludedObservations(
  series: { readonly unit: string; readonly variable: string; readonly days: readonly { readonly date: string; readonly value: number | null; readonly flags?: string }[] },
  from?: string,
  to?: string,
): ExcludedObservation[] {
  const out: ExcludedObservation[] = [];
  for (const d of series.days) {
    // A day may keep a value and still carry an excluded reading (an outage snapshot screened out
    // before the daily peak): it is listed too.
    if (d.flags === undefined || !d.flags.includes('excluded=')) continue;
    if ((from !== undefined && d.date < from) || (to !== undefined && d.date > to)) continue;
    const t = flagTokens(d.flags);
    const raw = Number(t.get('raw'));
    if (!Number.isFinite(raw)) continue;
    const detail = t.get('detail') ?? (t.has('Q') ? `QFLAG ${t.get('Q')}` : t.has('cd') ? `code ${t.get('cd')}` : undefined);
    out.push({ element: series.variable, date: d.date, value: raw, unit: series.unit, reason: t.get('excluded')!, ...(detail ? { detail } : {}) });
  }
  return out;
}

export interface SiObservation extends ExcludedObservation {
  /** The value in SI (mm, m/s, m3/s) or a count; null when the native unit has no known factor. */
  readonly value_si: number | null;
  readonly unit_si: string | null;
}

/** Factor and SI unit of a native unit (value in SI = native × factor), or null when unknown. */
export function siConversion(unitName: string): { factor: number; unit: string } | null {
  return baseConversion(unitName);
}

/** A value in a native unit in SI (mm, m/s, m3/s; counts as they are), rounded to 6 decimals; null when unknown. */
export function toSi(unitName: string, value: number): { value: number; unit: string } | null {
  const c = baseConversion(unitName);
  if (c === null) return null;
  return { value: Math.round(value * c.factor * 1e6) / 1e6 || 0, unit: c.unit };
}

/** An excluded observation with its SI value beside the native one: the form every result lists. */
export function siObservation(o: ExcludedObservation): SiObservation {
  const si = toSi(o.unit, o.value);
  return { ...o, value_si: si?.value ?? null, unit_si: si?.unit ?? null };
}
