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
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';
import pg from 'pg';
import { test } from 'node:test';
import { ACCOUNT_CHANNEL, listenForNotices } from '../../src/store/notices.js';

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

// Two processes of a PostgreSQL deployment, as two stores with a listener each on one database:
// what one remembers of an account is forgotten when the other cancels it, and nothing is
// remembered while its notices do not arrive.
test('on PostgreSQL an account is remembered only while notices arrive, and forgotten when another process cancels it', { skip: postgresAvailable ? false : 'PostgreSQL not available' }, async () => {
  const scratch = await createScratchDatabase();
  const a = openDatabase({ stateDir: '', databaseUrl: scratch.url });
  const b = openDatabase({ stateDir: '', databaseUrl: scratch.url });
  await migrate(a.db, a.dialect);
  const storeA = new AccountStore(a.db, { notified: true });
  const storeB = new AccountStore(b.db, { notified: true });
  const listeningB: boolean[] = [];
  let noticesB: ReturnType<typeof listenForNotices> | undefined;
  const admin = new pg.Client({ connectionString: scratch.url });
  await admin.connect();
  try {
    const { account } = await storeA.signup({ label: 'desk' });
    // Not listening yet: every read asks the database.
    await b.db.updateTable('accounts').set({ label: 'renamed' }).where('id', '=', account.id).execute();
    assert.equal((await storeB.accountWithKeys(account.id))?.account.label, 'renamed');
    await b.db.updateTable('accounts').set({ label: 'desk' }).where('id', '=', account.id).execute();
    assert.equal((await storeB.accountWithKeys(account.id))?.account.label, 'desk');
    noticesB = listenForNotices(scratch.url, {
      onNotice: (channel, payload) => { if (channel === ACCOUNT_CHANNEL) storeB.accountChanged(payload); },
      onListening: (listening) => { listeningB.push(listening); storeB.noticesListening(listening); },
      onError: () => {},
    }, 50);
    await noticesB.ready;
    assert.deepEqual(listeningB, [true]);
    // Listening: remembered (a change behind the store's back, which no process makes, shows it).
    assert.equal((await storeB.accountWithKeys(account.id))?.account.status, 'active');
    await b.db.updateTable('accounts').set({ label: 'behind its back' }).where('id', '=', account.id).execute();
    assert.equal((await storeB.accountWithKeys(account.id))?.account.label, 'desk');
    // The other process cancels: B forgets as soon as the notice arrives.
    assert.equal(await storeA.cancel(account.id), true);
    const t0 = Date.now();
    while ((await storeB.accountWithKeys(account.id))?.account.status !== 'cancelled') {
      assert.ok(Date.now() - t0 < 5_000, 'the cancellation reached the other process within 5 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal((await storeB.account(account.id))?.status, 'cancelled');
    // The listener's connection ends: everything forgotten, reads go to the database until it is back.
    const other = await storeA.signup({ label: 'two' });
    assert.equal((await storeB.accountWithKeys(other.account.id))?.account.label, 'two');
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'listen %'");
    const t1 = Date.now();
    while (!listeningB.includes(false)) {
      assert.ok(Date.now() - t1 < 5_000, 'the ended connection was noticed');
      await new Promise((r) => setTimeout(r, 5));
    }
    await b.db.updateTable('accounts').set({ label: 'read again' }).where('id', '=', other.account.id).execute();
    assert.equal((await storeB.accountWithKeys(other.account.id))?.account.label, 'read again');
    while (listeningB.at(-1) !== true) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(listeningB, [true, false, true]);
    // Trusted for a bounded time only: a store trusting for 0 ms reads the database every time, listening or not.
    const brief = new AccountStore(b.db, { notified: true, trustMs: 0 });
    brief.noticesListening(true);
    await brief.accountWithKeys(other.account.id);
    await b.db.updateTable('accounts').set({ label: 'past its time' }).where('id', '=', other.account.id).execute();
    assert.equal((await brief.accountWithKeys(other.account.id))?.account.label, 'past its time');
  } finally {
    await admin.end();
    await noticesB?.close();
    await a.close();
    await b.close();
    await scratch.drop();
  }
});
