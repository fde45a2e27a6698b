// NCEI Storm Events parser: the web-search export (Tarrant County hail) and the bulk details files (wind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nceiOptions, parseNceiStormEvents } from '../../src/feeds/parsers/ncei-storm-events.js';
import { pinnedParsed as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';



test('search export (Tarrant hail): count and rows per year agree with a recount and the manifest notes', () => {
  const { manifest, text } = feed('noaa-ncei-storm-events-hail-tarrant-county-tx');
  const r = parseNceiStormEvents(text, nceiOptions(manifest));
  assert.equal(r.layout, 'search');
  // Records start with EVENT_ID then the county; narratives span lines, so count record starts.
  const starts = text.match(/^\d+,TARRANT CO\.,/gm)!.length;
  assert.equal(r.records.length, starts);
  assert.equal(r.records.length, manifest.row_count);
  const notes = manifest.notes.join(' ');
  const listed = /rows per year ([\d: ]+)/.exec(notes)![1]!; // "1999:16 2000:27 ..."
  const perYear = Object.fromEntries([...listed.matchAll(/(\d{4}):(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
  assert.equal(Object.keys(perYear).length, 25);
  const counted: Record<string, number> = {};
  for (const e of r.records) counted[e.date.slice(0, 4)] = (counted[e.date.slice(0, 4)] ?? 0) + 1;
  assert.deepEqual(counted, perYear);
  assert.ok(r.records.every((e) => e.kind === 'hail' && e.unit === 'in' && e.value !== null && e.value >= 1));
});

test('search export: quirks name the blank-coordinate row, the out-of-box rows, the 500-row cap and the line endings', () => {
  const { manifest, text } = feed('noaa-ncei-storm-events-hail-tarrant-county-tx');
  const r = parseNceiStormEvents(text, nceiOptions(manifest));
  const blank = r.records.find((e) => e.event_id === '5129649')!;
  assert.equal(blank.latitude, null);
  assert.equal(blank.longitude, null);
  assert.ok(r.quirks.some((q) => q.includes('1 rows have no BEGIN_LAT/BEGIN_LON') && q.includes('5129649')));
  // The manifest notes list 13 EVENT_IDs with coordinates outside the box.
  const outside = ['5353166', '5353167', '5353168', '5353169', '5353171', '5353408', '5355232', '5355233', '5355234', '5355927', '5355929', '5356000', '5409750'];
  const q = r.quirks.find((x) => x.includes('outside the coverage box'))!;
  assert.ok(q.startsWith('13 rows'));
  for (const id of outside) assert.ok(q.includes(id), id);
  assert.ok(r.quirks.some((x) => x.startsWith('ABSOLUTE_ROWNUMBER reaches 500')));
  assert.ok(r.quirks.some((x) => x.startsWith('mixed line endings') && x.includes('line breaks inside quoted fields')));
  assert.ok(r.quirks.some((x) => x.includes('"CST-6"') && x.includes('CST-6 = UTC-06:00')));
  assert.ok(r.quirks.some((x) => x.includes('without leading zeros')));
});

test('search export: spot checks against raw lines, including rows after multi-line narratives', () => {
  const { text } = feed('noaa-ncei-storm-events-hail-tarrant-county-tx');
  const r = parseNceiStormEvents(text);
  const raw = text.split('\n');
  const last = r.records.find((e) => e.fields.ABSOLUTE_ROWNUMBER === '500')!;
  const short = r.records.find((e) => e.fields.BEGIN_TIME?.length === 3)!;
  for (const e of [r.records.find((x) => x.event_id === '5693932')!, last, short]) {
    const index = raw.findIndex((l) => l.startsWith(`${e.event_id},`));
    assert.equal(e.line, index + 1, e.event_id);
    const cols = raw[index]!.split(',');
    const [mm, dd, yyyy] = cols[3]!.split('/');
    const hhmm = cols[4]!.padStart(4, '0');
    assert.equal(e.date, `${yyyy}-${mm}-${dd}`);
    assert.equal(e.local_time, `${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00`);
    assert.equal(e.time, new Date(Date.parse(`${e.date}T${e.local_time}-06:00`)).toISOString());
    assert.equal(e.value, Number(cols[6]));
    assert.equal(e.fields.EPISODE_ID, cols[15]);
  }
  const first = r.records[0]!;
  assert.equal(first.event_id, '5693932');
  assert.equal(first.time, '1999-05-04T17:40:00.000Z');
  assert.equal(first.latitude, 32.63);
  assert.equal(first.longitude, -97.47);
  assert.equal(first.fields.TOR_F_SCALE, '', 'space-filled blank read as empty');
});

test('details file (Denver wind): counts, zero magnitudes and the 1992 PST label', () => {
  const { manifest, text } = feed('noaa-ncei-storm-events-wind-denver');
  const r = parseNceiStormEvents(text, nceiOptions(manifest));
  assert.equal(r.layout, 'details');
  const lines = text.split('\n').filter((l) => l !== '').slice(1); // no narratives before 1996: one line per row
  assert.equal(r.records.length, lines.length);
  assert.equal(r.records.length, manifest.row_count);
  // MAGNITUDE is the 28th column; the quoted fields of these rows hold no commas.
  const zero = lines.filter((l) => l.split(',')[27] === '"0"').length;
  assert.equal(r.records.filter((e) => e.value === null).length, zero);
  assert.ok(r.quirks.some((q) => q.startsWith(`${zero} rows have no magnitude`)));
  const pst = lines.filter((l) => l.includes(',"PST",'));
  assert.ok(pst.length > 0 && pst.every((l) => l.startsWith('1992')));
  assert.ok(r.quirks.some((q) => q.startsWith(`${pst.length} pre-1996 rows from states outside the Pacific zone are labelled PST`)));
  assert.ok(r.records.every((e) => e.kind === 'wind' && e.unit === 'kt' && e.utc_offset === '-06:00'));
});

test('details file: spot check of a 1992 row, read as CST by default and as PST on request', () => {
  const { text } = feed('noaa-ncei-storm-events-wind-denver');
  const raw = text.split('\n');
  const index = raw.findIndex((l) => l.includes(',9985058,'));
  const cols = raw[index]!.split(',');
  const e = parseNceiStormEvents(text).records.find((x) => x.event_id === '9985058')!;
  assert.equal(e.line, index + 1);
  assert.equal(e.date, `${cols[0]!.slice(0, 4)}-${cols[0]!.slice(4)}-${cols[1]}`);
  assert.equal(e.local_time, '19:02:00');
  assert.equal(e.time, '1992-07-24T01:02:00.000Z');
  assert.equal(e.value, 52);
  assert.equal(e.latitude, Number(cols[44]!.replaceAll('"', '')));
  assert.equal(e.longitude, Number(cols[45]!.replaceAll('"', '')));
  assert.equal(e.fields.CZ_TIMEZONE, 'PST');
  const labelled = parseNceiStormEvents(text, { honourPstLabel: true }).records.find((x) => x.event_id === '9985058')!;
  assert.equal(labelled.time, '1992-07-24T03:02:00.000Z');
  assert.equal(labelled.utc_offset, '-08:00');
});

test('every noaa-ncei-storm-events-* feed parses with the manifest row_count', () => {
  const ids = readdirSync(FEEDS).filter((f) => f.startsWith('noaa-ncei-storm-events-'));
  assert.equal(ids.length, 7);
  for (const id of ids) {
    const { manifest, text } = feed(id);
    const r = parseNceiStormEvents(text, nceiOptions(manifest));
    assert.equal(r.layout, id.includes('tarrant') ? 'search' : 'details', id);
    assert.equal(r.rows, manifest.row_count, id);
    assert.deepEqual(r.unusable, [], id);
    assert.equal(new Set(r.records.map((e) => e.event_id)).size, r.records.length, id);
    assert.equal(r.records[0]!.date, manifest.period_of_record!.from, id);
    assert.equal(r.records.at(-1)!.date, manifest.period_of_record!.to, id);
  }
});

test('hand-made rows of both layouts: tornado F-scale, unknown event type and zone named', () => {
  const details = [
    'BEGIN_YEARMONTH,BEGIN_DAY,BEGIN_TIME,EVENT_ID,STATE,EVENT_TYPE,BEGIN_DATE_TIME,CZ_TIMEZONE,MAGNITUDE,TOR_F_SCALE,BEGIN_LAT,BEGIN_LON,EPISODE_ID,CZ_NAME',
    '199005,3,1510,1,"TEXAS","Tornado","03-MAY-90 15:10:00","CST","0","F2","32.5","-97.1",,"DALLAS"',
    '199005,3,1510,2,"TEXAS","Flood","03-MAY-90 15:10:00","CST","0",,"32.5","-97.1",,"DALLAS"',
    '199005,4,900,3,"TEXAS","Hail","04-MAY-90 09:00:00","XYZ","1.75",,"32.5","-97.1",,"DALLAS"',
    '199005,4,905,4,"TEXAS","HAIL","04-MAY-90 09:50:00","CST","1.75",,,,,""',
  ].join('\n');
  const r = parseNceiStormEvents(details);
  assert.deepEqual(r.records.map((e) => [e.event_id, e.kind, e.value, e.unit, e.time]), [
    ['1', 'tornado', 2, 'EF', '1990-05-03T21:10:00.000Z'],
    ['4', 'hail', 1.75, 'in', '1990-05-04T15:05:00.000Z'],
  ]);
  assert.deepEqual(r.unusable.map((u) => [u.line, u.id]), [[3, '2'], [4, '3']]);
  const q = r.quirks.join('\n');
  for (const s of ['EVENT_TYPE "Flood"', 'CZ_TIMEZONE "XYZ"', 'BEGIN_DATE_TIME disagreeing', 'no BEGIN_LAT/BEGIN_LON', 'blank county name', 'no EPISODE_ID']) {
    assert.ok(q.includes(s), s);
  }
  const search = 'EVENT_ID,CZ_NAME_STR,BEGIN_DATE,BEGIN_TIME,EVENT_TYPE,MAGNITUDE,CZ_TIMEZONE,BEGIN_LAT,BEGIN_LON,ABSOLUTE_ROWNUMBER\n' +
    '7,X CO.,07/04/2005,5,Thunderstorm Wind,61,EST-5, , ,1\n';
  const s = parseNceiStormEvents(search);
  assert.equal(s.layout, 'search');
  assert.deepEqual(s.records.map((e) => [e.kind, e.value, e.time, e.latitude]), [['wind', 61, '2005-07-04T05:05:00.000Z', null]]);
  assert.throws(() => parseNceiStormEvents('a,b\n1,2\n'), /not an NCEI Storm Events CSV/);
});
