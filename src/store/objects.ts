// Uploaded schedules and risk objects: the only SQL about them. Every write of an object is a
// compare-and-set on its version; its canonical bytes live in object_chunks, per version.
import { Buffer } from 'node:buffer';
import type { Kysely, Transaction } from 'kysely';
import type { ObjectsTable, Tables } from './tables.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { CHUNK_BYTES, ChunkCutter, writeObjectChunks } from './object-chunks.js';
import { objectSummary, perilCode, type ObjectSummary } from '../domain/list-summaries.js';
import type { ListPosition } from './list-position.js';
import { digestOfDocument, readDigest, type LocationDigest } from '../domain/accumulation/digest.js';

export type RiskObjectDocument = Record<string, unknown> & { id: string; status: string };

/** What is known of an object without reading its document. */
export interface ObjectHead {
  version: number;
  /** Bytes of the canonical JSON of that version. */
  size: number;
}

export interface StoredObject extends ObjectHead {
  document: RiskObjectDocument;
}

/** The outcome of a change given to update: a document to write, or nothing to write. */
export interface Change<T> {
  write?: RiskObjectDocument;
  value: T;
}

/** A write lost its compare-and-set this many times in a row: the object is too busy to change now. */
const UPDATE_ATTEMPTS = 500;

export class ObjectBusy extends Error {}

