// CLIMADA's directed random walk (synthetic-tracks.ts): the autocorrelated uniform series it draws,
// seeded determinism, and the synthetic members' rate of passing through a box over Florida against
// the historical rate over the same seasons, within the historical count's Poisson sampling error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../src/domain/stats/random.js';
import { parseHurdat2 } from '../../../src/feeds/parsers/hurdat2.js';
import { perturbedTracks, randomUniformAc, SYNTHETIC_DEFAULTS } from '../../../src/domain/lab/lanes/tropical-cyclone/synthetic-tracks.js';
import { equalTimestep } from '../../../src/domain/lab/lanes/tropical-cyclone/holland-2008.js';
import { trackOfStorm, type TcTrack } from '../../../src/domain/lab/lanes/tropical-cyclone/track.js';
import { seasonOf } from '../../../src/domain/lab/lanes/tropical-cyclone/history-lane.js';
import { FEEDS_DIR, latestVersion } from '../../support/feeds.js';

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

test('decay over land: a member of Andrew loses wind over Florida as v_landfall · exp(-A·x), x recounted here (1e-9 relative)', async () => {
  const { applyLandDecay, categoryOf, countryLandMask, LANDFALL_DECAY_V } = await import('../../../src/domain/lab/lanes/tropical-cyclone/synthetic-tracks.js');
  const member = perturbedTracks(andrew, seededRandom(42))[0]!;
  const decayed = applyLandDecay(member, countryLandMask, seededRandom(1));
  assert.deepEqual(decayed, applyLandDecay(member, countryLandMask, seededRandom(1)), 'seeded');
  const land = member.lat.map((la, i) => countryLandMask(la, member.lon[i]!));
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
