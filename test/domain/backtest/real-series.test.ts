// Daily-index backtests over the real pinned series (flood, weather_station, tropical_cyclone on a
// daily wind series, grid_outage), each checked year by year against a recomputation from the raw
// file lines written here: its own day map, rolling windows, missing-day rule, units and payout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backtest, checkPaid, closeMoney, csvRecords, DAY, GREENVILLE_GUST, isoDate, lines, rawText, utcDay } from './support.js';
import type { YearOut } from '../../../src/domain/backtest/artifact.js';

interface Expected { payout: number | null; max: number | null; maxDate: string | null; missingDays: number; termDays: number }

/**
 * Independent index: for each year, every `w`-day window wholly inside [from, to] (month/day, the
 * end in the next year when `cross`), skipped when a day has no value; aggregate; term maximum.
 */
function recompute(
  values: Map<string, number>, years: [number, number], term: { from: [number, number]; to: [number, number]; cross?: boolean },
  w: number, agg: (xs: number[]) => number, pay: (x: number) => number, feb29End = false,
): Map<number, Expected> {
  const out = new Map<number, Expected>();
  for (let y = years[0]; y <= years[1]; y++) {
    const endYear = term.cross ? y + 1 : y;
    const leap = (endYear % 4 === 0 && endYear % 100 !== 0) || endYear % 400 === 0;
    const endDay = feb29End && !leap ? 28 : term.to[1];
    const start = utcDay(y, term.from[0], term.from[1]);
    const end = utcDay(endYear, term.to[0], endDay);
    const days: string[] = [];
    for (let t = start; t <= end; t += DAY) days.push(isoDate(t));
    let best: number | null = null;
    let bestDate: string | null = null;
    for (let e = w - 1; e < days.length; e++) {
      const xs = days.slice(e - w + 1, e + 1).map((d) => values.get(d));
      if (xs.some((x) => x === undefined)) continue;
      const v = agg(xs as number[]);
      if (best === null || v > best + 1e-9) { best = v; bestDate = days[e]!; }
    }
    const missingDays = days.filter((d) => !values.has(d)).length;
    out.set(y, { payout: best === null ? null : pay(best), max: best, maxDate: bestDate, missingDays, termDays: days.length });
  }
  return out;
}

function check(years: readonly YearOut[], expected: Map<number, Expected>, tolerance = 1e-5): void {
  assert.deepEqual(years.map((y) => y.year), [...expected.keys()]);
  for (const year of years) {
    const e = expected.get(year.year)!;
    if (e.max === null) {
      assert.equal(year.payout, null, `${year.year}: no computable window, so no record (not a zero)`);
      assert.equal(year.record, 'missing');
      continue;
    }
    // The stated partial-year rule, recomputed: more than floor(10% of the term) days lacking.
    checkPaid(year, e.payout, e.missingDays > Math.floor(0.1 * e.termDays + 1e-9), `payout ${year.year}`);
    const tm = year.term_maximum as { value: number; date: string };
    assert.ok(Math.abs(tm.value - e.max) <= tolerance, `term maximum ${year.year}: ${tm.value} vs ${e.max}`);
    assert.equal(tm.date, e.maxDate, `term maximum date ${year.year}`);
    assert.equal(year.missing_days, e.missingDays, `missing days ${year.year}`);
  }
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]): number => sum(xs) / xs.length;
const max = (xs: number[]): number => Math.max(...xs);

// ---- (b) flood, usgs-nwis-04119000-discharge ---------------------------------------------------

const FLOOD_B = {
  peril: { code: 'flood' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'usgs-nwis-04119000-discharge', version: '2017-10-18' }],
    measurement: { variable: 'discharge', aggregation: 'mean' }, aggregation_window: { duration: 'P3D' },
    payout: { function: 'linear', attachment: 25000, exhaustion: 40000, basis: 'term_maximum' },
  },
  financial_structure: { currency: 'USD', limit: 5000000, attachment: 0 },
  period: { start: '2027-03-01', end: '2027-05-31' },
};