export class ObjectStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores bytes by their digest; the same bytes are stored once. */
  async putUpload(sha256: string, bytes: Uint8Array, now = new Date()): Promise<void> {
    await this.db.insertInto('uploads')
      .values({ sha256, bytes, size: bytes.byteLength, created_at: now.toISOString() })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }

  async upload(sha256: string): Promise<Uint8Array | undefined> {
    const row = await this.db.selectFrom('uploads').select('bytes').where('sha256', '=', sha256).executeTakeFirst();
    return row?.bytes;
  }

  /** Inserts unless an object of that id exists (a re-run job writes the same ids); true if written. */
  insert(accountId: string, document: RiskObjectDocument, now = new Date()): Promise<boolean> {
    return this.insertJson(accountId, document.id, { status: document.status, ...objectSummary(document), digest: digestOfDocument(document) }, canonicalJson(document), now);
  }

  /**
   * As insert, for a document already written as canonical JSON (large objects are written
   * off-thread): its UTF-8 bytes whole, or in pieces to be read in order, which are stored chunk by
   * chunk without being joined. `head` is its status and what a list shows of it, read by the
   * writer, and its location digest (domain/accumulation/digest.ts), made by the writer too.
   */
  async insertJson(accountId: string, id: string, head: ObjectSummary & { status: string; digest: Uint8Array }, json: string | Uint8Array | readonly Uint8Array[], now = new Date()): Promise<boolean> {
    const at = now.toISOString();
    const bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
    let size = 0;
    for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) size += piece.byteLength;
    return this.db.transaction().execute(async (trx) => {
      if (!(await insertFirstRow(trx, accountId, id, head, size, at))) return false;
      await writeObjectChunks(trx, id, 1, bytes);
      await trx.insertInto('object_digests').values({ object_id: id, version: 1, bytes: head.digest }).execute();
      return true;
    });
  }

  /**
   * A new object's first version, its bytes stored as they are handed over (while the rest is still
   * being made), from `first`, the bytes it will begin with: see StagedChunks and insertStaged.
   */
  stage(id: string, first: Uint8Array): StagedChunks {
    return new StagedChunks(this.db, id, first);
  }

  /**
   * insertJson for an object whose first version was staged: when the document begins with the
   * staged bytes (its first piece equal to those `first` bytes, then the `streamed` pieces staged),
   * only the rest is written with the object's row, in one transaction; otherwise the staged chunks
   * are removed and the whole document written as insertJson does. The row makes the version
   * visible, so no reader ever sees the staged chunks of an object not yet written.
   */
  async insertStaged(accountId: string, id: string, head: ObjectSummary & { status: string; digest: Uint8Array }, document: readonly Uint8Array[], staged: StagedChunks, streamed: number, now = new Date()): Promise<boolean> {
    if (!(await staged.holds(document, streamed))) {
      await staged.discard();
      return this.insertJson(accountId, id, head, document, now);
    }
    const at = now.toISOString();
    let size = 0;
    for (const piece of document) size += piece.byteLength;
    return this.db.transaction().execute(async (trx) => {
      if (!(await insertFirstRow(trx, accountId, id, head, size, at))) return false;
      const cutter = staged.cutter;
      // Another run of the same job may have removed them meanwhile: then the whole document is written.
      const held = await trx.selectFrom('object_chunks').select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('object_id', '=', id).where('version', '=', 1).executeTakeFirstOrThrow();
      if (Number(held.n) !== cutter.chunks) {
        await trx.deleteFrom('object_chunks').where('object_id', '=', id).where('version', '=', 1).execute();
        await writeObjectChunks(trx, id, 1, document);
        await trx.insertInto('object_digests').values({ object_id: id, version: 1, bytes: head.digest }).execute();
        return true;
      }
      const rest: Uint8Array[] = [];
      for (const piece of document.slice(1 + streamed)) rest.push(...cutter.push(piece));
      rest.push(...cutter.end());
      let seq = cutter.chunks - rest.length;
      for (const chunk of rest) {
        await trx.insertInto('object_chunks').values({ object_id: id, version: 1, seq, bytes: chunk }).execute();
        seq += 1;
      }
      await trx.insertInto('object_digests').values({ object_id: id, version: 1, bytes: head.digest }).execute();
      return true;
    });
  }

  async head(id: string, accountId: string): Promise<ObjectHead | undefined> {
    const row = await this.db.selectFrom('objects').select(['version', 'size'])
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? { version: Number(row.version), size: Number(row.size) } : undefined;
  }

  /** The heads and location counts of the account's objects among `ids` (others are left out). */
  async heads(ids: readonly string[], accountId: string): Promise<Map<string, ObjectHead & { locations: number | null }>> {
    const out = new Map<string, ObjectHead & { locations: number | null }>();
    for (let at = 0; at < ids.length; at += 500) {
      const rows = await this.db.selectFrom('objects').select(['id', 'version', 'size', 'locations'])
        .where('account_id', '=', accountId).where('id', 'in', ids.slice(at, at + 500)).execute();
      for (const r of rows) out.set(r.id, { version: Number(r.version), size: Number(r.size), locations: r.locations === null ? null : Number(r.locations) });
    }
    return out;
  }

  /**
   * The location digests of the current versions of the account's objects among `ids`, by id, read
   * with the version they belong to; an object without one (or not the account's) is left out.
   */
  async digests(ids: readonly string[], accountId: string): Promise<Map<string, { version: number; bytes: Uint8Array }>> {
    const out = new Map<string, { version: number; bytes: Uint8Array }>();
    for (let at = 0; at < ids.length; at += 500) {
      const rows = await this.db.selectFrom('objects')
        .innerJoin('object_digests', (j) => j.onRef('object_digests.object_id', '=', 'objects.id').onRef('object_digests.version', '=', 'objects.version'))
        .select(['objects.id', 'objects.version', 'object_digests.bytes'])
        .where('objects.account_id', '=', accountId).where('objects.id', 'in', ids.slice(at, at + 500)).execute();
      for (const r of rows) out.set(r.id, { version: Number(r.version), bytes: r.bytes });
    }
    return out;
  }

  /** One version's digest read back, or undefined (none stored, or of a format no longer read). */
  private async digestOf(id: string, version: number): Promise<LocationDigest | undefined> {
    const row = await this.db.selectFrom('object_digests').select('bytes').where('object_id', '=', id).where('version', '=', version).executeTakeFirst();
    if (!row) return undefined;
    try {
      return readDigest(row.bytes);
    } catch {
      return undefined;
    }
  }

  /** Stores a version's digest made after it was written (a version stored without one); kept once. */
  async putDigest(id: string, version: number, bytes: Uint8Array): Promise<void> {
    await this.db.insertInto('object_digests').values({ object_id: id, version, bytes })
      .onConflict((oc) => oc.columns(['object_id', 'version']).doNothing()).execute();
  }

  /**
   * Stores a version's digest completed with its cells by an accumulation (domain/accumulation/
   * digest.ts withCells): that version's row only, and only while it exists, so a version dropped
   * by newer writes meanwhile is not brought back and no other version is touched. The same cells
   * whoever computes them: writing twice is harmless. True if written.
   */
  async putDigestCells(id: string, version: number, bytes: Uint8Array): Promise<boolean> {
    const result = await this.db.updateTable('object_digests').set({ bytes })
      .where('object_id', '=', id).where('version', '=', version).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The object with the version it was read at, from one statement (one consistent snapshot). */
  async read(id: string, accountId: string): Promise<StoredObject | undefined> {
    const rows = await this.db.selectFrom('objects')
      .innerJoin('object_chunks', (j) => j.onRef('object_chunks.object_id', '=', 'objects.id').onRef('object_chunks.version', '=', 'objects.version'))
      .select(['objects.version', 'objects.size', 'object_chunks.bytes'])
      .where('objects.id', '=', id).where('objects.account_id', '=', accountId)
      .orderBy('object_chunks.seq').execute();
    if (rows.length === 0) return undefined;
    const text = Buffer.concat(rows.map((r) => r.bytes)).toString('utf8');
    return { version: Number(rows[0]!.version), size: Number(rows[0]!.size), document: JSON.parse(text) as RiskObjectDocument };
  }

  async get(id: string, accountId: string): Promise<RiskObjectDocument | undefined> {
    return (await this.read(id, accountId))?.document;
  }

  /**
   * The stored canonical bytes of one version from a byte offset on, a chunk at a time, read only as
   * the consumer asks (a 100 MB object is never held whole). Throws if the version was superseded
   * twice while being read (its chunks are gone): the reader must start again.
   */
  async *bytes(id: string, head: ObjectHead, from = 0): AsyncGenerator<Buffer> {
    for (let seq = Math.floor(from / CHUNK_BYTES), at = seq * CHUNK_BYTES; at < head.size; seq += 1, at += CHUNK_BYTES) {
      const row = await this.db.selectFrom('object_chunks').select('bytes')
        .where('object_id', '=', id).where('version', '=', head.version).where('seq', '=', seq).executeTakeFirst();
      if (!row) throw new Error(`object ${id} version ${head.version} was superseded while being read`);
      const chunk = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      yield at < from ? chunk.subarray(from - at) : chunk;
    }
  }

  /**
   * Writes the document as the next version if the stored one is still expectedVersion; the new
   * version, or undefined when another write came first. The previous version's chunks are kept
   * (a read streaming it is not cut off); older ones are removed.
   */
  async replaceIf(accountId: string, document: RiskObjectDocument, expectedVersion: number, now = new Date()): Promise<number | undefined> {
    const bytes = Buffer.from(canonicalJson(document), 'utf8');
    const digest = digestOfDocument(document, await this.digestOf(document.id, expectedVersion));
    const version = expectedVersion + 1;
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('objects')
        // Of the listed members only the peril can change (exposure and source files are read-only).
        .set({ status: document.status, peril: perilCode(document), version, size: bytes.byteLength, updated_at: now.toISOString() })
        .where('id', '=', document.id).where('account_id', '=', accountId).where('version', '=', expectedVersion)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      await writeObjectChunks(trx, document.id, version, bytes);
      await trx.insertInto('object_digests').values({ object_id: document.id, version, bytes: digest }).execute();
      await trx.deleteFrom('object_chunks').where('object_id', '=', document.id).where('version', '<', expectedVersion).execute();
      await trx.deleteFrom('object_digests').where('object_id', '=', document.id).where('version', '<', expectedVersion).execute();
      return version;
    });
  }

  /**
   * Read-modify-write without lost updates: change sees the stored object and is applied again to
   * the newer object whenever another write came first. undefined when there is no such object.
   */
  async update<T>(id: string, accountId: string, change: (object: RiskObjectDocument, version: number) => Change<T>, now = new Date()): Promise<{ version: number; value: T } | undefined> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const stored = await this.read(id, accountId);
      if (!stored) return undefined;
      const outcome = change(stored.document, stored.version);
      if (!outcome.write) return { version: stored.version, value: outcome.value };
      const version = await this.replaceIf(accountId, outcome.write, stored.version, now);
      if (version !== undefined) return { version, value: outcome.value };
    }
    throw new ObjectBusy(`object ${id} changed ${UPDATE_ATTEMPTS} times while one change was being written`);
  }

  /** A page of an account's objects, newest first, from after `position`; never reads a document. */
  async list(accountId: string, filter: ObjectFilter, after: ListPosition | undefined, limit: number): Promise<ObjectListRow[]> {
    let query = this.db.selectFrom('objects')
      .select(['id', 'status', 'version', 'size', 'peril', 'locations', 'source', 'created_at', 'updated_at'])
      .where('account_id', '=', accountId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.peril !== undefined) query = query.where('peril', '=', filter.peril);
    if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo !== undefined) query = query.where('created_at', '<', filter.createdTo);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, version: Number(r.version), size: Number(r.size), locations: r.locations === null ? null : Number(r.locations) }));
  }
}

