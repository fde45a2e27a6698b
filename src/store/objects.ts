// Uploaded schedules and risk objects: the only SQL about them. Every write of an object is a
// compare-and-set on its version. An object is stored in two parts (domain/risk-object/
// stored-parts.ts): its skeleton, every member but the locations, per version in object_skeletons,
// and its locations array once in object_locations, in chunks; the canonical bytes are the skeleton
// with the array put in place, assembled as they are read. A write of terms writes a skeleton only.
import { Buffer } from 'node:buffer';
import type { Kysely, Transaction } from 'kysely';
import type { ObjectsTable, Tables } from './tables.js';
import { CHUNK_BYTES, ChunkCutter, writeLocationChunks } from './object-chunks.js';
import { objectSummary, perilCode, type ObjectSummary } from '../domain/list-summaries.js';
import type { ListPosition } from './list-position.js';
import { digestMembersMoved, digestOfDocument, digestWithMembers } from '../domain/accumulation/digest.js';
import { documentSize, holdsLocations, objectParts, skeletonBytes, type SkeletonBytes } from '../domain/risk-object/stored-parts.js';

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
    const parts = objectParts(document);
    return this.insertParts(accountId, document.id, { status: document.status, ...objectSummary(document), digest: digestOfDocument(document) }, parts.skeleton, parts.locations, now);
  }

  /**
   * As insert, for a document already written as its two parts (large objects are written
   * off-thread): its skeleton's canonical bytes and its locations array's, whole or in pieces to be
   * read in order, which are stored chunk by chunk without being joined. `head` is its status and
   * what a list shows of it, read by the writer, and its location digest (domain/accumulation/
   * digest.ts), made by the writer too.
   */
  async insertParts(accountId: string, id: string, head: ObjectSummary & { status: string; digest: Uint8Array }, skeleton: SkeletonBytes, locations: Uint8Array | readonly Uint8Array[], now = new Date()): Promise<boolean> {
    const size = documentSize(skeleton, byteLength(locations));
    return this.db.transaction().execute(async (trx) => {
      if (!(await insertFirstRow(trx, accountId, id, head, size, now.toISOString()))) return false;
      if (skeleton.slot >= 0) await writeLocationChunks(trx, id, locations);
      await insertFirstVersion(trx, id, skeleton, head.digest);
      return true;
    });
  }

  /** A new object's locations, stored as they are handed over (while the rest is still being made): see StagedLocations and insertStaged. */
  stage(id: string): StagedLocations {
    return new StagedLocations(this.db, id);
  }

  /**
   * insertParts for an object whose locations were staged: when the first `streamed` of the
   * location pieces are the staged ones, only the rest is written with the object's row, in one
   * transaction; otherwise the staged chunks are removed and everything written as insertParts
   * does. The row makes the object visible, so no reader ever sees the staged chunks alone.
   */
  async insertStaged(accountId: string, id: string, head: ObjectSummary & { status: string; digest: Uint8Array }, skeleton: SkeletonBytes, locations: readonly Uint8Array[], staged: StagedLocations, streamed: number, now = new Date()): Promise<boolean> {
    if (!(await staged.holds(streamed)) || skeleton.slot < 0) {
      await staged.discard();
      return this.insertParts(accountId, id, head, skeleton, locations, now);
    }
    const size = documentSize(skeleton, byteLength(locations));
    return this.db.transaction().execute(async (trx) => {
      if (!(await insertFirstRow(trx, accountId, id, head, size, now.toISOString()))) return false;
      const cutter = staged.cutter;
      // Another run of the same job may have removed them meanwhile: then every chunk is written.
      const held = await trx.selectFrom('object_locations').select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('object_id', '=', id).executeTakeFirstOrThrow();
      if (Number(held.n) !== cutter.chunks) {
        await trx.deleteFrom('object_locations').where('object_id', '=', id).execute();
        await writeLocationChunks(trx, id, locations);
      } else {
        const rest: Uint8Array[] = [];
        for (const piece of locations.slice(streamed)) rest.push(...cutter.push(piece));
        rest.push(...cutter.end());
        await writeLocationChunks(trx, id, rest, cutter.chunks - rest.length);
      }
      await insertFirstVersion(trx, id, skeleton, head.digest);
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
        .innerJoin('object_skeletons', (j) => j.onRef('object_skeletons.object_id', '=', 'objects.id').onRef('object_skeletons.version', '=', 'objects.version'))
        .innerJoin('object_digests', (j) => j.onRef('object_digests.object_id', '=', 'objects.id').onRef('object_digests.version', '=', 'object_skeletons.digest_version'))
        .select(['objects.id', 'objects.version', 'object_digests.bytes'])
        .where('objects.account_id', '=', accountId).where('objects.id', 'in', ids.slice(at, at + 500)).execute();
      for (const r of rows) out.set(r.id, { version: Number(r.version), bytes: r.bytes });
    }
    return out;
  }

  /** Stores a version's digest made after it was written (a version stored without one); kept once. */
  async putDigest(id: string, version: number, bytes: Uint8Array): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('object_digests').values({ object_id: id, version, bytes })
        .onConflict((oc) => oc.columns(['object_id', 'version']).doNothing()).execute();
      await trx.updateTable('object_skeletons').set({ digest_version: version })
        .where('object_id', '=', id).where('version', '=', version).execute();
    });
  }

  /**
   * Stores a version's digest completed with its cells by an accumulation (domain/accumulation/
   * digest.ts withCells): the digest row that version reads, and only while the version exists, so
   * a version dropped by newer writes meanwhile is not brought back. Versions sharing that row (a
   * write that moved no member of its header) share its cells too, as they share its locations.
   * The same cells whoever computes them: writing twice is harmless. True if written.
   */
  async putDigestCells(id: string, version: number, bytes: Uint8Array): Promise<boolean> {
    const result = await this.db.updateTable('object_digests').set({ bytes })
      .where('object_id', '=', id)
      .where('version', '=', (eb) => eb.selectFrom('object_skeletons').select('digest_version').where('object_id', '=', id).where('version', '=', version))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The object without its locations (exposure.locations read as []), with the version it was read
   * at, from one statement: what a write of terms, a price or an analysis reads. Never touches the
   * locations' bytes, whatever their size.
   */
  async skeleton(id: string, accountId: string): Promise<StoredObject | undefined> {
    const row = await this.db.selectFrom('objects')
      .innerJoin('object_skeletons', (j) => j.onRef('object_skeletons.object_id', '=', 'objects.id').onRef('object_skeletons.version', '=', 'objects.version'))
      .select(['objects.version', 'objects.size', 'object_skeletons.bytes'])
      .where('objects.id', '=', id).where('objects.account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { version: Number(row.version), size: Number(row.size), document: JSON.parse(Buffer.from(row.bytes).toString('utf8')) as RiskObjectDocument };
  }

  /** One version's skeleton (exposure.locations read as []), or undefined when that version is gone. */
  async versionSkeleton(id: string, version: number): Promise<RiskObjectDocument | undefined> {
    const row = await this.db.selectFrom('object_skeletons').select('bytes').where('object_id', '=', id).where('version', '=', version).executeTakeFirst();
    return row ? JSON.parse(Buffer.from(row.bytes).toString('utf8')) as RiskObjectDocument : undefined;
  }

  /**
   * The whole object with the version it was read at: its canonical bytes assembled and parsed.
   * For readers that need the locations as a document (a lab run's exposure, a pack's summary);
   * anything that reads terms only reads the skeleton.
   */
  async read(id: string, accountId: string): Promise<StoredObject | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const head = await this.head(id, accountId);
      if (!head) return undefined;
      try {
        const pieces: Buffer[] = [];
        for await (const piece of this.bytes(id, head)) pieces.push(piece);
        return { ...head, document: JSON.parse(Buffer.concat(pieces).toString('utf8')) as RiskObjectDocument };
      } catch (error) {
        if (!(error instanceof Superseded) || attempt >= 3) throw error;
      }
    }
  }

  async get(id: string, accountId: string): Promise<RiskObjectDocument | undefined> {
    return (await this.read(id, accountId))?.document;
  }

  /**
   * The canonical bytes of one version from a byte offset on, a piece at a time, read only as the
   * consumer asks (a 200 MB object is never held whole): the skeleton's bytes up to the locations'
   * slot, the locations' chunks, then the rest of the skeleton. Throws Superseded if the version was
   * superseded twice before reading began (its skeleton is gone): the reader must start again.
   */
  async *bytes(id: string, head: ObjectHead, from = 0): AsyncGenerator<Buffer> {
    const row = await this.db.selectFrom('object_skeletons').select(['bytes', 'slot'])
      .where('object_id', '=', id).where('version', '=', head.version).executeTakeFirst();
    if (!row) throw new Superseded(`object ${id} version ${head.version} was superseded while being read`);
    const skeleton = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    const slot = Number(row.slot);
    if (slot < 0) {
      if (from < skeleton.byteLength) yield skeleton.subarray(from);
      return;
    }
    const arrayBytes = head.size - skeleton.byteLength + 2;
    if (from < slot) yield skeleton.subarray(from, slot);
    const into = Math.max(0, from - slot);
    for (let seq = Math.floor(into / CHUNK_BYTES), at = seq * CHUNK_BYTES; at < arrayBytes; seq += 1, at += CHUNK_BYTES) {
      const chunk = await this.db.selectFrom('object_locations').select('bytes')
        .where('object_id', '=', id).where('seq', '=', seq).executeTakeFirst();
      if (!chunk) throw new Error(`object ${id} has no locations chunk ${seq}`);
      const piece = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
      yield at < into ? piece.subarray(into - at) : piece;
    }
    const tail = slot + 2 + Math.max(0, from - slot - arrayBytes);
    if (tail < skeleton.byteLength) yield skeleton.subarray(tail);
  }

  /**
   * Writes the skeleton as the next version if the stored one is still expectedVersion; the new
   * version, or undefined when another write came first. The locations are not written: they are
   * the object's, and no write changes them (a document carrying locations is refused: a write
   * names terms). The previous version's skeleton is kept (a read streaming it is not cut off);
   * older ones are removed, with digests no kept version reads.
   */
  async replaceIf(accountId: string, document: RiskObjectDocument, expectedVersion: number, now = new Date()): Promise<number | undefined> {
    return (await this.replaceSkeleton(accountId, document, expectedVersion, now))?.version;
  }

  /** replaceIf, answering the new version's head. */
  private async replaceSkeleton(accountId: string, document: RiskObjectDocument, expectedVersion: number, now: Date): Promise<ObjectHead | undefined> {
    if (holdsLocations(document)) throw new Error(`a write of object ${document.id} carries locations; a write replaces its skeleton only`);
    const skeleton = skeletonBytes(document);
    const version = expectedVersion + 1;
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx.selectFrom('object_skeletons').select(['bytes', 'digest_version'])
        .where('object_id', '=', document.id).where('version', '=', expectedVersion).executeTakeFirst();
      if (!previous) return undefined;
      const before = JSON.parse(Buffer.from(previous.bytes).toString('utf8')) as Record<string, unknown>;
      const locationsBytes = (await trx.selectFrom('objects').select('size').where('id', '=', document.id).executeTakeFirst())?.size;
      const size = documentSize(skeleton, Number(locationsBytes) - previous.bytes.byteLength + 2);
      const result = await trx.updateTable('objects')
        // Of the listed members only the peril can change (exposure and source files are read-only).
        .set({ status: document.status, peril: perilCode(document), version, size, updated_at: now.toISOString() })
        .where('id', '=', document.id).where('account_id', '=', accountId).where('version', '=', expectedVersion)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      // The digest is the locations' and the header's: shared while its header's members stay.
      let digestVersion = previous.digest_version === null ? null : Number(previous.digest_version);
      if (digestVersion !== null && digestMembersMoved(before, document)) {
        const stored = await trx.selectFrom('object_digests').select('bytes').where('object_id', '=', document.id).where('version', '=', digestVersion).executeTakeFirst();
        digestVersion = null;
        if (stored) {
          await trx.insertInto('object_digests').values({ object_id: document.id, version, bytes: digestWithMembers(stored.bytes, document) }).execute();
          digestVersion = version;
        }
      }
      await trx.insertInto('object_skeletons').values({ object_id: document.id, version, bytes: skeleton.bytes, slot: skeleton.slot, digest_version: digestVersion }).execute();
      await trx.deleteFrom('object_skeletons').where('object_id', '=', document.id).where('version', '<', expectedVersion).execute();
      await trx.deleteFrom('object_digests').where('object_id', '=', document.id)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('object_skeletons').select('object_skeletons.version')
          .where('object_skeletons.object_id', '=', document.id).whereRef('object_skeletons.digest_version', '=', 'object_digests.version'))))
        .execute();
      return { version, size };
    });
  }

  /**
   * Read-modify-write without lost updates: change sees the stored object's skeleton (its
   * locations read as []; they are never rewritten) and is applied again to the newer one whenever
   * another write came first. undefined when there is no such object.
   */
  async update<T>(id: string, accountId: string, change: (object: RiskObjectDocument, version: number) => Change<T>, now = new Date()): Promise<{ version: number; size: number; value: T } | undefined> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const stored = await this.skeleton(id, accountId);
      if (!stored) return undefined;
      const outcome = change(stored.document, stored.version);
      if (!outcome.write) return { version: stored.version, size: stored.size, value: outcome.value };
      const head = await this.replaceSkeleton(accountId, outcome.write, stored.version, now);
      if (head !== undefined) return { ...head, value: outcome.value };
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