test('(b) flood index on Grand River discharge: 3-day mean, term maximum, linear 25,000-40,000 cfs, matching a recount of the raw TSV', async () => {
  const artifact = await backtest(FLOOD_B);
  const values = new Map<string, number>();
  for (const line of lines(rawText('usgs-nwis-04119000-discharge')).slice(1)) {
    const [, , date, flow] = line.split('\t').map((c) => c.replace(/^"|"$/g, ''));
    const v = Number(flow);
    if (flow !== '' && Number.isFinite(v) && v >= 0 && v !== -999999) values.set(date!, v);
  }
  const expected = recompute(values, [1901, 2017], { from: [3, 1], to: [5, 31] }, 3, mean, (x) => 5_000_000 * clamp01((x - 25000) / 15000));
  check(artifact.years, expected);
  // 1906-1929 (manifest years_missing) and any other year without a computable window: disclosed, left out of n.
  const missing = [...expected].filter(([, e]) => e.max === null).map(([y]) => y);
  assert.ok(missing.length >= 24);
  for (let y = 1906; y <= 1929; y++) assert.ok(missing.includes(y));
  assert.deepEqual(artifact.data_coverage.years_missing, missing);
  assert.equal(artifact.statistics.years, 2017 - 1901 + 1 - missing.length);
  const paid = [...expected.values()].filter((e) => e.payout !== null).map((e) => e.payout!);
  closeMoney(artifact.statistics.mean_annual_payout, sum(paid) / paid.length, 'mean annual payout');
  // March 1904, the largest flood of the record, exhausts the cover.
  assert.equal(artifact.years.find((y) => y.year === 1904)!.payout, 5_000_000);
  assert.equal(artifact.structure.trigger && (artifact.structure.trigger as { measurement: { unit: string } }).measurement.unit, 'ft3/s');
  assert.deepEqual(artifact.years.find((y) => y.year === 1904)!.occurrences.map((o) => [o.from, o.to, o.unit]), [['1904-03-26', '1904-03-28', 'ft3/s']]);
});

// ---- (d) weather_station, ghcnd-usw00012816-prcp ---------------------------------------------

const RAIN_D = {
  peril: { code: 'weather_station' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-usw00012816-prcp', version: '2024-08-16' }],
    measurement: { variable: 'precipitation', aggregation: 'sum', unit: 'mm' }, aggregation_window: { duration: 'P3D' },
    payout: { function: 'linear', attachment: 150, exhaustion: 300, basis: 'term_maximum' },
  },
  financial_structure: { currency: 'USD', limit: 2000000, attachment: 0 },
  period: { start: '2027-06-01', end: '2027-10-31' },
};

function ghcnValues(feedId: string, column: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const r of csvRecords(rawText(feedId))) {
    const cell = (r[column] ?? '').trim();
    const v = Number(cell);
    if (cell !== '' && Number.isFinite(v) && v >= 0) values.set(r.DATE!, v);
  }
  return values;
}

test('(d) weather_station rainfall index at Gainesville: 3-day sums in mm from tenths, linear 150-300 mm, matching a recount of the raw CSV', async () => {
  const artifact = await backtest(RAIN_D);
  const tenths = ghcnValues('ghcnd-usw00012816-prcp', 'PRCP');
  const expected = recompute(tenths, [1960, 2024], { from: [6, 1], to: [10, 31] }, 3, (xs) => sum(xs) / 10, (x) => 2_000_000 * clamp01((x - 150) / 150));
  check(artifact.years, expected);
  for (let y = 1970; y <= 1983; y++) assert.equal(artifact.years.find((x) => x.year === y)!.payout, null, `${y} missing`);
  // 2012 (Debby, 176.5 mm on 24 June) and 2017 (Irma) exhaust the cover.
  assert.equal(artifact.years.find((y) => y.year === 2012)!.payout, 2_000_000);
  // Missing days are disclosed per year; 2024 ends with the record on 16 August.
  const md = artifact.data_coverage.missing_days_by_year as { year: number; missing_days: number }[];
  assert.equal(md.find((m) => m.year === 2024)!.missing_days, expected.get(2024)!.missingDays);
  assert.ok(expected.get(2024)!.missingDays >= 76);
  assert.equal(artifact.conventions.units && (artifact.conventions.units as { index: string }).index, 'mm');
});

