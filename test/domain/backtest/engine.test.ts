// The backtest engine on hand-built records: occurrence clustering inside a backtest, the annual
// cap and attachment, missing years, terms crossing New Year, the missing-day rule, units, the
// track gate's interpolation, window faults and determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BacktestArtifact } from '../../../src/domain/backtest/artifact.js';
import type { FeedRead } from '../../../src/domain/triggers/feed.js';
import type { TriggerData } from '../../../src/domain/triggers/records.js';
import { replayTerms } from './support.js';
import type { Refusal } from '../../../src/kernel/refusal.js';

/** The fault names of a refusal of terms (each detail reads "<fault> at <path>: <message>"). */
const faultNames = (r: Refusal): string[] => (r.details ?? []).map((d) => d.slice(0, d.indexOf(' at ')));
import { strongestWindInGate } from '../../../src/domain/tracks/gate.js';
import type { QuakeEvent, Storm, TrackFix, DayValue } from '../../../src/domain/hazard/records.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

function quake(id: string, iso: string, magnitude: number, extra: Partial<QuakeEvent> = {}): QuakeEvent {
  return {
    event_id: id, time: iso, epoch_ms: Date.parse(iso), latitude: 35, longitude: -118, depth_km: 10, magnitude,
    mag_type: 'mw', type: 'earthquake', net: 'ci', status: 'reviewed', line: 2, fields: {}, ...extra,
  };
}

const QUAKE_FEED: FeedRead = {
  feed_id: 'usgs-comcat-test', version: 'v1', sha256: 'a'.repeat(64),
  manifest: {
    kind: 'event_catalog',
    period_of_record: { from: '2000-01-01', to: '2004-12-31' },
    years_missing: [2002],
    years_without_events: [2003],
    coverage: { type: 'box', min_latitude: 30, max_latitude: 40, min_longitude: -125, max_longitude: -110 },
  },
};

function quakeTerms(over: { window?: string; financial?: object; period?: object; payout?: object; box?: object } = {}): object {
  return {
    peril: { code: 'earthquake', region: over.box ?? { type: 'box', min_latitude: 34, max_latitude: 36, min_longitude: -119, max_longitude: -117 } },
    trigger: {
      type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-test', version: 'v1' }],
      measurement: { variable: 'magnitude' }, aggregation_window: { duration: over.window ?? 'P7D' },
      payout: over.payout ?? { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1 }] },
    },
    financial_structure: over.financial ?? { currency: 'USD', limit: 10_000_000, attachment: 0 },
    period: over.period ?? { start: '2027-01-01', end: '2027-12-31' },
  };
}

function run(terms: object, data: TriggerData, feed: FeedRead, window?: { from_year?: number; to_year?: number }): BacktestArtifact {
  const out = replayTerms(terms, data, feed, window);
  if (!out.ok) throw new Error(JSON.stringify(out.refusal));
  return out.value;
}

const year = (a: BacktestArtifact, y: number) => a.years.find((x) => x.year === y)!;

