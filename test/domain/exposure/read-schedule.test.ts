// readSchedule's refusals, its currency rules and the row rules not covered by the corpus; and the
// row-by-row core driven in chunks, as a stream would drive it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSchedule } from '../../../src/domain/exposure/decode.js';
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import { DelimitedRecordReader } from '../../../src/domain/exposure/records.js';
import { ScheduleTable } from '../../../src/domain/exposure/schedule-table.js';
import type { ReadScheduleResult, ScheduleRead } from '../../../src/domain/exposure/types.js';
import { fixture, oedReference } from './support.js';
import { unwrap } from '../../../src/kernel/result.js';

const oed = oedReference();
const utf8 = (text: string) => new TextEncoder().encode(text);

function read(text: string | Uint8Array, currency?: string, fileName = 'schedule.csv'): ReadScheduleResult {
  return readSchedule(typeof text === 'string' ? utf8(text) : text, { fileName, oed, ...(currency === undefined ? {} : { currency }) });
}

function readOk(text: string, currency?: string): ScheduleRead {
  const result = read(text, currency);
  assert.equal(result.ok, true, result.ok ? '' : result.refusal.message);
  return unwrap(result);
}

test('unreadable sources → 415 unsupported_source, with the reason in the message', () => {
  const cases: Array<[string | Uint8Array, RegExp]> = [
    [new Uint8Array([]), /empty/],
    [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), /ZIP container/],
    [utf8('%PDF-1.4\n1 0 obj'), /PDF document/],
    [new Uint8Array([0x52, 0x65, 0x66, 0x2c, 0x00, 0x01, 0x02, 0x03]), /NUL bytes/],
    [new Uint8Array(Array.from({ length: 64 }, (_, i) => [0x01, 0x02, 0x1b, 0x41][i % 4] as number)), /control characters/],
    ['[{"ref":"1","tiv":5}]', /JSON array, not JSON Lines/],
    ['Dear underwriter\nplease find the schedule attached\nregards\n', /neither JSON Lines nor delimited text/],
  ];
  for (const [input, message] of cases) {
    const result = read(input, undefined, 'upload.bin');
    assert.equal(result.ok, false);
    if (result.ok) continue;
    assert.deepEqual([result.refusal.status, result.refusal.code], [415, 'unsupported_source']);
    assert.match(result.refusal.message, /^upload\.bin: /);
    assert.match(result.refusal.message, message);
  }
});

test('a request currency on a file that states none: every value carries it, the guess is recorded', () => {
  const r = read(fixture('07-two-blocks-repeated-header.csv'), 'usd');
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.equal(r.value.exposure.currency, 'USD');
  assert.ok(r.value.exposure.locations.every((l) => l.currency === 'USD'));
  assert.deepEqual(r.value.exposure.source_fidelity.guessed_units, [{ field: 'currency', unit: 'USD', source: 'request' }]);
});

test('a currency column contradicting the request → 422, every contradiction listed', () => {
  const result = read(fixture('13-multi-currency-column.csv'), 'USD');
  assert.deepEqual(result, {
    ok: false,
    refusal: {
      status: 422,
      code: 'currency_conflict',
      message: 'the file states SGD but the request declared USD',
      details: ["line 3: column 'Ccy' states SGD"],
    },
  });
});

test('symbols that name several currencies: the request decides, else a guess or nothing', () => {
  const yen = readOk('Ref,TIV\n1,¥500m\n');
  assert.equal(yen.exposure.currency, 'JPY');
  assert.deepEqual(yen.exposure.source_fidelity.guessed_units, [
    { field: 'scale', unit: 'million', source: "suffix 'm' in column 'TIV'" },
    { field: 'currency', unit: 'JPY', source: "symbol '¥' in column 'TIV'" },
  ]);
  assert.equal(readOk('Ref,TIV\n1,¥500m\n', 'CNY').exposure.currency, 'CNY');

  const krone = readOk('Ref,TIV\n1,kr 5000\n');
  assert.equal(krone.exposure.currency, undefined);
  assert.deepEqual(krone.exposure.source_fidelity.ambiguous_rows, [{ row: 2, reason: "column 'TIV': 'kr' may be any of DKK, ISK, NOK, SEK; currency not read" }]);
  assert.equal(readOk('Ref,TIV\n1,kr 5000\n', 'NOK').exposure.currency, 'NOK');
  const conflict = read('Ref,TIV\n1,kr 5000\n', 'EUR');
  assert.equal(conflict.ok, false);
  if (!conflict.ok) assert.deepEqual(conflict.refusal.details, ["line 2: column 'TIV' states 'kr' (one of DKK, ISK, NOK, SEK)"]);
});

test('a currency column with an unknown code, and a row stating two currencies', () => {
  const r = readOk('Ref,Building Value,Contents,Currency\n1,€5,$3,EUR\n2,5,3,Euros?\n');
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [
    { row: 2, reason: 'values in several currencies (EUR, USD)' },
    { row: 3, reason: "currency 'Euros?' is not an ISO 4217 code or known symbol; not read" },
    { row: 3, reason: 'values carry no currency while the file states several; left out of the totals' },
  ]);
  assert.deepEqual(r.exposure.locations.map((l) => l.currency), [undefined, undefined]);
  assert.equal(r.exposure.values.total, null);
  assert.deepEqual(r.exposure.values_by_currency, { EUR: { total: null }, USD: { total: null } });
});

