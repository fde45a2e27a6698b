// A database written when webhook signing secrets were kept as issued: migration 0019 seals them
// under the environment's sealing key and leaves no plaintext column; without a key it stops before
// changing anything, saying what to set. Hand-made rows, not real receivers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { open } from '../../src/domain/sealing.js';
import { newSecret } from '../../src/domain/monitoring/signature.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

const AT = '2025-01-01T00:00:00.000Z';
const KEY = { id: 'k2025', key: Buffer.alloc(32, 4) };
const HOOKS = [
  { id: 'wh_aaaaaaaaaaaaaaaaaaaaaaaa', secret: newSecret() },
  { id: 'wh_bbbbbbbbbbbbbbbbbbbbbbbb', secret: newSecret() },
];

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`webhook secrets stored as issued are sealed by the migration, which needs a key to do it [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable ? 'PostgreSQL not available' : false }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
    const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
    const database = openDatabase({ databaseUrl: scratch?.url, stateDir });
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrate(db, database.dialect, '0018_object_digests');
      await db.insertInto('accounts').values({ id: 'acct_1', created_at: AT, plan: 'sandbox', status: 'active' }).execute();
      for (const { id, secret } of HOOKS) {
        await db.insertInto('monitoring_webhooks').values({ id, record_id: 'mon_1', account_id: 'acct_1', url: 'https://93.184.216.34/in', description: null, secret, created_at: AT }).execute();
      }

      // No key: refused before anything changes, naming what to set; the rows are as they were.
      await assert.rejects(migrate(db, database.dialect), /2 webhook signing secret\(s\) are stored as issued.*set CATRISK_SEALING_KEY=<key id>:<base64 of 32 bytes>.*Nothing was changed/);
      assert.deepEqual((await db.selectFrom('monitoring_webhooks').select(['id', 'secret']).orderBy('id').execute()), HOOKS);
      const applied = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
      assert.equal(applied.at(-1)!.name, '0018_object_digests');

      assert.deepEqual(await migrate(db, database.dialect, '0019_webhook_secrets_sealed', { sealingKeys: [KEY] }), ['0019_webhook_secrets_sealed']);
      const rows = await db.selectFrom('monitoring_webhooks').selectAll().orderBy('id').execute();
      for (const [i, row] of rows.entries()) {
        assert.ok(!('secret' in row), 'the plaintext column is gone');
        assert.ok(!JSON.stringify(row).includes(HOOKS[i]!.secret.slice('whsec_'.length)), 'no plaintext in the row');
        assert.equal(row.secret_key_id, 'k2025');
        assert.equal(open({ keyId: row.secret_key_id, sealed: row.secret_sealed }, row.id, [KEY]), HOOKS[i]!.secret, 'opens to the secret issued');
        assert.equal(open({ keyId: row.secret_key_id, sealed: row.secret_sealed }, HOOKS[1 - i]!.id, [KEY]), undefined, 'bound to its webhook');
      }
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
}

test('an empty database needs no key to migrate', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-migrate-'));
  const database = openDatabase({ stateDir });
  try {
    assert.ok((await migrate(database.db, database.dialect)).includes('0019_webhook_secrets_sealed'));
  } finally {
    await database.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});
