// The readiness use case over a real database: each check failing alone names itself in a 503
// not_ready (migrations not applied, no feeds, no compute thread), and a stalled PostgreSQL link is
// reported within the bound instead of holding the probe.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readiness } from '../../src/app/readiness.js';
import type { AppDeps } from '../../src/app/deps.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { migrate, pendingMigrations } from '../../src/store/migrations.js';
import type { FeedStore } from '../../src/feeds/store.js';
import { createScratchDatabase, postgresAvailable, postgresUrl } from '../support/postgres.js';
import { startStallingProxy } from '../support/tcp-proxy.js';
import { eachDialect } from '../support/service.js';

/** What readiness reads of the feed store: the snapshots served and those refused. */
const SERVING = { list: () => [{ feed_id: 'f', version: 'v' }], refused: [] } as unknown as FeedStore;

function depsOver(database: Database, overrides: Partial<Pick<AppDeps, 'feeds' | 'computeAnswers'>> = {}): Pick<AppDeps, 'storage' | 'feeds' | 'computeAnswers'> {
  return {
    storage: { ping: () => database.ping(), pendingMigrations: () => pendingMigrations(database.db, database.dialect) },
    feeds: SERVING,
    computeAnswers: async () => {},
    ...overrides,
  };
}

async function withDatabase(dialect: 'sqlite' | 'postgres', target: string | undefined, body: (database: Database) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-ready-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
  const database = openDatabase({ stateDir, databaseUrl: scratch?.url });
  try {
    await migrate(database.db, database.dialect, target);
    await body(database);
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

eachDialect('ready when every check passes; each failing check is named in not_ready', async (dialect) => {
  await withDatabase(dialect, undefined, async (database) => {
    const ready = await readiness(depsOver(database));
    assert.ok(ready.ok);
    assert.deepEqual(Object.keys((ready.value as { checks: object }).checks), ['database', 'migrations', 'feeds', 'compute_threads']);

    const noFeeds = await readiness(depsOver(database, { feeds: undefined }));
    assert.ok(!noFeeds.ok);
    assert.deepEqual([noFeeds.refusal.status, noFeeds.refusal.code, noFeeds.refusal.details], [503, 'not_ready', ['feeds: no feeds directory is configured']]);

    const noThread = await readiness(depsOver(database, { computeAnswers: async () => { throw new Error('the pool could not start a thread'); } }));
    assert.ok(!noThread.ok);
    assert.deepEqual(noThread.refusal.details, ['compute_threads: no compute thread answered: the pool could not start a thread']);

    const slowThread = await readiness(depsOver(database, { computeAnswers: () => new Promise(() => {}) }), 200);
    assert.ok(!slowThread.ok);
    assert.deepEqual(slowThread.refusal.details, ['compute_threads: no compute thread answered: no answer within 200 ms']);
  });
});

eachDialect('a database missing a migration of this code is not ready', async (dialect) => {
  await withDatabase(dialect, '0018_object_digests', async (database) => {
    const behind = await readiness(depsOver(database));
    assert.ok(!behind.ok);
    assert.equal(behind.refusal.details!.length, 1);
    assert.match(behind.refusal.details![0]!, /^migrations: migrations not applied: 0019_webhook_secrets_sealed, 0020_job_origin, 0021_lab_inputs, 0022_object_locations_apart /);
  });
});

test('a stalled PostgreSQL link is reported within the bound', { skip: !postgresAvailable && 'PostgreSQL not available', timeout: 30_000 }, async () => {
  const scratch = await createScratchDatabase({ migrated: true });
  const target = new URL(postgresUrl);
  const proxy = await startStallingProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(scratch.url);
  viaProxy.host = proxy.address;
  const database = openDatabase({ stateDir: '', databaseUrl: viaProxy.toString() });
  try {
    assert.ok((await readiness(depsOver(database))).ok);
    proxy.stall();
    const started = performance.now();
    const stalled = await readiness(depsOver(database), 500);
    assert.ok(performance.now() - started < 1_500, 'the bound holds');
    assert.ok(!stalled.ok);
    assert.deepEqual(stalled.refusal.details, [
      'database: the database did not answer a query: no answer within 500 ms',
      'migrations: the applied migrations could not be read: no answer within 500 ms',
    ]);
  } finally {
    proxy.resume();
    await proxy.close();
    await database.close().catch(() => {});
    await scratch.drop();
  }
});
