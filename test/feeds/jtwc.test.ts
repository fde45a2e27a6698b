import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseJtwc, type NamedText } from '../../src/feeds/parsers/jtwc.js';
import { isPlaceholderName } from '../../src/feeds/tracks.js';
import { pinnedFiles as archive, FEEDS_DIR as FEEDS } from '../support/feeds.js';

const JTWC = readdirSync(FEEDS).filter((d) => d.startsWith('jtwc-best-track-'));

test('every JTWC archive parses; unique fix times recounted per file with a Set', () => {
  assert.equal(JTWC.length, 3);
  for (const id of JTWC) {
    const { manifest, files } = archive(id);
    const a = parseJtwc(files);
    let lines = 0, uniqueTimes = 0;
    for (const f of files.filter((x) => /^b/.test(x.name.split('/').pop()!))) {
      const rows = f.text.split('\n').filter((l) => l.trim() !== '');
      lines += rows.length;
      uniqueTimes += new Set(rows.map((l) => l.split(',')[2]!.trim())).size;
    }
    assert.equal(lines, manifest.record_counts.best_track_lines, id);
    assert.equal(uniqueTimes, manifest.record_counts.unique_storm_fix_times, id);
    assert.equal(a.storms.reduce((n, s) => n + s.fixes.length, 0), uniqueTimes, id);
    assert.equal(a.storms.length, manifest.record_counts.storm_files, id);
    assert.equal(new Set(a.storms.map((s) => s.storm_id)).size, a.storms.length, `${id} ids unique`);
    for (const s of a.storms) {
      assert.match(s.storm_id, /^(WP|CP|SH|IO)\d{2}\d{4}$/);
      for (let i = 1; i < s.fixes.length; i++) assert.ok(s.fixes[i]!.epoch_ms > s.fixes[i - 1]!.epoch_ms);
      for (const f of s.fixes) assert.ok(Math.abs(f.latitude) <= 90 && f.longitude >= -180 && f.longitude <= 180);
    }
  }
});

test('JTWC WP: Haiyan WP312013 against its raw lines (dedup, max wind, radii, name)', () => {
  const { files } = archive('jtwc-best-track-western-north-pacific');
  const a = parseJtwc(files);
  const h = a.storms.find((s) => s.storm_id === 'WP312013')!;
  assert.equal(h.name, 'HAIYAN');
  assert.equal(h.basin, 'WP');
  const raw = files.find((f) => f.name === 'bwp2013/bwp312013.dat')!.text.split('\n').filter(Boolean);
  const first = raw[0]!.split(',').map((x) => x.trim());
  assert.equal(h.fixes[0]!.time, `${first[2]!.slice(0, 4)}-${first[2]!.slice(4, 6)}-${first[2]!.slice(6, 8)}T${first[2]!.slice(8)}:00:00Z`);
  assert.equal(h.fixes[0]!.latitude, Number(first[6]!.slice(0, -1)) / 10);
  assert.equal(h.fixes[0]!.longitude, Number(first[7]!.slice(0, -1)) / 10);
  let maxWind = 0;
  for (const l of raw) maxWind = Math.max(maxWind, Number(l.split(',')[8]));
  assert.equal(maxWind, 170);
  assert.equal(Math.max(...h.fixes.map((f) => f.max_wind_kt ?? 0)), maxWind);
  assert.equal(h.fixes.length, new Set(raw.map((l) => l.split(',')[2])).size);
  assert.ok(h.fixes.length < raw.length);
  const peak = h.fixes.find((f) => f.max_wind_kt === 170)!;
  assert.deepEqual(peak.wind_radii!.map((r) => r.threshold_kt), [34, 50, 64]);
  // West-of-date-line storms: CP files packaged with WP keep their own file-name basin.
  assert.ok(a.storms.some((s) => s.storm_id === 'CP032015' && s.name === 'KILO'));
  assert.ok(a.quirks.some((q) => q.includes('wp_storm_notes_1996.txt')));
  assert.ok(a.quirks.some((q) => q.includes('WP161983 1983-10-18T06:00:00Z -> 1985-10-18T12:00:00Z')));
  assert.ok(a.quirks.some((q) => q.includes('bwp351997.txt (lines say WP02)')));
  assert.ok(a.quirks.some((q) => q.includes('disagree on MSLP')));
});

test('JTWC SH and NI: season ids, west longitudes, unknown wind, names', () => {
  const sh = parseJtwc(archive('jtwc-best-track-southern-hemisphere').files);
  const all = sh.storms.flatMap((s) => s.fixes);
  assert.ok(all.every((f) => f.latitude < 0));
  assert.ok(all.some((f) => f.longitude < 0)); // South Pacific east of 180 written as W
  const s21 = sh.storms.find((s) => s.storm_id === 'SH211991')!;
  assert.equal(s21.fixes[0]!.max_wind_kt, null); // raw VMAX -999
  assert.ok(sh.quirks.some((q) => q.includes('VMAX unknown on 365 lines')));
  assert.ok(sh.quirks.some((q) => q.includes('disagree on position')));
  // Season naming: SH storm ids carry the season's ending year, fixes may start the year before.
  assert.ok(sh.storms.some((s) => s.storm_id.endsWith('1981') && s.fixes[0]!.time.startsWith('1980')));

  const ni = parseJtwc(archive('jtwc-best-track-north-indian').files);
  const gulab = ni.storms.find((s) => s.storm_id === 'IO032021')!;
  assert.equal(gulab.name, 'GULAB');
  assert.equal(gulab.name_raw, 'GULAB/SHAHEEN-GU');
  assert.ok(ni.quirks.some((q) => q.includes('-10067')));
  assert.ok(ni.storms.every((s) => s.basin === 'IO'));
});

test('JTWC placeholder names and hand-made duplicate lines', () => {
  for (const n of ['INVEST', 'NONAME', 'TWENTYSEVE', 'THIRTY-THR', 'TWENTY-ONE', 'GENESIS004', '']) assert.ok(isPlaceholderName(n), n);
  for (const n of ['PHANFONE', 'HAIYAN', 'IONE-1']) assert.ok(!isPlaceholderName(n), n);
  const t = [
    'WP, 01, 2020010100,   , BEST,   0, 100N, 1816E,  35, 1000, TS,  34, NEQ,   60,   50,   40,   30',
    'WP, 01, 2020010100,   , BEST,   0, 100N, 1816E,  40, 1000, TS,  50, NEQ,   20,   20,   10,   10',
    'WP, 01, 2020010106,   , BEST,   0, 105N, 1795W,   0,    0, TS,   0,    ,    0,    0,    0,    0',
  ].join('\n');
  const a = parseJtwc([{ name: 'bwp2020/bwp012020.dat', text: t }, { name: 'readme.txt', text: 'x' }]);
  const s = a.storms[0]!;
  assert.equal(s.storm_id, 'WP012020');
  assert.equal(s.fixes.length, 2);
  assert.equal(s.fixes[0]!.max_wind_kt, 40);
  assert.equal(s.fixes[0]!.longitude, -178.4);
  assert.deepEqual(s.fixes[0]!.wind_radii!.map((r) => r.threshold_kt), [34, 50]);
  assert.deepEqual([s.fixes[1]!.max_wind_kt, s.fixes[1]!.min_pressure_mb, s.fixes[1]!.longitude], [null, null, -179.5]);
  assert.ok(a.quirks.some((q) => q.includes('disagree on VMAX')));
  assert.ok(a.quirks.some((q) => q.includes('longitudes beyond 180 wrapped')));
  assert.ok(a.quirks.some((q) => q.includes('readme.txt')));
});
