// Cat-in-a-box: a box in peril.region and a payout on the peak of each occurrence of catalog or
// report rows in it. Its terms, its checks against the feed, its fitted views, and its occurrences:
// the catalog rows a box trigger reads, clustered with the occurrence rule shared with footprints
// (src/domain/occurrence.ts), each occurrence dated by its first event.
//
// Selection (every test inclusive):
// - earthquake: type == earthquake, a magnitude, the epicentre in the box, depth at most
//   max_depth_km when a limit is set (an event with no depth is then excluded), magnitude at least
//   the payout's lowest level;
// - report extracts: a value and a point, the point in the box, value at least the lowest level;
//   mapped fires also need Incid_Type == Wildfire (the point is the origin encoded in Event_ID).
// Clustering runs over the qualifying rows of the whole extract (never cut at a year or a term), so
// an occurrence is the same one GET /events/{peril}/{id}/footprint shows for that window and floor.
// An occurrence belongs to the term (and year) in which its first event falls; its payout reads the
// cluster's peak, members after the term's end included.

import { boxContains, boxWithin, type Box } from '../geo.js';
import { clusterOccurrences, type CatalogRow, type Occurrence } from '../occurrence.js';
import type { QuakeEvent, ReportEvent } from '../hazard/records.js';
import {
  annualTermsOut, coveredYears, empiricalView, eventAnnualPayout, FITTED_VIEW_MINIMUMS, structureLevels, money, param, poissonDispersion,
  publish, unavailable, type EmpiricalOccurrence, type EmpiricalOccurrences, type FittedView, type FittedViewInput, type Severity,
} from '../pricing/fitted-view.js';
import {
  annualExceedanceRate, fitGutenbergRichter, magnitudeBinIndex, MC_TIE_BREAK, type GutenbergRichterFit,
} from '../stats/gutenberg-richter.js';
import { REPORT_UNITS } from '../hazard/records.js';
import type { BacktestData, FeedRead, OccurrenceOut } from '../backtest/artifact.js';
import { eventCoverage, eventYear, type DesignReplay, type YearWork } from '../backtest/years.js';
import { FEED_PATH, type FeedUnderCheck, type TriggerDesign } from './design.js';
import { classifyFeed, classOf, coverageBoxOf, regionBox } from './feed.js';
import type { Faults, StructureFault } from './faults.js';
import { occurrencePayout, triggerLevel } from './payout.js';
import { readDuration, readPeakAggregation } from './read.js';
import { termWindow, termYearOf } from './term.js';
import type { Structure } from './terms.js';
import { BOX_FEED_KINDS, BOX_FEED_OF_PERIL, FEED_KIND_WORDS, REPORT_OF_VARIABLE, REPORT_UNIT } from './vocabulary.js';

export interface BoxRow extends CatalogRow {
  readonly event_id: string;
  readonly epoch_ms: number;
  /** Value the payout reads (magnitude, inches, knots, rating, acres). */
  readonly value: number;
  /** ISO 8601 UTC, or null where the publisher gives a date only. */
  readonly time: string | null;
  /** Date as published (YYYY-MM-DD). */
  readonly date: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly depth_km: number | null;
}

export interface Selection {
  readonly rows: BoxRow[];
  /** Rows of the snapshot read. */
  readonly events_in_snapshot: number;
  /** Why the other rows were left out: reason -> count (keys sorted). */
  readonly excluded: Record<string, number>;
}

function tally(excluded: Map<string, number>, reason: string): void {
  excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
}

function sorted(excluded: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...excluded.keys()].sort()) out[key] = excluded.get(key)!;
  return out;
}

export interface QuakeSelectionTerms {
  readonly box: Box;
  readonly max_depth_km: number | null;
  /** Lowest level of the payout. */
  readonly floor: number;
}