test('no column maps: ok with no locations, the columns sampled and the reason noted', () => {
  const r = readOk('alpha,beta\n1,2\n3,4\n');
  assert.deepEqual(r.exposure.locations, []);
  assert.deepEqual(r.exposure.values, { total: null });
  assert.deepEqual(r.exposure.source_fidelity.unmapped_columns, [
    { column: 'alpha', sample: [] },
    { column: 'beta', sample: [] },
  ]);
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [
    { row: 2, reason: 'row has no location data; skipped' },
    { row: 3, reason: 'row has no location data; skipped' },
  ]);
  assert.deepEqual(r.exposure.source_fidelity.notes, ['no column maps to a location field; no locations read']);
});

test('no ref column, extra values, a stated total that differs from its parts, latitude without longitude, 0/0', () => {
  const r = readOk('Street,Lat,Long,Building Value,Contents,TIV\nA st,1,2,100,50,200,extra\nB st,3,,100,,100\nC st,0,0,1,,\n');
  assert.deepEqual(r.exposure.locations.map((l) => [l.ref, l.latitude, l.longitude, l.values]), [
    [null, 1, 2, { buildings: '100.00', contents: '50.00', total: '200.00' }],
    [null, null, null, { buildings: '100.00', total: '100.00' }],
    [null, null, null, { buildings: '1.00', total: '1.00' }],
  ]);
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [
    { row: 2, reason: 'stated total 200.00 differs from the sum of parts 150.00; total is the stated total' },
    { row: 2, reason: "1 value(s) beyond the header's 6 columns ignored" },
    { row: 3, reason: 'latitude given without longitude; coordinates null' },
    { row: 4, reason: 'coordinates 0, 0 read as missing; coordinates null' },
  ]);
  assert.deepEqual(r.exposure.source_fidelity.notes, ['no reference column; location refs are null']);
  assert.deepEqual(r.exposure.values, { buildings: '201.00', contents: '50.00', total: '301.00' });
});

test('a second header with a different layout re-maps the columns from there on', () => {
  const r = readOk('Ref,TIV,City\n1,100,Rome\nCity,Ref,TIV\nMilan,2,200\n');
  assert.deepEqual(r.exposure.locations.map((l) => [l.ref, l.address, l.values.total]), [
    ['1', { city: 'Rome' }, '100.00'],
    ['2', { city: 'Milan' }, '200.00'],
  ]);
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [{ row: 3, reason: 'header row with a different layout; columns read by it from here on' }]);
});

test('a totals row whose values do not add up is still excluded, and says so', () => {
  const r = readOk('Ref,TIV\n1,100\n2,200\nTotal,250\n');
  assert.equal(r.exposure.locations.length, 2);
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [{ row: 4, reason: "totals row ('Total') excluded; its values do not equal the sum of the rows above" }]);
  // an empty-ref row whose values do not sum the rows above is a location
  const s = readOk('Ref,TIV\n1,100\n2,200\n,250\n');
  assert.equal(s.exposure.locations.length, 3);
  assert.equal(s.exposure.values.total, '550.00');
});

test('a street that starts with "Total" is an address when the row has a position', () => {
  const r = readOk('Ref,Street,Lat,Long,TIV\n1,Main St,1,1,100\n,Total Plaza 5,2,2,50\n,Grand total,,,150\n');
  assert.deepEqual(r.exposure.locations.map((l) => [l.ref, l.address.street]), [['1', 'Main St'], [null, 'Total Plaza 5']]);
  assert.deepEqual(r.exposure.source_fidelity.ambiguous_rows, [
    { row: 3, reason: 'no ref' },
    { row: 4, reason: "totals row ('Grand total') excluded; its values equal the sum of the rows above" },
  ]);
});

test('several perils in a column, and peril values that name none', () => {
  const r = readOk('Ref,Peril\n1,AA1\n2,Fire\n3,Fire\n');
  assert.equal(r.peril, undefined);
  assert.deepEqual(r.exposure.source_fidelity.notes, [
    "peril 'AA1' (AA1: All perils) names no peril of the vocabulary (line 2)",
    "peril 'Fire' names no peril of the vocabulary (line 3 and 1 more)",
  ]);
});

test('the row-by-row core fed in small chunks gives what readSchedule gives', () => {
  for (const name of ['01-acme-title-lines-dms.csv', '07-two-blocks-repeated-header.csv', '11-header-units-coordinates.csv']) {
    const bytes = fixture(name);
    const whole = readSchedule(bytes, { fileName: name, oed });
    assert.equal(whole.ok, true);
    if (!whole.ok) continue;
    const decoded = decodeSchedule(bytes);
    assert.equal(decoded.ok, true);
    if (!decoded.ok) continue;
    const table = new ScheduleTable({ oed, numberFormat: { decimalComma: false, basis: null }, header: 'detect', encoding: decoded.encoding });
    const reader = new DelimitedRecordReader(',', (line, cells) => table.pushRecord(line, cells), (line, reason) => table.noteRow(line, reason));
    for (let i = 0; i < decoded.text.length; i += 7) reader.write(decoded.text.slice(i, i + 7));
    reader.end();
    const streamed = table.finish();
    assert.deepEqual(streamed, { ok: true, value: { exposure: whole.value.exposure, ...(whole.value.peril ? { peril: whole.value.peril } : {}) } });
  }
});
