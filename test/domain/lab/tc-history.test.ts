// The tropical-cyclone history lane replaying the 1992 Atlantic season over south Florida places
// (Andrew crossed them on 24 August 1992), and the storm × place pairs where CLIMADA v6.1's rules on
// missing values matter, against an independent computation written here: the HURDAT2 lines read by
// a few lines of this test, the hourly track by a not-a-knot spline solved as a dense linear system
// (the lane uses a reduced tridiagonal one), the Holland (2008) wind and the Emanuel curve written
// out from their formulas, every storm of the season over every place.
// CLIMADA's rules written out here, each from its v6.1.0 source (climada_python): a track lacking a
// central pressure at any fix takes the statistical estimate at every fix (tc_tracks.py
// _read_ibtracs_csv_single); the other variables resampled as numpy's interp (a fix's own value at
// its own hour, NaN across a missing one; tc_tracks.py _one_interp_data through xarray and scipy);
// a missing radius of maximum wind estimated from that hour's pressure (trop_cyclone_windfields.py
// tctrack_to_si); Holland's b clipped to [1, 2.5] × 0.9² = [0.81, 2.025] (_bs_holland_2008,
// _b_holland_clip_interval). Until these rules the recount estimated a missing pressure at its fix
// only and clipped b to [1, 2.5], as the lane did.
// Tolerances: winds 1e-6 m/s, losses 1e-9 relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseHurdat2 } from '../../../src/feeds/parsers/hurdat2.js';
import { parseTcCalibration } from '../../../src/feeds/parsers/climada-tables.js';
import { readTcHistorySpec, runTcHistory, selectStorms } from '../../../src/domain/lab/lanes/tropical-cyclone/history-lane.js';
import { FEEDS_DIR, latestVersion } from '../../support/feeds.js';

const ATL = 'noaa-nhc-hurdat2-atlantic';
const atlDir = join(FEEDS_DIR, ATL, latestVersion(ATL));
const hurdat = readFileSync(join(atlDir, readdirSync(atlDir).find((n) => n.endsWith('.txt'))!), 'utf8');
const TABLES = 'tc-impact-functions';
const tDir = join(FEEDS_DIR, TABLES, latestVersion(TABLES));
const calibration = parseTcCalibration(Object.fromEntries(readdirSync(tDir).filter((n) => n.endsWith('.csv')).map((n) => [n, readFileSync(join(tDir, n), 'utf8')])));
const archive = parseHurdat2(hurdat);

// Places (made up for this test): Homestead, Cutler Bay, Miami, Fort Lauderdale, Naples, New Orleans,
// Nassau (Bahamas, another curve under auto), Reykjavik (beyond 61° latitude: unmodeled).
const POINTS = [
  { lat: 25.47, lon: -80.48, value: 1_000_000 },
  { lat: 25.58, lon: -80.35, value: 2_500_000 },
  { lat: 25.76, lon: -80.19, value: 5_000_000 },
  { lat: 26.12, lon: -80.14, value: 3_000_000 },
  { lat: 26.14, lon: -81.79, value: 750_000 },
  { lat: 29.95, lon: -90.07, value: 4_000_000 },
  { lat: 25.06, lon: -77.35, value: 1_200_000 },
  { lat: 64.14, lon: -21.94, value: 10 },
];

// ---- The independent computation -------------------------------------------------------------

interface Fix { t: number; lat: number; lon: number; wind: number; pres: number; rmw: number }

/** The fixes of every storm of a season, read from the HURDAT2 text here (-99 and -999: missing, NaN). */
function stormsOf(season: number): Map<string, { name: string; fixes: Fix[] }> {
  const out = new Map<string, { name: string; fixes: Fix[] }>();
  let current: Fix[] | null = null;
  for (const line of hurdat.split(/\r?\n/)) {
    const f = line.split(',').map((x) => x.trim());
    if (/^AL\d{6}$/.test(f[0]!)) {
      current = Number(f[0]!.slice(4)) === season ? [] : null;
      if (current) out.set(f[0]!, { name: f[1]!, fixes: current });
      continue;
    }
    if (!current || f.length < 8) continue;
    const d = f[0]!, hm = f[1]!;
    const lat = Number(f[4]!.slice(0, -1)) * (f[4]!.endsWith('S') ? -1 : 1);
    const lon = Number(f[5]!.slice(0, -1)) * (f[5]!.endsWith('W') ? -1 : 1);
    const value = (x: string | undefined) => { const v = Number(x); return v === -99 || v === -999 || !Number.isFinite(v) ? NaN : v; };
    const wind = value(f[6]), pres = value(f[7]), rmw = value(f[20]);
    current.push({ t: Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8), +hm.slice(0, 2), +hm.slice(2, 4)) / 3.6e6, lat, lon, wind, pres, rmw });
  }
  return out;
}

