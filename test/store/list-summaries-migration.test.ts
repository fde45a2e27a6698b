// A database written before the lists: the migration fills each stored document's listed members
// (an object's peril, location count and source file, a structure's peril, a backtest's feed and
// window, a run's model), so documents stored before list as those stored after.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { CHUNK_BYTES, writeObjectChunks } from '../../src/store/object-chunks.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

const AT = '2025-01-01T00:00:00.000Z';
const OBJECT = {
  id: 'obj_aaaaaaaaaaaaaaaaaaaaaaaa', status: 'draft', peril: { code: 'flood' },
  exposure: { locations: Array.from({ length: 5 }, (_, i) => ({ ref: `L${i}` })) },
  provenance: { source_files: [{ name: 'portfolio.csv', sha256: 'ab' }], runs: [] },
};
const BARE = { id: 'obj_bbbbbbbbbbbbbbbbbbbbbbbb', status: 'priced', exposure: { locations: [] } };
// Over two chunks: read a chunk at a time.
const LARGE = { id: 'obj_cccccccccccccccccccccccc', status: 'draft', peril: { code: 'wildfire' }, exposure: { locations: Array.from({ length: 30_000 }, (_, i) => ({ ref: `東京-${i}`, note: 'x'.repeat(60) })) } };
const ARTIFACT = { id: 'bt_1', structure: { peril: { code: 'earthquake' } }, feed: { feed_id: 'usgs-comcat', version: '2022-12-20', sha256: 'cd' }, window: { from_year: 1990, to_year: 2020 } };

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`the list summaries of documents stored before are filled by the migration [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable ? 'PostgreSQL not available' : false }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
    const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
    const database = openDatabase({ databaseUrl: scratch?.url, stateDir });
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrate(db, database.dialect, '0007_job_times');
      await db.insertInto('accounts').values({ id: 'acct_1', created_at: AT, plan: 'sandbox', status: 'active' }).execute();
      for (const doc of [OBJECT, BARE, LARGE]) {
        const bytes = Buffer.from(canonicalJson(doc), 'utf8');
        // Version 2 is current: the summary is read from the current version's chunks.
        await db.insertInto('objects').values({ id: doc.id, account_id: 'acct_1', status: doc.status, version: 2, size: bytes.byteLength, created_at: AT, updated_at: AT }).execute();
        await writeObjectChunks(db, doc.id, 1, Buffer.from(canonicalJson({ ...doc, peril: { code: 'wildfire' } })));
        await writeObjectChunks(db, doc.id, 2, bytes);
      }
      await db.insertInto('structures').values({ id: 'str_1', account_id: 'acct_1', object_id: OBJECT.id, document: canonicalJson({ id: 'str_1', peril: { code: 'earthquake' } }), created_at: AT }).execute();
      await db.insertInto('backtests').values({ id: 'bt_1', account_id: 'acct_1', document: canonicalJson(ARTIFACT), created_at: AT }).execute();
      await db.insertInto('lab_run_owners').values({ run_id: 'run_1', account_id: 'acct_1', job_id: null, spec: canonicalJson({ model: 'oasislmf-windstorm' }), created_at: AT }).execute();

      await migrate(db, database.dialect);
      const objects = await db.selectFrom('objects').select(['id', 'peril', 'locations', 'source']).orderBy('id').execute();
      assert.deepEqual(objects.map((o) => ({ ...o, locations: o.locations === null ? null : Number(o.locations) })), [
        { id: OBJECT.id, peril: 'flood', locations: 5, source: 'portfolio.csv' },
        { id: BARE.id, peril: null, locations: 0, source: null },
        { id: LARGE.id, peril: 'wildfire', locations: 30_000, source: null },
      ]);
      assert.ok(Buffer.byteLength(canonicalJson(LARGE)) > 2 * CHUNK_BYTES);
      assert.equal((await db.selectFrom('structures').select('peril').executeTakeFirst())?.peril, 'earthquake');
      const backtest = await db.selectFrom('backtests').select(['peril', 'feed_id', 'feed_version', 'from_year', 'to_year']).executeTakeFirstOrThrow();
      assert.deepEqual({ ...backtest, from_year: Number(backtest.from_year), to_year: Number(backtest.to_year) },
        { peril: 'earthquake', feed_id: 'usgs-comcat', feed_version: '2022-12-20', from_year: 1990, to_year: 2020 });
      assert.equal((await db.selectFrom('lab_run_owners').select('model').executeTakeFirst())?.model, 'oasislmf-windstorm');
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
}
