import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSchedule } from '../../../src/domain/exposure/decode.js';

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

test('UTF-8 with and without a BOM; the BOM is dropped', () => {
  assert.deepEqual(decodeSchedule(bytes('Ref,Köln')), { ok: true, text: 'Ref,Köln', encoding: 'utf-8', notes: [] });
  assert.deepEqual(decodeSchedule(bytes([0xef, 0xbb, 0xbf], 'Ref,Köln')), { ok: true, text: 'Ref,Köln', encoding: 'utf-8', notes: [] });
});

test('UTF-16 LE/BE with a BOM, and without one by the NUL pattern', () => {
  const le = Buffer.from('Ref\tCity\r\n1\tZürich\r\n', 'utf16le');
  const be = Buffer.from(le).swap16();
  assert.deepEqual(decodeSchedule(new Uint8Array([0xff, 0xfe, ...le])), { ok: true, text: 'Ref\tCity\r\n1\tZürich\r\n', encoding: 'utf-16le', notes: [] });
  assert.deepEqual(decodeSchedule(new Uint8Array([0xfe, 0xff, ...be])), { ok: true, text: 'Ref\tCity\r\n1\tZürich\r\n', encoding: 'utf-16be', notes: [] });
  const bare = decodeSchedule(new Uint8Array(le));
  assert.deepEqual(bare, { ok: true, text: 'Ref\tCity\r\n1\tZürich\r\n', encoding: 'utf-16le', notes: ['no byte order mark; the bytes read as UTF-16LE by their NUL pattern'] });
  assert.equal((decodeSchedule(new Uint8Array(be)) as { encoding: string }).encoding, 'utf-16be');
});

test('bytes that are not UTF-8 fall back to Windows-1252, with the full 0x80–0x9F table', () => {
  // "Café €5 – “x”" in Windows-1252
  const result = decodeSchedule(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35, 0x20, 0x96, 0x20, 0x93, 0x78, 0x94]));
  assert.deepEqual(result, { ok: true, text: 'Café €5 – “x”', encoding: 'windows-1252', notes: ['the bytes are not valid UTF-8; read as Windows-1252'] });
});

test('containers, NUL bytes and control characters are refused with a reason', () => {
  const refused = (b: Uint8Array) => {
    const result = decodeSchedule(b);
    assert.equal(result.ok, false);
    return (result as { message: string }).message;
  };
  assert.match(refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0])), /ZIP container.*xlsx.*export the sheet as CSV/);
  assert.match(refused(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])), /OLE container/);
  assert.match(refused(bytes('%PDF-1.7\n%âãÏÓ')), /PDF document/);
  assert.match(refused(bytes('Ref,City\n1,', [0], 'x\n')), /NUL bytes/);
  assert.match(refused(new Uint8Array(Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)))), /control characters/);
  assert.match(refused(new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00])), /UTF-16LE byte order mark but does not decode/);
  assert.match(refused(new Uint8Array([])), /empty/);
});

test('a stray control character or form feed in a text file is not binary', () => {
  const text = 'Ref,City\n' + '1,Paris\n'.repeat(20) + '\f\u0007\n';
  assert.equal(decodeSchedule(bytes(text)).ok, true);
});