export function selectQuakes(events: readonly QuakeEvent[], terms: QuakeSelectionTerms): Selection {
  const excluded = new Map<string, number>();
  const rows: BoxRow[] = [];
  for (const e of events) {
    if (e.type !== 'earthquake') { tally(excluded, 'type_not_earthquake'); continue; }
    if (typeof e.magnitude !== 'number' || !Number.isFinite(e.magnitude)) { tally(excluded, 'no_magnitude'); continue; }
    if (!boxContains(terms.box, e)) { tally(excluded, 'outside_box'); continue; }
    if (terms.max_depth_km !== null) {
      if (e.depth_km === null) { tally(excluded, 'no_depth'); continue; }
      if (e.depth_km > terms.max_depth_km) { tally(excluded, 'deeper_than_limit'); continue; }
    }
    if (e.magnitude < terms.floor) { tally(excluded, 'below_lowest_level'); continue; }
    rows.push({
      event_id: e.event_id, epoch_ms: e.epoch_ms, value: e.magnitude, magnitude: e.magnitude, time: e.time,
      date: e.time.slice(0, 10), latitude: e.latitude, longitude: e.longitude, depth_km: e.depth_km,
    });
  }
  return { rows, events_in_snapshot: events.length, excluded: sorted(excluded) };
}

export interface ReportSelectionTerms {
  readonly box: Box;
  readonly floor: number;
  /** Mapped fires: keep Incid_Type == Wildfire only. */
  readonly wildfire_only: boolean;
}

export function selectReports(events: readonly ReportEvent[], terms: ReportSelectionTerms): Selection {
  const excluded = new Map<string, number>();
  const rows: BoxRow[] = [];
  for (const e of events) {
    if (terms.wildfire_only && e.fields.Incid_Type !== 'Wildfire') { tally(excluded, 'incident_type_not_wildfire'); continue; }
    if (typeof e.value !== 'number' || !Number.isFinite(e.value)) { tally(excluded, 'no_value'); continue; }
    if (e.latitude === null || e.longitude === null) { tally(excluded, 'no_point'); continue; }
    if (!boxContains(terms.box, { latitude: e.latitude, longitude: e.longitude })) { tally(excluded, 'outside_box'); continue; }
    if (e.value < terms.floor) { tally(excluded, 'below_lowest_level'); continue; }
    rows.push({
      event_id: e.event_id, epoch_ms: e.epoch_ms, value: e.value, time: e.time, date: e.date,
      latitude: e.latitude, longitude: e.longitude, depth_km: null,
    });
  }
  return { rows, events_in_snapshot: events.length, excluded: sorted(excluded) };
}

/** The occurrence rule over the selected rows (window in ms, measured from each cluster's first event). */
export function boxOccurrences(rows: readonly BoxRow[], windowMs: number): Occurrence<BoxRow>[] {
  return clusterOccurrences(rows, windowMs);
}

// ---------------------------------------------------------------------------------------------
// Terms and feed checks

