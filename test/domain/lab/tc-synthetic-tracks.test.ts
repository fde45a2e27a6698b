// CLIMADA's directed random walk (synthetic-tracks.ts): the autocorrelated uniform series it draws,
// seeded determinism, and the synthetic members' rate of passing through a box over Florida against
// the historical rate over the same seasons, within the historical count's Poisson sampling error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../src/domain/stats/random.js';
import { parseHurdat2 } from '../../../src/feeds/parsers/hurdat2.js';
import { applyLandDecay, categoryOf, distanceSinceLandfall, LANDFALL_DECAY_V, perturbedTracks, randomUniformAc, SYNTHETIC_DEFAULTS } from '../../../src/domain/lab/lanes/tropical-cyclone/synthetic-tracks.js';
import { parseProcessedIbtracsCsv } from '../../../src/feeds/parsers/climada-tables.js';
import { naturalEarthLand } from '../../../src/land.js';
import { equalTimestep } from '../../../src/domain/lab/lanes/tropical-cyclone/holland-2008.js';
import { trackOfStorm, type TcTrack } from '../../../src/domain/lab/lanes/tropical-cyclone/track.js';
import { seasonOf } from '../../../src/domain/lab/lanes/tropical-cyclone/history-lane.js';
import { FEEDS_DIR, latestVersion, rawFile } from '../../support/feeds.js';

const { isLand } = naturalEarthLand();
const ATL = 'noaa-nhc-hurdat2-atlantic';
const dir = join(FEEDS_DIR, ATL, latestVersion(ATL));
const archive = parseHurdat2(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.txt'))!), 'utf8'));

// CLIMADA feeds the construction (stats.stackexchange.com 48086, meant for uniform innovations) with
// standard normal innovations; its series is therefore centred on 0.5 within [0, 1] but a little
// narrower than uniform (variance about 0.077 instead of 1/12). The same draws are made here.
test('the autocorrelated series: centred on 0.5 within [0, 1], and the hourly lag-1 autocorrelation asked (n = 50,000; tolerance 0.02)', () => {
  const rng = seededRandom(7);
  for (const rho of [0.5, 0.85]) {
    const u = randomUniformAc(50_000, rho, 1, rng);
    const mean = u.reduce((a, b) => a + b, 0) / u.length;
    const variance = u.reduce((a, b) => a + (b - mean) ** 2, 0) / u.length;
    let cov = 0;
    for (let i = 1; i < u.length; i++) cov += (u[i]! - mean) * (u[i - 1]! - mean);
    const r1 = cov / (u.length - 1) / variance;
    assert.ok(u.every((v) => v >= 0 && v <= 1));
    assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
    assert.ok(variance > 0.07 && variance < 1 / 12, `variance ${variance}`);
    assert.ok(Math.abs(r1 - rho) < 0.02, `lag-1 autocorrelation ${r1} for ${rho}`);
  }
});

const andrew = equalTimestep(trackOfStorm(archive.storms.find((s) => s.storm_id === 'AL041992')!));

test('seeded: the same seed gives the same members, another seed others; starts within ±0.75°', () => {
  const a = perturbedTracks(andrew, seededRandom(42));
  const b = perturbedTracks(andrew, seededRandom(42));
  const c = perturbedTracks(andrew, seededRandom(43));
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.map((t) => t.lat), c.map((t) => t.lat));
  assert.equal(a.length, SYNTHETIC_DEFAULTS.members);
  a.forEach((t, m) => {
    assert.equal(t.sid, `AL041992_gen${m + 1}`);
    assert.equal(t.lat.length, andrew.lat.length, 'Andrew stays within ±70°');
    assert.ok(Math.abs(t.lat[0]! - andrew.lat[0]!) <= 0.75 && Math.abs(t.lon[0]! - andrew.lon[0]!) <= 0.75);
    assert.deepEqual(t.max_wind_kn, andrew.max_wind_kn, 'only positions are perturbed');
  });
});

