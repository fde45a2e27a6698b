// The rate limit shared through PostgreSQL by leased blocks of the window's count
// (store/rate-counters.ts, LeasedRateCounter): two counters over one scratch database stand for two
// processes of a deployment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/store/database.js';
import { LeasedRateCounter, MAX_LEASE } from '../../src/store/rate-counters.js';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';

const skip = postgresAvailable ? false : 'PostgreSQL not available';
const NOW = 1_800_000_000_000;

async function withPostgres(body: (database: Database) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-rate-'));
  const scratch = await createScratchDatabase({ migrated: true });
  const database = openDatabase({ stateDir, databaseUrl: scratch.url });
  try {
    await body(database);
  } finally {
    await database.close();
    await scratch.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const sharedCount = async (database: Database, bucket: string) =>
  Number((await database.db.selectFrom('rate_counters').select('count').where('bucket', '=', bucket).executeTakeFirst())?.count ?? 0);

test('two processes taking turns admit exactly the limit, never more, and stop asking once they have seen it reached', { skip }, async () => {
  await withPostgres(async (database) => {
    const policy = { limit: 500, windowSeconds: 60 };
    const [a, b] = [new LeasedRateCounter(database.db), new LeasedRateCounter(database.db)];
    let admitted = 0;
    for (let i = 0; i < 1_200; i++) if ((await (i % 2 ? a : b).hit('key:k', policy, NOW)).allowed) admitted += 1;
    assert.equal(admitted, 500);
    const afterLimit = await sharedCount(database, 'key:k');
    for (let i = 0; i < 100; i++) assert.equal((await a.hit('key:k', policy, NOW)).allowed, false);
    assert.equal(await sharedCount(database, 'key:k'), afterLimit, 'a refused request past the limit costs no round trip');
    // Blocks: a quarter of what was seen remaining, at most MAX_LEASE, so far fewer leases than requests.
    assert.ok(afterLimit <= 500 + 2 * 4, `the shared count overshoots the limit by the last blocks of one number only: ${afterLimit}`);
    // The next window starts again.
    assert.equal((await a.hit('key:k', policy, NOW + 60_000)).allowed, true);
  });
});

test('concurrent requests in one process share one lease in flight and each gets its own number', { skip }, async () => {
  await withPostgres(async (database) => {
    const policy = { limit: 1_000, windowSeconds: 60 };
    const counter = new LeasedRateCounter(database.db);
    const decisions = await Promise.all(Array.from({ length: 200 }, () => counter.hit('addr:x', policy, NOW)));
    const remaining = decisions.map((d) => d.remaining);
    assert.equal(new Set(remaining).size, 200, 'every request holds a distinct number of the shared count');
    assert.ok(decisions.every((d) => d.allowed));
    const count = await sharedCount(database, 'addr:x');
    assert.ok(count >= 200 && count < 200 + MAX_LEASE, `${count}`);
  });
});

test('a process that leased a block and went quiet makes the others refuse early by at most that block', { skip }, async () => {
  await withPostgres(async (database) => {
    const policy = { limit: 400, windowSeconds: 60 };
    const [quiet, busy] = [new LeasedRateCounter(database.db), new LeasedRateCounter(database.db)];
    assert.equal((await quiet.hit('key:q', policy, NOW)).allowed, true); // leases a block of min(64, 400 / 4)
    let admitted = 0;
    for (let i = 0; i < 600; i++) if ((await busy.hit('key:q', policy, NOW)).allowed) admitted += 1;
    assert.equal(admitted, 400 - MAX_LEASE, 'the quiet process holds the other 63 numbers of its block, and the one it handed out');
  });
});
