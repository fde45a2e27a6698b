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

import { REPORT_UNITS, type QuakeEvent, type ReportEvent, type DailySeries, type Storm, type TrackArchive, type EventCatalog } from '../hazard/records.js';
import type { Box } from '../geo.js';
import { boxOccurrences, selectQuakes, selectReports, type Selection } from '../triggers/cat-in-a-box.js';
import { seriesConversion, seriesDayIndex, termIndex, type TermIndex } from '../triggers/index-series.js';
import { annualPayout, occurrencePayout, roundMoney, triggerLevel } from '../triggers/payout.js';
import { backtestStatistics, type BacktestStatistics, type YearResult } from './statistics.js';
import { faultAnswer, FAULT_CATALOGUE, type StructureFault } from '../triggers/faults.js';
import { classOf, recordYears, type FeedClass, type FeedFacts } from '../triggers/feed.js';
import { DESIGNS, seriesElement } from '../triggers/index.js';
import type { BacktestWindow } from '../triggers/read.js';
import type { Structure } from '../triggers/terms.js';
import type { UnitName } from '../triggers/vocabulary.js';
import { describeTermRule, termWindow, termYearOf, type TermWindow } from '../triggers/term.js';
import { DAY_MS, dayEpoch } from '../../kernel/dates.js';

/** The term-year a day (YYYY-MM-DD) belongs to, or null outside every term. */
function termYearOfDay(rule: Parameters<typeof termYearOf>[0], date: string): number | null {
  return termYearOf(rule, dayEpoch(date));
}
import { gateCrossings, type GateUnit } from '../triggers/track-gate.js';
import {
  excludedObservations, isPartialYear, PARTIAL_YEAR_MAX_MISSING_SHARE, PARTIAL_YEAR_RULE, PUBLISHER_FLAG_RULES, QUALITY_RULE_TEXT,
  siObservation, type SiObservation,
} from '../quality.js';
import { BACKTEST_ENGINE } from '../../kernel/versions.js';
import { ok, refused, type Result } from '../../kernel/result.js';

export const HISTORY_STATEMENT =
  'History, not a forecast: this replays the structure\'s terms over the pinned historical record named in feed; it shows what the ' +
  'structure would have paid in past years had it been in force, not what it will pay. The record is short, incomplete in places ' +
  'and not a sample of the future (climate, exposure and reporting change); years the record lacks are disclosed, never filled.';

// ---------------------------------------------------------------------------------------------
// Inputs

export type BacktestData =
  | { readonly kind: 'quakes'; readonly events: readonly QuakeEvent[] }
  | { readonly kind: 'reports'; readonly events: readonly ReportEvent[]; readonly unit?: string }
  | { readonly kind: 'series'; readonly series: Pick<DailySeries, 'days' | 'unit' | 'variable' | 'source_id'> }
  | { readonly kind: 'tracks'; readonly storms: readonly Storm[] };

/** Wraps what src/feeds/readers.ts returns (eventCatalog, dailySeries, trackArchive). */
export function backtestData(read: EventCatalog | DailySeries | TrackArchive): BacktestData {
  if ('storms' in read) return { kind: 'tracks', storms: read.storms };
  if ('days' in read) return { kind: 'series', series: read };
  if (read.kind === 'quake') return { kind: 'quakes', events: read.events };
  return { kind: 'reports', events: read.events, unit: read.unit };
}

export interface FeedRead {
  readonly feed_id: string;
  readonly version: string;
  /** SHA-256 of the exact bytes read (the snapshot digest). */
  readonly sha256: string;
  /** The snapshot's manifest (kind, period_of_record, years_missing, years_without_events, units, coverage). */
  readonly manifest: FeedFacts;
  /** What the feed catalog says the feed is (src/feeds/catalog.ts feedClass). */
  readonly class?: FeedClass;
}

// ---------------------------------------------------------------------------------------------
// Output

export interface OccurrenceOut {
  /** Publisher's id: the peak event of a cluster, or the storm id; absent for a daily series. */
  readonly event_id?: string;
  readonly name?: string | null;
  /** ISO 8601 UTC of the peak event / strongest gate sample; null where only a date is published. */
  readonly time?: string | null;
  /** Date of the peak event, or the last day of a series window. */
  readonly date: string;
  /** First and last event (time, or date where only a date is published), or the window's days. */
  readonly from: string;
  readonly to: string;
  readonly value: number;
  readonly unit: string;
  /** limit × fraction, before the annual aggregate. */
  readonly payout: number;
  readonly [more: string]: unknown;
}

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

