// An object's canonical JSON bytes, stored per version in chunks of at most CHUNK_BYTES, so a large
// object is written and served a chunk at a time instead of as one value.
import type { Kysely } from 'kysely';

export const CHUNK_BYTES = 1024 * 1024;

/** Writes one version's bytes; every chunk but the last is exactly CHUNK_BYTES (offsets map to chunks). */
export async function writeObjectChunks(db: Kysely<any>, objectId: string, version: number, bytes: Uint8Array): Promise<void> {
  for (let seq = 0, at = 0; at < bytes.byteLength || seq === 0; seq += 1, at += CHUNK_BYTES) {
    await db.insertInto('object_chunks')
      .values({ object_id: objectId, version, seq, bytes: bytes.subarray(at, Math.min(at + CHUNK_BYTES, bytes.byteLength)) })
      .execute();
  }
}
