// Track gate: a box or polygon gate in peril.region over a storm-track archive, each storm one
// occurrence. Its terms, its checks against the feed, what its fitted view reads (gate crossings
// for a Poisson rate × empirical severity), and its measurement: a storm's value in a year is the
// strongest wind among its track samples lying inside the gate (edges inclusive) and inside that
// year's term. Samples (gate.ts trackSamples) are every best-track fix and every whole UTC hour
// strictly between two consecutive fixes, position and wind linear in time. Fixes without a wind
// value are dropped first, so "consecutive" means consecutive among the fixes with wind: a fast
// crossing between two fixes counts even across a fix whose wind the archive does not hold. Each
// storm is one occurrence, named by its publisher storm id.

import { gateContains, saffirSimpsonCategory, trackSamples, type Gate, type GateCrossing, type TrackFix, type TrackSample } from '../tracks/gate.js';
import { METRES_PER_SECOND_PER_KNOT } from '../../kernel/units.js';
import { normalizeLongitude } from '../geo.js';
import { eventTerms } from './coverage.js';
import { FEED_PATH, type FeedUnderCheck, type FittedFeed, type FittedSample, type IndexMeasurement, type TriggerDesign } from './design.js';
import { boxesIntersect, coverageBoxOf, regionBox, type FeedRead } from './feed.js';
import type { Faults } from './faults.js';
import { roundIndex, triggerLevel } from './payout.js';
import { readPeakAggregation } from './read.js';
import type { TriggerData } from './records.js';
import { termWindow, termYearsBetween, type TermRule } from './term.js';
import type { Structure } from './terms.js';

export type GateUnit = 'kt' | 'm/s' | 'category';

const hasWind = (fix: TrackFix): boolean => typeof fix.max_wind_kt === 'number' && Number.isFinite(fix.max_wind_kt);

/** The fixes a gate reads: those with a wind value (the others are dropped before interpolating). */
export function fixesWithWind<T extends TrackFix>(fixes: readonly T[]): T[] {
  return fixes.filter(hasWind);
}

/** Fix and hourly samples of a track, interpolated across fixes without wind. */
export function gateSamples(fixes: readonly TrackFix[]): TrackSample[] {
  return trackSamples(fixesWithWind(fixes));
}

export interface StormLike {
  readonly storm_id: string;
  readonly name: string | null;
  readonly fixes: readonly TrackFix[];
}

export interface StormYearCrossing {
  readonly storm_id: string;
  readonly name: string | null;
  /** The term-year. */
  readonly year: number;
  /** The strongest sample inside the gate and the term (kt, time, position, category). */
  readonly crossing: GateCrossing;
  /** The value the payout reads, in the trigger's unit (kt and m/s rounded to 6 decimals). */
  readonly value: number;
  /** First and last sample inside the gate during the term (epoch ms). */
  readonly entered_ms: number;
  readonly left_ms: number;
}

export interface Extent { minLat: number; maxLat: number; minLon: number; maxLon: number }

function gateExtent(gate: Gate): Extent {
  if (!Array.isArray(gate)) {
    const b = gate as { min_latitude: number; max_latitude: number; min_longitude: number; max_longitude: number };
    return { minLat: b.min_latitude, maxLat: b.max_latitude, minLon: b.min_longitude, maxLon: b.max_longitude };
  }
  const vertices = gate as ReadonlyArray<readonly [number, number]>;
  return {
    minLat: Math.min(...vertices.map((v) => v[1])), maxLat: Math.max(...vertices.map((v) => v[1])),
    minLon: Math.min(...vertices.map((v) => v[0])), maxLon: Math.max(...vertices.map((v) => v[0])),
  };
}

/**
 * Samples lie between consecutive fixes, so inside the extent of a storm's fixes: a storm whose
 * extent misses the gate's cannot enter it. A screen only, before sampling; tracks spanning more
 * than 180 degrees of longitude (antimeridian crossings) and gates wider than that are never screened.
 */
function mayEnter(fixes: readonly TrackFix[], gate: Extent): boolean {
  if (gate.maxLon - gate.minLon > 180) return true;
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (const f of fixes) {
    if (f.latitude < minLat) minLat = f.latitude;
    if (f.latitude > maxLat) maxLat = f.latitude;
    if (f.longitude < minLon) minLon = f.longitude;
    if (f.longitude > maxLon) maxLon = f.longitude;
  }
  if (maxLon - minLon > 180) return true;
  return maxLat >= gate.minLat && minLat <= gate.maxLat && maxLon >= gate.minLon && minLon <= gate.maxLon;
}

/**
 * The samples of trackSamples(fixes) lying inside the gate, in the same order, without
 * interpolating the hours of a segment whose two fixes both lie on one side of the gate's extent
 * (positions are linear in time between fixes, so none of its hours can enter). Latitude is
 * screened always; longitude only when neither the segment nor the gate spans the antimeridian.
 */