function checkFeed(f: Faults, s: Structure, at: FeedUnderCheck): boolean {
  const { feed, cls } = at;
  const kindWords = at.kind_words;
  const v = s.measurement.variable;
  const p = FEED_PATH;
  const wanted = BOX_FEED_OF_PERIL[s.peril] ?? 'storm_report_set';
  if (cls.kind !== wanted) {
    const fault = (BOX_FEED_KINDS as readonly string[]).includes(cls.kind) ? 'feed_not_read_for_peril' : 'feed_kind_not_read';
    f.add(fault, p, `${feed.feed_id} is ${kindWords}; a ${s.peril} cat-in-a-box trigger reads ${FEED_KIND_WORDS[wanted]}`);
    return false;
  }
  if (cls.kind === 'storm_report_set') {
    const want = REPORT_OF_VARIABLE[v];
    if (cls.report === null) {
      f.add('measurement_not_in_feed', p, `${feed.feed_id}: the report type (hail, wind, tornado) cannot be told from the feed id`);
      return false;
    }
    if (want !== undefined && want !== cls.report) {
      f.add('measurement_not_in_feed', 'trigger.measurement.variable', `${feed.feed_id} is a ${cls.report} report extract; it holds no ${v}`);
      return false;
    }
    const own = REPORT_UNIT[cls.report];
    if (s.measurement.unit !== null && s.measurement.unit !== own) {
      f.add('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id} reports in ${own}; a ladder is written in the report's own unit`);
    }
  } else if (cls.kind === 'fire_extract' && s.measurement.unit !== null && s.measurement.unit !== 'acres') {
    f.add('unit_not_convertible', 'trigger.measurement.unit', `${feed.feed_id} maps burned area in acres; the ladder is written in acres`);
  }
  const coverage = coverageBoxOf(feed.manifest);
  if (coverage && s.region && !boxWithin(regionBox(s.region), coverage)) {
    f.add('region_outside_feed_coverage', 'peril.region',
      `peril.region is not wholly inside ${feed.feed_id}'s box (${coverage.min_latitude} to ${coverage.max_latitude} N, ${coverage.min_longitude} to ${coverage.max_longitude} E): events outside the extract are not in it`);
  }  return true;
}

// ---------------------------------------------------------------------------------------------
// Fitted views: Gutenberg–Richter over a quake catalog, a Poisson rate × empirical severity over
// storm reports and mapped fires

const LN10 = Math.LN10;


const GR_DESCRIPTION =
  'Gutenberg–Richter frequency–magnitude law fitted to the box\'s earthquake occurrences (DOMAIN.md "Fitted views"): ' +
  'occurrences Poisson in time at λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc)) a year; Aki (1965) maximum-likelihood b with Utsu\'s ' +
  'binning correction at ΔM = 0.1; Mc = max(maximum curvature (Wiemer & Wyss 2000), the catalog\'s stated floor).';

function quakeView(input: FittedViewInput): FittedView {
  const { structure: s, artifact, data, manifest, parameters } = input;
  if (data.kind !== 'quakes') throw new Error('a quake view reads quake data');
  const covered = coveredYears(artifact);
  const used = new Map(covered.map((c) => [c.year.year, c.exposure]));
  const exposure = covered.reduce((a, c) => a + c.exposure, 0);
  const sel = selectQuakes(data.events, { box: s.gate as Box, max_depth_km: s.measurement.max_depth_km, floor: -Infinity });
  const occurrences = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), magnitude: o.peak.value, event_id: o.peak.event_id }))
    .filter((o): o is { year: number; magnitude: number; event_id: string } => o.year !== null && used.has(o.year));
  const floorRaw = (manifest?.raw?.magnitude_floor as { value?: unknown } | undefined)?.value;
  const floor = typeof floorRaw === 'number' && Number.isFinite(floorRaw) ? floorRaw : null;
  const u = triggerLevel(s.payout);
  const sample = {
    earthquakes_selected: sel.rows.length,
    excluded: sel.excluded,
    occurrences_in_covered_terms: occurrences.length,
    years_used: covered.length,
    exposure_years: publish(exposure),
    exposure_rule: 'T = Σ over the counted years of the share of the term the record covers (1 for a fully covered year, days covered / term days for a year lacking at most 10% of its term; partial years are not counted)',
    declustering: `the structure's own occurrence rule over every selected earthquake (no magnitude floor): clustered by time within ${s.aggregation_window!.duration} of each cluster's first event; the fit reads each occurrence's peak magnitude, dated by its first event`,
    magnitude_floor: floor,
  };
  let fit: GutenbergRichterFit;
  try {
    fit = fitGutenbergRichter(occurrences.map((o) => o.magnitude), { years: exposure, ...(floor !== null ? { floorMagnitude: floor } : {}) });
  } catch (error) {
    return unavailable(s.design, 'gutenberg_richter_poisson', GR_DESCRIPTION, `no Gutenberg–Richter fit: ${(error as Error).message}`, sample);
  }
  if (fit.n < FITTED_VIEW_MINIMUMS.occurrences_at_or_above_mc) {
    return unavailable(s.design, 'gutenberg_richter_poisson', GR_DESCRIPTION,
      `${fit.n} occurrence(s) at or above Mc ${fit.mc}; a Gutenberg–Richter view needs at least ${FITTED_VIEW_MINIMUMS.occurrences_at_or_above_mc}`, sample);
  }
  const rate = annualExceedanceRate(fit, u);
  const sev: Severity = { kind: 'gutenberg_richter', threshold: u, b: fit.b };
  const annual = eventAnnualPayout(s, rate, sev, parameters);

  // Uncertainty: b (Shi & Bolt; Aki beside it), the rate at Mc (Poisson √N/T), a by the delta method.
  const rateSe = Math.sqrt(fit.n) / fit.years;
  const aSe = Math.sqrt(1 / (fit.n * LN10 * LN10) + (fit.mc * fit.standardErrorShiBolt) ** 2);
  const levels = [...new Set([fit.mc, ...structureLevels(s)])].sort((a, b) => a - b);
  const observedVsFitted = levels.map((m) => {
    const observed = occurrences.filter((o) => magnitudeBinIndex(o.magnitude, fit.binWidth) >= magnitudeBinIndex(m, fit.binWidth)).length;
    return { magnitude: m, observed_count: observed, observed_annual_rate: publish(observed / exposure), fitted_annual_rate: publish(annualExceedanceRate(fit, m)), fitted_count: publish(annualExceedanceRate(fit, m) * exposure) };
  });
  // Kolmogorov–Smirnov distance on the binned magnitudes at or above Mc: P(bin ≥ Mc + jΔM) = 10^(−b·jΔM).
  const mcBin = magnitudeBinIndex(fit.mc, fit.binWidth);
  const bins = occurrences.map((o) => magnitudeBinIndex(o.magnitude, fit.binWidth)).filter((k) => k >= mcBin);
  let ks = 0;
  const top = Math.max(...bins);
  for (let k = mcBin; k <= top + 1; k++) {
    const empirical = bins.filter((x) => x >= k).length / bins.length;
    ks = Math.max(ks, Math.abs(empirical - 10 ** (-fit.b * (k - mcBin) * fit.binWidth)));
  }
  const countsAtMc = covered.map((c) => occurrences.filter((o) => o.year === c.year.year && magnitudeBinIndex(o.magnitude, fit.binWidth) >= mcBin).length);

  const notes: string[] = [
    'Magnitudes are the catalog\'s preferred magnitudes, of mixed type (magType), read as published.',
    'The law is unbounded above (no maximum magnitude); the largest ladder level\'s rate is the fit\'s extrapolation where the record is thin.',
    `The payout's lowest level u = ${u}; occurrences reaching it arrive at ν = λ(u) = ${publish(rate)} a year with magnitude u + Exp(b·ln10).`,
  ];
  if (u < fit.mc) notes.push(`u = ${u} lies below Mc = ${fit.mc}: λ(u) extrapolates the law below the magnitude the catalog is complete to.`);
  return {
    design: s.design,
    method: 'gutenberg_richter_poisson',
    available: true,
    reason: null,
    description: GR_DESCRIPTION,
    sample,
    parameters: [
      param('b', fit.b, fit.standardErrorShiBolt, null, `maximum likelihood (Aki–Utsu); standard error Shi & Bolt (1982); Aki (1965) b/√N = ${publish(fit.standardErrorAki)}`),
      param('a_annual', fit.aAnnual, aSe, null, 'log10 of the annual rate at M = 0: log10(N(≥Mc)/T) + b·Mc; standard error by the delta method from √N and the b error'),
      param('mc', fit.mc, null, 'magnitude', `completeness: max(maximum curvature ${fit.mcMaxCurvature}, stated floor ${floor ?? 'none'} on the 0.1 grid); tie-break: ${MC_TIE_BREAK}`),
      param('n_at_or_above_mc', fit.n, null, 'occurrences', null),
      param('mean_magnitude_at_or_above_mc', fit.meanMagnitude, null, 'magnitude', null),
      param('exposure_years', fit.years, null, 'years', null),
      param('annual_rate_at_mc', fit.annualRateAtMc, rateSe, 'per year', 'N(≥Mc)/T; standard error √N/T (Poisson)'),
      param('lowest_level', u, null, 'magnitude', 'the payout\'s lowest level u'),
      param('annual_rate_at_lowest_level', rate, null, 'per year', 'λ(u)'),
    ],
    goodness_of_fit: {
      observed_vs_fitted: observedVsFitted,
      kolmogorov_smirnov_binned: publish(ks),
      kolmogorov_smirnov_note: 'largest distance between the empirical and the fitted survival of the binned magnitudes at or above Mc (Mc + jΔM, j = 0, 1, ...); the fit\'s own parameters are used, so textbook critical values do not apply',
      poisson_dispersion: poissonDispersion(countsAtMc),
    },
    expected_annual_payout_before_annual_terms: money(annual.before),
    expected_annual_payout: money(annual.mean),
    standard_deviation_annual_payout: money(annual.sd),
    annual_terms: annualTermsOut(s, annual),
    notes,
  };
}


