// The backtest: a structure's terms replayed year by year over one pinned snapshot, as a plain,
// deterministic JSON document (no clock, no randomness, no NaN; every list sorted).
//
// Window: the calendar years from_year..to_year, by default the first to the last calendar year of
// the feed's period_of_record. A window reaching outside those years is refused
// (unbacktestable_structure), never clipped. The partial first and last years are in the window:
// - a year whose term the record does not reach at all, a year the manifest lists in years_missing,
//   or (daily series) a year with no computable window has no record: payout null, left out of n,
//   named in data_coverage.years_missing. Never filled, never a zero.
// - a year whose term lacks more than 10% of its days (src/domain/quality.ts, the hazard
//   summaries' rule) is partial: what its days would have paid is shown (payout_on_partial_record)
//   but its payout is null and it is left out of n, named in data_coverage.partial_years.
// - a year lacking fewer days is complete and counted; its missing days are disclosed.
// Daily values excluded by the data-quality rule are missing days, each listed in
// data_coverage.excluded_observations with date, value and reason.

import { annualPayout, payoutTerms } from '../triggers/payout.js';
import { backtestStatistics, type BacktestStatistics, type YearResult } from './statistics.js';
import { replayYears, type OccurrenceOut, type YearWork } from './replay.js';
import { dataFault, faultAnswer, type StructureFault } from '../triggers/faults.js';
import { recordYears, type FeedRead } from '../triggers/feed.js';
import { DESIGNS } from '../triggers/index.js';
import type { BacktestWindow } from '../triggers/read.js';
import type { TriggerData } from '../triggers/records.js';
import type { Structure } from '../triggers/terms.js';
import type { UnitName } from '../triggers/vocabulary.js';
import { describeTermRule } from '../triggers/term.js';
import { PARTIAL_YEAR_MAX_MISSING_SHARE, PARTIAL_YEAR_RULE, PUBLISHER_FLAG_RULES, QUALITY_RULE_TEXT, type SiObservation } from '../quality.js';
import { BACKTEST_ENGINE } from '../../kernel/versions.js';
import { ok, refused, type Result } from '../../kernel/result.js';

export const HISTORY_STATEMENT =
  'History, not a forecast: this replays the structure\'s terms over the pinned historical record named in feed; it shows what the ' +
  'structure would have paid in past years had it been in force, not what it will pay. The record is short, incomplete in places ' +
  'and not a sample of the future (climate, exposure and reporting change); years the record lacks are disclosed, never filled.';

// ---------------------------------------------------------------------------------------------
// Output

export interface YearOut {
  readonly year: number;
  readonly term: { readonly from: string; readonly to: string };
  /** complete, partial (record covers part of the term, or some days missing) or missing (no record). */
  readonly record: 'complete' | 'partial' | 'missing';
  /** Net of the annual aggregate, in the structure's currency; null when the record lacks the year. */
  readonly payout: number | null;
  readonly gross_payout: number | null;
  readonly rate_on_line: number | null;
  readonly occurrences: readonly OccurrenceOut[];
  readonly [more: string]: unknown;
}