/** Not-a-knot cubic spline through (x, y), evaluated at q: a dense (n+… ) system on the piecewise coefficients. */
function spline(x: number[], y: number[], q: number[]): number[] {
  const n = x.length;
  if (n === 2) return q.map((v) => { const k = 0; return y[k]! + ((v - x[k]!) * (y[k + 1]! - y[k]!)) / (x[k + 1]! - x[k]!); });
  if (n === 3) return q.map((v) => y.reduce((s, yi, i) => s + yi * x.reduce((p, xj, j) => (j === i ? p : (p * (v - xj)) / (x[i]! - xj)), 1), 0));
  // Unknowns: a_k, b_k, c_k, d_k of s_k(v) = a + b (v - x_k) + c (v - x_k)^2 + d (v - x_k)^3, k = 0 … n-2.
  const m = 4 * (n - 1);
  const A = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const r = new Array<number>(m).fill(0);
  let row = 0;
  for (let k = 0; k < n - 1; k++) {
    const h = x[k + 1]! - x[k]!;
    A[row]![4 * k] = 1; r[row++] = y[k]!;
    A[row]![4 * k] = 1; A[row]![4 * k + 1] = h; A[row]![4 * k + 2] = h * h; A[row]![4 * k + 3] = h ** 3; r[row++] = y[k + 1]!;
    if (k < n - 2) {
      A[row]![4 * k + 1] = 1; A[row]![4 * k + 2] = 2 * h; A[row]![4 * k + 3] = 3 * h * h; A[row]![4 * k + 5] = -1; row++;
      A[row]![4 * k + 2] = 2; A[row]![4 * k + 3] = 6 * h; A[row]![4 * k + 6] = -2; row++;
    }
  }
  A[row]![3] = 1; A[row]![7] = -1; row++; // third derivative continuous at x_1
  A[row]![4 * (n - 3) + 3] = 1; A[row]![4 * (n - 2) + 3] = -1; row++; // and at x_{n-2}
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let i = c + 1; i < m; i++) if (Math.abs(A[i]![c]!) > Math.abs(A[p]![c]!)) p = i;
    [A[c], A[p]] = [A[p]!, A[c]!]; [r[c], r[p]] = [r[p]!, r[c]!];
    for (let i = c + 1; i < m; i++) {
      const f = A[i]![c]! / A[c]![c]!;
      if (f === 0) continue;
      for (let j = c; j < m; j++) A[i]![j]! -= f * A[c]![j]!;
      r[i]! -= f * r[c]!;
    }
  }
  const s = new Array<number>(m).fill(0);
  for (let i = m - 1; i >= 0; i--) { let v = r[i]!; for (let j = i + 1; j < m; j++) v -= A[i]![j]! * s[j]!; s[i] = v / A[i]![i]!; }
  return q.map((v) => {
    let k = 0;
    while (k < n - 2 && v > x[k + 1]!) k++;
    const t = v - x[k]!;
    return s[4 * k]! + s[4 * k + 1]! * t + s[4 * k + 2]! * t * t + s[4 * k + 3]! * t ** 3;
  });
}

const lerp = (x: number[], y: number[], v: number) => {
  let k = 0;
  while (k < x.length - 2 && v > x[k + 1]!) k++;
  return y[k]! + ((v - x[k]!) * (y[k + 1]! - y[k]!)) / (x[k + 1]! - x[k]!);
};

/** numpy's interp on a fix's own hour gives the fix's value; elsewhere the line (NaN across a NaN). */
const resampled = (x: number[], y: number[], v: number) => {
  const at = x.indexOf(v);
  return at >= 0 ? y[at]! : lerp(x, y, v);
};

