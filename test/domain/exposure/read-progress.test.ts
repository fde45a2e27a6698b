// How far a schedule read has got, as the ingest job reports it: characters of the decoded text
// read (rising, ending at the whole text) and rows read, every PROGRESS_ROWS rows and at the end;
// and the record reader's position in the whole input when it is fed in chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROGRESS_ROWS, readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import { DelimitedRecordReader } from '../../../src/domain/exposure/records.js';
import { oedReference } from './support.js';

const oed = oedReference();

function reports(text: string, fileName: string): Array<[number, number, number]> {
  const seen: Array<[number, number, number]> = [];
  const result = readSchedule(new TextEncoder().encode(text), { fileName, oed, currency: 'USD', onProgress: (read, of, rows) => seen.push([read, of, rows]) });
  assert.equal(result.ok, true, result.ok ? '' : result.refusal.message);
  return seen;
}

function assertRising(seen: Array<[number, number, number]>, length: number, rows: number) {
  assert.equal(seen.length, Math.floor(rows / PROGRESS_ROWS) + 1, 'one report every PROGRESS_ROWS rows, and one at the end');
  for (let i = 0; i < seen.length; i++) {
    const [read, of, count] = seen[i]!;
    assert.equal(of, length);
    assert.ok(read > 0 && read <= length);
    if (i > 0) assert.ok(read > seen[i - 1]![0] && count > seen[i - 1]![2]);
    if (i < seen.length - 1) assert.equal(count, (i + 1) * PROGRESS_ROWS);
  }
  assert.deepEqual(seen.at(-1), [length, length, rows]);
}

test('a delimited read reports the characters and rows read, ending at the whole file', () => {
  const lines = ['Location ID,Latitude,Longitude,Building Value'];
  for (let i = 0; i < 10_000; i++) lines.push(`L${i},${(10 + i / 1e4).toFixed(4)},${(20 + i / 1e4).toFixed(4)},${1000 + i}`);
  const text = lines.join('\n') + '\n';
  const seen = reports(text, 'schedule.csv');
  assertRising(seen, text.length, lines.length);
  // A report's position is the end of the row it counted: row PROGRESS_ROWS ends at its line break.
  const upTo = lines.slice(0, PROGRESS_ROWS).join('\n').length + 1;
  assert.equal(seen[0]![0], upTo);
});

test('a JSON Lines read reports the characters and lines read, ending at the whole file', () => {
  const lines: string[] = [];
  for (let i = 0; i < 9_000; i++) lines.push(JSON.stringify({ LocNumber: `L${i}`, Latitude: 10 + i / 1e4, Longitude: 20 + i / 1e4, BuildingTIV: 1000 + i }));
  const text = lines.join('\n');
  assertRising(reports(text, 'schedule.jsonl'), text.length, lines.length);
});

test('the record reader tells each record\'s end in the whole input, however it is chunked', () => {
  const text = 'a,b\r\n"q\nq",c\n\nd,e\n';
  const whole: number[] = [];
  const reader = new DelimitedRecordReader(',', (_line, _cells, read) => whole.push(read));
  reader.write(text);
  reader.end();
  assert.deepEqual(whole, [5, 13, 14, 18]);
  for (let size = 1; size < text.length; size++) {
    const chunked: number[] = [];
    const r = new DelimitedRecordReader(',', (_line, _cells, read) => chunked.push(read));
    for (let at = 0; at < text.length; at += size) r.write(text.slice(at, at + size));
    r.end();
    assert.deepEqual(chunked, whole, `chunks of ${size}`);
  }
});
