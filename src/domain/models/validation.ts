// The mandatory validation pass of a composed model, and its card. Five checks, each with its
// figure: replay determinism (two replays byte-identical), payout bounded by the limit and
// monotone in the index, a record long enough to price (the price's own rule), a backtest over the
// full period of record that pays in at least one year, and units consistent from the feed to the
// payout levels. Pure: the replays and the price are handed in by the use case that ran them.

import type { BacktestArtifact } from '../backtest/artifact.js';
import { MINIMUM_COUNTED_YEARS, RECORD_NEEDED_TO_PRICE, type PriceDocument } from '../pricing/technical-price.js';
import { annualPayout, payoutFraction, payoutLevels, type PayoutFunction } from '../triggers/payout.js';
import type { Structure } from '../triggers/terms.js';
import { canonicalUnitName, UNITS_BY_VARIABLE } from '../triggers/vocabulary.js';
import type { Composition } from './compose.js';
import { measurementOf } from './primitives.js';

/** The financial structure the validation pass replays a composition with: one unit of limit per year. */
export const REFERENCE_FINANCIAL = { currency: 'USD', limit: 1_000_000, attachment: 0 } as const;

export const VALIDATION_CHECKS = ['replay_determinism', 'payout_bounded_and_monotone', 'record_long_enough_to_price', 'backtest_pays', 'units_consistent'] as const;
export type CheckName = (typeof VALIDATION_CHECKS)[number];

export interface Check {
  readonly name: CheckName;
  readonly passed: boolean;
  /** What was measured, in numbers. */
  readonly figure: Readonly<Record<string, unknown>>;
  readonly rule: string;
  readonly message: string;
}

export const CHECK_RULES: Readonly<Record<CheckName, string>> = {
  replay_determinism: 'The backtest over the full period of record is replayed twice from the pinned snapshot; the two artifacts must be byte-identical canonical JSON (same SHA-256).',
  payout_bounded_and_monotone: 'The payout fraction is evaluated at every level of the payout function and between them (and below and above them); it must lie in [0, 1] (an occurrence pays at most the limit), never fall as the index rises, and every replayed year must pay at most the annual cap.',
  record_long_enough_to_price: RECORD_NEEDED_TO_PRICE,
  backtest_pays: 'The backtest over the full period of record must pay in at least one counted year: a model that never paid in the record cannot be priced from it.',
  units_consistent: 'The unit the index is read in (the feed\'s own, or the one unit_conversion names) must be a unit the measured variable is read in, the replay must read the index in that unit, and the payout levels are stated in it.',
};

/** The index values a payout function is checked at: its levels, midpoints, and beyond both ends. */
export function payoutProbePoints(payout: PayoutFunction): number[] {
  const levels = payoutLevels(payout);
  const lo = Math.min(...levels);
  const hi = Math.max(...levels);
  const span = hi - lo || Math.abs(hi) || 1;
  const points = new Set<number>([lo - span, hi + span, hi * 10 + span]);
  const sorted = [...new Set(levels)].sort((a, b) => a - b);
  sorted.forEach((l, i) => {
    points.add(l);
    points.add(l - span * 1e-6);
    const next = sorted[i + 1];
    if (next !== undefined) for (let k = 1; k < 10; k++) points.add(l + ((next - l) * k) / 10);
  });
  return [...points].sort((a, b) => a - b);
}