export interface BacktestArtifact {
  readonly kind: 'backtest';
  readonly statement: string;
  readonly feed: { readonly feed_id: string; readonly version: string; readonly sha256: string };
  readonly engine: typeof BACKTEST_ENGINE;
  readonly window: { readonly from_year: number; readonly to_year: number; readonly defaulted: boolean; readonly defaulted_members: readonly string[] };
  readonly structure: Record<string, unknown>;
  readonly currency: string;
  readonly years: readonly YearOut[];
  readonly statistics: BacktestStatistics;
  readonly burning_cost: {
    readonly by_year: readonly { readonly year: number; readonly payout: number | null; readonly rate_on_line: number | null }[];
    readonly average_rate_on_line: number | null;
    readonly basis: string;
  };
  readonly data_coverage: Record<string, unknown>;
  readonly selection: Record<string, unknown>;
  readonly conventions: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------

function failure(faults: StructureFault[]): Result<BacktestArtifact> {
  const v = { ok: false, structure: null, shape_faults: faults.filter((f) => f.kind === 'shape'), data_faults: faults.filter((f) => f.kind === 'data'), request_faults: faults.filter((f) => f.kind === 'request') };
  return refused(faultAnswer(v, 'backtest')!);
}

function rateOnLine(payout: number | null, limit: number): number | null {
  return payout === null ? null : payout / limit;
}

/**
 * Replays a structure over a pinned snapshot. `structure` is the terms read once and checked
 * against this feed and window (validateStructure, or checkStructure after reading the shape);
 * `feed` names the exact bytes read; `data` is what the feed readers parsed from them; `window` is
 * the request's {from_year, to_year} (optional). Refuses only what the records themselves show (a
 * unit the series cannot be read in, a window without a recorded year).
 */
export function runBacktest(structure: Structure, data: TriggerData, feed: FeedRead, window?: BacktestWindow | null): Result<BacktestArtifact> {
  const s = structure;
  const source = s.data_sources[0]!;
  if (source.feed_id !== feed.feed_id || source.version !== feed.version) {
    throw new Error(`the structure reads ${source.feed_id}/${source.version} but the replay was handed ${feed.feed_id}/${feed.version}`);
  }
  const design = DESIGNS[s.design];
  if (!design.data_kinds.includes(data.kind)) throw new Error(`a ${s.design} backtest reads ${design.data_kinds.join(' or ')} data, got ${data.kind}`);
  // A daily series counts its days and windows; an event record, the days its period of record covers.
  const daily = design.reader === 'daily_series';

  const years = recordYears(feed.manifest)!;
  const fromYear = window?.from_year ?? years.from;
  const toYear = window?.to_year ?? years.to;
  const defaultedMembers = [...(window?.from_year === undefined ? ['from_year'] : []), ...(window?.to_year === undefined ? ['to_year'] : [])];
  const { limit, annual_cap: annualCap, attachment, currency } = s.financial;

  // The design's measurement read year by year; the annual aggregate and the statistics are shared.
  const replayed = replayYears(s, data, feed, fromYear, toYear);
  if ('fault' in replayed) return failure([replayed]);
  const { work, selection } = replayed;
  const indexUnit = replayed.index_unit;

  // Years, statistics, burning cost.
  const results: YearResult[] = [];
  const yearsOut: YearOut[] = work.map((w) => {
    const out = yearOut(w, s.financial, daily);
    results.push({ year: out.year, payout: out.payout, gross_payout: out.gross_payout, paying_occurrences: w.occurrences.filter((o) => o.payout > 0).length });
    return out;
  });
  const statistics = backtestStatistics(results, annualCap);
  if (work.every((w) => w.coverage.record === 'missing')) {
    return failure([dataFault('no_recorded_year_in_window', 'window',
      `no year of the window ${fromYear} to ${toYear} has a record in ${feed.feed_id} ${feed.version} (every year is missing); nothing to replay`)]);
  }

  const artifact: BacktestArtifact = {
    kind: 'backtest',
    statement: HISTORY_STATEMENT,
    feed: { feed_id: feed.feed_id, version: feed.version, sha256: feed.sha256 },
    engine: BACKTEST_ENGINE,
    window: { from_year: fromYear, to_year: toYear, defaulted: defaultedMembers.length === 2, defaulted_members: defaultedMembers },
    structure: structureEcho(s, indexUnit),
    currency,
    years: yearsOut,
    statistics,
    burning_cost: {
      by_year: yearsOut.map((y) => ({ year: y.year, payout: y.payout, rate_on_line: y.rate_on_line })),
      average_rate_on_line: statistics.mean_annual_payout === null ? null : statistics.mean_annual_payout / limit,
      basis: `rate on line = payout / limit (${limit} ${currency}), year by year and averaged over the ${statistics.years} years with a record`,
    },
    data_coverage: dataCoverageOf(yearsOut, statistics, feed.manifest, { from: fromYear, to: toYear }, daily ? replayed.excluded : null),
    selection,
    conventions: {
      time_basis: daily
        ? 'Days are the publisher\'s own days (the series\' dates); term days are matched to them.'
        : 'Times are UTC; a term day runs 00:00 to 24:00 UTC; a record with a date only is placed at 00:00 UTC of that date.',
      term_rule: describeTermRule(s.term),
      occurrence_rule: replayed.occurrence_rule,
      payout_rule: payoutRule(s.payout),
      annual_aggregate:
        `A year pays min(${annualCap}, max(0, sum of its occurrence payouts − ${attachment})) ${currency}: financial_structure.attachment is an ` +
        `annual aggregate deductible on the year's sum; the annual cap is ${s.financial.annual_limit === null ? 'the limit (no annual_limit stated)' : 'financial_structure.annual_limit'}. ` +
        'Occurrence payouts are limit × fraction, in cents, before the annual aggregate.',
      window_rule: 'Default window: the first to the last calendar year of the period of record; a window outside it is refused, never clipped. Partial first and last years are in the window, shown and left out of n (see data_coverage).',
      partial_year_rule: PARTIAL_YEAR_RULE,
      statistics: 'Over the n years with a complete record (partial years left out): mean annual payout, standard deviation (n − 1), standard error s/√n, payment frequency and attachment probability (share of years paying anything, net of the annual attachment), trigger probability (share of years in which some occurrence pays before the annual aggregate attachment), exhaustion probability (share of years paying the annual cap), paying occurrences per year. Money is rounded to cents.',
      units: { index: indexUnit, currency, note: replayed.unit_note },
    },
  };
  return ok(artifact);
}

/** A year of the artifact: the annual aggregate applied to its work; a partial year shown, never counted. */
function yearOut(w: YearWork, financial: Structure['financial'], daily: boolean): YearOut {
  const { limit, annual_cap: annualCap, attachment } = financial;
  const observed = w.gross === null ? null : annualPayout(w.gross, { attachment, annual_cap: annualCap });
  // A partial year is shown, never counted: its payout stands aside and n leaves it out.
  const partial = w.coverage.record === 'partial';
  const payout = partial ? null : observed;
  const gross = partial ? null : w.gross;
  return {
    year: w.term.year,
    term: { from: w.term.from, to: w.term.to },
    record: w.coverage.record,
    payout,
    gross_payout: gross,
    rate_on_line: rateOnLine(payout, limit),
    ...(w.coverage.record === 'missing' ? { no_record_reason: w.coverage.reason } : {}),
    ...(partial ? {
      payout_on_partial_record: observed,
      partial_reason: `the term lacks ${w.term.days - w.coverage.days_covered} of its ${w.term.days} days, more than ${PARTIAL_YEAR_MAX_MISSING_SHARE * 100}%: shown, left out of n`,
    } : {}),
    ...(w.coverage.days_covered < w.term.days && w.coverage.record !== 'missing' && !daily ? { term_days: w.term.days, days_covered: w.coverage.days_covered } : {}),
    ...w.extra,
    occurrences: w.occurrences,
  };
}

/**
 * What the record covers of the window: years counted, missing and partial, and for a daily
 * series (excluded not null) its missing days and the observations the quality rule left out.
 */
function dataCoverageOf(
  yearsOut: readonly YearOut[],
  statistics: BacktestStatistics,
  manifest: FeedRead['manifest'],
  window: { readonly from: number; readonly to: number },
  excluded: readonly SiObservation[] | null,
): Record<string, unknown> {
  const daily = excluded !== null;
  const covered = yearsOut.filter((y) => y.record === 'complete');
  const partialYears = yearsOut.filter((y) => y.record === 'partial');
  const missing = yearsOut.filter((y) => y.record === 'missing');
  const inWindow = (y: number): boolean => y >= window.from && y <= window.to;
  return {
    period_of_record: { from: manifest.period_of_record?.from ?? null, to: manifest.period_of_record?.to ?? null },
    years_in_window: yearsOut.length,
    years_with_record: covered.length,
    years_counted: statistics.years,
    years_missing: missing.map((y) => y.year),
    years_missing_detail: missing.map((y) => ({ year: y.year, reason: y.no_record_reason as string })),
    manifest_years_missing: [...(manifest.years_missing ?? [])].filter(inWindow).sort((a, b) => a - b),
    years_without_events: [...(manifest.years_without_events ?? [])].filter(inWindow).sort((a, b) => a - b),
    zero_payout_years: covered.filter((y) => y.payout === 0).map((y) => y.year),
    partial_years: partialYears.map((y) => {
      const termDays = y.term_days as number;
      const daysCovered = daily ? termDays - (y.missing_days as number) : y.days_covered as number;
      return { year: y.year, term_days: termDays, days_covered: daysCovered, missing_share: (termDays - daysCovered) / termDays, payout_on_partial_record: y.payout_on_partial_record as number | null };
    }),
    partial_year_rule: { max_missing_share: PARTIAL_YEAR_MAX_MISSING_SHARE, text: PARTIAL_YEAR_RULE },
    missing_days_by_year: daily
      ? yearsOut.filter((y) => (y.missing_days as number) > 0).map((y) => ({
        year: y.year, term_days: y.term_days as number, missing_days: y.missing_days as number,
        windows_in_term: y.windows_in_term as number, windows_computed: y.windows_computed as number,
      }))
      : [],
    ...(daily ? {
      excluded_observations: excluded,
      quality_rule: { text: QUALITY_RULE_TEXT, publisher_flags: PUBLISHER_FLAG_RULES },
    } : {}),
    note: daily
      ? 'Years with no computable window have no record: payout null, left out of the statistics, named in years_missing. Missing days (null in the series, excluded by the quality rule, or outside the series) are never filled; a window holding one is not computed; they are counted per year in missing_days_by_year. Partial years are shown and left out of n (partial_years).'
      : 'Years the archive holds no record for (manifest years_missing, or a term the period of record does not reach) are left out of the statistics and named in years_missing, never filled. Years in years_without_events are covered years with no row in the extract: zeros, not gaps. A partly covered year is shown and left out of n when its term lacks more than 10% of its days (partial_years), counted otherwise.',
  };
}

/** The payout function in one sentence, for the artifact's conventions. */
function payoutRule(p: Structure['payout']): string {
  switch (p.function) {
    case 'ladder': return `Ladder: a value pays limit × the fraction of the highest level it reaches (at_least, inclusive), else nothing; basis ${p.basis}.`;
    case 'linear': return `Linear: a value x pays limit × clamp((x − ${p.attachment}) / (${p.exhaustion} − ${p.attachment}), 0, 1); basis ${p.basis}.`;
    case 'step_linear':
      return `Step-and-linear: a value x below ${p.attachment} pays nothing; from ${p.attachment} (inclusive) it pays limit × (${p.step} + (1 − ${p.step}) × (x − ${p.attachment}) / (${p.exhaustion} − ${p.attachment})), ` +
        `and from ${p.exhaustion} the whole limit; basis ${p.basis}.`;
  }
}

function structureEcho(s: Structure, unit: string): Record<string, unknown> {
  return {
    peril: { code: s.peril, ...(s.region ? { region: s.region } : {}) },
    trigger: {
      type: s.trigger_type,
      design: s.design,
      data_sources: s.data_sources.map((d) => ({ feed_id: d.feed_id, version: d.version })),
      measurement: {
        variable: s.measurement.variable,
        unit: unit as UnitName | string,
        ...(s.measurement.aggregation !== null ? { aggregation: s.measurement.aggregation } : {}),
        ...(s.measurement.element !== null ? { element: s.measurement.element } : {}),
        ...(s.measurement.max_depth_km !== null ? { max_depth_km: s.measurement.max_depth_km } : {}),
        ...(s.measurement.state !== undefined ? { state: s.measurement.state } : {}),
        ...(s.measurement.cause ? { cause: s.measurement.cause } : {}),
        ...(s.measurement.min_duration_hours ? { min_duration_hours: s.measurement.min_duration_hours } : {}),
      },
      ...(s.aggregation_window ? { aggregation_window: { duration: s.aggregation_window.duration } } : {}),
      payout: payoutTerms(s.payout),
    },
    financial_structure: {
      currency: s.financial.currency,
      limit: s.financial.limit,
      attachment: s.financial.attachment,
      annual_limit: s.financial.annual_limit,
      annual_cap: s.financial.annual_cap,
    },
    period: { start: s.period.start, end: s.period.end },
  };
}
