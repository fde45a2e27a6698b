// The account reads every keyed request makes: compiled once, parameters placed right, and an
// account's keys found through an index rather than a scan of every key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { AccountStore, secretDigest } from '../../src/store/accounts.js';
import { preparedQuery } from '../../src/store/prepared.js';
import { eachDialect, type DialectName } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';

async function withDatabase(dialect: DialectName, body: (database: Database) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-accounts-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
  const database = openDatabase({ stateDir, databaseUrl: scratch?.url });
  try {
    await migrate(database.db, database.dialect);
    await body(database);
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

eachDialect('a prepared query puts each value where its parameter stood, beside the constants', async (dialect) => {
  await withDatabase(dialect, async ({ db }) => {
    const accounts = new AccountStore(db);
    const a = await accounts.signup({ label: 'a' });
    const b = await accounts.signup({ label: 'b' });
    // Two parameters in the opposite order to their use, and a constant between them.
    const byLabelAndId = preparedQuery(db, 2, (id: string, label: string) => db.selectFrom('accounts').select(['id', 'label'])
      .where('label', '=', label).where('status', '=', 'active').where('id', '=', id));
    assert.deepEqual(await byLabelAndId(a.account.id, 'a'), [{ id: a.account.id, label: 'a' }]);
    assert.deepEqual(await byLabelAndId(b.account.id, 'b'), [{ id: b.account.id, label: 'b' }]);
    assert.deepEqual(await byLabelAndId(a.account.id, 'b'), []);
    assert.throws(() => preparedQuery(db, 1, (_unused: string) => db.selectFrom('accounts').select('id')), /does not reach the SQL/);
  });
});

eachDialect('the account, its keys and the key owner are read back as written', async (dialect) => {
  await withDatabase(dialect, async ({ db }) => {
    const accounts = new AccountStore(db);
    const { account, key } = await accounts.signup({ label: 'desk', email: 'a@b.example' });
    const other = await accounts.signup({});
    assert.deepEqual(await accounts.keyByDigest(secretDigest(key.secret)), { key_id: key.id, account_id: account.id });
    assert.equal(await accounts.keyByDigest(secretDigest('crk_not-a-key')), undefined);
    assert.deepEqual(await accounts.account(account.id), account);
    const found = await accounts.accountWithKeys(account.id);
    assert.deepEqual(found, { account, keys: [{ id: key.id, created_at: key.created_at }] });
    assert.equal((await accounts.accountWithKeys(other.account.id))?.keys[0]?.id, other.key.id);
    assert.equal(await accounts.accountWithKeys('acct_none'), undefined);
  });
});

eachDialect('an account\'s keys are found through an index, not a scan of every key', async (dialect) => {
  await withDatabase(dialect, async ({ db }) => {
    if (dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan select id, created_at from api_keys where account_id = ${'acct_x'} order by created_at, id`.execute(db);
      const steps = plan.rows.map((r) => r.detail).join(' | ');
      assert.match(steps, /USING (COVERING )?INDEX api_keys_account/, steps);
      assert.doesNotMatch(steps, /TEMP B-TREE/, 'the index gives the order too');
    } else {
      const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'api_keys'`.execute(db);
      assert.ok(indexes.rows.some((r) => /\(account_id, created_at, id\)/.test(r.indexdef)), JSON.stringify(indexes.rows));
    }
  });
});

eachDialect('a sole writer remembers accounts and forgets one the moment it is cancelled', async (dialect) => {
  await withDatabase(dialect, async ({ db }) => {
    const remembering = new AccountStore(db, { soleWriter: true });
    const plain = new AccountStore(db);
    const { account } = await remembering.signup({ label: 'desk' });
    const first = await remembering.accountWithKeys(account.id);
    assert.deepEqual(first, await plain.accountWithKeys(account.id));
    assert.equal(await remembering.accountWithKeys(account.id), first, 'the second read is the remembered one');
    assert.ok(Object.isFrozen(first!.account), 'what is remembered cannot be changed by a reader');
    assert.equal(await remembering.cancel(account.id), true);
    assert.equal((await remembering.accountWithKeys(account.id))?.account.status, 'cancelled');
    assert.equal((await remembering.account(account.id))?.status, 'cancelled');
    assert.equal(await remembering.cancel(account.id), false, 'already cancelled');
  });
});
