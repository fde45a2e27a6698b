// Terms and locations stored apart (migration 0022): objects written before, as whole documents in
// chunks per version, are read after the migration as the same bytes with the same entity tags, from
// any offset; objects written after (insert) and PATCHed (a skeleton write) are read as the bytes
// today's storage wrote: canonical JSON of the whole document, the PATCH applied to the whole
// document by the same pure applyPatch. Hand-made documents, not real exposure.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { ObjectStore } from '../../src/store/objects.js';
import { CHUNK_BYTES, writeObjectChunks } from '../../src/store/object-chunks.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { digestOfDocument } from '../../src/domain/accumulation/digest.js';
import { applyPatch } from '../../src/domain/risk-object/patch.js';
import { riskObjectViolations } from '../../src/schemas.js';
import { entityTag, patchObject } from '../../src/app/objects.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

const AT = '2025-01-01T00:00:00.000Z';
const loc = (i: number) => ({ ref: `東京-${i}`, latitude: 35 + (i % 100) * 0.001, longitude: 139 + i * 0.00001, values: { total: `${i}.25` }, note: 'é'.repeat(i % 7) });
const doc = (id: string, exposure: Record<string, unknown>) => ({
  id, schema_version: '0', status: 'draft', peril: { code: 'flood' }, exposure,
  provenance: { source_files: [], runs: [{ kind: 'create', via: 'POST /objects', recorded_at: AT }] },
});
// Multi-byte text across chunk boundaries; an object without locations; one with none listed.
const LARGE = doc('obj_aaaaaaaaaaaaaaaaaaaaaaaa', { currency: 'USD', locations: Array.from({ length: 40_000 }, (_, i) => loc(i)) });
const SMALL = doc('obj_bbbbbbbbbbbbbbbbbbbbbbbb', { currency: 'EUR', locations: [loc(1)] });
const EMPTY = doc('obj_cccccccccccccccccccccccc', { currency: 'USD', locations: [] });
const NONE = doc('obj_dddddddddddddddddddddddd', { currency: 'USD' });
const BEFORE = [LARGE, SMALL, EMPTY, NONE];