/** Storm reports and mapped fires: the occurrences the backtest pays from, in the covered years. */
function reportOccurrences(input: FittedViewInput): EmpiricalOccurrences {
  const { structure: s, artifact, data, manifest, feed_class } = input;
  const used = new Set(coveredYears(artifact).map((c) => c.year.year));
  const floor = triggerLevel(s.payout);
  if (data.kind !== 'reports') throw new Error('an empirical view of a box reads reports');
  const cls = feed_class ?? classifyFeed(manifest?.kind);
  const sel = selectReports(data.events, { box: s.gate as Box, floor, wildfire_only: cls.kind === 'fire_extract' });
  const list = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), value: o.peak.value, id: o.peak.event_id }))
    .filter((o): o is EmpiricalOccurrence => o.year !== null && used.has(o.year));
  const unit = data.unit ?? data.events[0]?.unit ?? '';
  return { list, unit, sample: { rows_selected: sel.rows.length, excluded: sel.excluded, qualifying_occurrences: list.length, minimum_value: floor, unit } };
}

// ---------------------------------------------------------------------------------------------
// The replay: the window's years over the snapshot

/** The box's occurrences in each year of the window, paid per occurrence or from the term maximum. */
function replay(s: Structure, data: BacktestData, feed: FeedRead, fromYear: number, toYear: number): DesignReplay | StructureFault {
  const floor = triggerLevel(s.payout);
  const { limit } = s.financial;
  const work: YearWork[] = [];
  let selection: Record<string, unknown>;
  let occurrenceRule: string;
  let indexUnit: string;
  let unitNote: string;
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
  return { work, selection, occurrence_rule: occurrenceRule, index_unit: indexUnit, unit_note: unitNote, excluded: [] };
}