export function payoutCheck(s: Structure, artifact: BacktestArtifact): Check {
  const points = payoutProbePoints(s.payout);
  const fractions = points.map((x) => payoutFraction(s.payout, x));
  const outside = fractions.filter((f) => !(f >= 0 && f <= 1)).length;
  let falls = 0;
  for (let i = 1; i < fractions.length; i++) if (fractions[i]! < fractions[i - 1]!) falls++;
  const cap = s.financial.annual_cap;
  const payouts = artifact.years.map((y) => y.payout).filter((p): p is number => typeof p === 'number');
  const maxAnnual = payouts.length > 0 ? Math.max(...payouts) : 0;
  // The annual aggregate itself cannot exceed its cap even for a year of many full payouts.
  const worstYear = annualPayout(s.financial.limit * 1000, { attachment: s.financial.attachment, annual_cap: cap });
  const passed = outside === 0 && falls === 0 && maxAnnual <= cap && worstYear <= cap;
  return {
    name: 'payout_bounded_and_monotone', passed, rule: CHECK_RULES.payout_bounded_and_monotone,
    figure: {
      points_checked: points.length, lowest_fraction: Math.min(...fractions), highest_fraction: Math.max(...fractions), decreases: falls,
      limit: s.financial.limit, annual_cap: cap, highest_annual_payout: maxAnnual,
    },
    message: passed
      ? `the payout stays within [0, 1] of the limit and never falls as the index rises (${points.length} index values); no year pays above the annual cap ${cap}`
      : `the payout is not bounded and monotone: ${outside} of ${points.length} index values pay outside [0, 1] of the limit, it falls ${falls} times, the largest year pays ${maxAnnual} against an annual cap of ${cap}`,
  };
}

export function determinismCheck(first: string, second: string, firstSha: string, secondSha: string): Check {
  const passed = first === second;
  return {
    name: 'replay_determinism', passed, rule: CHECK_RULES.replay_determinism,
    figure: { first_sha256: firstSha, second_sha256: secondSha, bytes: first.length },
    message: passed ? `two replays are byte-identical (${first.length} bytes, SHA-256 ${firstSha})` : `two replays differ (SHA-256 ${firstSha} and ${secondSha})`,
  };
}

export function recordCheck(artifact: BacktestArtifact): Check {
  const counted = artifact.statistics.years;
  const passed = counted >= MINIMUM_COUNTED_YEARS;
  return {
    name: 'record_long_enough_to_price', passed, rule: CHECK_RULES.record_long_enough_to_price,
    figure: { counted_years: counted, minimum_counted_years: MINIMUM_COUNTED_YEARS, window: { from_year: artifact.window.from_year, to_year: artifact.window.to_year } },
    message: passed
      ? `${counted} counted years of ${artifact.feed.feed_id} ${artifact.feed.version} (${artifact.window.from_year} to ${artifact.window.to_year}), at least ${MINIMUM_COUNTED_YEARS}`
      : `the record is too short to price: ${counted} counted year${counted === 1 ? '' : 's'} of ${artifact.feed.feed_id} ${artifact.feed.version}, fewer than ${MINIMUM_COUNTED_YEARS}`,
  };
}

export function paysCheck(artifact: BacktestArtifact): Check {
  const paying = artifact.statistics.years_paying;
  const passed = paying >= 1;
  return {
    name: 'backtest_pays', passed, rule: CHECK_RULES.backtest_pays,
    figure: { years_paying: paying, counted_years: artifact.statistics.years, mean_annual_payout: artifact.statistics.mean_annual_payout },
    message: passed
      ? `the backtest over ${artifact.window.from_year} to ${artifact.window.to_year} pays in ${paying} of ${artifact.statistics.years} counted years`
      : `the backtest over ${artifact.window.from_year} to ${artifact.window.to_year} pays in no year of ${artifact.statistics.years}: the model never paid in its record`,
  };
}

export function unitsCheck(s: Structure, artifact: BacktestArtifact): Check {
  const variable = s.measurement.variable;
  const read = (artifact.conventions.units as { index: string }).index;
  const stated = s.measurement.unit;
  const allowed = UNITS_BY_VARIABLE[variable] ?? [];
  const readCanonical = canonicalUnitName(String(read));
  const passed = (stated === null || stated === readCanonical) && readCanonical !== null && allowed.includes(readCanonical);
  return {
    name: 'units_consistent', passed, rule: CHECK_RULES.units_consistent,
    figure: { variable, units_read_in: allowed, unit_stated: stated, index_unit: read, payout_levels_unit: read },
    message: passed
      ? `${variable} is read in ${read}${stated === null ? ' (the feed\'s own unit)' : ' (unit_conversion)'}, and the payout levels are stated in ${read}`
      : `units are not consistent: ${variable} ${stated === null ? '' : `stated in ${stated} `}is read in ${read}, not one of ${allowed.join(', ')}`,
  };
}

