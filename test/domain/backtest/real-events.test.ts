// Cat-in-a-box backtests over the real pinned catalogs (earthquake, wildfire, severe convective
// storm), each checked year by year against a recomputation from the raw file lines written here:
// its own parsing, box test, clustering loop, ladder and annual aggregate (no engine helper).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { backtest, checkPaid, closeMoney, csvRecords, DAY, lines, partialTerm, rawText, splitCsv, utcDay } from './support.js';
import { rawFile } from '../../support/feeds.js';
import { DENVER_HAIL } from '../../support/acceptance.js';

interface Row { id: string; t: number; v: number }
interface Cluster { first: Row; peak: Row; members: Row[] }

/** Clusters rows by time: window measured from each cluster's first row; peak = largest, earliest on ties. */
function clusterRows(rows: Row[], windowMs: number): Cluster[] {
  const sorted = [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: Cluster[] = [];
  for (const r of sorted) {
    const open = out[out.length - 1];
    if (open && r.t - open.first.t <= windowMs) {
      open.members.push(r);
      if (r.v > open.peak.v) open.peak = r;
    } else out.push({ first: r, peak: r, members: [r] });
  }
  return out;
}

function ladder(levels: [number, number][], x: number): number {
  let f = 0;
  for (const [at, frac] of levels) if (x >= at) f = frac;
  return f;
}

// ---- (a) earthquake, usgs-comcat-m6-california ----------------------------------------------

const EARTHQUAKE_A = {
  peril: { code: 'earthquake', region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 } },
  trigger: {
    type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }],
    measurement: { variable: 'magnitude', max_depth_km: 70 }, aggregation_window: { duration: 'P7D' },
    payout: { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] },
  },
  financial_structure: { currency: 'USD', limit: 10000000, attachment: 0 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};

