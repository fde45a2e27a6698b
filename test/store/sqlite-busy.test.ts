// SQLite while another process holds the file's write lock (store/sqlite-busy.ts): a write waits
// without freezing the event loop, goes through once the lock is released, and is given up within
// the bound as the database being unavailable. The other process is a second connection opened on
// the same file here, holding BEGIN IMMEDIATE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, isDatabaseUnavailable } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { SQLite } from '../../src/store/sqlite-driver.js';
import { BUSY_BOUND_MS } from '../../src/store/sqlite-busy.js';

async function withLockedFile(body: (db: ReturnType<typeof openDatabase>['db'], other: InstanceType<typeof SQLite>) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-busy-'));
  const database = openDatabase({ stateDir });
  await migrate(database.db, database.dialect);
  const other = new SQLite(join(stateDir, 'catrisk.sqlite'));
  other.pragma('busy_timeout = 0');
  try {
    await body(database.db, other);
  } finally {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await database.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const write = (db: ReturnType<typeof openDatabase>['db'], bucket: string) =>
  db.insertInto('rate_counters').values({ bucket, window_start: 0, count: 1 }).execute();

/** The longest the event loop went without running a timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stallMs: number; error: unknown }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => { const now = performance.now(); stallMs = Math.max(stallMs, now - last); last = now; }, 5);
  try {
    await work();
    return { stallMs, error: undefined };
  } catch (error) {
    return { stallMs, error };
  } finally {
    clearInterval(tick);
  }
}

test('a write under another process\'s lock is given up within the bound as unavailable, and the loop kept turning', async () => {
  await withLockedFile(async (db, other) => {
    other.exec('begin immediate');
    const t = performance.now();
    const { stallMs, error } = await longestStall(() => write(db, 'a'));
    const waited = performance.now() - t;
    assert.ok(error, 'the write did not go through');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
    assert.ok(waited <= BUSY_BOUND_MS + 500, `given up after ${waited} ms`);
    assert.ok(stallMs < 200, `the loop stalled ${stallMs} ms`);
  });
});

test('a write waiting for the lock goes through once it is released', async () => {
  await withLockedFile(async (db, other) => {
    other.exec('begin immediate');
    setTimeout(() => other.exec('commit'), 300);
    await write(db, 'b');
    assert.equal((await db.selectFrom('rate_counters').select('bucket').execute()).length, 1);
  });
});

test('over HTTP: a write while another process holds the lock answers 503 with Retry-After in the envelope; reads still answer', async () => {
  const { startService, signup, call } = await import('../support/service.js');
  const { form, smallSchedule } = await import('../support/schedules.js');
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-busy-http-'));
  const svc = await startService('sqlite', { CATRISK_STATE_DIR: stateDir });
  const other = new SQLite(join(stateDir, 'catrisk.sqlite'));
  try {
    const { key } = await signup(svc.api);
    other.exec('begin immediate');
    const refused = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.code, 'server_error');
    assert.equal(refused.headers.get('retry-after'), '2');
    assert.equal((await call(svc.api, 'GET', '/health')).status, 200);
  } finally {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await svc.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});