export function samplesInGate(fixes: readonly TrackFix[], gate: Gate, extent: Extent): TrackSample[] {
  const sorted = [...fixes].sort((a, b) => a.epoch_ms - b.epoch_ms);
  const lonScreen = extent.maxLon - extent.minLon <= 180;
  const out: TrackSample[] = [];
  let segment: TrackFix[] = [];
  const flush = (): void => {
    if (segment.length === 0) return;
    for (const sample of trackSamples(segment)) if (gateContains(gate, sample)) out.push(sample);
    segment = [];
  };
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i]!;
    const to = sorted[i + 1];
    const lat = to === undefined ? [from.latitude, from.latitude] : [Math.min(from.latitude, to.latitude), Math.max(from.latitude, to.latitude)];
    let misses = lat[1]! < extent.minLat || lat[0]! > extent.maxLat;
    if (!misses && lonScreen && to !== undefined && Math.abs(to.longitude - from.longitude) <= 180
      && Math.abs(from.longitude) <= 180 && Math.abs(to.longitude) <= 180) {
      misses = Math.max(from.longitude, to.longitude) < extent.minLon || Math.min(from.longitude, to.longitude) > extent.maxLon;
    }
    if (misses) {
      // This segment's hours stay outside; its first fix alone is still a sample to test (unless
      // it closed the run just sampled).
      const sampled = segment.length > 0 && segment[segment.length - 1] === from;
      flush();
      if (!sampled && gateContains(gate, { latitude: from.latitude, longitude: normalizeLongitude(from.longitude) })) {
        out.push(...trackSamples([from]));
      }
      continue;
    }
    // Consecutive kept segments share fixes: sample them as one run, as trackSamples would.
    if (segment.length === 0 || segment[segment.length - 1] !== from) segment.push(from);
    if (to !== undefined) segment.push(to);
  }
  flush();
  return out;
}

export function gateValue(windKt: number, unit: GateUnit): number {
  if (unit === 'category') return saffirSimpsonCategory(windKt);
  return roundIndex(unit === 'kt' ? windKt : windKt * METRES_PER_SECOND_PER_KNOT);
}

/**
 * Every (storm, term-year) whose track has a sample inside the gate during that year's term, with
 * the strongest such sample. Sorted by year, then time of the strongest sample, then storm id.
 */