/** Peak Holland (2008) wind at each place over the storm, CLIMADA's defaults, written from the formulas. */
function peakWinds(fixes: Fix[], places: { lat: number; lon: number }[]): number[] {
  const estimated = fixes.some((f) => !(f.pres > 0));
  const pres = fixes.map((f) => (!estimated ? f.pres : f.wind > 0 ? 1026.3401 - 0.05504 * f.lat - 0.03536 * f.lon - 0.7357 * f.wind : NaN));
  const x = fixes.map((f) => f.t);
  const hours: number[] = [];
  for (let h = Math.ceil(x[0]!); h <= x.at(-1)!; h++) hours.push(h);
  const lat = spline(x, fixes.map((f) => f.lat), hours);
  const lon = spline(x, fixes.map((f) => f.lon), hours);
  const cen = hours.map((h) => Math.min(resampled(x, pres, h), 1010) * 100);
  const reported = hours.map((h) => resampled(x, fixes.map((f) => f.rmw), h));
  const rmwNm = cen.map((c, i) => {
    if (reported[i]! > 0) return reported[i]!;
    const p = c / 100;
    // CLIMADA's piecewise-linear fit through (872, 14.907318) (940, 15.726927) (980, 25.742142) (1021, 56.856522), flat outside.
    return p <= 872 ? 14.907318 : p >= 1021 ? 56.856522 : lerp([872, 940, 980, 1021], [14.907318, 15.726927, 25.742142, 56.856522], p);
  });
  const M = 111_120;
  const peak = places.map(() => 0);
  for (let i = 1; i < hours.length; i++) {
    const vN = (lat[i]! - lat[i - 1]!) * M / 3600;
    const vE = (lon[i]! - lon[i - 1]!) * Math.cos(lat[i - 1]! * Math.PI / 180) * M / 3600;
    let speed = Math.hypot(vN, vE);
    const cap = 30 * 1852 / 3600;
    const scale = speed > cap ? cap / speed : 1;
    speed *= scale;
    const dp = 1010 - cen[i]! / 100;
    const dpdt = (cen[i]! - (i === 0 ? cen[i]! : cen[i - 1]!)) / 100; // hPa per hour
    const b = Math.min(2.025, Math.max(0.81, -4.4e-5 * dp * dp + 0.01 * dp + 0.03 * dpdt - 0.014 * Math.abs(lat[i]!) + 0.15 * speed ** (0.6 * (1 - dp / 215)) + 1));
    if (!Number.isFinite(b)) continue; // a step without a pressure (or after one): no wind
    const rmax = rmwNm[i]! * 1852;
    const f = 2 * 7.29e-5 * Math.sin(Math.abs(lat[i]!) * Math.PI / 180);
    places.forEach((p, j) => {
      const dy = (p.lat - lat[i]!) * M;
      const dx = (p.lon - lon[i]!) * Math.cos(lat[i]! * Math.PI / 180) * M;
      const r = Math.hypot(dx, dy);
      if (r > 300_000 || r <= 1) return;
      const rr = (rmax / r) ** b;
      const v = Math.sqrt((b / 1.15) * rr * dp * 100 * Math.exp(-rr) + (r * f / 2) ** 2) - r * f / 2;
      const absorb = Math.min(1, rmax / r);
      const vRot = v - speed * absorb;
      // Counter-clockwise in the northern hemisphere: the rotating wind points along (-dy, dx) / r.
      const wN = (dx / r) * vRot + vN * scale * absorb;
      const wE = (-dy / r) * vRot + vE * scale * absorb;
      peak[j] = Math.max(peak[j]!, Math.hypot(wN, wE));
    });
  }
  return peak.map((w) => (w < 17.5 ? 0 : w));
}

/** Emanuel's curve (v_thresh 25.7) on the 5 m/s grid, interpolated linearly, held above 120 m/s. */
function mdr(wind: number, vHalf: number): number {
  const grid = Array.from({ length: 25 }, (_, i) => 5 * i);
  const at = (v: number) => { const n = Math.max(v - 25.7, 0) / (vHalf - 25.7); return n ** 3 / (1 + n ** 3); };
  return wind >= 120 ? at(120) : lerp(grid, grid.map(at), wind);
}

// ---- The checks -------------------------------------------------------------------------------

const spec = readTcHistorySpec({ model: 'climada-tc-history', hazard: { basin: 'NA', years: [1992] }, exposure: { points: POINTS } });
assert.ok(spec.ok);
const run = runTcHistory({
  spec: spec.value, storms: archive.storms, calibration,
  identities: { tracks: { feed_id: ATL, version: latestVersion(ATL), sha256: 'test' }, impact_functions: { feed_id: TABLES, version: latestVersion(TABLES), sha256: 'test' } },
  model: { id: 'climada-tc-history', version: 'test', label: 'test' },
});
assert.ok(run.ok);
const result = run.value as any;

