// USGS ComCat parser over the pinned usgs-comcat-m6-* snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { comcatOptions, parseComcat } from '../../src/feeds/parsers/comcat.js';
import { pinnedParsed as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';



test('California: counts agree with a line-by-line recount', () => {
  const { manifest, text } = feed('usgs-comcat-m6-california');
  const r = parseComcat(text, comcatOptions(manifest));
  // Recount: data lines start with an ISO date; the first 13 columns are never quoted.
  const lines = text.split('\n').filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
  assert.equal(r.records.length, lines.length);
  assert.equal(r.records.length, 107);
  assert.equal(r.rows, 107);
  assert.deepEqual(r.unusable, []);
  const nuclear = lines.filter((l) => l.includes(',nuclear explosion,')).length;
  assert.equal(nuclear, 12);
  assert.equal(r.records.filter((e) => e.type === 'nuclear explosion').length, nuclear);
  const blankDepth = lines.filter((l) => l.split(',')[3] === '').length;
  assert.equal(r.records.filter((e) => e.depth_km === null).length, blankDepth);
  assert.ok(r.quirks.some((q) => q.startsWith(`${blankDepth} rows have a blank depth`)), 'blank depths disclosed');
  assert.ok(r.quirks.some((q) => q.startsWith(`${nuclear} rows are not earthquakes`)), 'non-earthquakes disclosed');
  assert.ok(r.quirks.some((q) => q.includes('not in time order')), 'newest-first file order disclosed');
});

test('California: Ridgecrest M7.1 and a historical row match their raw lines field by field', () => {
  const { manifest, text } = feed('usgs-comcat-m6-california');
  const r = parseComcat(text, comcatOptions(manifest));
  const raw = text.split('\n');
  for (const id of ['ci38457511', 'ushis1643']) {
    const index = raw.findIndex((l) => l.split(',')[11] === id);
    const cols = raw[index]!.split(',');
    const e = r.records.find((x) => x.event_id === id)!;
    assert.equal(e.line, index + 1);
    assert.equal(e.time, cols[0]);
    assert.equal(e.epoch_ms, Date.parse(cols[0]!));
    assert.equal(e.latitude, Number(cols[1]));
    assert.equal(e.longitude, Number(cols[2]));
    assert.equal(e.depth_km, cols[3] === '' ? null : Number(cols[3]));
    assert.equal(e.magnitude, Number(cols[4]));
    assert.equal(e.mag_type, cols[5]);
    assert.equal(e.net, cols[10]);
    assert.equal(e.fields.updated, cols[12]);
  }
  const ridgecrest = r.records.find((x) => x.event_id === 'ci38457511')!;
  assert.equal(ridgecrest.time, '2019-07-06T03:19:53.040Z');
  assert.equal(ridgecrest.place, '18km W of Searles Valley, CA');
  assert.equal(ridgecrest.type, 'earthquake');
  assert.equal(r.records.find((x) => x.event_id === 'ushis1643')!.depth_km, null);
});

test('records are sorted by time, ties by event_id, ids unique', () => {
  const r = parseComcat(feed('usgs-comcat-m6-alaska').text);
  for (let i = 1; i < r.records.length; i++) {
    const [a, b] = [r.records[i - 1]!, r.records[i]!];
    assert.ok(a.epoch_ms < b.epoch_ms || (a.epoch_ms === b.epoch_ms && a.event_id < b.event_id), `${a.event_id} before ${b.event_id}`);
  }
  assert.equal(new Set(r.records.map((e) => e.event_id)).size, r.records.length);
});

test('place names with "?" for lost letters are disclosed (Kanto, Turkey)', () => {
  for (const id of ['usgs-comcat-m6-kanto', 'usgs-comcat-m6-turkey']) {
    const { text } = feed(id);
    const lossy = text.split('\n').filter((l) => /"[^"]*\?[^"]*"/.test(l)).length;
    assert.ok(lossy > 0);
    assert.ok(parseComcat(text).quirks.some((q) => q.startsWith(`${lossy} place names hold "?"`)), id);
  }
});

test('every usgs-comcat-m6-* feed parses; counts, types and time span match the manifest check', () => {
  const ids = readdirSync(FEEDS).filter((f) => f.startsWith('usgs-comcat-m6-'));
  assert.ok(ids.length >= 7);
  for (const id of ids) {
    const { manifest, text } = feed(id);
    const r = parseComcat(text, comcatOptions(manifest));
    const check = manifest.raw.check as { rows: number; first_time: string; last_time: string; event_types: Record<string, number> };
    assert.equal(r.rows, manifest.files[0]!.rows, id);
    assert.equal(r.records.length, check.rows, id);
    assert.equal(r.records[0]!.time, check.first_time, id);
    assert.equal(r.records.at(-1)!.time, check.last_time, id);
    const types: Record<string, number> = {};
    for (const e of r.records) types[e.type] = (types[e.type] ?? 0) + 1;
    assert.deepEqual(types, check.event_types, id);
    assert.ok(r.quirks.length > 0, `${id} discloses something`);
  }
});

test('hand-made rows: blank magnitude kept as null, rows without epicentre or id named, CRLF mix disclosed', () => {
  const header = 'time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource';
  const text = [
    header,
    '2001-01-01T00:00:00.000Z,10,20,5,,mw,,,,,us,us1,,"somewhere",earthquake,,,,,reviewed,us,us',
    '2001-01-02T00:00:00.000Z,,20,5,6.1,mw,,,,,us,us2,,"x",earthquake,,,,,reviewed,us,us',
    '2001-01-03T00:00:00.000Z,10,20,5,6.1,mw,,,,,us,,,"x",earthquake,,,,,reviewed,us,us',
    '2001-01-04T00:00:00.000Z,10,20,5,5.2,mw,,,,,us,us1,,,earthquake,,,,,reviewed,us,us',
  ].join('\r\n') + '\n';
  const r = parseComcat(text, { magnitudeFloor: 6 });
  assert.equal(r.rows, 4);
  assert.deepEqual(r.records.map((e) => [e.event_id, e.magnitude]), [['us1', null], ['us1#2', 5.2]]);
  assert.deepEqual(r.unusable.map((u) => [u.line, u.id]), [[3, 'us2'], [4, null]]);
  const q = r.quirks.join('\n');
  for (const s of ['mixed line endings', '2 rows unusable', 'line 3 (us2)', 'line 4: no event id', 'blank or non-numeric magnitude: magnitude null for us1',
    'below the magnitude floor 6', 'repeat an event id', 'blank place']) {
    assert.ok(q.includes(s), s);
  }
  assert.throws(() => parseComcat('a,b\n1,2\n'), /not a ComCat CSV/);
});
