// A migrated scratch database (SQLite file or PostgreSQL database) with one account, for the
// queue and worker tests; removed afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { AccountStore } from '../../src/store/accounts.js';
import { JobStore, type JobRow } from '../../src/store/jobs.js';
import type { DialectName } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';

export const silent = pino({ level: 'silent' });

export async function withStore(
  dialect: DialectName,
  body: (db: Database, jobs: JobStore, accountId: string) => Promise<void>,
  options: { migrateTo?: string } = {},
) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-queue-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
  const database = openDatabase({ stateDir, databaseUrl: scratch?.url });
  try {
    await migrate(database.db, database.dialect, options.migrateTo);
    const { account } = await new AccountStore(database.db).signup({});
    await body(database, new JobStore(database.db, database.dialect), account.id);
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Polls the store until every job has ended (succeeded or failed); returns their rows. */
export async function untilEnded<const T extends readonly string[]>(jobs: JobStore, accountId: string, ids: T, timeoutMs = 20_000): Promise<{ [K in keyof T]: JobRow }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await Promise.all(ids.map((id) => jobs.get(id, accountId)));
    if (rows.every((r) => r?.status === 'succeeded' || r?.status === 'failed')) return rows as { [K in keyof T]: JobRow };
    assert.ok(Date.now() < until, `jobs did not end: ${JSON.stringify(rows.map((r) => r?.status))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
