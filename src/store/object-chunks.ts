// An object's locations array (its canonical JSON bytes, brackets included), stored once per object
// in chunks of at most CHUNK_BYTES, so a large object is written and served a chunk at a time
// instead of as one value. The rest of the object, its skeleton, is stored per version apart
// (store/objects.ts).
import type { Kysely } from 'kysely';

export const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes one version's whole document into object_chunks, the table objects were stored in before
 * migration 0022 split them: for the migrations before it (and tests building such a database).
 */
export async function writeObjectChunks(db: Kysely<any>, objectId: string, version: number, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
  let seq = 0;
  for (const chunk of chunksOf(bytes instanceof Uint8Array ? [bytes] : bytes)) {
    await db.insertInto('object_chunks').values({ object_id: objectId, version, seq, bytes: chunk }).execute();
    seq += 1;
  }
}

/**
 * Writes an object's locations array, given whole or as pieces to be read in order, from chunk
 * `from` on (the chunks before it already stored); every chunk but the last is exactly CHUNK_BYTES
 * (offsets map to chunks). One statement, one chunk-sized value each.
 */
export async function writeLocationChunks(db: Kysely<any>, objectId: string, bytes: Uint8Array | readonly Uint8Array[], from = 0): Promise<void> {
  let seq = from;
  for (const chunk of chunksOf(bytes instanceof Uint8Array ? [bytes] : bytes)) {
    await db.insertInto('object_locations').values({ object_id: objectId, seq, bytes: chunk }).execute();
    seq += 1;
  }
}

/**
 * The bytes of pieces read in order, cut at every CHUNK_BYTES; at least one chunk (empty for no
 * bytes). A chunk lying within one piece is a view of it; one spanning pieces is assembled in a
 * chunk of its own, so the pieces are never joined into one buffer.
 */
export function* chunksOf(pieces: readonly Uint8Array[]): Generator<Uint8Array> {
  let chunk: Uint8Array | undefined;
  let filled = 0;
  let yielded = false;
  for (const piece of pieces) {
    for (let at = 0; at < piece.byteLength;) {
      if (filled === 0 && piece.byteLength - at >= CHUNK_BYTES) {
        yield piece.subarray(at, at + CHUNK_BYTES);
        yielded = true;
        at += CHUNK_BYTES;
        continue;
      }
      chunk ??= new Uint8Array(CHUNK_BYTES);
      const n = Math.min(CHUNK_BYTES - filled, piece.byteLength - at);
      chunk.set(piece.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === CHUNK_BYTES) {
        yield chunk;
        yielded = true;
        chunk = undefined;
        filled = 0;
      }
    }
  }
  if (filled > 0 || !yielded) yield (chunk ?? new Uint8Array(0)).subarray(0, filled);
}

/**
 * chunksOf for pieces that arrive one by one: `push` answers the chunks a piece completes, `end` the
 * last one (empty only when no chunk came before it). The same chunks chunksOf cuts.
 */
export class ChunkCutter {
  private chunk: Uint8Array | undefined;
  private filled = 0;
  private cut = 0;

  /** Chunks answered so far: the next one's seq. */
  get chunks(): number {
    return this.cut;
  }

  push(piece: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let at = 0; at < piece.byteLength;) {
      if (this.filled === 0 && piece.byteLength - at >= CHUNK_BYTES) {
        out.push(piece.subarray(at, at + CHUNK_BYTES));
        at += CHUNK_BYTES;
        continue;
      }
      this.chunk ??= new Uint8Array(CHUNK_BYTES);
      const n = Math.min(CHUNK_BYTES - this.filled, piece.byteLength - at);
      this.chunk.set(piece.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === CHUNK_BYTES) {
        out.push(this.chunk);
        this.chunk = undefined;
        this.filled = 0;
      }
    }
    this.cut += out.length;
    return out;
  }

  end(): Uint8Array[] {
    if (this.filled === 0 && this.cut > 0) return [];
    this.cut += 1;
    return [(this.chunk ?? new Uint8Array(0)).subarray(0, this.filled)];
  }
}