test('(a) earthquake cat-in-a-box over the California ComCat extract matches a recount of the raw CSV, year by year', async () => {
  const artifact = await backtest(EARTHQUAKE_A);
  const rows: Row[] = [];
  for (const r of csvRecords(rawText('usgs-comcat-m6-california'))) {
    if (r.type !== 'earthquake' || r.mag === '' || r.depth === '') continue;
    const lat = Number(r.latitude), lon = Number(r.longitude), depth = Number(r.depth), mag = Number(r.mag);
    if (lat < 32 || lat > 36 || lon < -121 || lon > -114 || depth > 70 || mag < 6.5) continue;
    rows.push({ id: r.id!, t: Date.parse(r.time!), v: mag });
  }
  const levels: [number, number][] = [[6.5, 0.25], [7.0, 0.5], [7.5, 1.0]];
  const byYear = new Map<number, Cluster[]>();
  for (const c of clusterRows(rows, 7 * DAY)) {
    const y = new Date(c.first.t).getUTCFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), c]);
  }
  assert.deepEqual(artifact.years.map((y) => y.year), Array.from({ length: 2022 - 1901 + 1 }, (_, i) => 1901 + i));
  let total = 0;
  for (const year of artifact.years) {
    const clusters = byYear.get(year.year) ?? [];
    const expected = Math.min(10_000_000, clusters.reduce((a, c) => a + 10_000_000 * ladder(levels, c.peak.v), 0));
    const partial = partialTerm(year.term, { from: '1901-03-03', to: '2022-12-20' });
    if (!partial) total += expected;
    checkPaid(year, expected, partial, `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_id), clusters.map((c) => c.peak.id), `peaks ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_ids), clusters.map((c) => c.members.map((m) => m.id)), `members ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.value), clusters.map((c) => c.peak.v));
    // 1901 starts on 3 March (61 days lacking: partial, left out of n); 2022 ends on 20 December
    // (11 days lacking, within 10%: counted).
    assert.equal(year.record, year.year === 1901 ? 'partial' : 'complete');
  }
  assert.ok(artifact.years.some((y) => (y.payout ?? 0) > 0), 'some year pays');
  assert.equal(artifact.statistics.years, 121);
  closeMoney(artifact.statistics.mean_annual_payout, total / 121, 'mean annual payout');
  assert.deepEqual(artifact.data_coverage.years_missing, []);
  // 1952 Kern County M7.5 pays the full limit.
  const y1952 = artifact.years.find((y) => y.year === 1952)!;
  assert.equal(y1952.payout, 10_000_000);
  assert.equal(y1952.occurrences[0]!.event_id, 'ci3319401');
  // The digest named is the SHA-256 of the bytes read.
  assert.equal(artifact.feed.sha256, createHash('sha256').update(rawFile('usgs-comcat-m6-california')).digest('hex'));
  assert.deepEqual(artifact.feed, { feed_id: 'usgs-comcat-m6-california', version: '2022-12-20', sha256: artifact.feed.sha256 });
  assert.match(artifact.statement, /^History, not a forecast/);
  assert.deepEqual(artifact.window, { from_year: 1901, to_year: 2022, defaulted: true, defaulted_members: ['from_year', 'to_year'] });
});

test('(a) a window inside the record replays only its years; the same window twice replays byte for byte', async () => {
  const one = await backtest(EARTHQUAKE_A, { from_year: 1990, to_year: 2000 });
  const two = await backtest(EARTHQUAKE_A, { from_year: 1990, to_year: 2000 });
  assert.deepEqual(one, two);
  assert.equal(JSON.stringify(one), JSON.stringify(two));
  assert.deepEqual(JSON.parse(JSON.stringify(one)), one, 'plain JSON, nothing lost (no NaN, no undefined)');
  assert.deepEqual(one.years.map((y) => y.year), [1990, 1991, 1992, 1993, 1994, 1995, 1996, 1997, 1998, 1999, 2000]);
  assert.equal(one.window.defaulted, false);
  // 1992 Landers (M7.3) pays half; 1994 Northridge (M6.7) a quarter; 1999 Hector Mine (M7.1) half.
  assert.equal(one.years.find((y) => y.year === 1992)!.payout, 5_000_000);
  assert.equal(one.years.find((y) => y.year === 1994)!.payout, 2_500_000);
  assert.equal(one.years.find((y) => y.year === 1999)!.payout, 5_000_000);
});

// ---- (e) wildfire, usgs-mtbs-northern-california ---------------------------------------------

const WILDFIRE_E = {
  peril: { code: 'wildfire', region: { type: 'box', min_latitude: 38.0, max_latitude: 42.0, min_longitude: -124.5, max_longitude: -119.0 } },
  trigger: {
    type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-mtbs-northern-california', version: '2020-11-17' }],
    measurement: { variable: 'burned_acres' }, aggregation_window: { duration: 'P30D' },
    payout: { function: 'ladder', levels: [{ at_least: 100000, fraction: 0.5 }, { at_least: 250000, fraction: 1.0 }] },
  },
  financial_structure: { currency: 'USD', limit: 5000000, attachment: 0 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};

test('(e) wildfire cat-in-a-box over the MTBS Northern California extract matches a recount of the raw CSV', async () => {
  const artifact = await backtest(WILDFIRE_E);
  const rows: Row[] = [];
  for (const r of csvRecords(rawText('usgs-mtbs-northern-california'))) {
    if (r.Incid_Type !== 'Wildfire') continue;
    const id = r.Event_ID!;
    const lat = Number(id.slice(2, 7)) / 1000;
    const lon = -Number(id.slice(7, 13)) / 1000;
    const acres = Number(r.BurnBndAc);
    if (!(acres >= 100000) || lat < 38 || lat > 42 || lon < -124.5 || lon > -119) continue;
    const [y, m, d] = (/^\d{4}-\d\d-\d\d$/.test(r.Ig_Date!) ? r.Ig_Date! : `${id.slice(13, 17)}-${id.slice(17, 19)}-${id.slice(19, 21)}`).split('-').map(Number);
    rows.push({ id, t: utcDay(y!, m!, d!), v: acres });
  }
  const byYear = new Map<number, Cluster[]>();
  for (const c of clusterRows(rows, 30 * DAY)) {
    const y = new Date(c.first.t).getUTCFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), c]);
  }
  assert.deepEqual(artifact.years.map((y) => y.year), Array.from({ length: 22 }, (_, i) => 1999 + i));
  for (const year of artifact.years) {
    const clusters = byYear.get(year.year) ?? [];
    const expected = Math.min(5_000_000, clusters.reduce((a, c) => a + 5_000_000 * ladder([[100000, 0.5], [250000, 1]], c.peak.v), 0));
    checkPaid(year, expected, partialTerm(year.term, { from: '1999-03-30', to: '2020-11-17' }), `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_id), clusters.map((c) => c.peak.id), `fires ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.value), clusters.map((c) => c.peak.v));
  }
  // 2020: the August Complex (1,068,802 acres) pays the whole limit; the year is capped at it.
  // 2020 ends on 17 November (44 days lacking): partial, shown, not counted.
  const y2020 = artifact.years.find((y) => y.year === 2020)!;
  assert.equal(y2020.payout, null);
  assert.equal(y2020.payout_on_partial_record, 5_000_000);
  assert.ok(y2020.occurrences.some((o) => o.value === 1068802));
  assert.equal(artifact.selection.unit, 'acres');
  assert.ok((artifact.selection.excluded as Record<string, number>).incident_type_not_wildfire! > 0);
  // The partial first and last years are in the window, disclosed and left out of n.
  assert.equal(artifact.statistics.years, 20);
  assert.deepEqual((artifact.data_coverage.partial_years as { year: number }[]).map((p) => p.year), [1999, 2020]);
});

// ---- severe_convective_storm, noaa-spc-hail-denver --------------------------------------------


test('severe_convective_storm hail cat-in-a-box over SPC Denver matches a recount of the raw rows; 1990-2004 disclosed as missing, not zeros', async () => {
  const artifact = await backtest(DENVER_HAIL);
  // SPC WCM hail rows: om,yr,mo,dy,date,time,tz,st,stf,stn,mag,...,slat(15),slon(16); no header.
  const seen = new Map<string, number>();
  const rows: Row[] = [];
  for (const line of lines(rawText('noaa-spc-hail-denver'))) {
    const f = splitCsv(line);
    const base = `${f[1]}-${f[0]}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n === 1 ? base : `${base}#${n}`;
    const mag = Number(f[10]), lat = Number(f[15]), lon = Number(f[16]);
    if (!(mag >= 1.75) || lat < 39.6 || lat > 39.9 || lon < -105.1 || lon > -104.6) continue;
    const [hh, mm, ss] = f[5]!.split(':').map(Number);
    const offsetHours = f[6] === '9' ? 0 : 6; // tz 3 = CST (UTC-6), 9 = GMT
    const t = Date.UTC(Number(f[1]), Number(f[2]) - 1, Number(f[3]), hh! + offsetHours, mm!, ss!);
    rows.push({ id, t, v: mag });
  }
  const inTerm = (t: number): number | null => {
    const y = new Date(t).getUTCFullYear();
    return t >= utcDay(y, 4, 1) && t < utcDay(y, 10, 1) ? y : null;
  };
  const byYear = new Map<number, Cluster[]>();
  for (const c of clusterRows(rows, DAY)) {
    const y = inTerm(c.first.t);
    if (y !== null) byYear.set(y, [...(byYear.get(y) ?? []), c]);
  }
  const missing = Array.from({ length: 15 }, (_, i) => 1990 + i);
  for (const year of artifact.years) {
    if (missing.includes(year.year)) {
      assert.equal(year.payout, null, `${year.year} is a gap, not a zero`);
      assert.equal(year.record, 'missing');
      assert.deepEqual(year.occurrences, []);
      continue;
    }
    const clusters = byYear.get(year.year) ?? [];
    const gross = clusters.reduce((a, c) => a + 1_000_000 * ladder([[1.75, 0.25], [2.75, 1]], c.peak.v), 0);
    const partial = partialTerm(year.term, { from: '1955-06-02', to: '2011-08-19' });
    if (!partial) closeMoney(year.gross_payout, gross, `gross ${year.year}`);
    checkPaid(year, Math.min(1_500_000, Math.max(0, gross - 250_000)), partial, `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_id), clusters.map((c) => c.peak.id), `reports ${year.year}`);
  }
  assert.deepEqual(artifact.data_coverage.years_missing, missing);
  // 1955 (from 2 June, 62 of 183 term days lacking) and 2011 (to 19 August, 42 lacking) are partial.
  assert.deepEqual((artifact.data_coverage.partial_years as { year: number }[]).map((p) => p.year), [1955, 2011]);
  assert.equal(artifact.statistics.years, 2011 - 1955 + 1 - 15 - 2);
  // The annual aggregate attachment and cap are both met somewhere in the record.
  assert.ok(artifact.years.some((y) => y.gross_payout !== null && y.gross_payout > 0 && y.payout === Math.max(0, y.gross_payout - 250_000)));
  assert.ok(artifact.years.some((y) => y.payout === 1_500_000), 'a year reaches the annual limit');
  assert.ok(artifact.statistics.trigger_probability! > artifact.statistics.payment_frequency!, 'the annual attachment absorbs some years');
  assert.equal(artifact.statistics.attachment_probability, artifact.statistics.payment_frequency);
  assert.equal(artifact.selection.unit, 'in');
});

test('severe_convective_storm tornado ladder in (E)F rating over SPC Denver, paid once a year on the term maximum, matching a recount', async () => {
  const terms = {
    peril: { code: 'severe_convective_storm', region: { type: 'box', min_latitude: 39.1, max_latitude: 40.4, min_longitude: -105.4, max_longitude: -104.1 } },
    trigger: {
      type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'noaa-spc-tornado-denver', version: '2020-05-20' }],
      measurement: { variable: 'tornado_rating', unit: 'EF' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'ladder', levels: [{ at_least: 2, fraction: 0.5 }, { at_least: 3, fraction: 1 }], basis: 'term_maximum' },
    },
    financial_structure: { currency: 'USD', limit: 2000000 },
    period: { start: '2027-01-01', end: '2027-12-31' },
  };
  const artifact = await backtest(terms);
  const seen = new Map<string, number>();
  const rows: Row[] = [];
  for (const r of csvRecords(rawText('noaa-spc-tornado-denver'))) {
    const base = `${r.yr}-${r.om}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const mag = Number(r.mag), lat = Number(r.slat), lon = Number(r.slon);
    if (!(mag >= 2) || lat < 39.1 || lat > 40.4 || lon < -105.4 || lon > -104.1) continue;
    const [hh, mm, ss] = r.time!.split(':').map(Number);
    const t = Date.UTC(Number(r.yr), Number(r.mo) - 1, Number(r.dy), hh! + (r.tz === '9' ? 0 : 6), mm!, ss!);
    rows.push({ id: n === 1 ? base : `${base}#${n}`, t, v: mag });
  }
  const byYear = new Map<number, Cluster[]>();
  for (const c of clusterRows(rows, DAY)) {
    const y = new Date(c.first.t).getUTCFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), c]);
  }
  let paying = 0;
  for (const year of artifact.years) {
    const clusters = byYear.get(year.year) ?? [];
    let top: Cluster | null = null;
    for (const c of clusters) if (top === null || c.peak.v > top.peak.v) top = c;
    const expected = top === null ? 0 : 2_000_000 * ladder([[2, 0.5], [3, 1]], top.peak.v);
    checkPaid(year, expected, partialTerm(year.term, { from: '1951-05-17', to: '2020-05-20' }), `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_id), top ? [top.peak.id] : [], `tornado ${year.year}`);
    if (expected > 0) paying++;
  }
  assert.ok(paying >= 3);
  assert.deepEqual(artifact.data_coverage.years_without_events, [1956, 1962, 1963, 1970]);
  for (const y of [1956, 1962, 1963, 1970]) assert.equal(artifact.years.find((x) => x.year === y)!.payout, 0, `${y} is a zero, not a gap`);
  assert.equal(artifact.selection.unit, 'EF');
});