test('Andrew 1992 over south Florida: winds at each place recounted independently (1e-6 m/s)', () => {
  const andrew = result.storms.find((s: any) => s.name === 'ANDREW');
  assert.equal(andrew.storm_id, 'AL041992');
  assert.equal(andrew.start, '1992-08-16T18:00:00Z');
  assert.equal(andrew.end, '1992-08-28T06:00:00Z');
  const fixes = stormsOf(1992).get('AL041992')!.fixes;
  const modeled = POINTS.slice(0, 7) as { lat: number; lon: number; value: number }[];
  const expected = peakWinds(fixes, modeled);
  const got = new Map<number, number>(andrew.places.map((p: any) => [p.index, p.wind_m_s]));
  expected.forEach((w, j) => assert.ok(Math.abs((got.get(j) ?? 0) - w) < 1e-6, `place ${j}: ${got.get(j)} vs ${w}`));
  // A category 5 landfall just south of Miami: hurricane-force winds over the Miami-Dade places.
  for (const j of [0, 1, 2]) assert.ok(got.get(j)! > 45, `place ${j} wind ${got.get(j)}`);
  // Andrew's second landfall, in Louisiana on 26 August, brought gale-force winds to New Orleans.
  assert.ok(got.get(5)! > 17.5 && got.get(5)! < got.get(2)!, `New Orleans ${got.get(5)}`);
});

test('the 1992 season total and every storm\'s loss recounted independently (1e-9 relative)', () => {
  const storms = stormsOf(1992);
  assert.equal(result.seasons.length, 1);
  assert.equal(result.seasons[0].storms, storms.size);
  const modeled = POINTS.slice(0, 7) as { lat: number; lon: number; value: number }[];
  // auto: the US curve (v_half 74.7) in the United States, the Caribbean and Mexico calibration (NA1,
  // TDR 1.0 v_half 66.3) in the Bahamas.
  const vHalf = modeled.map((p) => (p.lon > -79 && p.lat < 27 ? calibration.v_half['TDR1.0']!.NA1! : 74.7));
  let season = 0;
  for (const [id, s] of storms) {
    const winds = peakWinds(s.fixes, modeled);
    const loss = winds.reduce((a, w, j) => a + modeled[j]!.value * mdr(w, vHalf[j]!), 0);
    const replay = result.storms.find((r: any) => r.storm_id === id);
    assert.ok(Math.abs(replay.loss - loss) <= 1e-9 * Math.max(1, loss), `${id}: ${replay.loss} vs ${loss}`);
    season += loss;
  }
  assert.ok(season > 0);
  assert.ok(Math.abs(result.seasons[0].loss - season) <= 1e-9 * season);
  assert.ok(Math.abs(result.totals.loss - season) <= 1e-9 * season);
  assert.equal(result.seasons[0].largest_storm, 'AL041992');
  assert.equal(result.places[6].curve, 'eberenz-2021-tdr1.0');
  assert.equal(result.places[6].country, 'BHS');
  assert.deepEqual(result.exposure.unmodeled, { count: 1, places: [{ index: 7, reason: 'beyond 61° latitude' }] });
  assert.equal(result.return_periods, null);
});

// The storm × place pairs the comparison with CLIMADA found apart before its three rules (places
// made up for this test: city centres). Sandy, Jeanne, Ike, Irene, Isaac and Gustav carry a radius
// of maximum wind at a whole-hour fix between fixes without one; Grace's last fix has no pressure;
// Ophelia's b went above 2.025 near Cape Hatteras.
const PAIRS = {
  AL182012: 'New York', AL112004: 'Miami', AL092008: 'Lake Charles', AL092011: 'Wilmington',
  AL092012: 'Pensacola', AL072008: 'New Orleans', AL162005: 'Cape Hatteras', AL111991: 'Bermuda',
} as const;
const CITIES = [
  { name: 'New York', lat: 40.71, lon: -74.01 }, { name: 'Miami', lat: 25.76, lon: -80.19 },
  { name: 'Fort Myers', lat: 26.64, lon: -81.87 }, { name: 'Lake Charles', lat: 30.23, lon: -93.22 },
  { name: 'Wilmington', lat: 34.23, lon: -77.94 }, { name: 'Pensacola', lat: 30.42, lon: -87.22 },
  { name: 'New Orleans', lat: 29.95, lon: -90.07 }, { name: 'Cape Hatteras', lat: 35.25, lon: -75.53 },
  { name: 'Bermuda', lat: 32.3, lon: -64.78 },
];