async function bytesOf(objects: ObjectStore, id: string, from = 0): Promise<Buffer> {
  const head = (await objects.head(id, 'acct_1'))!;
  const pieces: Buffer[] = [];
  for await (const piece of objects.bytes(id, head, from)) pieces.push(piece);
  return Buffer.concat(pieces);
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`objects read the same bytes and tags after their locations are stored apart [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable ? 'PostgreSQL not available' : false }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
    const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
    const database = openDatabase({ databaseUrl: scratch?.url, stateDir });
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrate(db, database.dialect, '0021_lab_inputs');
      await db.insertInto('accounts').values({ id: 'acct_1', created_at: AT, plan: 'sandbox', status: 'active' }).execute();
      // As the storage before wrote them: version 3 current, 2 kept, each whole in chunks, a digest each.
      for (const d of BEFORE) {
        const bytes = Buffer.from(canonicalJson(d), 'utf8');
        await db.insertInto('objects').values({ id: d.id, account_id: 'acct_1', status: d.status, version: 3, size: bytes.byteLength, created_at: AT, updated_at: AT }).execute();
        await writeObjectChunks(db, d.id, 2, Buffer.from(canonicalJson({ ...d, peril: { code: 'wildfire' } })));
        await writeObjectChunks(db, d.id, 3, bytes);
        for (const v of [2, 3]) await db.insertInto('object_digests').values({ object_id: d.id, version: v, bytes: digestOfDocument(d) }).execute();
      }
      assert.ok(Buffer.byteLength(canonicalJson(LARGE)) > 3 * CHUNK_BYTES);

      await migrate(db, database.dialect);
      const objects = new ObjectStore(database.db);
      for (const d of BEFORE) {
        const today = Buffer.from(canonicalJson(d), 'utf8');
        const head = (await objects.head(d.id, 'acct_1'))!;
        assert.equal(entityTag(head.version), '"3"', `${d.id}: the same entity tag`);
        assert.equal(head.size, today.byteLength);
        assert.ok((await bytesOf(objects, d.id)).equals(today), `${d.id}: the same bytes`);
        // From any offset: in the skeleton's head, inside the locations, in its tail.
        for (const from of [1, 40, today.byteLength - 30, Math.floor(today.byteLength / 2), CHUNK_BYTES + 17, today.byteLength]) {
          if (from > today.byteLength) continue;
          assert.ok((await bytesOf(objects, d.id, from)).equals(today.subarray(from)), `${d.id} from ${from}`);
        }
        assert.deepEqual((await objects.digests([d.id], 'acct_1')).get(d.id)?.version, 3);
      }
      const tables = dialect === 'sqlite'
        ? (await db.selectFrom('sqlite_master' as never).select('name' as never).where('name' as never, '=', 'object_chunks' as never).execute())
        : (await db.selectFrom('information_schema.tables' as never).select('table_name' as never).where('table_name' as never, '=', 'object_chunks' as never).execute());
      assert.equal(tables.length, 0, 'object_chunks is gone');
      const arrayBytes = Buffer.byteLength(canonicalJson(LARGE.exposure.locations));
      const chunks = await db.selectFrom('object_locations').select('seq').where('object_id', '=', LARGE.id).execute();
      assert.equal(chunks.length, Math.ceil(arrayBytes / CHUNK_BYTES));
      assert.equal((await db.selectFrom('object_locations').select('seq').where('object_id', '=', NONE.id).execute()).length, 0);
      // Only the current version's skeleton was carried over, and the digests it reads.
      assert.deepEqual((await db.selectFrom('object_skeletons').select('version').where('object_id', '=', LARGE.id).execute()).map((r) => Number(r.version)), [3]);
      assert.deepEqual((await db.selectFrom('object_digests').select('version').where('object_id', '=', LARGE.id).execute()).map((r) => Number(r.version)), [3]);

      // Written after: insert, then PATCHes of terms and of the peril; each read is canonical JSON
      // of the whole document with the same PATCH applied to it whole.
      const AFTER = doc('obj_eeeeeeeeeeeeeeeeeeeeeeee', { currency: 'GBP', locations: Array.from({ length: 20_000 }, (_, i) => loc(i + 7)) });
      await objects.insert('acct_1', AFTER);
      assert.ok((await bytesOf(objects, AFTER.id)).equals(Buffer.from(canonicalJson(AFTER), 'utf8')));
      let whole: Record<string, unknown> & { id: string; status: string } = AFTER;
      const deps = { objects, now: () => new Date(AT) };
      for (const [i, patch] of [{ parties: { insured: { name: 'A' } } }, { peril: { code: 'earthquake' } }, { period: { start: '2026-01-01', end: '2026-12-31' } }].entries()) {
        // The migrated object takes the same PATCHes (its bytes after are checked below).
        for (const id of [AFTER.id, LARGE.id]) {
          const base = id === AFTER.id ? whole : undefined;
          const answered = await patchObject(deps, { accountId: 'acct_1', id, patch, ifMatch: undefined });
          assert.ok(answered.ok, JSON.stringify(answered));
          if (base) {
            const applied = applyPatch(base, patch, AT, riskObjectViolations);
            assert.ok(applied.ok);
            whole = applied.value.object;
            const today = Buffer.from(canonicalJson(whole), 'utf8');
            assert.equal(answered.value.version, 2 + i);
            assert.equal(answered.value.size, today.byteLength);
            const pieces: Buffer[] = [];
            for await (const piece of answered.value.bytes()) pieces.push(piece);
            assert.ok(Buffer.concat(pieces).equals(today), `PATCH ${i}: the answer's bytes`);
            assert.ok((await bytesOf(objects, id)).equals(today), `PATCH ${i}: the stored bytes`);
          }
        }
      }
      // The terms' writes share one digest until the peril moved; the digest then says so.
      const digest = (await objects.digests([AFTER.id], 'acct_1')).get(AFTER.id)!;
      assert.deepEqual(Buffer.from(digest.bytes), Buffer.from(digestOfDocument(whole)));
      assert.ok((await bytesOf(objects, LARGE.id)).equals(Buffer.from(canonicalJson({ ...LARGE, ...whole, id: LARGE.id, exposure: LARGE.exposure }), 'utf8')));
      // The locations of a PATCHed object were written once, at its creation.
      assert.equal((await db.selectFrom('object_locations').select('seq').where('object_id', '=', AFTER.id).execute()).length,
        Math.ceil(Buffer.byteLength(canonicalJson(AFTER.exposure.locations)) / CHUNK_BYTES));
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
}