// ---------------------------------------------------------------------------------------------

export const CAT_IN_A_BOX: TriggerDesign = {
  design: 'cat_in_a_box',
  measurement_members: ['variable', 'max_depth_km', 'unit', 'aggregation'],
  // wind_speed is read in knots as a cat-in-a-box report value (the report's own unit).
  units: { wind_speed: ['kt'] },
  readAggregation: (f, m, p) => readPeakAggregation(f, m, p, 'an occurrence pays on its peak'),
  reads_window: true,
  readWindow: (f, aw) => readDuration(f, aw, 'trigger.aggregation_window.duration is missing: the occurrence window (e.g. P7D) clusters catalog rows'),
  payout: {
    bases: ['per_occurrence', 'term_maximum'], default_basis: 'per_occurrence',
    bases_read: 'a cat-in-a-box trigger pays per occurrence (per_occurrence) or once from the term maximum (term_maximum)',
  },
  region: {
    missing: 'peril.region is missing: a cat-in-a-box trigger reads the box in peril.region',
    box_only: 'peril.region.type must be "box" for a cat-in-a-box trigger (a polygon gate is read by a track gate)',
  },
  checkFeed,
  replay,
  reader: 'event_catalog',
  data_kinds: ['quakes', 'reports'],
  fittedView: (input) => (input.data.kind === 'quakes' ? quakeView(input) : empiricalView(input, reportOccurrences(input))),
};
