// Hazard summaries (src/domain/hazard/summary.ts): hand-built inputs with hand-computed counts, rates
// and distances; agreement with the fitting functions they reuse; one run over each of five pinned
// feeds with an independent recount from the raw file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEEDS_DIR } from '../support/feeds.js';
import {
  quakeSummary, reportSummary, seriesSummary, trackSummary,
} from '../../src/domain/hazard/summary.js';
import { fitGutenbergRichter } from '../../src/domain/stats/gutenberg-richter.js';
import {
  andersonDarling, gevQuantile, probabilityPlotCorrelation, returnLevel, selectExtremeValueFit,
} from '../../src/domain/stats/extreme-value.js';
import { seededRandom } from '../../src/domain/stats/random.js';
import type { QuakeEvent, ReportEvent, ReportKind, DailySeries, DayValue, Storm, TrackFix } from '../../src/domain/hazard/records.js';
import type { ManifestFacts } from '../../src/feeds/series.js';
import { parseManifest, type Manifest } from '../../src/feeds/manifest.js';
import { comcatOptions, parseComcat } from '../../src/feeds/parsers/comcat.js';
import { parseGhcnCsv } from '../../src/feeds/parsers/ghcnd.js';
import { parseHurdat2 } from '../../src/feeds/parsers/hurdat2.js';
import { parseSpcReports, spcOptions } from '../../src/feeds/parsers/spc-reports.js';
import { mtbsOptions, parseMtbs } from '../../src/feeds/parsers/mtbs.js';

// ---- helpers --------------------------------------------------------------------------------

const R = 6371.0088;
/** km per degree of arc on the mean-radius sphere: along the equator or a meridian, distance = deg × KM_PER_DEG. */
const KM_PER_DEG = (R * Math.PI) / 180;
const ORIGIN = { latitude: 0, longitude: 0 };