function dataFault(fault: string, path: string, message: string): StructureFault {
  return { fault, kind: FAULT_CATALOGUE[fault]!, path, message };
}

const iso = (ms: number): string => new Date(ms).toISOString();

interface Coverage {
  readonly record: 'complete' | 'partial' | 'missing';
  readonly days_covered: number;
  readonly reason: string | null;
}

/** How much of a year's term an event record (catalog, extract, archive) covers. */
function eventCoverage(term: TermWindow, manifest: FeedFacts): Coverage {
  const from = manifest.period_of_record?.from ?? null;
  const to = manifest.period_of_record?.to ?? null;
  const missing = new Set(manifest.years_missing ?? []);
  const start = from === null ? -Infinity : dayEpoch(from);
  const end = to === null ? Infinity : dayEpoch(to) + DAY_MS;
  let covered = 0;
  let inMissingYear = 0;
  for (let t = term.start_ms; t < term.end_ms; t += DAY_MS) {
    if (t < start || t >= end) continue;
    if (missing.has(new Date(t).getUTCFullYear())) { inMissingYear++; continue; }
    covered++;
  }
  if (covered === 0) {
    const reason = inMissingYear > 0 ? 'the archive holds no record for this year (manifest years_missing)'
      : `the term ${term.from} to ${term.to} lies outside the period of record (${from} to ${to})`;
    return { record: 'missing', days_covered: 0, reason };
  }
  return { record: isPartialYear(term.days - covered, term.days) ? 'partial' : 'complete', days_covered: covered, reason: null };
}

interface YearWork {
  readonly term: TermWindow;
  readonly coverage: Coverage;
  readonly occurrences: OccurrenceOut[];
  readonly gross: number | null;
  readonly extra: Record<string, unknown>;
}

