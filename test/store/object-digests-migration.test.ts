// A database written before location digests: the migration makes the digest of every object's
// current version from its stored chunks (a large object read a chunk at a time), the same bytes a
// write makes today (without H3 cells, left to the first accumulation); an object whose bytes do not read as a document is left without one (an
// accumulation of it reads its bytes as before) and the migration still completes. Hand-made
// documents, not real exposure.
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
import { digestOfDocument, readDigest } from '../../src/domain/accumulation/digest.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

const AT = '2025-01-01T00:00:00.000Z';
const loc = (i: number) => ({ ref: `東京-${i}`, latitude: 35 + (i % 100) * 0.001, longitude: 139 + i * 0.00001, values: { total: i % 9 === 0 ? null : `${i}.25` }, ...(i % 4 === 0 ? { currency: 'JPY' } : {}), note: 'x'.repeat(40) });
const SMALL = { id: 'obj_aaaaaaaaaaaaaaaaaaaaaaaa', status: 'draft', peril: { code: 'flood', region: { type: 'box', min_latitude: 35, max_latitude: 35.05, min_longitude: 139, max_longitude: 139.1 } }, exposure: { currency: 'USD', locations: [loc(1), loc(2), { ref: 'none' }] } };
// Over two chunks.
const LARGE = { id: 'obj_cccccccccccccccccccccccc', status: 'draft', peril: { code: 'earthquake' }, exposure: { currency: 'USD', locations: Array.from({ length: 30_000 }, (_, i) => loc(i)) } };
const BROKEN = 'obj_dddddddddddddddddddddddd';

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`the digests of objects stored before are made by the migration [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable ? 'PostgreSQL not available' : false }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
    const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
    const database = openDatabase({ databaseUrl: scratch?.url, stateDir });
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrate(db, database.dialect, '0014_coding_budget');
      await db.insertInto('accounts').values({ id: 'acct_1', created_at: AT, plan: 'sandbox', status: 'active' }).execute();
      for (const doc of [SMALL, LARGE]) {
        const bytes = Buffer.from(canonicalJson(doc), 'utf8');
        // Version 2 is current: its digest is made, not version 1's.
        await db.insertInto('objects').values({ id: doc.id, account_id: 'acct_1', status: doc.status, version: 2, size: bytes.byteLength, created_at: AT, updated_at: AT }).execute();
        await writeObjectChunks(db, doc.id, 1, Buffer.from(canonicalJson({ ...doc, peril: { code: 'wildfire' } })));
        await writeObjectChunks(db, doc.id, 2, bytes);
      }
      assert.ok(Buffer.byteLength(canonicalJson(LARGE)) > 2 * CHUNK_BYTES);
      await db.insertInto('objects').values({ id: BROKEN, account_id: 'acct_1', status: 'draft', version: 1, size: 3, created_at: AT, updated_at: AT }).execute();
      await writeObjectChunks(db, BROKEN, 1, Buffer.from('{"e'));

      await migrate(db, database.dialect);
      const rows = await db.selectFrom('object_digests').select(['object_id', 'version', 'bytes']).orderBy('object_id').execute();
      assert.deepEqual(rows.map((r) => [r.object_id, Number(r.version)]), [[SMALL.id, 2], [LARGE.id, 2]]);
      assert.deepEqual(Buffer.from(rows[0]!.bytes), Buffer.from(digestOfDocument(SMALL)));
      assert.deepEqual(Buffer.from(rows[1]!.bytes), Buffer.from(digestOfDocument(LARGE)));
      const large = readDigest(rows[1]!.bytes);
      assert.equal(large.count, 30_000);
      assert.equal(large.header.peril, 'earthquake');
      assert.equal(readDigest(rows[0]!.bytes).header.peril, 'flood');
      assert.equal(large.cells, null, 'the migration computes no cells');
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
}