export interface ValidationReport {
  readonly passed: boolean;
  readonly checks: readonly Check[];
  readonly reference_financial_structure: typeof REFERENCE_FINANCIAL & { readonly annual_limit: number };
  readonly backtest: { readonly id: string; readonly window: { readonly from_year: number; readonly to_year: number } };
}

/** A failed check as a detail of the 422 model_validation_failed. */
export function failedDetails(checks: readonly Check[]): string[] {
  return checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.message}`);
}

/** The model card: intended use, data and licence, method, limitations, backtest summary, metrics. */
export function modelCard(input: {
  readonly name: string; readonly version: string; readonly description: string | null; readonly composition: Composition;
  readonly peril: string; readonly structure: Structure; readonly artifact: BacktestArtifact & { readonly id: string }; readonly price: PriceDocument;
  readonly manifest: { readonly publisher?: string | null; readonly license?: unknown; readonly title?: string | null; readonly period_of_record?: unknown; readonly coverage?: unknown };
}): Record<string, unknown> {
  const { composition: c, artifact: a, price: p, structure: s } = input;
  const m = measurementOf(c.measurement)!;
  return {
    model: { name: input.name, version: input.version },
    intended_use: `A technical price, never a quote, for a parametric ${input.peril} cover paying on ${m.sentence.charAt(0).toLowerCase()}${m.sentence.slice(1, -1)}, replayed over the pinned record of ${c.feed.id}. ${input.description ?? ''}`.trim(),
    data: {
      feed: { feed_id: a.feed.feed_id, version: a.feed.version, sha256: a.feed.sha256 },
      title: input.manifest.title ?? null,
      publisher: input.manifest.publisher ?? null,
      licence: input.manifest.license ?? null,
      period_of_record: input.manifest.period_of_record ?? null,
    },
    method: {
      primitives: { feed: c.feed, measurement: c.measurement, transforms: c.transforms, payout_function: c.payout_function },
      replay: `The composition is written as ${s.trigger_type} structure terms (design ${s.design}, variable ${s.measurement.variable}) and replayed by the backtest engine ${a.engine.name} ${a.engine.version}; occurrences: ${String(a.conventions.occurrence_rule)}`,
      term: a.conventions.term_rule,
      payout: a.conventions.payout_rule,
      price: `${p.model.name} ${p.model.version}: the burn blended with a fitted view by credibility, loaded for risk and expenses.`,
    },
    limitations: [
      'A technical price over a pinned historical record: the record is the only evidence, and years outside it are not modelled.',
      'The data-quality rule of the service applies: excluded observations are missing days, partial years are left out of n.',
      `The validation figures are for a reference financial structure of ${REFERENCE_FINANCIAL.limit} ${REFERENCE_FINANCIAL.currency} of limit with no attachment; a run prices the object's own financial structure.`,
      'Basis risk: the index is measured at the feed, not at the insured locations.',
    ],
    backtest_summary: {
      id: a.id,
      window: { from_year: a.window.from_year, to_year: a.window.to_year },
      counted_years: a.statistics.years,
      years_paying: a.statistics.years_paying,
      mean_annual_payout: a.statistics.mean_annual_payout,
      standard_deviation: a.statistics.standard_deviation,
      payment_frequency: a.statistics.payment_frequency,
      largest_year: a.statistics.largest_year ?? null,
    },
    metrics: {
      currency: p.currency,
      reference_limit: REFERENCE_FINANCIAL.limit,
      expected_loss: p.blend.expected_loss,
      technical_premium: p.technical_premium.amount,
      rate_on_line: p.technical_premium.rate_on_line,
      burn_mean: p.historical_burn.mean,
      credibility_z: p.blend.z,
      fitted_view_available: p.fitted_view.available,
    },
  };
}