const close = (actual: number | null, expected: number, tolerance = 1e-9, what = '') =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected} ± ${tolerance}`);

/** Every value is JSON-ready: no undefined, functions, NaN or ±Infinity anywhere. */
function assertJsonReady(value: unknown, path = '$'): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') { assert.ok(Number.isFinite(value), `${path} is ${value}`); return; }
  if (Array.isArray(value)) { value.forEach((v, i) => assertJsonReady(v, `${path}[${i}]`)); return; }
  assert.equal(typeof value, 'object', `${path} is ${typeof value}`);
  for (const [k, v] of Object.entries(value as object)) assertJsonReady(v, `${path}.${k}`);
  assert.deepEqual(JSON.parse(JSON.stringify(value)), value, `${path} survives JSON`);
}

/** Test's own haversine (Sinnott 1984), written out here rather than imported. */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}

function quake(id: string, time: string, magnitude: number | null, latitude: number, longitude: number, type = 'earthquake'): QuakeEvent {
  return {
    event_id: id, time, epoch_ms: Date.parse(time), latitude, longitude, depth_km: 10, magnitude,
    mag_type: 'mw', type, net: 'us', status: 'reviewed', line: 0, fields: {},
  };
}

function report(kind: ReportKind, id: string, date: string, value: number | null, latitude: number | null, longitude: number | null, fields: Record<string, string> = {}): ReportEvent {
  const unit = ({ hail: 'in', wind: 'kt', tornado: 'EF', fire: 'acres' } as const)[kind];
  return {
    kind, event_id: id, date, time: null, epoch_ms: Date.parse(`${date}T00:00:00Z`), local_time: null, utc_offset: null,
    latitude, longitude, value, unit, line: 0, fields,
  };
}

function fix(time: string, latitude: number, longitude: number, wind: number | null): TrackFix {
  return { time, epoch_ms: Date.parse(time), latitude, longitude, max_wind_kt: wind, min_pressure_mb: null };
}

/** A contiguous daily series from..to (inclusive); value(date) gives each day's value. */
function dailySeries(from: string, to: string, value: (date: string) => number | null, unit = 'mm'): DailySeries {
  const days: DayValue[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, value: value(date) });
  }
  return { source_id: 'TEST1', variable: 'PRCP', unit, days, quirks: [] };
}

// ---- earthquakes ----------------------------------------------------------------------------

test('quakeSummary: hand-built catalog — filters, half-open bands, rates, distances, largest, fit on the extract', () => {
  const events = [
    quake('a', '2000-05-01T00:00:00Z', 6.0, 0, 0.5), // 55.6 km, band 6.0–6.5
    quake('b', '2001-05-01T00:00:00Z', 6.5, 0, 1.0), // 111.2 km, band 6.5–7.0 (not 6.0–6.5)
    quake('c', '2002-05-01T00:00:00Z', 7.0, 1.0, 0), // 111.2 km, band 7.0–7.5
    quake('d', '2003-05-01T00:00:00Z', 8.1, 0, -1.2), // 133.4 km, band >= 8.0
    quake('e', '2004-05-01T00:00:00Z', 7.9, 0, 1.5), // 166.8 km: outside 150 km
    quake('e2', '2004-06-01T00:00:00Z', 6.0, 0, 2.0), // 222.4 km: outside
    quake('f', '2000-06-01T00:00:00Z', 6.2, 0, 0.1, 'nuclear explosion'),
    quake('g', '2000-07-01T00:00:00Z', null, 0, 0.1),
    quake('h', '1990-05-01T00:00:00Z', 6.3, 0, 0.2), // before the record
    quake('i', '1999-05-01T00:00:00Z', 6.4, 0, 0.2), // a missing year
  ];
  const s = quakeSummary(events, ORIGIN, { years: { from: 1995, to: 2004, missing: [1999] }, magnitudeFloor: 6 });
  assertJsonReady(s);
  assert.equal(s.radius_km, 150);
  assert.deepEqual(s.record, { from: 1995, to: 2004, years_missing: [1999], years: 9 });
  assert.deepEqual(s.input, {
    events: 10, not_earthquake: 1, earthquakes_without_magnitude: 1, earthquakes_outside_record_years: 2, earthquakes_counted: 6,
  });
  assert.equal(s.within_radius, 4);
  assert.equal(s.below_lowest_band, 0);
  assert.deepEqual(s.bands.map((b) => [b.min_magnitude, b.max_magnitude, b.count, b.annual_rate]), [
    [6.0, 6.5, 1, 1 / 9], [6.5, 7.0, 1, 1 / 9], [7.0, 7.5, 1, 1 / 9], [7.5, 8.0, 0, 0], [8.0, null, 1, 1 / 9],
  ]);
  assert.deepEqual(s.at_least.map((b) => [b.min_magnitude, b.count, b.annual_rate]), [
    [6.0, 4, 4 / 9], [6.5, 3, 3 / 9], [7.0, 2, 2 / 9], [7.5, 1, 1 / 9], [8.0, 1, 1 / 9],
  ]);
  assert.deepEqual(s.largest.map((e) => e.event_id), ['d', 'c', 'b', 'a']);
  close(s.largest[0]!.distance_km, 1.2 * KM_PER_DEG, 1e-9, 'd');
  close(s.largest[1]!.distance_km, 1.0 * KM_PER_DEG, 1e-9, 'c');
  close(s.largest[3]!.distance_km, 0.5 * KM_PER_DEG, 1e-9, 'a');
  assert.equal(s.largest[0]!.time, '2003-05-01T00:00:00Z');
  assert.equal(s.largest[0]!.depth_km, 10);

  // Fewer than 20 within the radius: the fit runs over the whole extract (the 6 counted earthquakes).
  const gr = s.gutenberg_richter;
  assert.equal(gr.fit_scope, 'extract');
  assert.equal(gr.events_in_scope, 6);
  const direct = fitGutenbergRichter([6.0, 6.5, 7.0, 8.1, 7.9, 6.0], { years: 9, floorMagnitude: 6 });
  assert.equal(direct.mc, 6.0);
  assert.equal(gr.fit!.b, direct.b);
  assert.equal(gr.fit!.a_annual, direct.aAnnual);
  assert.equal(gr.fit!.mc, direct.mc);
  assert.equal(gr.fit!.n, direct.n);
  assert.equal(gr.fit!.b_standard_error_aki, direct.standardErrorAki);
  close(gr.annual_rates[1]!.annual_rate, direct.annualRateAtMc * 10 ** (-direct.b * (7.0 - direct.mc)), 1e-15);
  assert.ok(s.notes.some((n) => n.includes('half-open')));
});

test('quakeSummary: 20 or more earthquakes within the radius — the fit is local and equals fitGutenbergRichter on them', () => {
  const mags = [...Array(10).fill(6.0), ...Array(6).fill(6.1), ...Array(4).fill(6.3), 6.8, 6.8, 6.9, 7.2, 7.4] as number[];
  const near = mags.map((m, i) => quake(`n${i}`, `${1980 + i}-01-01T00:00:00Z`, m, 0.3, 0));
  const far = [7.5, 7.6, 7.7].map((m, i) => quake(`f${i}`, `${1990 + i}-01-01T00:00:00Z`, m, 5, 5));
  const s = quakeSummary([...far, ...near], ORIGIN, { years: { from: 1980, to: 2019 }, radiusKm: 50 });
  assertJsonReady(s);
  assert.equal(s.within_radius, 25);
  assert.equal(s.gutenberg_richter.fit_scope, 'within_radius');
  const direct = fitGutenbergRichter(mags, { years: 40 });
  const fit = s.gutenberg_richter.fit!;
  assert.deepEqual(
    [fit.a_annual, fit.a_count, fit.b, fit.b_standard_error_shi_bolt, fit.mc, fit.mc_max_curvature, fit.n, fit.years, fit.floor_magnitude],
    [direct.aAnnual, direct.aCount, direct.b, direct.standardErrorShiBolt, direct.mc, direct.mcMaxCurvature, direct.n, direct.years, null],
  );
  assert.equal(s.magnitude_floor, null);
  assert.equal(s.largest.length, 10);
  assert.equal(s.largest[0]!.magnitude, 7.4);
});

test('quakeSummary: no fit when the scope holds too few earthquakes, said in reason; bad inputs refused', () => {
  const s = quakeSummary([quake('x', '2000-01-01T00:00:00Z', 6.1, 0, 0)], ORIGIN, { years: { from: 2000, to: 2000 } });
  assertJsonReady(s);
  assert.equal(s.gutenberg_richter.fit, null);
  assert.match(s.gutenberg_richter.reason!, /1 earthquake/);
  assert.ok(s.gutenberg_richter.annual_rates.every((r) => r.annual_rate === null && r.return_period_years === null));
  // Two distinct magnitudes: maximum curvature puts Mc at the larger, leaving one event: the fit's own refusal is the reason.
  const two = quakeSummary([quake('x', '2000-01-01T00:00:00Z', 6.1, 0, 0), quake('y', '2000-02-01T00:00:00Z', 6.6, 0, 0)], ORIGIN, { years: { from: 2000, to: 2000 } });
  assertJsonReady(two);
  assert.equal(two.gutenberg_richter.fit, null);
  assert.match(two.gutenberg_richter.reason!, /at least two events at or above Mc 6.6/);
  assert.throws(() => quakeSummary([], { latitude: 91, longitude: 0 }, { years: { from: 2000, to: 2001 } }), RangeError);
  assert.throws(() => quakeSummary([], ORIGIN, { years: { from: 2001, to: 2000 } }), RangeError);
  assert.throws(() => quakeSummary([], ORIGIN, { years: { from: 2000, to: 2001 }, radiusKm: 0 }), RangeError);
  assert.throws(() => quakeSummary([], ORIGIN, { years: { from: 2000, to: 2000, missing: [2000] } }), RangeError);
});

// ---- daily series ---------------------------------------------------------------------------

test('seriesSummary: record length, missing days, the 10% rule (days outside the record count), annual max and total', () => {
  // 2001-03-01..2003-12-31; every day 1, except two days of 50 in 2002; 36 null days in 2002, 37 in 2003.
  const run = (start: number, n: number) => new Set(Array.from({ length: n }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10)));
  const missing2002 = run(Date.UTC(2002, 0, 1), 36); // 2002-01-01..2002-02-05
  const missing2003 = run(Date.UTC(2003, 9, 1), 37); // 2003-10-01..2003-11-06
  const value = (d: string): number | null =>
    missing2002.has(d) || missing2003.has(d) ? null : d === '2002-07-04' || d === '2002-08-01' ? 50 : 1;
  const series = dailySeries('2001-03-01', '2003-12-31', value);

  const s = seriesSummary(series, { variable: 'rainfall' });
  assertJsonReady(s);
  assert.equal(s.unit, 'mm');
  assert.equal(s.variable, 'rainfall');
  assert.equal(s.series_variable, 'PRCP');
  assert.deepEqual(s.record, {
    first_day: '2001-03-01', last_day: '2003-12-31', first_day_with_value: '2001-03-01', last_day_with_value: '2003-12-31',
    days: 306 + 365 + 365, days_with_value: 306 + 365 + 365 - 73, missing_days: 73, years_with_data: 3,
  });
  assert.deepEqual(s.missing_by_year, [
    { year: 2001, calendar_days: 365, days_in_record: 306, missing_in_record: 0, outside_record: 59, missing_days: 59 },
    { year: 2002, calendar_days: 365, days_in_record: 365, missing_in_record: 36, outside_record: 0, missing_days: 36 },
    { year: 2003, calendar_days: 365, days_in_record: 365, missing_in_record: 37, outside_record: 0, missing_days: 37 },
  ]);
  assert.deepEqual(s.annual_values, [{ year: 2002, value: 50, date: '2002-07-04', missing_days: 36 }]);
  assert.deepEqual(s.years_excluded, [
    { year: 2001, missing_days: 59, allowed_missing_days: 36 },
    { year: 2003, missing_days: 37, allowed_missing_days: 36 },
  ]);
  assert.equal(s.extreme_value.fit, null);
  assert.equal(s.extreme_value.n, 1);
  assert.match(s.extreme_value.reason!, /1 complete year.*at least 10/);
  assert.ok(s.extreme_value.return_levels.every((r) => r.value === null));

  const total = seriesSummary(series, { aggregation: 'sum' });
  assertJsonReady(total);
  // 2002: 365 − 36 = 329 days with a value, 327 of them 1 and two of 50.
  assert.deepEqual(total.annual_values, [{ year: 2002, value: 327 + 100, date: null, missing_days: 36 }]);

  // A looser rule admits 2003 (37 <= floor(0.15 × 365) = 54) but not 2001 (59).
  const loose = seriesSummary(series, { maxMissingFraction: 0.15 });
  assert.deepEqual(loose.annual_values.map((a) => a.year), [2002, 2003]);
  assert.throws(() => seriesSummary(series, { unit: 'tenths of mm' }), RangeError);
});

test('seriesSummary: the fit is selectExtremeValueFit over the annual maxima; return levels equal returnLevel(fit, T)', () => {
  const maxima = [10, 12, 15, 11, 30, 14, 18, 22, 13, 16, 25, 19];
  // Years 2001..2012 complete; each year's maximum falls on 15 July, every other day is 1.
  const series = dailySeries('2001-01-01', '2012-12-31', (d) => (d.slice(5) === '07-15' ? maxima[Number(d.slice(0, 4)) - 2001]! : 1));
  const s = seriesSummary(series);
  assertJsonReady(s);
  assert.deepEqual(s.annual_values.map((a) => a.value), maxima);
  assert.deepEqual(s.years_excluded, []);
  assert.deepEqual(s.missing_by_year, []);
  const selection = selectExtremeValueFit(maxima);
  const fit = s.extreme_value.fit!;
  assert.equal(s.extreme_value.n, 12);
  assert.equal(fit.distribution, 'gumbel'); // n < 25: Gumbel by the rule
  assert.equal(fit.distribution, selection.chosen.distribution);
  assert.deepEqual([fit.location, fit.scale, fit.shape], [selection.chosen.location, selection.chosen.scale, selection.chosen.shape]);
  assert.equal(fit.selection_rule, selection.rule);
  assert.equal(fit.goodness_of_fit.ppcc, probabilityPlotCorrelation(maxima, selection.chosen));
  assert.equal(fit.goodness_of_fit.anderson_darling_a2, andersonDarling(maxima, selection.chosen));
  assert.deepEqual(s.extreme_value.return_levels.map((r) => r.return_period_years), [10, 25, 50, 100]);
  for (const r of s.extreme_value.return_levels) assert.equal(r.value, returnLevel(selection.chosen, r.return_period_years));
  assert.deepEqual(s.extreme_value.return_levels.map((r) => r.beyond_record), [false, true, true, true]);
});

test('seriesSummary: annual maxima drawn from a known Gumbel recover its parameters and return levels', () => {
  const truth = { location: 100, scale: 20, shape: 0 };
  const random = seededRandom(20240816);
  const from = 1950;
  const years = 60;
  const sample = Array.from({ length: years }, () => gevQuantile(random.uniformOpen(), truth));
  // Every other day stays below the smallest annual maximum.
  const floor = Math.min(...sample) - 1;
  const series = dailySeries(`${from}-01-01`, `${from + years - 1}-12-31`, (d) =>
    d.slice(5) === '09-10' ? sample[Number(d.slice(0, 4)) - from]! : floor);
  const s = seriesSummary(series);
  assertJsonReady(s);
  assert.equal(s.extreme_value.n, years);
  const fit = s.extreme_value.fit!;
  assert.equal(fit.distribution, 'gumbel');
  close(fit.location, truth.location, 10, 'location');
  close(fit.scale, truth.scale, 6, 'scale');
  const x100 = truth.location - truth.scale * Math.log(-Math.log(1 - 1 / 100)); // 192.0
  close(s.extreme_value.return_levels[3]!.value, x100, 25, '100-year level');
  assert.ok(fit.goodness_of_fit.ppcc! > 0.97, `ppcc ${fit.goodness_of_fit.ppcc}`);
});

// ---- tracks ---------------------------------------------------------------------------------

test('trackSummary: hourly samples within the radius, strongest wind, Saffir–Simpson classes, rates', () => {
  const storms: Storm[] = [
    // 6 h from 2°W to 1°E at 0.5°/h, wind 50 → 100 kt: samples at −0.5°, 0°, 0.5° lie within 100 km
    // (55.6, 0, 55.6 km); the strongest of them is the 05 UTC sample, 50 + 50·5/6 kt (Cat 2).
    { storm_id: 'AL012004', name: 'ALPHA', basin: 'AL', fixes: [fix('2004-09-01T00:00:00Z', 0, -2, 50), fix('2004-09-01T06:00:00Z', 0, 1, 100)] },
    { storm_id: 'AL022005', name: 'BRAVO', basin: 'AL', fixes: [fix('2005-09-01T00:00:00Z', 0.3, 0, 140)] }, // 33.4 km, Cat 5
    { storm_id: 'AL032005', name: null, basin: 'AL', fixes: [fix('2005-10-01T00:00:00Z', 10, 0, 120), fix('2005-10-01T06:00:00Z', 11, 0, 120)] }, // far
    { storm_id: 'AL042006', name: 'DELTA', basin: 'AL', fixes: [fix('2006-09-01T00:00:00Z', 0, 0, null)] }, // no wind
    { storm_id: 'AL011990', name: 'OLD', basin: 'AL', fixes: [fix('1990-09-01T00:00:00Z', 0, 0, 90)] }, // before the record
    { storm_id: 'AL052006', name: 'ECHO', basin: 'AL', fixes: [fix('2006-08-01T00:00:00Z', 0, 0.1, 30)] }, // 11.1 km, below Cat 1
  ];
  const s = trackSummary(storms, ORIGIN, { years: { from: 2000, to: 2009 } });
  assertJsonReady(s);
  assert.equal(s.radius_km, 100);
  assert.deepEqual(s.input, { storms: 6, storms_without_wind: 1 });
  assert.equal(s.storms_within_radius, 3);
  assert.deepEqual(s.classes.map((c) => [c.class, c.count, c.annual_rate]), [
    ['below_cat1', 1, 0.1], ['cat1', 0, 0], ['cat2', 1, 0.1], ['cat3', 0, 0], ['cat4', 0, 0], ['cat5', 1, 0.1],
  ]);
  assert.deepEqual(s.at_least.map((c) => [c.category, c.count]), [[1, 2], [2, 2], [3, 1], [4, 1], [5, 1]]);
  assert.deepEqual(s.strongest.map((p) => p.storm_id), ['AL022005', 'AL012004', 'AL052006']);
  const alpha = s.strongest[1]!;
  close(alpha.wind_kt, 50 + (50 * 5) / 6, 1e-9, 'interpolated wind');
  assert.equal(alpha.category, 2);
  assert.equal(alpha.time, '2004-09-01T05:00:00Z');
  assert.equal(alpha.interpolated, true);
  close(alpha.distance_km, 0.5 * KM_PER_DEG, 1e-9, 'distance of the strongest sample');
  close(alpha.closest_approach_km, 0, 1e-9, 'closest approach');
  assert.equal(alpha.closest_approach_time, '2004-09-01T04:00:00Z');
  close(s.strongest[0]!.distance_km, 0.3 * KM_PER_DEG, 1e-9);
  assert.equal(s.strongest[0]!.name, 'BRAVO');
  assert.ok(s.notes.some((n) => n.includes('not the wind at the point')));
});

// ---- reports --------------------------------------------------------------------------------

test('reportSummary: hail within 25 km by half-open size class, no-coordinate and no-value reports, rates', () => {
  const reports = [
    report('hail', 'h1', '2000-06-01', 0.75, 0.1, 0), // 11.1 km
    report('hail', 'h2', '2001-06-01', 1.0, -0.1, 0), // 1–2 in, not < 1
    report('hail', 'h3', '2002-06-01', 2.0, 0, 0.2), // 22.2 km
    report('hail', 'h4', '2003-06-01', 3.0, 0, 0.05),
    report('hail', 'h5', '2003-07-01', 4.5, 0, 0.3), // 33.4 km: outside
    report('hail', 'h6', '2004-06-01', 1.75, null, null),
    report('hail', 'h7', '2004-07-01', null, 0.01, 0),
    report('hail', 'h8', '1999-06-01', 2.5, 0, 0),
  ];
  const s = reportSummary(reports, ORIGIN, { years: { from: 2000, to: 2004 } });
  assertJsonReady(s);
  assert.equal(s.kind, 'hail');
  assert.equal(s.peril, 'severe_convective_storm');
  assert.equal(s.radius_km, 25);
  assert.deepEqual(s.input, { reports: 8, other_kinds: 0, outside_record_years: 1, without_coordinates: 1, with_coordinates: 6 });
  assert.equal(s.within_radius, 5);
  assert.deepEqual(s.classes.map((c) => [c.min_value, c.max_value, c.count, c.annual_rate]), [
    [null, 1, 1, 0.2], [1, 2, 1, 0.2], [2, 3, 1, 0.2], [3, null, 1, 0.2],
  ]);
  assert.deepEqual(s.unknown_value, { count: 1, annual_rate: 0.2 });
  assert.deepEqual(s.largest.map((r) => r.event_id), ['h4', 'h3', 'h2', 'h1']);
  close(s.largest[1]!.distance_km, 0.2 * KM_PER_DEG, 1e-9);
  assert.equal(s.burned_area, null);
});

test('reportSummary: wind and tornado classes; mixed kinds need a stated kind', () => {
  const wind = [49, 50, 65].map((v, i) => report('wind', `w${i}`, '2010-05-01', v, 0, 0));
  const tornado = [0, 5, null].map((v, i) => report('tornado', `t${i}`, '2011-05-01', v, 0.1, 0.1));
  assert.throws(() => reportSummary([...wind, ...tornado], ORIGIN, { years: { from: 2010, to: 2011 } }), RangeError);
  const w = reportSummary([...wind, ...tornado], ORIGIN, { years: { from: 2010, to: 2011 }, kind: 'wind' });
  assertJsonReady(w);
  assert.equal(w.input.other_kinds, 3);
  assert.deepEqual(w.classes.map((c) => c.count), [1, 1, 1]);
  assert.deepEqual(w.classes.map((c) => c.annual_rate), [0.5, 0.5, 0.5]);
  const t = reportSummary(tornado, ORIGIN, { years: { from: 2010, to: 2011 } });
  assertJsonReady(t);
  assert.deepEqual(t.classes.map((c) => [c.label, c.count]), [['(E)F0', 1], ['(E)F1', 0], ['(E)F2', 0], ['(E)F3', 0], ['(E)F4', 0], ['(E)F5', 1]]);
  assert.equal(t.unknown_value.count, 1);
  assert.equal(t.largest[0]!.event_id, 't1');
});

test('reportSummary: fires within 50 km, acre classes, burned acres and the largest fires by name', () => {
  const fire = (id: string, acres: number | null, lat: number, lon: number, name: string, type = 'Wildfire') =>
    report('fire', id, '2015-08-01', acres, lat, lon, { Incid_Name: name, Incid_Type: type });
  const reports = [
    fire('f1', 500, 0.2, 0, 'SMALL', 'Prescribed Fire'), // 22.2 km
    fire('f2', 5_000, 0.4, 0, 'MIDDLE'), // 44.5 km
    fire('f3', 150_000, 0, -0.3, 'HUGE'), // 33.4 km
    fire('f4', 20_000, 0, 0.5, 'AWAY'), // 55.6 km: outside
    fire('f5', null, 0.1, 0, 'NOACRES'),
  ];
  const s = reportSummary(reports, ORIGIN, { years: { from: 2010, to: 2019 } });
  assertJsonReady(s);
  assert.equal(s.peril, 'wildfire');
  assert.equal(s.radius_km, 50);
  assert.equal(s.within_radius, 4);
  assert.deepEqual(s.classes.map((c) => [c.label, c.count, c.annual_rate]), [
    ['< 1,000 acres', 1, 0.1], ['1,000–10,000 acres', 1, 0.1], ['10,000–100,000 acres', 0, 0], ['≥ 100,000 acres', 1, 0.1],
  ]);
  assert.deepEqual(s.burned_area, {
    total_acres: 155_500, annual_mean_acres: 15_550, fires_with_acres: 3, fires_without_acres: 1,
    by_incident_type: [{ incident_type: 'Wildfire', count: 3, acres: 155_000 }, { incident_type: 'Prescribed Fire', count: 1, acres: 500 }],
  });
  assert.deepEqual(s.largest.map((f) => [f.event_id, f.name, f.value]), [['f3', 'HUGE', 150_000], ['f2', 'MIDDLE', 5_000], ['f1', 'SMALL', 500]]);
  close(s.largest[1]!.distance_km, 0.4 * KM_PER_DEG, 1e-9);
});

// ---- pinned feeds ---------------------------------------------------------------------------

const FEEDS = FEEDS_DIR;

function feed(id: string): { manifest: Manifest; raw: Record<string, unknown>; text: string } {
  const dir = join(FEEDS, id, readdirSync(join(FEEDS, id)).sort().at(-1)!);
  const raw = JSON.parse(readFileSync(join(dir, 'MANIFEST.json'), 'utf8')) as Record<string, unknown>;
  const manifest = parseManifest(raw);
  return { manifest, raw, text: readFileSync(join(dir, manifest.files[0]!.name), 'utf8') };
}

test('pinned ComCat California around Los Angeles (34.05, −118.25): counts agree with a raw-line recount', () => {
  const { manifest, text } = feed('usgs-comcat-m6-california');
  const point = { latitude: 34.05, longitude: -118.25 };
  const s = quakeSummary(parseComcat(text, comcatOptions(manifest)).records, point, { years: { from: 1901, to: 2022 }, magnitudeFloor: 6 });
  assertJsonReady(s);
  // Recount: earthquake rows (the type follows the quoted place), first columns unquoted.
  let near = 0;
  let nearM65 = 0;
  let earthquakes = 0;
  for (const line of text.split('\n').slice(1)) {
    if (!line.includes('",earthquake,')) continue;
    earthquakes++;
    const [time, lat, lon, , mag] = line.split(',');
    const year = Number(time!.slice(0, 4));
    if (year < 1901 || year > 2022) continue;
    if (distanceKm(34.05, -118.25, Number(lat), Number(lon)) <= 150) {
      near++;
      if (Number(mag) >= 6.5) nearM65++;
    }
  }
  assert.equal(s.input.earthquakes_counted, earthquakes);
  assert.equal(s.within_radius, near);
  assert.equal(s.at_least[1]!.count, nearM65);
  assert.equal(near, 9);
  assert.equal(s.largest[0]!.event_id, 'ci3319401'); // 1952 Kern County M7.5
  assert.ok(s.largest.some((e) => e.event_id === 'ci3144585'), 'Northridge 1994 listed');
  // 9 < 20 within 150 km: the fit runs over the extract and equals the direct fit.
  assert.equal(s.gutenberg_richter.fit_scope, 'extract');
  const mags = parseComcat(text, comcatOptions(manifest)).records.filter((e) => e.type === 'earthquake').map((e) => e.magnitude!);
  const direct = fitGutenbergRichter(mags, { years: 122, floorMagnitude: 6 });
  assert.equal(s.gutenberg_richter.fit!.b, direct.b);
  assert.equal(s.gutenberg_richter.fit!.mc, 6);
});

test('pinned GHCN-Daily Gainesville PRCP: annual maxima and kept years agree with a raw-line recount', () => {
  const { raw, text } = feed('ghcnd-usw00012816-prcp');
  const series = parseGhcnCsv(text, 'PRCP', raw as ManifestFacts);
  const s = seriesSummary(series, { variable: 'daily precipitation' });
  assertJsonReady(s);
  assert.equal(s.unit, 'tenths of mm');
  // Recount per year: PRCP values present and their maximum, from the raw CSV.
  const perYear = new Map<number, { n: number; max: number }>();
  for (const line of text.split(/\r?\n/).slice(1)) {
    if (line === '') continue;
    const date = line.split(',')[1]!;
    const prcp = line.split('",')[1]!.split(',')[0]!;
    if (prcp === '' || date < '1960-05-17' || date > '2024-08-16') continue;
    const y = Number(date.slice(0, 4));
    const acc = perYear.get(y) ?? { n: 0, max: -Infinity };
    acc.n++;
    acc.max = Math.max(acc.max, Number(prcp));
    perYear.set(y, acc);
  }
  const kept = [...perYear].filter(([y, a]) => {
    const days = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365;
    return days - a.n <= Math.floor(days / 10);
  }).sort((a, b) => a[0] - b[0]);
  assert.deepEqual(s.annual_values.map((a) => [a.year, a.value]), kept.map(([y, a]) => [y, a.max]));
  assert.equal(s.extreme_value.n, 49);
  assert.ok(s.years_excluded.some((y) => y.year === 1975), 'a years_missing year is excluded');
  assert.deepEqual(s.annual_values.find((a) => a.year === 2012), { year: 2012, value: 1765, date: '2012-06-24', missing_days: 0 });
  const selection = selectExtremeValueFit(s.annual_values.map((a) => a.value));
  for (const r of s.extreme_value.return_levels) assert.equal(r.value, returnLevel(selection.chosen, r.return_period_years));
  const levels = s.extreme_value.return_levels.map((r) => r.value!);
  assert.ok(levels.every((v, i) => i === 0 || v > levels[i - 1]!), 'return levels increase with T');
});

test('pinned HURDAT2 Atlantic around Miami (25.76, −80.19): storm counts agree with a raw-line recount', () => {
  const { text } = feed('noaa-nhc-hurdat2-atlantic');
  const point = { latitude: 25.76, longitude: -80.19 };
  const s = trackSummary(parseHurdat2(text).storms, point, { years: { from: 1851, to: 2024 } });
  assertJsonReady(s);
  // Recount: read fixes from the raw lines, add whole-hour samples between fixes with wind (linear),
  // count storms with a sample within 100 km, and those whose strongest such sample is >= 96 kt.
  let within = 0;
  let major = 0;
  let fixes: { t: number; lat: number; lon: number; wind: number | null }[] = [];
  const flush = () => {
    let best = -Infinity;
    for (let i = 0; i < fixes.length; i++) {
      const a = fixes[i]!;
      if (a.wind === null) continue;
      const pts = [{ lat: a.lat, lon: a.lon, wind: a.wind }];
      const b = fixes[i + 1];
      if (b && b.wind !== null) {
        for (let h = Math.floor(a.t / 3_600_000) + 1; h * 3_600_000 < b.t; h++) {
          const f = (h * 3_600_000 - a.t) / (b.t - a.t);
          pts.push({ lat: a.lat + f * (b.lat - a.lat), lon: a.lon + f * (b.lon - a.lon), wind: a.wind + f * (b.wind - a.wind) });
        }
      }
      for (const p of pts) if (distanceKm(point.latitude, point.longitude, p.lat, p.lon) <= 100) best = Math.max(best, p.wind);
    }
    if (best > -Infinity) { within++; if (best >= 96) major++; }
    fixes = [];
  };
  for (const line of text.split('\n')) {
    if (/^[A-Z]{2}\d{6},/.test(line)) { flush(); continue; }
    const c = line.split(',').map((x) => x.trim());
    if (c.length < 7) continue;
    const t = Date.UTC(+c[0]!.slice(0, 4), +c[0]!.slice(4, 6) - 1, +c[0]!.slice(6, 8), +c[1]!.slice(0, 2), +c[1]!.slice(2, 4));
    const lat = parseFloat(c[4]!) * (c[4]!.endsWith('S') ? -1 : 1);
    const lon = parseFloat(c[5]!) * (c[5]!.endsWith('W') ? -1 : 1);
    const wind = Number(c[6]) < 0 ? null : Number(c[6]);
    fixes.push({ t, lat, lon, wind });
  }
  flush();
  assert.equal(s.storms_within_radius, within);
  assert.equal(s.at_least[2]!.count, major);
  assert.equal(s.classes.reduce((n, c) => n + c.count, 0), within);
  assert.equal(s.strongest[0]!.storm_id, 'AL041992'); // Andrew
  assert.equal(s.strongest[0]!.category, 5);
});

test('pinned SPC hail around Denver (39.74, −104.99): counts agree with a raw-line recount; missing years left out', () => {
  const { manifest, raw, text } = feed('noaa-spc-hail-denver');
  const point = { latitude: 39.74, longitude: -104.99 };
  const missing = raw.years_missing as number[];
  const s = reportSummary(parseSpcReports(text, spcOptions(manifest)).records, point, { years: { from: 1955, to: 2011, missing } });
  assertJsonReady(s);
  assert.equal(s.record.years, 57 - 15);
  let near = 0;
  let atLeastOneInch = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const c = line.trim().split(',');
    const [year, mag, lat, lon] = [Number(c[1]), Number(c[10]), Number(c[15]), Number(c[16])];
    if (missing.includes(year) || lat === 0 || lon === 0) continue;
    if (distanceKm(point.latitude, point.longitude, lat, lon) <= 25) {
      near++;
      if (mag >= 1) atLeastOneInch++;
    }
  }
  assert.equal(s.within_radius, near);
  assert.equal(s.classes.slice(1).reduce((n, c) => n + c.count, 0), atLeastOneInch);
  assert.equal(s.classes[0]!.annual_rate, s.classes[0]!.count / 42);
});

test('pinned MTBS Northern California around Paradise (39.76, −121.62): fires and acres agree with a raw-line recount', () => {
  const { manifest, text } = feed('usgs-mtbs-northern-california');
  const point = { latitude: 39.76, longitude: -121.62 };
  const s = reportSummary(parseMtbs(text, mtbsOptions(manifest)).records, point, { years: { from: 1999, to: 2020 } });
  assertJsonReady(s);
  let near = 0;
  let acres = 0;
  for (const line of text.split('\r\n').slice(1)) {
    const m = /^[A-Z]{2}(\d{5})(\d{6})\d{8},/.exec(line);
    if (!m) continue;
    if (distanceKm(point.latitude, point.longitude, Number(m[1]) / 1000, -Number(m[2]) / 1000) <= 50) {
      near++;
      acres += Number(line.split(',')[4]);
    }
  }
  assert.equal(s.within_radius, near);
  assert.equal(s.burned_area!.total_acres, acres);
  assert.equal(s.largest[0]!.name, 'CAMP'); // the 2018 Camp Fire
  assert.equal(s.largest[0]!.value, 153_687);
});