/**
 * The chunks of a new object's first version, stored one statement each as its bytes arrive (a 1 MB
 * chunk as soon as it is whole), before the object's row exists: reads join the row, so they are
 * never seen alone. Nothing is staged when an object of that id is already stored (a job run again
 * after writing it).
 */
export class StagedChunks {
  readonly cutter = new ChunkCutter();
  /** Pieces handed over after the first bytes. */
  pieces = 0;
  private writing: Promise<void>;
  private usable = true;

  constructor(private readonly db: Kysely<Tables>, readonly id: string, private readonly first: Uint8Array) {
    this.writing = db.selectFrom('objects').select('id').where('id', '=', id).executeTakeFirst().then((row) => {
      if (row) this.usable = false;
    });
    this.write(this.cutter.push(first));
  }

  /** The next piece of the object's bytes, in order. */
  add(piece: Uint8Array): void {
    this.pieces += 1;
    this.write(this.cutter.push(piece));
  }

  /** Whether the staged chunks are the beginning of `document` (the first bytes, then `streamed` pieces); waits for every write. */
  async holds(document: readonly Uint8Array[], streamed: number): Promise<boolean> {
    await this.writing;
    const first = document[0];
    return this.usable && streamed === this.pieces && first !== undefined && Buffer.from(first).equals(this.first);
  }