test('rate of passing through a box over Florida: synthetic members agree with the historical seasons 1980-2019 within 3 Poisson standard errors', () => {
  const inBox = (t: TcTrack) => t.lat.some((la, i) => la >= 24 && la <= 31 && t.lon[i]! >= -87 && t.lon[i]! <= -79);
  const storms = archive.storms.filter((s) => seasonOf(s) >= 1980 && seasonOf(s) <= 2019 && s.fixes.length >= 2);
  const rng = seededRandom(2024);
  let historical = 0, synthetic = 0;
  for (const s of storms) {
    const track = equalTimestep(trackOfStorm(s));
    if (inBox(track)) historical++;
    for (const member of perturbedTracks(track, rng)) if (inBox(member)) synthetic++;
  }
  const members = SYNTHETIC_DEFAULTS.members;
  const expected = synthetic / members;
  assert.ok(historical > 30, `historical passages ${historical}`);
  assert.ok(Math.abs(expected - historical) <= 3 * Math.sqrt(historical), `synthetic ${expected.toFixed(1)} per set vs historical ${historical} (±${(3 * Math.sqrt(historical)).toFixed(1)})`);
});

test('decay over land: a member of Andrew loses wind over Florida as v_landfall · exp(-A·x), x recounted here (1e-9 relative)', () => {
  const member = perturbedTracks(andrew, seededRandom(42))[0]!;
  const decayed = applyLandDecay(member, isLand, seededRandom(1));
  assert.deepEqual(decayed, applyLandDecay(member, isLand, seededRandom(1)), 'seeded');
  const land = member.lat.map((la, i) => isLand(la, member.lon[i]!));
  const first = land.findIndex((l, i) => l && i > 0 && !land[i - 1]);
  assert.ok(first > 0, 'the member makes landfall');
  let last = first;
  while (last + 1 < land.length && land[last + 1]) last++;
  assert.ok(last > first, 'and stays over land for more than one step');
  const R = 6371;
  const hav = (a: number, b: number, c: number, d: number) => {
    const r = Math.PI / 180;
    return 2 * R * Math.asin(Math.sqrt(Math.sin(((c - a) * r) / 2) ** 2 + Math.cos(a * r) * Math.cos(c * r) * Math.sin(((d - b) * r) / 2) ** 2));
  };
  const vLf = member.max_wind_kn[first - 1]!;
  const A = LANDFALL_DECAY_V[categoryOf(vLf)]!;
  let x = hav(member.lat[first]!, member.lon[first]!, (member.lat[first - 1]! + member.lat[first]!) / 2, (member.lon[first - 1]! + member.lon[first]!) / 2);
  for (let i = first; i <= last; i++) {
    if (i > first) x += hav(member.lat[i]!, member.lon[i]!, member.lat[i - 1]!, member.lon[i - 1]!);
    const expected = vLf * Math.exp(-A * x);
    assert.ok(Math.abs(decayed.max_wind_kn[i]! - expected) <= 1e-9 * expected, `step ${i}: ${decayed.max_wind_kn[i]} vs ${expected}`);
    assert.ok(decayed.max_wind_kn[i]! < vLf);
  }
  // Before the first landfall nothing changes.
  assert.deepEqual(decayed.max_wind_kn.slice(0, first), member.max_wind_kn.slice(0, first));
  assert.ok(decayed.central_pressure_hpa.every((p, i) => p <= member.environmental_pressure_hpa[i]!));
});

// CLIMADA's Andrew of its demo data (ibtracs_global_intp-None_1992230N11325.csv, pinned in climada-demo-tc),
// 6-hourly, as its tests read it.
const andrewFl = parseProcessedIbtracsCsv(rawFile('climada-demo-tc', 'ibtracs_global_intp-None_1992230N11325.csv').toString('utf8'));

test("distance since landfall over Natural Earth's land: CLIMADA's test_dist_since_lf_pass (climada/hazard/test/test_tc_tracks.py), 38 steps at sea and 1020.5431562223974 km at the last (1e-9 relative)", () => {
  const onLand = andrewFl.lat.map((la, i) => isLand(la, andrewFl.lon[i]!));
  const dist = distanceSinceLandfall(andrewFl.lat, andrewFl.lon, onLand);
  assert.equal(dist.filter((d) => Number.isNaN(d)).length, 38);
  assert.ok(Math.abs(dist.at(-1)! - 1020.5431562223974) <= 1e-9 * 1020.5431562223974, `${dist.at(-1)}`);
  const overLand = dist.filter((d) => !Number.isNaN(d));
  assert.ok(overLand.slice(1).every((d, i) => i === 0 || d > overLand[i]!), 'distances grow over the second landfall');
});