export function gateCrossings(storms: readonly StormLike[], gate: Gate, rule: TermRule, unit: GateUnit): StormYearCrossing[] {
  const out: StormYearCrossing[] = [];
  const extent = gateExtent(gate);
  for (const storm of storms) {
    const fixes = fixesWithWind(storm.fixes);
    if (fixes.length === 0 || !mayEnter(fixes, extent)) continue;
    let first = Infinity;
    let last = -Infinity;
    for (const f of fixes) {
      first = Math.min(first, f.epoch_ms);
      last = Math.max(last, f.epoch_ms);
    }
    const inside = samplesInGate(fixes, gate, extent);
    if (inside.length === 0) continue;
    for (const year of termYearsBetween(rule, first, last)) {
      const w = termWindow(rule, year);
      const during = inside.filter((sample) => sample.epoch_ms >= w.start_ms && sample.epoch_ms < w.end_ms);
      if (during.length === 0) continue;
      // The strongest sample (earliest on ties) among those already found inside the gate: the same
      // sample strongestWindInGate would pick, without interpolating the track a second time.
      let best = during[0]!;
      for (const sample of during) if (sample.max_wind_kt > best.max_wind_kt) best = sample;
      const crossing: GateCrossing = { ...best, category: saffirSimpsonCategory(best.max_wind_kt) };
      out.push({
        storm_id: storm.storm_id, name: storm.name, year, crossing, value: gateValue(crossing.max_wind_kt, unit),
        entered_ms: during[0]!.epoch_ms, left_ms: during[during.length - 1]!.epoch_ms,
      });
    }
  }
  return out.sort((a, b) => a.year - b.year || a.crossing.epoch_ms - b.crossing.epoch_ms || (a.storm_id < b.storm_id ? -1 : a.storm_id > b.storm_id ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Terms and feed checks

function checkFeed(f: Faults, s: Structure, at: FeedUnderCheck): boolean {
  const { feed, cls } = at;
  const kindWords = at.kind_words;
  const p = FEED_PATH;
  if (cls.kind !== 'track_archive') {
    f.add('feed_kind_not_read', p, `${feed.feed_id} is ${kindWords}; a track gate (max_sustained_wind_in_gate) reads a storm-track archive`);
    return false;
  }
  const coverage = coverageBoxOf(feed.manifest);
  if (coverage && s.region && !boxesIntersect(regionBox(s.region), coverage)) {
    f.add('region_outside_feed_coverage', 'peril.region', `the gate in peril.region lies outside every track of ${feed.feed_id} (extent ${coverage.min_latitude} to ${coverage.max_latitude} N, ${coverage.min_longitude} to ${coverage.max_longitude} E)`);
  }  return true;
}

// ---------------------------------------------------------------------------------------------
// Measurement: each storm crossing the gate in a year's term, one occurrence valued at its strongest wind inside the gate

const iso = (ms: number): string => new Date(ms).toISOString();

function occurrenceRule(unit: GateUnit): string {
  return 'Each storm is one occurrence, named by its publisher storm id. Its value in a year is the strongest 1-minute sustained wind among ' +
    'its track samples lying inside the gate (edges inclusive) and inside that year\'s term. Samples are every best-track fix with a wind ' +
    'value and every whole UTC hour strictly between two consecutive such fixes, position and wind interpolated linearly in time ' +
    '(fixes without a wind value are dropped first, so a fast crossing between two fixes counts). An occurrence\'s time is its strongest ' +
    'sample; from and to are its first and last samples inside the gate during the term. ' +
    (unit === 'category' ? 'The value is the Saffir-Simpson category of that wind (Cat 1 64-82 kt, 2 83-95, 3 96-112, 4 113-136, 5 >= 137).'
      : unit === 'm/s' ? 'Knots are converted to m/s at 1 kt = 1852/3600 m/s.' : 'The value is in knots.');
}

function measure(s: Structure, data: TriggerData, feed: FeedRead, fromYear: number, toYear: number): IndexMeasurement {
  if (data.kind !== 'tracks') throw new Error('a track gate reads tracks');
  const floor = triggerLevel(s.payout);
  const unit = (s.measurement.unit ?? 'kt') as GateUnit;
  const crossings = gateCrossings(data.storms, s.gate!, s.term, unit);
  const found = crossings.filter((c) => c.year >= fromYear && c.year <= toYear).map((c) => ({
    year: c.year,
    occurrence: {
      event_id: c.storm_id,
      name: c.name,
      time: iso(c.crossing.epoch_ms),
      date: iso(c.crossing.epoch_ms).slice(0, 10),
      from: iso(c.entered_ms),
      to: iso(c.left_ms),
      value: c.value,
      unit,
      wind_kt: Math.round(c.crossing.max_wind_kt * 1e6) / 1e6,
      category: c.crossing.category,
      latitude: Math.round(c.crossing.latitude * 1e6) / 1e6,
      longitude: Math.round(c.crossing.longitude * 1e6) / 1e6,
      interpolated: c.crossing.interpolated,
    },
  }));
  return {
    selection: {
      storms_in_archive: data.storms.length,
      storm_years_crossing_gate: crossings.length,
      storm_years_reaching_lowest_level: crossings.filter((c) => c.value >= floor).length,
      gate: s.region,
      minimum_value: floor,
      unit,
    },
    occurrence_rule: occurrenceRule(unit),
    index_unit: unit,
    unit_note: 'HURDAT2 and JTWC best tracks give 1-minute sustained wind in knots at (mostly) 6-hourly fixes.',
    excluded: [],
    term: eventTerms(found, feed.manifest),
  };
}

// ---------------------------------------------------------------------------------------------
// What the fitted view reads: the storm-years the backtest pays from, in the counted years (a
// Poisson rate of gate crossings reaching the lowest level × their empirical values)

function fittedSample(s: Structure, data: TriggerData, _feed: FittedFeed, counted: ReadonlySet<number>): FittedSample {
  if (data.kind !== 'tracks') throw new Error('a track gate\'s view reads tracks');
  const floor = triggerLevel(s.payout);
  const unit = (s.measurement.unit ?? 'kt') as GateUnit;
  const crossings = gateCrossings(data.storms, s.gate!, s.term, unit);
  const occurrences = crossings.filter((c) => counted.has(c.year) && c.value >= floor).map((c) => ({ year: c.year, value: c.value, id: c.storm_id }));
  return {
    method: 'poisson_empirical_severity', occurrences, unit,
    sample: { storm_years_crossing_gate_in_covered_years: crossings.filter((c) => counted.has(c.year)).length, qualifying_occurrences: occurrences.length, minimum_value: floor, unit },
    notes: ['Each storm crossing the gate in a term is one occurrence, valued at its strongest wind inside the gate during the term.'],
  };
}

// ---------------------------------------------------------------------------------------------

export const TRACK_GATE: TriggerDesign = {
  design: 'track_gate',
  measurement_members: ['variable', 'unit', 'aggregation'],
  readAggregation: (f, m, p) => readPeakAggregation(f, m, p, 'a gate reads the strongest wind'),
  reads_window: false,
  readWindow: (f, aw) => {
    if (aw !== undefined && aw !== null) {
      f.add('aggregation_window_not_read', 'trigger.aggregation_window',
        'trigger.aggregation_window is not read by a track gate: each storm is one occurrence, named by its storm id');
    }
    return null;
  },
  payout: {
    bases: ['per_event', 'per_occurrence', 'term_maximum'], default_basis: 'per_event',
    bases_read: 'a track gate pays per storm (per_event) or once from the term maximum (term_maximum)',
    read_as: { per_occurrence: 'per_event' },
  },
  region: { missing: 'peril.region is missing: a track gate is drawn in peril.region (box or polygon)', box_only: null },
  checkFeed,
  reader: 'track_archive',
  data_kinds: ['tracks'],
  measure,
  fittedSample,
};
