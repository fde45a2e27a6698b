// Cat-in-a-box: a box in peril.region and a payout on the peak of each occurrence of catalog or
// report rows in it. Its terms, its checks against the feed, what its fitted views read, and its
// occurrences: the catalog rows a box trigger reads, clustered with the occurrence rule shared with
// footprints (src/domain/occurrence.ts), each occurrence dated by its first event.
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
import { REPORT_UNITS, type QuakeEvent, type ReportEvent } from '../hazard/records.js';
import { eventTerms } from './coverage.js';
import {
  FEED_PATH, type EmpiricalOccurrence, type FeedUnderCheck, type FittedFeed, type FittedSample, type IndexMeasurement, type OccurrenceReading,
  type TriggerDesign,
} from './design.js';
import { classifyFeed, classOf, coverageBoxOf, regionBox, type FeedClass, type FeedRead } from './feed.js';
import type { Faults } from './faults.js';
import { triggerLevel } from './payout.js';
import { readDuration, readPeakAggregation } from './read.js';
import type { TriggerData } from './records.js';
import { termYearOf } from './term.js';
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
// Measurement: the box's occurrences over the whole snapshot, each in the term-year of its first event

/** The rows a box reads, and the unit its values are in. */
function boxSelection(s: Structure, data: TriggerData, cls: FeedClass, floor: number): { sel: Selection; unit: string; note: string } {
  const box = s.gate as Box;
  if (data.kind === 'quakes') {
    return {
      sel: selectQuakes(data.events, { box, max_depth_km: s.measurement.max_depth_km, floor }),
      unit: 'magnitude',
      note: 'Magnitudes are the catalog\'s preferred magnitudes, of mixed type (see the publisher\'s magType), read as published.',
    };
  }
  if (data.kind !== 'reports') throw new Error('a box reads quakes or reports');
  const unit = data.unit ?? data.events[0]?.unit ?? (cls.kind === 'fire_extract' ? 'acres' : cls.kind === 'storm_report_set' ? REPORT_UNITS[cls.report ?? 'hail'] : '');
  return {
    sel: selectReports(data.events, { box, floor, wildfire_only: cls.kind === 'fire_extract' }),
    unit,
    note: cls.kind === 'fire_extract'
      ? 'Burned acres are MTBS mapped burned-area-boundary acres; a fire\'s point is the origin encoded in its Event_ID; only Incid_Type Wildfire is read; a fire is dated by its ignition date (Ig_Date, 00:00 UTC).'
      : `Report values are read in the report's own unit (${unit}); report times are the publisher's local standard time converted to UTC.`,
  };
}

function occurrenceRule(s: Structure, floor: number, unit: string): string {
  return `Rows in the box (edges inclusive)${s.measurement.max_depth_km !== null ? `, at most ${s.measurement.max_depth_km} km deep (a row without a depth is left out)` : ''} ` +
    `with a value of at least ${floor} ${unit} (the payout's lowest level) are clustered by time only across the whole snapshot: ` +
    `a cluster opens at its first event and holds every later qualifying row within ${s.aggregation_window!.duration} of that first event ` +
    '(never of the previous one); the payout reads the cluster\'s peak (largest value, ties to the earliest). An occurrence belongs to ' +
    'the term and year in which its first event falls (UTC); members after the term\'s end still count toward its peak. ' +
    'The occurrence\'s event_id is its peak event\'s publisher id; event_ids lists every member.';
}