function seriesCoverage(t: TermIndex, manifest: FeedFacts): Coverage {
  if (t.windows_computed === 0) {
    const listed = (manifest.years_missing ?? []).includes(t.year);
    const reason = listed ? 'the archive holds no record for this year (manifest years_missing)'
      : t.missing_days === t.term_days ? 'no value on any day of the term' : 'no window of the term has a value on every day';
    return { record: 'missing', days_covered: t.term_days - t.missing_days, reason };
  }
  return { record: isPartialYear(t.missing_days, t.term_days) ? 'partial' : 'complete', days_covered: t.term_days - t.missing_days, reason: null };
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
export function runBacktest(structure: Structure, data: BacktestData, feed: FeedRead, window?: BacktestWindow | null): Result<BacktestArtifact> {
  const s = structure;
  const source = s.data_sources[0]!;
  if (source.feed_id !== feed.feed_id || source.version !== feed.version) {
    throw new Error(`the structure reads ${source.feed_id}/${source.version} but the replay was handed ${feed.feed_id}/${feed.version}`);
  }
  const expected = DESIGNS[s.design].data_kinds;
  if (!expected.includes(data.kind)) throw new Error(`a ${s.design} backtest reads ${expected.join(' or ')} data, got ${data.kind}`);

  const years = recordYears(feed.manifest)!;
  const fromYear = window?.from_year ?? years.from;
  const toYear = window?.to_year ?? years.to;
  const defaultedMembers = [...(window?.from_year === undefined ? ['from_year'] : []), ...(window?.to_year === undefined ? ['to_year'] : [])];
  const { limit, annual_cap: annualCap, attachment, currency } = s.financial;
  const floor = triggerLevel(s.payout);

  let work: YearWork[] = [];
  let selection: Record<string, unknown> = {};
  let occurrenceRule = '';
  let indexUnit = '';
  let unitNote = '';
  let excluded: SiObservation[] = [];

  if (s.design === 'cat_in_a_box') {
    const box = s.gate as Box;
    let sel: Selection;
    if (data.kind === 'quakes') {
      sel = selectQuakes(data.events, { box, max_depth_km: s.measurement.max_depth_km, floor });
      indexUnit = 'magnitude';
      unitNote = 'Magnitudes are the catalog\'s preferred magnitudes, of mixed type (see the publisher\'s magType), read as published.';
    } else if (data.kind === 'reports') {
      const cls = classOf(feed);
      sel = selectReports(data.events, { box, floor, wildfire_only: cls.kind === 'fire_extract' });
      indexUnit = data.unit ?? data.events[0]?.unit ?? (cls.kind === 'fire_extract' ? 'acres' : cls.kind === 'storm_report_set' ? REPORT_UNITS[cls.report ?? 'hail'] : '');
      unitNote = cls.kind === 'fire_extract'
        ? 'Burned acres are MTBS mapped burned-area-boundary acres; a fire\'s point is the origin encoded in its Event_ID; only Incid_Type Wildfire is read; a fire is dated by its ignition date (Ig_Date, 00:00 UTC).'
        : `Report values are read in the report's own unit (${indexUnit}); report times are the publisher's local standard time converted to UTC.`;
    } else throw new Error('unreachable');
    const windowMs = s.aggregation_window!.ms;
    const occurrences = boxOccurrences(sel.rows, windowMs);
    selection = {
      events_in_snapshot: sel.events_in_snapshot,
      qualifying_rows: sel.rows.length,
      occurrences_in_snapshot: occurrences.length,
      excluded: sel.excluded,
      box,
      max_depth_km: s.measurement.max_depth_km,
      minimum_value: floor,
      unit: indexUnit,
    };
    occurrenceRule =
      `Rows in the box (edges inclusive)${s.measurement.max_depth_km !== null ? `, at most ${s.measurement.max_depth_km} km deep (a row without a depth is left out)` : ''} ` +
      `with a value of at least ${floor} ${indexUnit} (the payout's lowest level) are clustered by time only across the whole snapshot: ` +
      `a cluster opens at its first event and holds every later qualifying row within ${s.aggregation_window!.duration} of that first event ` +
      '(never of the previous one); the payout reads the cluster\'s peak (largest value, ties to the earliest). An occurrence belongs to ' +
      'the term and year in which its first event falls (UTC); members after the term\'s end still count toward its peak. ' +
      'The occurrence\'s event_id is its peak event\'s publisher id; event_ids lists every member.';
    const byYear = new Map<number, OccurrenceOut[]>();
    for (const occ of occurrences) {
      const year = termYearOf(s.term, occ.first.epoch_ms);
      if (year === null || year < fromYear || year > toYear) continue;
      const peak = occ.peak;
      const last = occ.events[occ.events.length - 1]!;
      const out: OccurrenceOut = {
        event_id: peak.event_id,
        time: peak.time,
        date: peak.date,
        from: occ.first.time ?? occ.first.date,
        to: last.time ?? last.date,
        value: peak.value,
        unit: indexUnit,
        payout: occurrencePayout(s.payout, limit, peak.value),
        latitude: peak.latitude,
        longitude: peak.longitude,
        ...(data.kind === 'quakes' ? { depth_km: peak.depth_km } : {}),
        event_count: occ.events.length,
        first_event_id: occ.first.event_id,
        event_ids: occ.events.map((e) => e.event_id),
      };
      const list = byYear.get(year) ?? [];
      list.push(out);
      byYear.set(year, list);
    }
    for (let y = fromYear; y <= toYear; y++) {
      const term = termWindow(s.term, y);
      const coverage = eventCoverage(term, feed.manifest);
      const list = coverage.record === 'missing' ? [] : byYear.get(y) ?? [];
      work.push(eventYear(term, coverage, list, s));
    }
  } else if (s.design === 'track_gate') {
    if (data.kind !== 'tracks') throw new Error('unreachable');
    const unit = (s.measurement.unit ?? 'kt') as GateUnit;
    indexUnit = unit;
    const crossings = gateCrossings(data.storms, s.gate!, s.term, unit);
    selection = {
      storms_in_archive: data.storms.length,
      storm_years_crossing_gate: crossings.length,
      storm_years_reaching_lowest_level: crossings.filter((c) => c.value >= floor).length,
      gate: s.region,
      minimum_value: floor,
      unit,
    };
    occurrenceRule =
      'Each storm is one occurrence, named by its publisher storm id. Its value in a year is the strongest 1-minute sustained wind among ' +
      'its track samples lying inside the gate (edges inclusive) and inside that year\'s term. Samples are every best-track fix with a wind ' +
      'value and every whole UTC hour strictly between two consecutive such fixes, position and wind interpolated linearly in time ' +
      '(fixes without a wind value are dropped first, so a fast crossing between two fixes counts). An occurrence\'s time is its strongest ' +
      'sample; from and to are its first and last samples inside the gate during the term. ' +
      (unit === 'category' ? 'The value is the Saffir-Simpson category of that wind (Cat 1 64-82 kt, 2 83-95, 3 96-112, 4 113-136, 5 >= 137).'
        : unit === 'm/s' ? 'Knots are converted to m/s at 1 kt = 1852/3600 m/s.' : 'The value is in knots.');
    unitNote = 'HURDAT2 and JTWC best tracks give 1-minute sustained wind in knots at (mostly) 6-hourly fixes.';
    const byYear = new Map<number, OccurrenceOut[]>();
    for (const c of crossings) {
      if (c.year < fromYear || c.year > toYear || c.value < floor) continue;
      const list = byYear.get(c.year) ?? [];
      list.push({
        event_id: c.storm_id,
        name: c.name,
        time: iso(c.crossing.epoch_ms),
        date: iso(c.crossing.epoch_ms).slice(0, 10),
        from: iso(c.entered_ms),
        to: iso(c.left_ms),
        value: c.value,
        unit,
        payout: occurrencePayout(s.payout, limit, c.value),
        wind_kt: Math.round(c.crossing.max_wind_kt * 1e6) / 1e6,
        category: c.crossing.category,
        latitude: Math.round(c.crossing.latitude * 1e6) / 1e6,
        longitude: Math.round(c.crossing.longitude * 1e6) / 1e6,
        interpolated: c.crossing.interpolated,
      });
      byYear.set(c.year, list);
    }
    for (let y = fromYear; y <= toYear; y++) {
      const term = termWindow(s.term, y);
      const coverage = eventCoverage(term, feed.manifest);
      work.push(eventYear(term, coverage, coverage.record === 'missing' ? [] : byYear.get(y) ?? [], s));
    }
  } else {
    if (data.kind !== 'series') throw new Error('unreachable');
    const conversion = seriesConversion(data.series.unit, s.measurement.unit);
    if ('fault' in conversion) {
      return failure([dataFault('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id}: ${conversion.fault}`)]);
    }
    indexUnit = conversion.unit;
    const windowDays = Math.round(s.aggregation_window!.ms / DAY_MS);
    const dayMap = seriesDayIndex(data.series);
    const element = seriesElement(s, classOf(feed));
    const first = termWindow(s.term, fromYear);
    const last = termWindow(s.term, toYear);
    excluded = excludedObservations(data.series, first.from, last.to)
      .filter((o) => { const y = termYearOfDay(s.term, o.date); return y !== null && y >= fromYear && y <= toYear; })
      .map(siObservation);
    selection = {
      source_id: data.series.source_id,
      variable: data.series.variable,
      element,
      native_unit: conversion.native_unit,
      unit: conversion.unit,
      factor: conversion.factor,
      days_in_series: data.series.days.length,
      first_day: data.series.days[0]?.date ?? null,
      last_day: data.series.days[data.series.days.length - 1]?.date ?? null,
    };
    occurrenceRule =
      `The daily values are aggregated by ${s.measurement.aggregation} over every window of ${windowDays} consecutive day${windowDays === 1 ? '' : 's'} ` +
      'lying wholly inside the year\'s term; a window with a missing day is not computed (never filled). The term maximum (largest window, ' +
      'earliest on ties, dated by its last day) is read by the payout function once a year (basis term_maximum).';
    unitNote = `The series is in ${conversion.native_unit}; windows are aggregated in that unit and then converted to ${conversion.unit}` +
      (conversion.factor === 1 ? '' : ` (× ${conversion.factor})`) + ', rounded to 6 decimal places.';
    for (let y = fromYear; y <= toYear; y++) {
      const term = termWindow(s.term, y);
      const t = termIndex(dayMap, term, windowDays, s.measurement.aggregation!, conversion);
      const coverage = seriesCoverage(t, feed.manifest);
      const occurrences: OccurrenceOut[] = [];
      if (coverage.record !== 'missing' && t.maximum && t.maximum.value >= floor) {
        occurrences.push({
          date: t.maximum.to, from: t.maximum.from, to: t.maximum.to, value: t.maximum.value, unit: conversion.unit,
          payout: occurrencePayout(s.payout, limit, t.maximum.value),
        });
      }
      const gross = coverage.record === 'missing' ? null : roundMoney(occurrences.reduce((a, o) => a + o.payout, 0));
      work.push({
        term, coverage, occurrences, gross,
        extra: {
          term_maximum: t.maximum === null ? null : { value: t.maximum.value, unit: conversion.unit, date: t.maximum.to, from: t.maximum.from, to: t.maximum.to },
          term_days: t.term_days,
          missing_days: t.missing_days,
          windows_in_term: t.windows_in_term,
          windows_computed: t.windows_computed,
        },
      });
    }
  }

  // Years, statistics, burning cost.
  const results: YearResult[] = [];
  const yearsOut: YearOut[] = work.map((w) => {
    const observed = w.gross === null ? null : annualPayout(w.gross, { attachment, annual_cap: annualCap });
    // A partial year is shown, never counted: its payout stands aside and n leaves it out.
    const partial = w.coverage.record === 'partial';
    const payout = partial ? null : observed;
    const gross = partial ? null : w.gross;
    results.push({ year: w.term.year, payout, gross_payout: gross, paying_occurrences: w.occurrences.filter((o) => o.payout > 0).length });
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
      ...(w.coverage.days_covered < w.term.days && w.coverage.record !== 'missing' && s.design !== 'index_series' ? { term_days: w.term.days, days_covered: w.coverage.days_covered } : {}),
      ...w.extra,
      occurrences: w.occurrences,
    };
  });
  const statistics = backtestStatistics(results, annualCap);
  if (work.every((w) => w.coverage.record === 'missing')) {
    return failure([dataFault('no_recorded_year_in_window', 'window',
      `no year of the window ${fromYear} to ${toYear} has a record in ${feed.feed_id} ${feed.version} (every year is missing); nothing to replay`)]);
  }

  const covered = yearsOut.filter((y) => y.record === 'complete');
  const partialYears = yearsOut.filter((y) => y.record === 'partial');
  const missing = yearsOut.filter((y) => y.record === 'missing');
  const inWindow = (y: number): boolean => y >= fromYear && y <= toYear;
  const dataCoverage: Record<string, unknown> = {
    period_of_record: { from: feed.manifest.period_of_record?.from ?? null, to: feed.manifest.period_of_record?.to ?? null },
    years_in_window: yearsOut.length,
    years_with_record: covered.length,
    years_counted: statistics.years,
    years_missing: missing.map((y) => y.year),
    years_missing_detail: missing.map((y) => ({ year: y.year, reason: y.no_record_reason as string })),
    manifest_years_missing: [...(feed.manifest.years_missing ?? [])].filter(inWindow).sort((a, b) => a - b),
    years_without_events: [...(feed.manifest.years_without_events ?? [])].filter(inWindow).sort((a, b) => a - b),
    zero_payout_years: covered.filter((y) => y.payout === 0).map((y) => y.year),
    partial_years: partialYears.map((y) => {
      const termDays = y.term_days as number;
      const daysCovered = s.design === 'index_series' ? termDays - (y.missing_days as number) : y.days_covered as number;
      return { year: y.year, term_days: termDays, days_covered: daysCovered, missing_share: (termDays - daysCovered) / termDays, payout_on_partial_record: y.payout_on_partial_record as number | null };
    }),
    partial_year_rule: { max_missing_share: PARTIAL_YEAR_MAX_MISSING_SHARE, text: PARTIAL_YEAR_RULE },
    missing_days_by_year: s.design === 'index_series'
      ? yearsOut.filter((y) => (y.missing_days as number) > 0).map((y) => ({
        year: y.year, term_days: y.term_days as number, missing_days: y.missing_days as number,
        windows_in_term: y.windows_in_term as number, windows_computed: y.windows_computed as number,
      }))
      : [],
    ...(s.design === 'index_series' ? {
      excluded_observations: excluded,
      quality_rule: { text: QUALITY_RULE_TEXT, publisher_flags: PUBLISHER_FLAG_RULES },
    } : {}),
    note: s.design === 'index_series'
      ? 'Years with no computable window have no record: payout null, left out of the statistics, named in years_missing. Missing days (null in the series, excluded by the quality rule, or outside the series) are never filled; a window holding one is not computed; they are counted per year in missing_days_by_year. Partial years are shown and left out of n (partial_years).'
      : 'Years the archive holds no record for (manifest years_missing, or a term the period of record does not reach) are left out of the statistics and named in years_missing, never filled. Years in years_without_events are covered years with no row in the extract: zeros, not gaps. A partly covered year is shown and left out of n when its term lacks more than 10% of its days (partial_years), counted otherwise.',
  };

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
    data_coverage: dataCoverage,
    selection,
    conventions: {
      time_basis: s.design === 'index_series'
        ? 'Days are the publisher\'s own days (the series\' dates); term days are matched to them.'
        : 'Times are UTC; a term day runs 00:00 to 24:00 UTC; a record with a date only is placed at 00:00 UTC of that date.',
      term_rule: describeTermRule(s.term),
      occurrence_rule: occurrenceRule,
      payout_rule: s.payout.function === 'ladder'
        ? `Ladder: a value pays limit × the fraction of the highest level it reaches (at_least, inclusive), else nothing; basis ${s.payout.basis}.`
        : `Linear: a value x pays limit × clamp((x − ${s.payout.attachment}) / (${s.payout.exhaustion} − ${s.payout.attachment}), 0, 1); basis ${s.payout.basis}.`,
      annual_aggregate:
        `A year pays min(${annualCap}, max(0, sum of its occurrence payouts − ${attachment})) ${currency}: financial_structure.attachment is an ` +
        `annual aggregate deductible on the year's sum; the annual cap is ${s.financial.annual_limit === null ? 'the limit (no annual_limit stated)' : 'financial_structure.annual_limit'}. ` +
        'Occurrence payouts are limit × fraction, in cents, before the annual aggregate.',
      window_rule: 'Default window: the first to the last calendar year of the period of record; a window outside it is refused, never clipped. Partial first and last years are in the window, shown and left out of n (see data_coverage).',
      partial_year_rule: PARTIAL_YEAR_RULE,
      statistics: 'Over the n years with a complete record (partial years left out): mean annual payout, standard deviation (n − 1), standard error s/√n, payment frequency and attachment probability (share of years paying anything, net of the annual attachment), trigger probability (share of years in which some occurrence pays before the annual aggregate attachment), exhaustion probability (share of years paying the annual cap), paying occurrences per year. Money is rounded to cents.',
      units: { index: indexUnit, currency, note: unitNote },
    },
  };
  return ok(artifact);
}

function eventYear(term: TermWindow, coverage: Coverage, list: OccurrenceOut[], s: Structure): YearWork {
  if (coverage.record === 'missing') return { term, coverage, occurrences: [], gross: null, extra: {} };
  let occurrences = list;
  if (s.payout.basis === 'term_maximum' && list.length > 0) {
    // One payout a year, from the largest occurrence value of the term (earliest on ties).
    let best = list[0]!;
    for (const o of list) if (o.value > best.value) best = o;
    occurrences = [best];
  }
  const gross = roundMoney(occurrences.reduce((a, o) => a + o.payout, 0));
  const extra: Record<string, unknown> = s.payout.basis === 'term_maximum'
    ? { term_maximum: occurrences[0] ? { value: occurrences[0].value, unit: occurrences[0].unit, date: occurrences[0].date, event_id: occurrences[0].event_id ?? null } : null }
    : {};
  return { term, coverage, occurrences, gross, extra };
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
      },
      ...(s.aggregation_window ? { aggregation_window: { duration: s.aggregation_window.duration } } : {}),
      payout: s.payout.function === 'ladder'
        ? { function: 'ladder', levels: s.payout.levels.map((l) => ({ at_least: l.at_least, fraction: l.fraction })), basis: s.payout.basis }
        : { function: 'linear', attachment: s.payout.attachment, exhaustion: s.payout.exhaustion, basis: s.payout.basis },
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