/** A version's skeleton was gone when its bytes were asked for: read the head again. */
export class Superseded extends Error {}

/**
 * The chunks of a new object's locations, stored one statement each as their bytes arrive (a 1 MB
 * chunk as soon as it is whole), before the object's row exists: reads join the row, so they are
 * never seen alone. Nothing is staged when an object of that id is already stored (a job run again
 * after writing it).
 */
export class StagedLocations {
  readonly cutter = new ChunkCutter();
  /** Pieces handed over. */
  pieces = 0;
  private writing: Promise<void>;
  private usable = true;

  constructor(private readonly db: Kysely<Tables>, readonly id: string) {
    this.writing = db.selectFrom('objects').select('id').where('id', '=', id).executeTakeFirst().then((row) => {
      if (row) this.usable = false;
    }, () => {
      // As a failed staged write: unusable, everything written at the end. Caught here, since no one
      // may be waiting yet (a rejection nobody handles would end the process).
      this.usable = false;
    });
  }

  /** The next piece of the object's locations array, in order. */
  add(piece: Uint8Array): void {
    this.pieces += 1;
    this.write(this.cutter.push(piece));
  }

  /** Whether the staged chunks are the first `streamed` pieces of the locations; waits for every write. */
  async holds(streamed: number): Promise<boolean> {
    await this.writing;
    return this.usable && streamed === this.pieces;
  }