/** The box's occurrences in each year of the window. */
function measure(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): IndexMeasurement {
  const floor = triggerLevel(s.payout);
  const { sel, unit, note } = boxSelection(s, data, classOf(feed), floor);
  const occurrences = boxOccurrences(sel.rows, s.aggregation_window!.ms);
  const found: { year: number; occurrence: OccurrenceReading }[] = [];
  for (const occ of occurrences) {
    const year = termYearOf(s.term, occ.first.epoch_ms);
    if (year === null || year < fromYear || year > toYear) continue;
    const { peak } = occ;
    const last = occ.events[occ.events.length - 1]!;
    found.push({
      year,
      occurrence: {
        event_id: peak.event_id, time: peak.time, date: peak.date, from: occ.first.time ?? occ.first.date, to: last.time ?? last.date,
        value: peak.value, unit, latitude: peak.latitude, longitude: peak.longitude,
        ...(data.kind === 'quakes' ? { depth_km: peak.depth_km } : {}),
        event_count: occ.events.length, first_event_id: occ.first.event_id, event_ids: occ.events.map((e) => e.event_id),
      },
    });
  }
  return {
    selection: {
      events_in_snapshot: sel.events_in_snapshot, qualifying_rows: sel.rows.length, occurrences_in_snapshot: occurrences.length,
      excluded: sel.excluded, box: s.gate as Box, max_depth_km: s.measurement.max_depth_km, minimum_value: floor, unit,
    },
    occurrence_rule: occurrenceRule(s, floor, unit),
    index_unit: unit,
    unit_note: note,
    excluded: [],
    term: eventTerms(found, feed.manifest),
  };
}

// ---------------------------------------------------------------------------------------------
// What the fitted views read: Gutenberg–Richter over a quake catalog's occurrence peaks, a Poisson
// rate × empirical severity over storm reports and mapped fires

function quakeSample(s: Structure, events: readonly QuakeEvent[], feed: FittedFeed, counted: ReadonlySet<number>): FittedSample {
  const sel = selectQuakes(events, { box: s.gate as Box, max_depth_km: s.measurement.max_depth_km, floor: -Infinity });
  const occurrences = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), magnitude: o.peak.value, event_id: o.peak.event_id }))
    .filter((o): o is { year: number; magnitude: number; event_id: string } => o.year !== null && counted.has(o.year));
  const floorRaw = (feed.manifest?.raw?.magnitude_floor as { value?: unknown } | undefined)?.value;
  const floor = typeof floorRaw === 'number' && Number.isFinite(floorRaw) ? floorRaw : null;
  return {
    method: 'gutenberg_richter_poisson',
    occurrences,
    magnitude_floor: floor,
    sample: {
      earthquakes_selected: sel.rows.length,
      excluded: sel.excluded,
      occurrences_in_covered_terms: occurrences.length,
      declustering: `the structure's own occurrence rule over every selected earthquake (no magnitude floor): clustered by time within ${s.aggregation_window!.duration} of each cluster's first event; the fit reads each occurrence's peak magnitude, dated by its first event`,
      magnitude_floor: floor,
    },
  };
}

/** Storm reports and mapped fires: the occurrences the backtest pays from, in the counted years. */
function reportSample(s: Structure, data: Extract<TriggerData, { kind: 'reports' }>, feed: FittedFeed, counted: ReadonlySet<number>): FittedSample {
  const floor = triggerLevel(s.payout);
  const cls = feed.class ?? classifyFeed(feed.manifest?.kind);
  const sel = selectReports(data.events, { box: s.gate as Box, floor, wildfire_only: cls.kind === 'fire_extract' });
  const occurrences = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), value: o.peak.value, id: o.peak.event_id }))
    .filter((o): o is EmpiricalOccurrence => o.year !== null && counted.has(o.year));
  const unit = data.unit ?? data.events[0]?.unit ?? '';
  return {
    method: 'poisson_empirical_severity', occurrences, unit,
    sample: { rows_selected: sel.rows.length, excluded: sel.excluded, qualifying_occurrences: occurrences.length, minimum_value: floor, unit },
  };
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
  reader: 'event_catalog',
  data_kinds: ['quakes', 'reports'],
  measure,
  fittedSample: (s, data, feed, counted) => {
    if (data.kind === 'quakes') return quakeSample(s, data.events, feed, counted);
    if (data.kind !== 'reports') throw new Error('a box reads quakes or reports');
    return reportSample(s, data, feed, counted);
  },
};
