// MTBS mapped-fire list parser over the pinned usgs-mtbs-* snapshots (point decoded from Event_ID).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeMtbsEventId, mtbsOptions, parseMtbs } from '../../src/feeds/parsers/mtbs.js';
import { pinnedParsed as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';



interface Check {
  rows: number; ig_date_min: string; ig_date_max: string;
  event_id_lat_range: [number, number]; event_id_lon_range: [number, number]; burnbndac_range: [number, number];
  incid_type_counts: Record<string, number>; rows_per_ig_year: Record<string, number>;
  rows_with_irwinID: number; rows_where_Event_ID_date_differs_from_Ig_Date: number;
}

test('decodeMtbsEventId follows the manifest rule (state, lat*1000, west lon*1000, YYYYMMDD)', () => {
  assert.deepEqual(decodeMtbsEventId('CO4060910587920200813'), { state: 'CO', latitude: 40.609, longitude: -105.879, date: '2020-08-13' });
  assert.equal(decodeMtbsEventId('CO40609105879202008'), null);
  assert.equal(decodeMtbsEventId('CO4060910587920201301'), null, 'month 13');
});

test('Colorado: recount by lines, and Cameron Peak field by field', () => {
  const { manifest, text } = feed('usgs-mtbs-colorado');
  const r = parseMtbs(text, mtbsOptions(manifest));
  const lines = text.split('\r\n').filter((l) => /^[A-Z]{2}\d{19},/.test(l));
  assert.equal(r.records.length, lines.length);
  assert.equal(r.records.length, manifest.row_count);
  const wildfires = lines.filter((l) => l.split(',')[3] === 'Wildfire').length;
  assert.equal(r.records.filter((e) => e.fields.Incid_Type === 'Wildfire').length, wildfires);

  const raw = text.split('\r\n');
  const index = raw.findIndex((l) => l.startsWith('CO4060910587920200813,'));
  const cols = raw[index]!.split(',');
  const e = r.records.find((x) => x.event_id === 'CO4060910587920200813')!;
  assert.equal(e.line, index + 1);
  assert.equal(e.kind, 'fire');
  assert.equal(e.fields.Incid_Name, 'CAMERON PEAK');
  assert.equal(e.latitude, 40.609);
  assert.equal(e.longitude, -105.879);
  assert.equal(e.value, Number(cols[4]));
  assert.equal(e.unit, 'acres');
  assert.equal(e.date, cols[5]);
  assert.equal(e.time, null);
  assert.equal(e.epoch_ms, Date.UTC(2020, 7, 13));
  assert.equal(e.fields.irwinID, cols[1]);
  assert.equal(e.fields.STUSPS, 'CO', 'no stray CR in the last field');
});

test('Colorado: quirks disclose CRLF, the date-only rule, revised ignition dates and state mismatches', () => {
  const { manifest, text } = feed('usgs-mtbs-colorado');
  const r = parseMtbs(text, mtbsOptions(manifest));
  const check = manifest.raw.check as Check;
  const q = r.quirks.join('\n');
  assert.ok(q.includes('CRLF line endings'));
  assert.ok(q.includes('epoch_ms = 00:00 UTC of Ig_Date'));
  assert.ok(q.includes(`${check.rows_where_Event_ID_date_differs_from_Ig_Date} rows have an Event_ID date different from Ig_Date`));
  assert.ok(q.includes(`${check.rows - check.rows_with_irwinID} rows have irwinID "NA"`));
  assert.ok(q.includes('rows have an Event_ID state different from STUSPS'));
  assert.ok(q.includes('rows quote Incid_Name'));
});

test('every usgs-mtbs-* feed parses; counts, ranges, types and years match the manifest check', () => {
  const ids = readdirSync(FEEDS).filter((f) => f.startsWith('usgs-mtbs-'));
  assert.equal(ids.length, 5);
  for (const id of ids) {
    const { manifest, text } = feed(id);
    const r = parseMtbs(text, mtbsOptions(manifest));
    const check = manifest.raw.check as Check;
    assert.equal(r.rows, manifest.row_count, id);
    assert.equal(r.records.length, check.rows, id);
    assert.deepEqual(r.unusable, [], id);
    assert.equal(r.records[0]!.date, check.ig_date_min, id);
    assert.equal(r.records.at(-1)!.date, check.ig_date_max, id);
    const lats = r.records.map((e) => e.latitude!);
    const lons = r.records.map((e) => e.longitude!);
    const acres = r.records.map((e) => e.value!);
    assert.deepEqual([Math.min(...lats), Math.max(...lats)], check.event_id_lat_range, id);
    assert.deepEqual([Math.min(...lons), Math.max(...lons)], check.event_id_lon_range, id);
    assert.deepEqual([Math.min(...acres), Math.max(...acres)], check.burnbndac_range, id);
    const types: Record<string, number> = {};
    const years: Record<string, number> = {};
    for (const e of r.records) {
      types[e.fields.Incid_Type!] = (types[e.fields.Incid_Type!] ?? 0) + 1;
      years[e.date.slice(0, 4)] = (years[e.date.slice(0, 4)] ?? 0) + 1;
    }
    assert.deepEqual(types, check.incid_type_counts, id);
    assert.deepEqual(years, check.rows_per_ig_year, id);
    assert.ok(!r.quirks.some((q) => q.includes('outside the coverage box')), `${id}: every Event_ID point is in its box`);
  }
});

test('hand-made rows: malformed Event_ID keeps the fire without a point; NA acres become null', () => {
  const text = [
    'Event_ID,irwinID,Incid_Name,Incid_Type,BurnBndAc,Ig_Date,Ig_Year,Ig_Month,STUSPS',
    'CO123,NA,"NAMELESS",Wildfire,NA,2001-07-02,2001,7,CO',
    'CO4060910587920200813,NA,X,Wildfire,1000,NA,2020,8,CO',
    'NA,NA,Y,Wildfire,1000,NA,2020,8,CO',
  ].join('\r\n');
  const r = parseMtbs(text);
  assert.deepEqual(r.records.map((e) => [e.event_id, e.date, e.latitude, e.value]), [
    ['CO123', '2001-07-02', null, null],
    ['CO4060910587920200813', '2020-08-13', 40.609, 1000],
  ]);
  assert.deepEqual(r.unusable, [{ line: 4, id: null, reason: 'no Event_ID' }]);
  const q = r.quirks.join('\n');
  for (const s of ['1 Event_IDs do not follow', 'no valid Ig_Date; the Event_ID date is used', 'no positive BurnBndAc', '1 rows unusable']) {
    assert.ok(q.includes(s), s);
  }
});
