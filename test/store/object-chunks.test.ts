// An object's bytes given in pieces are stored in chunks cut exactly as for the same bytes given
// whole (offsets map to chunks), without joining the pieces. Bytes made up here for the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_BYTES, chunksOf } from '../../src/store/object-chunks.js';

function pieces(sizes: number[]): Uint8Array[] {
  let n = 0;
  return sizes.map((size) => Uint8Array.from({ length: size }, () => (n++ * 31) % 251));
}

function joined(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

test('pieces of any sizes are cut at every CHUNK_BYTES, the last chunk shorter, bytes in order', () => {
  const cases = [
    [],
    [0],
    [10],
    [CHUNK_BYTES],
    [CHUNK_BYTES, 0, 1],
    [3, CHUNK_BYTES, CHUNK_BYTES - 3],
    [CHUNK_BYTES - 1, 2, 2 * CHUNK_BYTES + 5, 0, 7],
    [1, 1, 1, 3 * CHUNK_BYTES],
  ];
  for (const sizes of cases) {
    const given = pieces(sizes);
    const chunks = [...chunksOf(given)];
    const total = sizes.reduce((a, b) => a + b, 0);
    assert.equal(chunks.length, Math.max(1, Math.ceil(total / CHUNK_BYTES)), `${sizes}`);
    chunks.slice(0, -1).forEach((chunk) => assert.equal(chunk.byteLength, CHUNK_BYTES, `${sizes}`));
    assert.ok(joined(chunks).equals(joined(given)), `${sizes}`);
  }
});

test('a chunk lying within one piece is a view of that piece, not a copy', () => {
  const [piece] = pieces([2 * CHUNK_BYTES]);
  const chunks = [...chunksOf([piece!])];
  assert.equal(chunks.length, 2);
  for (const chunk of chunks) assert.equal(chunk.buffer, piece!.buffer);
});