test('weather_station rainfall with a term crossing New Year, ending 29 February: term of year Y runs 1 Dec Y to end Feb Y+1 (real series)', async () => {
  const terms = {
    ...RAIN_D,
    trigger: { ...RAIN_D.trigger, measurement: { variable: 'precipitation', aggregation: 'max', unit: 'in' }, aggregation_window: { duration: 'P1D' }, payout: { function: 'ladder', levels: [{ at_least: 2, fraction: 0.5 }, { at_least: 4, fraction: 1 }] } },
    period: { start: '2027-12-01', end: '2028-02-29' },
  };
  const artifact = await backtest(terms, { from_year: 1990, to_year: 2010 });
  const tenths = ghcnValues('ghcnd-usw00012816-prcp', 'PRCP');
  const expected = recompute(tenths, [1990, 2010], { from: [12, 1], to: [2, 29], cross: true }, 1, (xs) => xs[0]! / 254,
    (x) => 2_000_000 * (x >= 4 ? 1 : x >= 2 ? 0.5 : 0), true);
  check(artifact.years, expected);
  assert.deepEqual(artifact.years.find((y) => y.year === 1991)!.term, { from: '1991-12-01', to: '1992-02-29' });
  assert.deepEqual(artifact.years.find((y) => y.year === 1992)!.term, { from: '1992-12-01', to: '1993-02-28' });
  assert.match(artifact.conventions.term_rule as string, /crosses New Year.*belongs to year Y/);
  assert.ok(artifact.years.some((y) => (y.payout ?? 0) > 0), 'some winter pays');
  // A rain day in January belongs to the term of the December before it.
  const jan = artifact.years.flatMap((y) => y.occurrences.filter((o) => o.date.slice(5, 7) !== '12').map((o) => [y.year, Number(o.date.slice(0, 4))]));
  for (const [termYear, dayYear] of jan) assert.equal(dayYear, termYear! + 1);
});

// ---- tropical_cyclone on a daily wind series, ghcnd-usw00012816-wind --------------------------

test('tropical_cyclone index on daily fastest 5-second wind (WSF5) in knots from tenths of m/s, matching a recount of the raw CSV', async () => {
  const terms = {
    peril: { code: 'tropical_cyclone' },
    trigger: {
      type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-usw00012816-wind', version: '2024-08-16' }],
      measurement: { variable: 'wind_speed', element: 'WSF5', aggregation: 'max', unit: 'kt' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'ladder', levels: [{ at_least: 45, fraction: 0.25 }, { at_least: 55, fraction: 1 }] },
    },
    financial_structure: { currency: 'USD', limit: 1000000, attachment: 0 },
    period: { start: '2027-06-01', end: '2027-11-30' },
  };
  const artifact = await backtest(terms);
  const tenths = ghcnValues('ghcnd-usw00012816-wind', 'WSF5');
  const kt = (x: number): number => (x / 10) / (1852 / 3600);
  const expected = recompute(tenths, [1984, 2024], { from: [6, 1], to: [11, 30] }, 1, (xs) => kt(xs[0]!),
    (x) => 1_000_000 * (x >= 55 ? 1 : x >= 45 ? 0.25 : 0));
  check(artifact.years, expected);
  // WSF5 starts 1998-08-08: earlier years have no record (disclosed), 1998 is partial.
  for (let y = 1984; y <= 1997; y++) assert.equal(artifact.years.find((x) => x.year === y)!.record, 'missing');
  assert.equal(artifact.years.find((x) => x.year === 1998)!.record, 'partial');
  assert.ok(artifact.years.some((y) => y.payout === 1_000_000));
  assert.equal(artifact.selection.element, 'WSF5');
  assert.equal(artifact.selection.native_unit, 'tenths of m/s');
});

// ---- grid_outage, gema-county-outages-13051 ----------------------------------------------------