  /** Removes what was staged, unless the object's row exists (then they are its chunks). */
  async discard(): Promise<void> {
    this.usable = false;
    await this.writing;
    await this.db.deleteFrom('object_chunks').where('object_id', '=', this.id).where('version', '=', 1)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('objects').select('id').where('id', '=', this.id))))
      .execute();
  }

  private write(chunks: Uint8Array[]): void {
    const seq = this.cutter.chunks - chunks.length;
    this.writing = this.writing.then(async () => {
      for (const [i, bytes] of chunks.entries()) {
        if (!this.usable) return;
        // A run after a lost lease writes the same bytes again.
        await this.db.insertInto('object_chunks').values({ object_id: this.id, version: 1, seq: seq + i, bytes })
          .onConflict((oc) => oc.columns(['object_id', 'version', 'seq']).doUpdateSet({ bytes }))
          .execute();
      }
    }).catch(() => {
      // A staged write that failed makes the staging unusable; the whole document is written instead.
      this.usable = false;
    });
  }
}

export interface ObjectFilter {
  status?: string;
  peril?: string;
  /** Created at or after (ISO 8601, as stored). */
  createdFrom?: string;
  /** Created before. */
  createdTo?: string;
}

export type ObjectListRow = Pick<ObjectsTable, 'id' | 'status' | 'version' | 'size' | 'peril' | 'locations' | 'source' | 'created_at' | 'updated_at'>;

type FirstHead = ObjectSummary & { status: string };

/** A new object's row at version 1; false when an object of that id is already stored (a job run again). */
async function insertFirstRow(trx: Transaction<Tables>, accountId: string, id: string, head: FirstHead, size: number, at: string): Promise<boolean> {
  const result = await trx.insertInto('objects')
    .values({
      id, account_id: accountId, status: head.status, version: 1, size, created_at: at, updated_at: at,
      peril: head.peril, locations: head.locations, source: head.source,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
