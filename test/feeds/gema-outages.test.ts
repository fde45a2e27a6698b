import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludedObservations } from '../../src/domain/quality.js';
import { readdirSync } from 'node:fs';
import { localToUtcCandidates, parseGemaOutages, tzOffsetMinutes } from '../../src/feeds/parsers/gema-outages.js';
import { pinnedText as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';

const GEMA = readdirSync(FEEDS).filter((d) => d.startsWith('gema-county-outages-'));

test('local-time resolution: normal, repeated and skipped hours in America/New_York', () => {
  assert.deepEqual(localToUtcCandidates('2024-09-27 09:05:13', 'America/New_York'), [Date.parse('2024-09-27T13:05:13Z')]);
  assert.deepEqual(localToUtcCandidates('2024-11-03 01:20:31', 'America/New_York'), [Date.parse('2024-11-03T05:20:31Z'), Date.parse('2024-11-03T06:20:31Z')]);
  assert.deepEqual(localToUtcCandidates('2024-03-10 02:30:00', 'America/New_York'), []);
  assert.equal(tzOffsetMinutes('America/New_York', Date.parse('2024-11-05T12:00:00Z')), -300);
});

test('every GEMA county feed parses; row count and peak match the manifest notes', () => {
  assert.equal(GEMA.length, 10);
  for (const id of GEMA) {
    const { manifest, text } = feed(id);
    const s = parseGemaOutages(text, manifest);
    const notes = /Rows: (\d+); peak outage_count (\d+) at (\S+) (\S+)/.exec(manifest.notes)!;
    assert.equal(s.records.length, Number(notes[1]), id);
    assert.equal(s.days[0]!.date, manifest.period_of_record.from, id);
    assert.equal(s.days.at(-1)!.date, manifest.period_of_record.to, id);
    const peakDay = s.days.find((d) => d.date === notes[3])!;
    assert.equal(peakDay.value, Number(notes[2]), id);
    assert.match(peakDay.flags!, new RegExp(`max_at_local=${notes[4]}`));
    // After offset resolution the instants never step back (rows are in archive-run order).
    for (let i = 1; i < s.records.length; i++) assert.ok(s.records[i]!.epoch_ms > s.records[i - 1]!.epoch_ms, `${id} row ${i}`);
    assert.ok(s.quirks.some((q) => q.includes('local wall time')));
  }
});

test('GEMA Richmond (13245): daily max recomputed with a plain loop; DST hour resolved by row order', () => {
  const { manifest, text } = feed('gema-county-outages-13245');
  const s = parseGemaOutages(text, manifest);
  const maxByDay = new Map<string, number>();
  let rows = 0;
  for (const line of text.split('\r\n').slice(1)) {
    if (!/^\d+,Richmond,/.test(line)) continue;
    rows++;
    const c = line.split(',');
    const d = c[8]!.slice(0, 10);
    maxByDay.set(d, Math.max(maxByDay.get(d) ?? 0, Number(c[3])));
  }
  assert.equal(rows, s.records.length);
  for (const d of s.days) assert.equal(d.value, maxByDay.get(d.date) ?? null, d.date);

  const dst = s.records.filter((r) => r.timestamp_local.startsWith('2024-11-03 01:'));
  assert.deepEqual(dst.map((r) => [r.timestamp_local.slice(11), r.utc_offset_min]), [
    ['01:50:31', -240], ['01:20:31', -300], ['01:40:32', -300], ['01:50:32', -300],
  ]);
  assert.equal(dst[1]!.time_utc, '2024-11-03T06:20:31.000Z');
  assert.ok(s.quirks.some((q) => q.includes('repeated fall-back hour of 2024-11-03 resolved by row order')));
  const peak = s.records.find((r) => r.outage_count === 96594)!;
  assert.equal(peak.time_utc, '2024-09-27T13:05:13.000Z');
  assert.equal(peak.county_id, s.source_id);
});

test('GEMA Bulloch (13031): a day without any snapshot is null, flagged, not zero', () => {
  const { manifest, text } = feed('gema-county-outages-13031');
  const s = parseGemaOutages(text, manifest);
  const listed = new Set(text.split('\r\n').slice(1).filter(Boolean).map((l) => l.split(',')[8]!.slice(0, 10)));
  const unlisted = s.days.filter((d) => !listed.has(d.date));
  assert.ok(unlisted.length > 0);
  for (const d of unlisted) assert.deepEqual([d.value, d.flags], [null, 'not_listed']);
  assert.ok(s.quirks.some((q) => q.includes('not zero-filled')));
});

test('GEMA hand-made: ambiguous hour without a backward step is disclosed', () => {
  const head = 'objectid_1,name,state_name,outage_count,county_status,customer_count,percent_out,county_id,timestamp,global_id,edit_date\n';
  const row = (n: number, ts: string) => `1,X,Georgia,${n},#0,100,1,9,${ts},g,${ts}\n`;
  const s = parseGemaOutages(head + row(5, '2024-11-03 00:50:00') + row(7, '2024-11-03 01:10:00') + row(200, '2024-11-03 03:00:00'));
  assert.equal(s.records[1]!.utc_offset_min, -240);
  assert.ok(s.quirks.some((q) => q.includes('no backward step')));
  assert.ok(s.quirks.some((q) => q.includes('outage_count above customer_count')));
  // 200 customers out of a county of 100 is not a measurement: screened out before the daily peak, listed.
  assert.equal(s.days[0]!.value, 7);
  assert.deepEqual(excludedObservations(s).map((o) => [o.date, o.value, o.reason]), [['2024-11-03', 200, 'above_customer_count']]);
});