test('grid_outage index on Chatham County customers out: daily maximum, linear 10,000-150,000, matching a recount of the raw snapshots', async () => {
  const terms = {
    peril: { code: 'grid_outage' },
    trigger: {
      type: 'parametric_index', data_sources: [{ feed_id: 'gema-county-outages-13051', version: '2024-11-05' }],
      measurement: { variable: 'customers_out', aggregation: 'max' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'linear', attachment: 10000, exhaustion: 150000 },
    },
    financial_structure: { currency: 'USD', limit: 1000000 },
    period: { start: '2027-01-01', end: '2027-12-31' },
  };
  const artifact = await backtest(terms);
  const daily = new Map<string, number>();
  for (const r of csvRecords(rawText('gema-county-outages-13051'))) {
    const v = Number(r.outage_count);
    if (r.outage_count === '' || !Number.isFinite(v) || v < 0) continue;
    const day = r.timestamp!.slice(0, 10); // local calendar day as written
    daily.set(day, Math.max(daily.get(day) ?? -Infinity, v));
  }
  const expected = recompute(daily, [2024, 2024], { from: [1, 1], to: [12, 31] }, 1, max, (x) => 1_000_000 * clamp01((x - 10000) / 140000));
  check(artifact.years, expected, 0);
  const y = artifact.years[0]!;
  assert.deepEqual(y.term_maximum, { value: 115826, unit: 'customers', date: '2024-09-27', from: '2024-09-27', to: '2024-09-27' });
  assert.equal(y.missing_days, 366 - daily.size);
  assert.equal(y.record, 'partial');
  // 42 days of record in 2024: a partial year, shown with what it would have paid, never counted.
  // n = 0, so no statistic is invented (null, not NaN), and the year is named in data_coverage.
  assert.equal(y.payout, null);
  assert.equal(y.payout_on_partial_record, 755_900);
  assert.equal(artifact.statistics.years, 0);
  assert.equal(artifact.statistics.mean_annual_payout, null);
  assert.equal(artifact.statistics.standard_deviation, null);
  assert.deepEqual((artifact.data_coverage.partial_years as { year: number; days_covered: number }[]).map((p) => [p.year, p.days_covered]), [[2024, daily.size]]);
  assert.equal(artifact.structure.financial_structure && (artifact.structure.financial_structure as { attachment: number }).attachment, 0);
});

// ---- data quality: gusts above 75 m/s, ghcnd-usw00003870-wind ---------------------------------

test('gusts above 75 m/s (80.5-98.3 m/s in 2010 at Greenville) never pay: excluded by the quality rule and listed with date, value and reason', async () => {
  const artifact = await backtest(GREENVILLE_GUST);
  // Recount from the raw .dly: WSF5 values of 2010's term above 750 tenths of m/s, unflagged.
  const raw: [string, number][] = [];
  for (const line of lines(rawText('ghcnd-usw00003870-wind'))) {
    if (line.slice(17, 21) !== 'WSF5' || line.slice(11, 15) !== '2010') continue;
    for (let d = 0; d < 31; d++) {
      const v = Number.parseInt(line.slice(21 + d * 8, 26 + d * 8), 10);
      if (v > 750 && line[27 + d * 8] === ' ') raw.push([`2010-${line.slice(15, 17)}-${String(d + 1).padStart(2, '0')}`, v]);
    }
  }
  assert.deepEqual(raw.map(([d]) => d), ['2010-06-29', '2010-07-16', '2010-07-28', '2010-10-26']);
  const y2010 = artifact.years.find((y) => y.year === 2010)!;
  assert.equal(y2010.record, 'complete');
  assert.ok((y2010.term_maximum as { value: number }).value <= 75, 'the term maximum reads only plausible values');
  assert.notEqual(y2010.payout, 1_000_000, 'no full-limit payout on an implausible gust');
  const listed = artifact.data_coverage.excluded_observations as { element: string; date: string; value: number; unit: string; value_si: number; unit_si: string; reason: string }[];
  assert.deepEqual(listed.filter((o) => o.date.startsWith('2010')).map((o) => [o.element, o.date, o.value, o.unit, o.value_si, o.unit_si, o.reason]),
    raw.map(([d, v]) => ['WSF5', d, v, 'tenths of m/s', v / 10, 'm/s', 'above_physical_bound']));
  // Only the terms of the window are listed: the QFLAG value of 4 May 2002 lies outside June-November.
  assert.ok(!listed.some((o) => o.date === '2002-05-04'));
  assert.ok(artifact.years.every((y) => y.payout !== 1_000_000), 'no year reaches 60 m/s on plausible values');
  assert.match((artifact.data_coverage.quality_rule as { text: string }).text, /wind_speed 0 to 75 m\/s/);
  assert.equal(artifact.engine.version, '1.1.0');
});
