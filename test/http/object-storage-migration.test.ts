// A database written before objects had versions and chunks: the migration moves every stored
// document into chunks unchanged and keeps one usage record per account, unit and subject.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { ObjectStore } from '../../src/store/objects.js';
import { CHUNK_BYTES } from '../../src/store/object-chunks.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

// Hand-made documents: one small, one over two chunks with multi-byte text.
const SMALL = { id: 'obj_aaaaaaaaaaaaaaaaaaaaaaaa', status: 'draft', exposure: { locations: [{ ref: 'é1' }] } };
const LARGE = { id: 'obj_bbbbbbbbbbbbbbbbbbbbbbbb', status: 'priced', exposure: { locations: Array.from({ length: 40_000 }, (_, i) => ({ ref: `東京-${i}`, note: 'x'.repeat(40) })) } };

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`migrating stored objects and usage to versions, chunks and one unit per subject [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable ? 'PostgreSQL not available' : false }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
    const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
    const database = openDatabase({ databaseUrl: scratch?.url, stateDir });
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrate(db, database.dialect, '0004_lab_runs');
      const at = '2025-01-01T00:00:00.000Z';
      await db.insertInto('accounts').values({ id: 'acct_1', created_at: at, plan: 'sandbox', status: 'active' }).execute();
      for (const doc of [SMALL, LARGE]) {
        await db.insertInto('objects').values({ id: doc.id, account_id: 'acct_1', status: doc.status, document: canonicalJson(doc), created_at: at, updated_at: at }).execute();
      }
      for (const [id, when] of [['u1', '2025-01-02'], ['u2', '2025-01-01'], ['u3', '2025-01-03']]) {
        await db.insertInto('usage').values({ id, account_id: 'acct_1', unit: 'model_run', subject_id: 'pr_same', recorded_at: when }).execute();
      }
      await db.insertInto('usage').values({ id: 'u4', account_id: 'acct_1', unit: 'object', subject_id: SMALL.id, recorded_at: at }).execute();

      await migrate(db, database.dialect);
      const objects = new ObjectStore(database.db);
      for (const doc of [SMALL, LARGE]) {
        const stored = await objects.read(doc.id, 'acct_1');
        assert.equal(stored?.version, 1);
        assert.equal(stored?.size, Buffer.byteLength(canonicalJson(doc)));
        assert.deepEqual(stored?.document, doc);
        const chunks: Buffer[] = [];
        for await (const c of objects.bytes(doc.id, stored!)) chunks.push(c);
        assert.equal(Buffer.concat(chunks).toString('utf8'), canonicalJson(doc));
        assert.ok(chunks.every((c) => c.length <= CHUNK_BYTES));
      }
      assert.ok(Buffer.byteLength(canonicalJson(LARGE)) > 2 * CHUNK_BYTES);
      const usage = await db.selectFrom('usage').select(['id', 'unit']).orderBy('id').execute();
      assert.deepEqual(usage, [{ id: 'u2', unit: 'model_run' }, { id: 'u4', unit: 'object' }], 'the earliest record of each unit is kept');
      // A version write keeps the previous version readable and removes older ones.
      // A write is of the skeleton (the locations stored apart are never written again).
      const skeleton = { ...SMALL, exposure: { locations: [] } };
      const v2 = await objects.replaceIf('acct_1', { ...skeleton, status: 'draft', note: 2 } as never, 1);
      const v3 = await objects.replaceIf('acct_1', { ...skeleton, status: 'draft', note: 3 } as never, 2);
      assert.deepEqual([v2, v3], [2, 3]);
      assert.equal(await objects.replaceIf('acct_1', skeleton, 2), undefined, 'a stale version never writes');
      assert.deepEqual((await objects.read(SMALL.id, 'acct_1'))?.document, { ...SMALL, note: 3 });
      await assert.rejects(objects.replaceIf('acct_1', SMALL, 3), /carries locations/);
      const versions = await db.selectFrom('object_skeletons').select('version').where('object_id', '=', SMALL.id).orderBy('version').execute();
      assert.deepEqual(versions.map((r) => Number(r.version)), [2, 3]);
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
}