  /** Removes what was staged, unless the object's row exists (then they are its chunks). */
  async discard(): Promise<void> {
    this.usable = false;
    await this.writing;
    await this.db.deleteFrom('object_locations').where('object_id', '=', this.id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('objects').select('id').where('id', '=', this.id))))
      .execute();
  }

  private write(chunks: Uint8Array[]): void {
    const seq = this.cutter.chunks - chunks.length;
    this.writing = this.writing.then(async () => {
      for (const [i, bytes] of chunks.entries()) {
        if (!this.usable) return;
        // A run after a lost lease writes the same bytes again.
        await this.db.insertInto('object_locations').values({ object_id: this.id, seq: seq + i, bytes })
          .onConflict((oc) => oc.columns(['object_id', 'seq']).doUpdateSet({ bytes }))
          .execute();
      }
    }).catch(() => {
      // A staged write that failed makes the staging unusable; everything is written at the end instead.
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

function byteLength(pieces: Uint8Array | readonly Uint8Array[]): number {
  let size = 0;
  for (const piece of pieces instanceof Uint8Array ? [pieces] : pieces) size += piece.byteLength;
  return size;
}

/** A new object's first skeleton and its digest, read by that version. */
async function insertFirstVersion(trx: Transaction<Tables>, id: string, skeleton: SkeletonBytes, digest: Uint8Array): Promise<void> {
  await trx.insertInto('object_skeletons').values({ object_id: id, version: 1, bytes: skeleton.bytes, slot: skeleton.slot, digest_version: 1 }).execute();
  await trx.insertInto('object_digests').values({ object_id: id, version: 1, bytes: digest }).execute();
}

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