test("the decay over Natural Earth's land: CLIMADA's test_apply_decay_pass (climada/hazard/test/test_tc_tracks_synth.py, its MATLAB reference), within its np.allclose (1e-5 relative, 1e-8 absolute)", () => {
  // The test's own coefficients, one per category.
  const A = 0.0038950967656296597, S = 1.0499941, B = 0.007978940084158488;
  const cats = [-1, 0, 1, 2, 3, 4, 5];
  const coefficients = { v: Object.fromEntries(cats.map((c) => [c, A])), p: Object.fromEntries(cats.map((c) => [c, [S, B] as const])) };
  const decayed = applyLandDecay(andrewFl, isLand, seededRandom(1), coefficients);
  const pRef = [
    1.01, 1.009, 1.008, 1.006, 1.003, 1.002, 1.001, 1.0, 1.0, 1.001, 1.002, 1.005, 1.007, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01,
    1.007, 1.004, 1.0, 0.994, 0.981, 0.969, 0.961, 0.947, 0.933, 0.922, 0.93, 0.937, 0.951, 0.947, 0.943, 0.948, 0.946, 0.941,
    0.937, 0.955, 0.9741457117, 0.99244068917, 1.00086729492, 1.00545853355, 1.00818354609, 1.00941850023, 1.00986192053, 1.00998400565,
  ].map((p) => p * 1e3);
  const vRef = [
    0.25, 0.3, 0.3, 0.35, 0.35, 0.4, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.4, 0.4, 0.4, 0.4, 0.45, 0.45, 0.5, 0.5, 0.55,
    0.65, 0.8, 0.95, 1.1, 1.3, 1.45, 1.5, 1.25, 1.3, 1.15, 1.15, 1.15, 1.15, 1.2, 1.25, 1.25, 1.2, 0.9737967353, 0.687255951,
    0.4994850556, 0.3551480462, 0.2270548036, 0.1302099557, 0.0645385918, 0.0225325851,
  ].map((v) => v * 1e2);
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b);
  decayed.central_pressure_hpa.forEach((p, i) => assert.ok(close(p, pRef[i]!), `pressure ${i}: ${p} vs ${pRef[i]}`));
  decayed.max_wind_kn.forEach((v, i) => assert.ok(close(v, vRef[i]!), `wind ${i}: ${v} vs ${vRef[i]}`));
});

test("decay only over land: every member of Andrew keeps its wind at sea until its first step on Natural Earth's land", () => {
  const members = perturbedTracks(andrew, seededRandom(2024));
  let landfalls = 0;
  for (const member of members) {
    const land = member.lat.map((la, i) => isLand(la, member.lon[i]!));
    const decayed = applyLandDecay(member, isLand, seededRandom(3));
    const first = land.indexOf(true);
    const until = first < 0 ? land.length : first;
    assert.deepEqual(decayed.max_wind_kn.slice(0, until), member.max_wind_kn.slice(0, until), `${member.sid} unchanged at sea before landfall`);
    if (first > 0) landfalls++;
  }
  assert.ok(landfalls >= 5, `${landfalls} of ${members.length} members make landfall`);
});

test("Andrew's members keep their wind at Miami (25.77, -80.19): the decay takes at most exp(-A·40 km) of it, A CLIMADA's largest (0.0038, category 5), where the country lookup took all of it", async () => {
  const { placeIndex, trackWindfield } = await import('../../../src/domain/lab/lanes/tropical-cyclone/holland-2008.js');
  const miami = placeIndex([25.77], [-80.19]);
  const windAtMiami = (t: TcTrack) => trackWindfield(t, miami).wind[0] ?? 0;
  // Miami lies within 40 km over land of where any member reaching it crossed the coast.
  const floor = Math.exp(-LANDFALL_DECAY_V[5]! * 40);
  let reaching = 0;
  for (const seed of [42, 2024, 7]) {
    for (const member of perturbedTracks(andrew, seededRandom(seed))) {
      const before = windAtMiami(member);
      if (before < 17.5) continue;
      reaching++;
      const after = windAtMiami(applyLandDecay(member, isLand, seededRandom(1)));
      assert.ok(after >= floor * before, `${member.sid} (seed ${seed}): ${after.toFixed(1)} m/s after decay, ${before.toFixed(1)} before`);
    }
  }
  assert.ok(reaching >= 9, `${reaching} of 27 members reach Miami with tropical-storm winds`);
});