test('the storms where CLIMADA\'s rules on missing values matter: every wind at nine coastal places recounted independently (1e-6 m/s)', () => {
  const ids = Object.keys(PAIRS);
  const asked = readTcHistorySpec({ model: 'climada-tc-history', hazard: { basin: 'NA', years: [1991, 2004, 2005, 2008, 2011, 2012], storms: ids }, exposure: { points: CITIES.map((c) => ({ lat: c.lat, lon: c.lon, value: 1 })) } });
  assert.ok(asked.ok);
  const replay = runTcHistory({
    spec: asked.value, storms: archive.storms, calibration,
    identities: { tracks: { feed_id: ATL, version: latestVersion(ATL), sha256: 'test' }, impact_functions: { feed_id: TABLES, version: latestVersion(TABLES), sha256: 'test' } },
    model: { id: 'climada-tc-history', version: 'test', label: 'test' },
  });
  assert.ok(replay.ok);
  const storms = (replay.value as any).storms as { storm_id: string; places: { index: number; wind_m_s: number }[] }[];
  assert.deepEqual(storms.map((s) => s.storm_id).sort(), [...ids].sort());
  for (const s of storms) {
    const season = Number(s.storm_id.slice(4));
    const expected = peakWinds(stormsOf(season).get(s.storm_id)!.fixes, CITIES);
    const got = new Map(s.places.map((p) => [p.index, p.wind_m_s]));
    expected.forEach((w, j) => assert.ok(Math.abs((got.get(j) ?? 0) - w) < 1e-6, `${s.storm_id} at ${CITIES[j]!.name}: ${got.get(j)} vs ${w}`));
    const pair = CITIES.findIndex((c) => c.name === PAIRS[s.storm_id as keyof typeof PAIRS]);
    assert.ok(got.get(pair)! >= 17.5, `${s.storm_id} reaches ${CITIES[pair]!.name}`);
  }
});

test('storms asked by name, and a name the seasons do not hold refused with the name', () => {
  const asked = selectStorms(archive.storms, { basin: 'NA', years: [1992, 2005], storms: ['ANDREW', 'KATRINA', 'AL122005'] });
  assert.ok(asked.ok);
  assert.deepEqual(asked.value.map((s) => s.storm_id).sort(), ['AL041992', 'AL122005']);
  const missing = selectStorms(archive.storms, { basin: 'NA', years: [1992], storms: ['KATRINA'] });
  assert.ok(!missing.ok);
  assert.equal(missing.refusal.status, 422);
  assert.equal(missing.refusal.code, 'invalid_request');
  assert.match(missing.refusal.details![0]!, /KATRINA/);
});

test('a schedule of more places than the cap is refused on the job', () => {
  const many = Array.from({ length: 10_001 }, () => ({ latitude: 25.5, longitude: -80.4, buildings_value: 1, contents_value: 0 }));
  const r = runTcHistory({
    spec: { impact_function: 'auto', hazard: { basin: 'NA', years: [1992], storms: [] }, exposure: { locations: many } },
    storms: archive.storms, calibration,
    identities: { tracks: { feed_id: ATL, version: 'x', sha256: 'x' }, impact_functions: { feed_id: TABLES, version: 'x', sha256: 'x' } },
    model: { id: 'climada-tc-history', version: 'test', label: 'test' },
  });
  assert.ok(!r.ok);
  assert.deepEqual([r.refusal.status, r.refusal.code], [422, 'invalid_request']);
  assert.match(r.refusal.details![0]!, /10000 places; it holds 10001/);
});

test('the spec reader names every fault', () => {
  const bad = readTcHistorySpec({ model: 'climada-tc-history', impact_function: 'steep', hazard: { basin: 'XX', years: [1992.5] }, exposure: { points: [{ lat: 95, lon: 0, value: -1 }] }, extra: 1 });
  assert.ok(!bad.ok);
  assert.equal(bad.refusal.status, 422);
  const d = bad.refusal.details!.join(' | ');
  for (const word of ['extra', 'impact_function', 'hazard.basin', 'hazard.years', '.lat', '.value']) assert.ok(d.includes(word), `${word} in ${d}`);
});
