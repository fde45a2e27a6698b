import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHurdat2 } from '../../src/feeds/parsers/hurdat2.js';
import { pinnedText as feed } from '../support/feeds.js';


test('HURDAT2 Atlantic: recount of headers and fix lines, missing codes', () => {
  const { manifest, text } = feed('noaa-nhc-hurdat2-atlantic');
  const a = parseHurdat2(text);

  const headers = text.match(/^[A-Z]{2}\d{6},/gm)!.length;
  const lines = text.split('\n').filter((l) => l.trim() !== '').length;
  const declared = [...text.matchAll(/^[A-Z]{2}\d{6},[^,]*,\s*(\d+),/gm)].reduce((n, m) => n + Number(m[1]), 0);
  assert.equal(a.storms.length, headers);
  assert.equal(headers, manifest.record_counts.storms);
  const fixes = a.storms.reduce((n, s) => n + s.fixes.length, 0);
  assert.equal(fixes, lines - headers);
  assert.equal(fixes, declared);
  assert.equal(fixes, manifest.record_counts.track_points);
  const all = a.storms.flatMap((s) => s.fixes);
  assert.equal(all.filter((f) => f.min_pressure_mb === null).length, manifest.record_counts.points_with_missing_pressure);
  assert.equal(all.filter((f) => f.max_wind_kt === null).length, manifest.record_counts.points_with_unknown_wind);
  assert.equal(a.storms.at(-1)!.storm_id, manifest.record_counts.last_storm.split(' ')[0]);
  assert.ok(a.quirks.some((q) => q.includes('missing pressure (-999)')));
  assert.ok(a.quirks.some((q) => /record identifiers: .*L 1167/.test(q)));
  for (const s of a.storms) for (let i = 1; i < s.fixes.length; i++) assert.ok(s.fixes[i]!.epoch_ms > s.fixes[i - 1]!.epoch_ms);
});

test('HURDAT2 Atlantic: Katrina AL122005 against its raw lines', () => {
  const { text } = feed('noaa-nhc-hurdat2-atlantic');
  const a = parseHurdat2(text);
  const k = a.storms.find((s) => s.storm_id === 'AL122005')!;
  assert.equal(k.name, 'KATRINA');
  assert.equal(k.basin, 'AL');
  // Raw block: header line, then its declared number of lines.
  const rawLines = text.split('\n');
  const h = rawLines.findIndex((l) => l.startsWith('AL122005,'));
  const n = Number(rawLines[h]!.split(',')[2]);
  const block = rawLines.slice(h + 1, h + 1 + n);
  assert.equal(k.fixes.length, n);
  assert.equal(block[0], '20050823, 1800,  , TD, 23.1N,  75.1W,  30, 1008,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0, -999');
  assert.deepEqual(
    { ...k.fixes[0]!, wind_radii: undefined },
    { time: '2005-08-23T18:00:00Z', epoch_ms: Date.UTC(2005, 7, 23, 18), latitude: 23.1, longitude: -75.1, max_wind_kt: 30, min_pressure_mb: 1008, status: 'TD', wind_radii: undefined },
  );
  let maxWind = 0, minPres = 9999;
  for (const l of block) {
    maxWind = Math.max(maxWind, Number(l.slice(37, 41)));
    const p = Number(l.slice(42, 47));
    if (p > 0) minPres = Math.min(minPres, p);
  }
  assert.equal(maxWind, 150);
  assert.equal(Math.max(...k.fixes.map((f) => f.max_wind_kt ?? 0)), maxWind);
  assert.equal(Math.min(...k.fixes.map((f) => f.min_pressure_mb ?? 9999)), minPres);
  const landfalls = k.fixes.filter((f) => f.record_id === 'L');
  assert.equal(landfalls.length, block.filter((l) => l.slice(16, 17) === 'L').length);
  assert.ok(landfalls.some((f) => f.time === '2005-08-29T11:10:00Z'));
  assert.deepEqual(k.fixes[0]!.wind_radii!.map((r) => r.threshold_kt), [34, 50, 64]);
  const unnamed = a.storms.find((s) => s.storm_id === 'AL011851')!;
  assert.equal(unnamed.name, null);
  assert.equal(unnamed.name_raw, 'UNNAMED');
});

test('HURDAT2 Northeast/Central Pacific: counts, east longitudes past the date line', () => {
  const { manifest, text } = feed('noaa-nhc-hurdat2-northeast-central-pacific');
  const a = parseHurdat2(text);
  assert.equal(a.storms.length, manifest.record_counts.storms);
  const all = a.storms.flatMap((s) => s.fixes);
  assert.equal(all.length, manifest.record_counts.track_points);
  assert.equal(all.filter((f) => f.min_pressure_mb === null).length, manifest.record_counts.points_with_missing_pressure);
  const eastLines = text.split('\n').filter((l) => /\d\.\dE,/.test(l)).length;
  assert.ok(eastLines > 0);
  assert.equal(all.filter((f) => f.longitude > 0).length, eastLines);
  assert.ok(all.every((f) => f.longitude >= -180 && f.longitude <= 180));
  assert.ok(new Set(a.storms.map((s) => s.basin)).has('CP'));
});

test('HURDAT2 hand-made: count mismatch and repeated times are disclosed', () => {
  const t = 'EP011999,        TWO,      3,\n19990101, 0000,  , TD, 10.0N, 179.5E,  25, -999\n19990101, 0000,  , TD, 10.1N, 179.9E,  25, 1005\n';
  const a = parseHurdat2(t);
  assert.equal(a.storms[0]!.name, null);
  assert.equal(a.storms[0]!.fixes.length, 1);
  assert.equal(a.storms[0]!.fixes[0]!.longitude, 179.5);
  assert.ok(a.quirks.some((q) => q.includes('entry count differs')));
  assert.ok(a.quirks.some((q) => q.includes('repeated fix times')));
});
