// SPC hail (header-less WCM rows, mixed line endings) and tornado (SVRGIS table) parser over the pinned feeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpcReports, spcOptions } from '../../src/feeds/parsers/spc-reports.js';
import { pinnedParsed as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';



test('Denver hail: rows per source file (manifest derivation) match a recount by year; CRLF rows are the 2008 rows', () => {
  const { manifest, text } = feed('noaa-spc-hail-denver');
  const r = parseSpcReports(text, spcOptions(manifest));
  const lines = text.split('\n').filter((l) => l !== '');
  assert.equal(r.records.length, lines.length);
  assert.equal(r.records.length, manifest.row_count);
  // Derivation: Rows per source file: {"55-59_hail.csv": 12, ...}; recount years straight from column 2 of each line.
  const perFile = JSON.parse(/Rows per source file: (\{.*\})/.exec(manifest.derivation!)![1]!) as Record<string, number>;
  const years = lines.map((l) => Number(l.split(',')[1]));
  const span = (f: string): [number, number] => {
    const m = /^(\d+)(?:-(\d+))?_hail/.exec(f)!;
    const full = (s: string): number => (s.length === 2 ? 1900 + Number(s) : Number(s));
    return [full(m[1]!), full(m[2] ?? m[1]!)];
  };
  for (const [file, n] of Object.entries(perFile)) {
    const [from, to] = span(file);
    assert.equal(years.filter((y) => y >= from && y <= to).length, n, file);
    assert.equal(r.records.filter((e) => Number(e.fields.yr) >= from && Number(e.fields.yr) <= to).length, n, file);
  }
  const crlf = lines.filter((l) => l.endsWith('\r'));
  assert.equal(crlf.length, perFile['2008_hail.csv']);
  assert.ok(crlf.every((l) => l.split(',')[1] === '2008'));
  assert.ok(r.quirks.some((q) => q.startsWith(`mixed line endings: ${crlf.length} CRLF`)));
  assert.ok(r.quirks.some((q) => q.startsWith('no header row: column names taken from the manifest (28 columns)')));
  assert.ok(r.quirks.some((q) => q.includes('3 = CST (UTC-06:00)')));
});

test('Denver hail: spot checks against raw lines (LF and CRLF rows)', () => {
  const { manifest, text } = feed('noaa-spc-hail-denver');
  const r = parseSpcReports(text, spcOptions(manifest));
  const raw = text.split('\n');
  for (const index of [0, raw.findIndex((l) => l.endsWith('\r'))]) {
    const cols = raw[index]!.replace(/\r$/, '').split(',');
    const e = r.records.find((x) => x.line === index + 1)!;
    assert.equal(e.event_id, `${cols[1]}-${cols[0]}`);
    assert.equal(e.date, cols[4]);
    assert.equal(e.local_time, cols[5]!.padStart(8, '0'));
    assert.equal(e.utc_offset, '-06:00');
    assert.equal(e.epoch_ms, Date.parse(`${cols[4]}T${cols[5]!.padStart(8, '0')}-06:00`));
    assert.equal(e.time, new Date(e.epoch_ms).toISOString());
    assert.equal(e.value, Number(cols[10]));
    assert.equal(e.unit, 'in');
    assert.equal(e.latitude, Number(cols[15]));
    assert.equal(e.longitude, Number(cols[16]));
    assert.equal(e.fields.f4, cols[27], 'no stray CR in the last field');
  }
  const first = r.records.find((x) => x.event_id === '1955-166')!;
  assert.equal(first.time, '1955-06-02T19:00:00.000Z');
  assert.equal(first.kind, 'hail');
});

test('tornado feeds: (E)F rating counts equal the manifest notes, -9 read as null', () => {
  const ids = readdirSync(FEEDS).filter((f) => f.startsWith('noaa-spc-tornado-'));
  assert.equal(ids.length, 6);
  for (const id of ids) {
    const { manifest, text } = feed(id);
    const r = parseSpcReports(text, spcOptions(manifest));
    const stated = JSON.parse(/mag counts in this extract: (\{.*?\})/.exec(manifest.notes.join(' '))![1]!) as Record<string, number>;
    const counted: Record<string, number> = {};
    for (const e of r.records) counted[e.value === null ? '-9' : String(e.value)] = (counted[e.value === null ? '-9' : String(e.value)] ?? 0) + 1;
    assert.deepEqual(counted, stated, id);
    // Independent recount of -9 by splitting lines (mag is the 11th column).
    const minus9 = text.split('\n').filter((l) => l.split(',')[10] === '-9').length;
    assert.equal(r.records.filter((e) => e.value === null).length, minus9, id);
    if (minus9 > 0) assert.ok(r.quirks.some((q) => q.startsWith(`${minus9} rows: (E)F rating unknown (-9)`)), id);
    assert.ok(r.quirks.some((q) => q.startsWith('fields.loss changes unit by year')), id);
  }
});

test('Omaha tornado: an EF-unknown row matches its raw line', () => {
  const { manifest, text } = feed('noaa-spc-tornado-omaha');
  const r = parseSpcReports(text, spcOptions(manifest));
  const raw = text.split('\n');
  const index = raw.findIndex((l) => l.startsWith('618393,'));
  const cols = raw[index]!.split(',');
  const e = r.records.find((x) => x.event_id === '2019-618393')!;
  assert.equal(e.line, index + 1);
  assert.equal(e.kind, 'tornado');
  assert.equal(e.value, null);
  assert.equal(e.unit, 'EF');
  assert.equal(e.date, '2019-09-24');
  assert.equal(e.time, '2019-09-24T22:57:00.000Z');
  assert.equal(e.latitude, Number(cols[15]));
  assert.equal(e.longitude, Number(cols[16]));
  assert.equal(e.fields.elat, cols[17]);
  assert.equal(e.fields.mag, '-9');
});

test('every noaa-spc-* feed parses with the manifest row_count and sorted records', () => {
  const ids = readdirSync(FEEDS).filter((f) => f.startsWith('noaa-spc-'));
  assert.equal(ids.length, 12);
  for (const id of ids) {
    const { manifest, text } = feed(id);
    const r = parseSpcReports(text, spcOptions(manifest));
    assert.equal(r.rows, manifest.row_count, id);
    assert.equal(r.records.length + r.unusable.length, r.rows, id);
    assert.equal(new Set(r.records.map((e) => e.event_id)).size, r.records.length, `${id} ids unique`);
    assert.ok(r.records.every((e, i) => i === 0 || r.records[i - 1]!.epoch_ms <= e.epoch_ms), id);
    assert.equal(r.records[0]!.date, manifest.period_of_record!.from, id);
    assert.equal(r.records.at(-1)!.date, manifest.period_of_record!.to, id);
  }
});

test('hand-made rows: GMT and unknown tz codes, point 0, zero hail, bad time named', () => {
  const row = (om: number, time: string, tz: string, mag: string, slat: string): string =>
    `${om},2010,5,1,2010-05-01,${time},${tz},OK,40,0,${mag},0,0,0,0,${slat},-97.5,0,0,0,0,0,0,0,1,0,0,0`;
  const text = [row(1, '12:00:00', '9', '1.75', '35.5'), row(2, '12:00:00', '5', '0', '0'), row(3, '25:00', '3', '1', '35.5')].join('\n');
  const r = parseSpcReports(text, { kind: 'hail' });
  assert.deepEqual(r.records.map((e) => [e.event_id, e.time, e.utc_offset, e.value, e.latitude]), [
    ['2010-1', '2010-05-01T12:00:00.000Z', '+00:00', 1.75, 35.5],
    ['2010-2', '2010-05-01T18:00:00.000Z', '-06:00', null, null],
  ]);
  assert.deepEqual(r.unusable, [{ line: 3, id: '2010-3', reason: 'time "25:00" is not H:MM:SS' }]);
  const q = r.quirks.join('\n');
  for (const s of ['SPC database layout', '1 rows have an unknown tz code, read as CST: 2010-2', 'no usable start point', 'magnitude blank, zero or invalid', 'line 3 (2010-3)']) {
    assert.ok(q.includes(s), s);
  }
});