test('two quakes inside the aggregation window pay once, on the peak; the window runs from the first event, not the previous one', () => {
  const events = [
    quake('q1', '2001-03-01T00:00:00.000Z', 6.6),
    quake('q2', '2001-03-06T00:00:00.000Z', 7.2), // 5 days after q1: same occurrence, the peak
    quake('q3', '2001-03-09T00:00:00.000Z', 6.8), // 8 days after q1 (3 after q2): a new occurrence
    quake('q4', '2001-03-16T00:00:00.000Z', 6.5), // exactly 7 days after q3: q3's occurrence (boundary included)
  ];
  const a = run(quakeTerms(), { kind: 'quakes', events }, QUAKE_FEED);
  const y = year(a, 2001);
  assert.deepEqual(y.occurrences.map((o) => [o.event_id, o.event_ids, o.value, o.payout]), [
    ['q2', ['q1', 'q2'], 7.2, 5_000_000],
    ['q3', ['q3', 'q4'], 6.8, 2_500_000],
  ]);
  assert.equal(y.occurrences[0]!.from, '2001-03-01T00:00:00.000Z');
  assert.equal(y.occurrences[0]!.to, '2001-03-06T00:00:00.000Z');
  assert.equal(y.payout, 7_500_000);
  // Each quake alone with a window of zero: four occurrences, capped at the limit.
  const zero = run(quakeTerms({ window: 'PT0S' }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.equal(year(zero, 2001).occurrences.length, 4);
  assert.equal(year(zero, 2001).gross_payout, 2_500_000 + 5_000_000 + 2_500_000 + 2_500_000);
  assert.equal(year(zero, 2001).payout, 10_000_000);
});

test('the rows a cat-in-a-box reads: type earthquake, in the box (edges inclusive), under the depth limit, at least the lowest level', () => {
  const events = [
    quake('edge', '2001-01-01T00:00:00.000Z', 6.5, { latitude: 36, longitude: -117 }),
    quake('outside', '2001-02-01T00:00:00.000Z', 7.9, { latitude: 36.01 }),
    quake('blast', '2001-03-01T00:00:00.000Z', 7.9, { type: 'nuclear explosion' }),
    quake('deep', '2001-04-01T00:00:00.000Z', 7.9, { depth_km: 71 }),
    quake('nodepth', '2001-05-01T00:00:00.000Z', 7.9, { depth_km: null }),
    quake('small', '2001-06-01T00:00:00.000Z', 6.4),
  ];
  const terms = quakeTerms() as { trigger: { measurement: object } };
  terms.trigger.measurement = { variable: 'magnitude', max_depth_km: 70 };
  const a = run(terms, { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual(year(a, 2001).occurrences.map((o) => o.event_id), ['edge']);
  assert.deepEqual(a.selection.excluded, { below_lowest_level: 1, deeper_than_limit: 1, no_depth: 1, outside_box: 1, type_not_earthquake: 1 });
  // Without a depth limit an event without a depth is read.
  const b = run(quakeTerms(), { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual(year(b, 2001).occurrences.map((o) => o.event_id), ['edge', 'deep', 'nodepth']);
});

test('the annual aggregate: the sum of occurrence payouts is capped at the limit (or annual_limit), after the attachment', () => {
  const events = [
    quake('a', '2000-02-01T00:00:00.000Z', 7.6),
    quake('b', '2000-05-01T00:00:00.000Z', 7.6),
    quake('c', '2000-09-01T00:00:00.000Z', 7.6),
    quake('d', '2001-02-01T00:00:00.000Z', 6.6),
    quake('e', '2004-02-01T00:00:00.000Z', 6.6),
    quake('f', '2004-08-01T00:00:00.000Z', 6.7),
  ];
  const plain = run(quakeTerms(), { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual([year(plain, 2000).gross_payout, year(plain, 2000).payout], [30_000_000, 10_000_000]);
  assert.equal(year(plain, 2000).rate_on_line, 1);
  assert.equal(plain.statistics.exhaustion_probability, 1 / 4);

  const annual = run(quakeTerms({ financial: { currency: 'USD', limit: 10_000_000, attachment: 0, annual_limit: 20_000_000 } }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.equal(year(annual, 2000).payout, 20_000_000);
  assert.equal(year(annual, 2000).rate_on_line, 2);

  const deductible = run(quakeTerms({ financial: { currency: 'USD', limit: 10_000_000, attachment: 3_000_000 } }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.equal(year(deductible, 2000).payout, 10_000_000, '30M − 3M, capped at 10M');
  assert.equal(year(deductible, 2001).gross_payout, 2_500_000);
  assert.equal(year(deductible, 2001).payout, 0, 'a 2.5M occurrence is inside the 3M annual attachment');
  assert.equal(year(deductible, 2004).payout, 2_000_000, '2.5M + 2.5M − 3M');
  // The trigger fired in 3 of 4 covered years; 2 of them paid after the annual attachment.
  assert.equal(deductible.statistics.years, 4);
  assert.equal(deductible.statistics.trigger_probability, 3 / 4);
  assert.equal(deductible.statistics.attachment_probability, 2 / 4);
  assert.equal(deductible.statistics.payment_frequency, 2 / 4);
  assert.equal(deductible.statistics.exhaustion_probability, 1 / 4);
  assert.equal(deductible.statistics.mean_annual_payout, 3_000_000);
  assert.deepEqual(deductible.statistics.largest_year, { year: 2000, payout: 10_000_000 });
  // s over (10M, 0, 0, 2M): mean 3M, Σ(x − μ)² = 49 + 9 + 9 + 1 = 68 (×10^12), s = √(68/3)·10^6.
  assert.equal(deductible.statistics.standard_deviation, Math.round(Math.sqrt(68 / 3) * 1e6 * 100) / 100);
  assert.equal(deductible.statistics.standard_error, Math.round((Math.sqrt(68 / 3) * 1e6 / 2) * 100) / 100);
  assert.equal(deductible.burning_cost.average_rate_on_line, 0.3);
  assert.deepEqual(deductible.burning_cost.by_year.map((b) => [b.year, b.rate_on_line]), [[2000, 1], [2001, 0], [2002, null], [2003, 0], [2004, 0.2]]);
});

test('a year the archive holds no record for is disclosed (payout null, out of n), never a zero; an empty covered year is a zero', () => {
  const events = [quake('a', '2000-02-01T00:00:00.000Z', 7.0)];
  const a = run(quakeTerms(), { kind: 'quakes', events }, QUAKE_FEED);
  const gap = year(a, 2002);
  assert.equal(gap.payout, null);
  assert.equal(gap.rate_on_line, null);
  assert.equal(gap.record, 'missing');
  assert.match(gap.no_record_reason as string, /no record/);
  assert.deepEqual(a.data_coverage.years_missing, [2002]);
  assert.deepEqual(a.data_coverage.years_without_events, [2003]);
  assert.deepEqual(a.data_coverage.zero_payout_years, [2001, 2003, 2004]);
  assert.equal(year(a, 2003).payout, 0);
  assert.equal(a.statistics.years, 4);
  assert.equal(a.statistics.mean_annual_payout, 5_000_000 / 4);
});

test('an occurrence belongs to the term in which its first event falls; its peak may fall after the term ends', () => {
  const events = [
    quake('nov', '2001-11-28T12:00:00.000Z', 6.6),
    quake('dec', '2001-12-02T12:00:00.000Z', 7.6), // same occurrence, after the term's end
    quake('may', '2003-05-30T12:00:00.000Z', 6.6), // opens before the term:
    quake('jun', '2003-06-02T12:00:00.000Z', 7.6), // its occurrence is not in the 2003 term
    quake('jul', '2003-07-20T12:00:00.000Z', 6.9),
  ];
  const a = run(quakeTerms({ period: { start: '2027-06-01', end: '2027-11-30' } }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual(year(a, 2001).occurrences.map((o) => [o.event_id, o.first_event_id, o.payout]), [['dec', 'nov', 10_000_000]]);
  assert.deepEqual(year(a, 2003).occurrences.map((o) => o.event_id), ['jul']);
  assert.deepEqual(year(a, 2001).term, { from: '2001-06-01', to: '2001-11-30' });
});

test('a term crossing New Year: events of January and February belong to the term that started the December before', () => {
  const events = [
    quake('dec00', '2000-12-15T00:00:00.000Z', 6.6),
    quake('feb01', '2001-02-15T00:00:00.000Z', 7.1),
    quake('mar01', '2001-03-15T00:00:00.000Z', 7.9), // outside every term
    quake('jan04', '2004-01-10T00:00:00.000Z', 7.6),
    quake('dec04', '2004-12-20T00:00:00.000Z', 7.0), // term of 2004, whose January-February lie after the record ends
  ];
  const a = run(quakeTerms({ period: { start: '2027-12-01', end: '2028-02-29' } }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual(year(a, 2000).occurrences.map((o) => o.event_id), ['dec00', 'feb01']);
  assert.equal(year(a, 2000).payout, 7_500_000);
  assert.equal(year(a, 2003).payout, 10_000_000, 'January 2004 belongs to the term of 2003');
  assert.deepEqual(year(a, 2003).term, { from: '2003-12-01', to: '2004-02-29' });
  // The term of 2004 runs into 2005, past the record: 59 of 90 days lacking, more than 10%: partial,
  // shown with what its days would have paid, left out of n.
  assert.equal(year(a, 2004).record, 'partial');
  assert.deepEqual(a.data_coverage.partial_years, [
    { year: 2001, term_days: 90, days_covered: 31, missing_share: 59 / 90, payout_on_partial_record: 0 },
    { year: 2002, term_days: 90, days_covered: 59, missing_share: 31 / 90, payout_on_partial_record: 0 },
    { year: 2004, term_days: 90, days_covered: 31, missing_share: 59 / 90, payout_on_partial_record: 5_000_000 },
  ]);
  assert.equal(year(a, 2004).payout, null, 'a partial year is not counted');
  assert.equal(year(a, 2004).payout_on_partial_record, 5_000_000);
  assert.equal(a.statistics.years, 2, 'n counts the complete years 2000 and 2003 only');
  // 2002 is missing from the archive: the December of the 2002 term is not covered, but January-February 2003 are.
  assert.equal(year(a, 2002).record, 'partial');
  assert.equal(year(a, 2001).record, 'partial', 'January-February 2002 fall in the missing year');
});

test('basis term_maximum on a cat-in-a-box pays once a year, from the largest occurrence', () => {
  const events = [quake('a', '2000-02-01T00:00:00.000Z', 6.6), quake('b', '2000-06-01T00:00:00.000Z', 7.1), quake('c', '2000-09-01T00:00:00.000Z', 6.9)];
  const a = run(quakeTerms({ payout: { function: 'ladder', basis: 'term_maximum', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7, fraction: 0.5 }] } }), { kind: 'quakes', events }, QUAKE_FEED);
  assert.deepEqual(year(a, 2000).occurrences.map((o) => o.event_id), ['b']);
  assert.equal(year(a, 2000).payout, 5_000_000);
  assert.deepEqual(year(a, 2000).term_maximum, { value: 7.1, unit: 'magnitude', date: '2000-06-01', event_id: 'b' });
});

test('window: outside the period of record refused (never clipped); reversed refused as a request fault; a window of missing years alone refused', () => {
  const data: TriggerData = { kind: 'quakes', events: [] };
  const outside = replayTerms(quakeTerms(), data, QUAKE_FEED, { from_year: 1999, to_year: 2003 });
  assert.ok(!outside.ok);
  assert.equal(outside.refusal.code, 'unbacktestable_structure');
  assert.deepEqual(faultNames(outside.refusal), ['window_outside_period_of_record']);
  const late = replayTerms(quakeTerms(), data, QUAKE_FEED, { to_year: 2005 });
  assert.ok(!late.ok && faultNames(late.refusal)[0] === 'window_outside_period_of_record');
  const reversed = replayTerms(quakeTerms(), data, QUAKE_FEED, { from_year: 2003, to_year: 2001 });
  assert.ok(!reversed.ok);
  assert.equal(reversed.refusal.code, 'invalid_request');
  const gap = replayTerms(quakeTerms(), data, QUAKE_FEED, { from_year: 2002, to_year: 2002 });
  assert.ok(!gap.ok);
  assert.deepEqual(faultNames(gap.refusal), ['no_recorded_year_in_window']);
  const ok = run(quakeTerms(), data, QUAKE_FEED, { from_year: 2003 });
  assert.deepEqual(ok.window, { from_year: 2003, to_year: 2004, defaulted: false, defaulted_members: ['to_year'] });
  const shape = replayTerms({ ...quakeTerms(), period: { start: '2027-06-01', end: '2027-01-01' } }, data, QUAKE_FEED);
  assert.ok(!shape.ok && shape.refusal.code === 'invalid_structure');
});

// ---- daily series ----

function series(from: string, to: string, value: (date: string) => number | null, unit = 'tenths of mm') {
  const days: DayValue[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, value: value(date) });
  }
  return { kind: 'series' as const, series: { source_id: 'TEST', variable: 'PRCP', unit, days } };
}

const RAIN_FEED: FeedRead = {
  feed_id: 'ghcnd-test-prcp', version: 'v1', sha256: 'b'.repeat(64),
  manifest: { kind: 'daily_series', period_of_record: { from: '2000-01-01', to: '2003-12-31' }, years_missing: [], units: { PRCP: 'tenths of mm' } },
  // What the feed catalog says of a GHCN-Daily rainfall feed.
  class: { kind: 'daily_series', series: 'rainfall', elements: { default_element: 'PRCP' } },
};

function rainTerms(over: { duration?: string; aggregation?: string; unit?: string; period?: object; payout?: object } = {}): object {
  return {
    peril: { code: 'weather_station' },
    trigger: {
      type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-test-prcp', version: 'v1' }],
      measurement: { variable: 'precipitation', aggregation: over.aggregation ?? 'sum', ...(over.unit ? { unit: over.unit } : {}) },
      aggregation_window: { duration: over.duration ?? 'P3D' },
      payout: over.payout ?? { function: 'linear', attachment: 100, exhaustion: 200 },
    },
    financial_structure: { currency: 'EUR', limit: 1_000_000, attachment: 0 },
    period: over.period ?? { start: '2027-06-01', end: '2027-06-30' },
  };
}

test('series: windows lie wholly inside the term; a window holding a missing day is not computed, and missing days are disclosed per year', () => {
  const values: Record<string, number | null> = {
    '2000-05-31': 5000, // outside the term: never read, though a window ending 1 June would hold it
    '2000-06-01': 400, '2000-06-02': 400, '2000-06-03': 400, // 120 mm over 1-3 June
    '2001-06-10': 900, '2001-06-11': null, '2001-06-12': 900, // the wettest days sit around a missing day
    '2001-06-20': 300, '2001-06-21': 300, '2001-06-22': 300,
  };
  const data = series('2000-01-01', '2003-12-31', (d) => (d in values ? values[d]! : d.startsWith('2002-06') ? null : 0));
  const a = run(rainTerms(), data, RAIN_FEED);
  assert.deepEqual(year(a, 2000).term_maximum, { value: 120, unit: 'mm', date: '2000-06-03', from: '2000-06-01', to: '2000-06-03' });
  assert.equal(year(a, 2000).payout, 200_000);
  // 90 mm over 8-10 June and again over 12-14 June (ties go to the earliest); 180 mm around 11 June is never computed.
  assert.deepEqual(year(a, 2001).term_maximum, { value: 90, unit: 'mm', date: '2001-06-10', from: '2001-06-08', to: '2001-06-10' });
  assert.equal(year(a, 2001).missing_days, 1);
  assert.equal(year(a, 2001).windows_in_term, 28);
  assert.equal(year(a, 2001).windows_computed, 25);
  assert.equal(year(a, 2001).payout, 0);
  assert.equal(year(a, 2002).payout, null, 'June 2002 has no value: no record, not a zero');
  assert.deepEqual(a.data_coverage.years_missing, [2002]);
  assert.deepEqual(a.data_coverage.missing_days_by_year, [
    { year: 2001, term_days: 30, missing_days: 1, windows_in_term: 28, windows_computed: 25 },
    { year: 2002, term_days: 30, missing_days: 30, windows_in_term: 28, windows_computed: 0 },
  ]);
  assert.equal(a.statistics.years, 3);
});

test('series: units convert from the feed\'s native unit to the trigger\'s (tenths of mm -> in), and the aggregation is stated', () => {
  const data = series('2000-01-01', '2000-12-31', (d) => (d === '2000-06-15' ? 508 : d === '2000-06-16' ? 254 : 0)); // 2 in, then 1 in
  const inches = run(rainTerms({ unit: 'in', duration: 'P2D', payout: { function: 'ladder', levels: [{ at_least: 3, fraction: 1 }] } }), data, RAIN_FEED);
  assert.equal(year(inches, 2000).term_maximum && (year(inches, 2000).term_maximum as { value: number }).value, 3);
  assert.equal(year(inches, 2000).payout, 1_000_000);
  const mean = run(rainTerms({ unit: 'mm', duration: 'P2D', aggregation: 'mean', payout: { function: 'ladder', levels: [{ at_least: 38.1, fraction: 1 }] } }), data, RAIN_FEED);
  assert.equal((year(mean, 2000).term_maximum as { value: number }).value, 38.1);
  const peak = run(rainTerms({ duration: 'P2D', aggregation: 'max', payout: { function: 'ladder', levels: [{ at_least: 50.8, fraction: 1 }] } }), data, RAIN_FEED);
  assert.equal((year(peak, 2000).term_maximum as { value: number }).value, 50.8);
  assert.equal(peak.conventions.units && (peak.conventions.units as { index: string }).index, 'mm', 'no unit: tenths of mm read as mm');
  // A series in a unit that cannot become the trigger's: refused by name.
  const odd = replayTerms(rainTerms(), series('2000-01-01', '2000-12-31', () => 1, 'furlongs'), RAIN_FEED);
  assert.ok(!odd.ok);
  assert.deepEqual(faultNames(odd.refusal), ['unit_not_convertible']);
});

// ---- track gate ----

const fix = (hours: number, latitude: number, longitude: number, wind: number | null): TrackFix => {
  const epoch_ms = Date.UTC(2001, 8, 1) + hours * HOUR;
  return { time: new Date(epoch_ms).toISOString(), epoch_ms, latitude, longitude, max_wind_kt: wind, min_pressure_mb: null };
};

const TRACK_FEED: FeedRead = {
  feed_id: 'noaa-nhc-hurdat2-test', version: 'v1', sha256: 'c'.repeat(64),
  manifest: { kind: 'track_archive', period_of_record: { from: '2000-06-01', to: '2002-11-30' }, years_missing: [] },
};

function gateTerms(unit = 'kt', gate: object = { type: 'box', min_latitude: 21.2, max_latitude: 21.8, min_longitude: -77.5, max_longitude: -76.5 }): object {
  return {
    peril: { code: 'tropical_cyclone', region: gate },
    trigger: {
      type: 'parametric_index', data_sources: [{ feed_id: 'noaa-nhc-hurdat2-test', version: 'v1' }],
      measurement: { variable: 'max_sustained_wind_in_gate', unit },
      payout: unit === 'category'
        ? { function: 'ladder', levels: [{ at_least: 1, fraction: 0.25 }, { at_least: 2, fraction: 0.5 }] }
        : { function: 'ladder', levels: [{ at_least: 64, fraction: 0.25 }, { at_least: 83, fraction: 0.5 }] },
    },
    financial_structure: { currency: 'USD', limit: 10_000_000, attachment: 0 },
    period: { start: '2027-06-01', end: '2027-11-30' },
  };
}

test('gate: a track whose fixes straddle the gate crosses it between fixes, interpolated hourly, even across a fix without wind', () => {
  // Fixes 6 h apart, 3° lat / 6° lon apart, 100 -> 70 kt; none inside the narrow gate. At 03Z the
  // track is at 21.5 N, 77 W, 85 kt (inside). The 03Z fix has no wind: it is dropped, and the
  // path from 00Z to 06Z is interpolated across it.
  const straddling: Storm = {
    storm_id: 'AL992001', name: 'TEST', basin: 'AL',
    fixes: [fix(0, 20, -80, 100), fix(3, 21.5, -77, null), fix(6, 23, -74, 70)],
  };
  const a = run(gateTerms(), { kind: 'tracks', storms: [straddling] }, TRACK_FEED);
  const [o] = year(a, 2001).occurrences;
  assert.ok(o, 'the storm pays');
  assert.equal(o.event_id, 'AL992001');
  assert.equal(o.value, 85);
  assert.equal(o.interpolated, true);
  assert.equal(o.time, '2001-09-01T03:00:00.000Z');
  assert.deepEqual([o.from, o.to], ['2001-09-01T03:00:00.000Z', '2001-09-01T03:00:00.000Z'], 'only the 03Z sample lies inside');
  assert.equal(o.category, 2);
  assert.equal(o.payout, 5_000_000);
  // gate.ts alone breaks the path at the wind-less fix: the wrapper is what lets the crossing count.
  assert.equal(strongestWindInGate(straddling.fixes, { min_latitude: 21.2, max_latitude: 21.8, min_longitude: -77.5, max_longitude: -76.5 }), null);
  // Read in categories: Cat 2 pays half.
  const cat = run(gateTerms('category'), { kind: 'tracks', storms: [straddling] }, TRACK_FEED);
  assert.deepEqual(year(cat, 2001).occurrences.map((x) => [x.value, x.unit, x.payout]), [[2, 'category', 5_000_000]]);
  // Read in m/s: 85 kt = 43.727778 m/s.
  const ms = run({ ...gateTerms('m/s'), trigger: { ...(gateTerms('m/s') as { trigger: object }).trigger, payout: { function: 'linear', attachment: 30, exhaustion: 50 } } },
    { kind: 'tracks', storms: [straddling] }, TRACK_FEED);
  assert.equal(year(ms, 2001).occurrences[0]!.value, 43.727778);
});

test('gate: only samples inside the term count; a storm is one occurrence per term-year; the year is capped', () => {
  const early: Storm = { storm_id: 'AL012001', name: null, basin: 'AL', fixes: [fix(-24 * 100, 21.5, -77, 120)] }; // 24 May 2001
  const storms: Storm[] = [
    early,
    { storm_id: 'AL022001', name: 'B', basin: 'AL', fixes: [fix(0, 21.5, -77, 90), fix(6, 21.5, -77, 95)] },
    { storm_id: 'AL032001', name: 'C', basin: 'AL', fixes: [fix(24, 21.5, -77, 90)] },
    { storm_id: 'AL042001', name: 'D', basin: 'AL', fixes: [fix(48, 21.5, -77, 90)] },
  ];
  const a = run(gateTerms(), { kind: 'tracks', storms }, TRACK_FEED);
  const y = year(a, 2001);
  assert.deepEqual(y.occurrences.map((o) => [o.event_id, o.value]), [['AL022001', 95], ['AL032001', 90], ['AL042001', 90]]);
  assert.equal(y.gross_payout, 15_000_000);
  assert.equal(y.payout, 10_000_000);
  assert.equal(year(a, 2000).payout, 0);
  // A polygon gate (a diamond around the crossing point).
  const diamond = run(gateTerms('kt', { type: 'polygon', coordinates: [[-77, 21.2], [-76.7, 21.5], [-77, 21.8], [-77.3, 21.5]] }), { kind: 'tracks', storms }, TRACK_FEED);
  assert.equal(year(diamond, 2001).occurrences.length, 3);
});

test('determinism: the same inputs give deep-equal, byte-equal plain JSON, twice', () => {
  const events = [quake('a', '2000-02-01T00:00:00.000Z', 7.6), quake('b', '2000-02-03T00:00:00.000Z', 6.9), quake('c', '2004-07-01T00:00:00.000Z', 6.5)];
  const one = run(quakeTerms(), { kind: 'quakes', events }, QUAKE_FEED);
  const two = run(quakeTerms(), { kind: 'quakes', events: [...events].reverse() }, QUAKE_FEED);
  assert.deepEqual(one, two);
  assert.equal(JSON.stringify(one), JSON.stringify(two));
  assert.deepEqual(JSON.parse(JSON.stringify(one)), one);
  assert.ok(!/NaN|Infinity/.test(JSON.stringify(one)));
  const rain = series('2000-01-01', '2003-12-31', (d) => (d.endsWith('-15') ? 700 : 10));
  assert.equal(JSON.stringify(run(rainTerms(), rain, RAIN_FEED)), JSON.stringify(run(rainTerms(), rain, RAIN_FEED)));
});
