// PostgreSQL for tests: each call makes its own database and drops it afterwards.
// scripts/test.mjs probes for a server once and passes its URL in CATRISK_TEST_PG ('' = none).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';

export const postgresUrl = process.env.CATRISK_TEST_PG || '';
export const postgresAvailable = postgresUrl !== '';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

function urlOf(name: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

// A database migrated to the latest schema, copied by CREATE DATABASE ... TEMPLATE so a scratch
// database need not be migrated afresh. Named after the migrations' source, so a changed migration
// builds a new one; built once by whichever test process comes first (an advisory lock), under a
// temporary name renamed when complete, and kept on the server for later runs (the templates of
// other migration sources are then dropped).
let template: Promise<string> | undefined;
function migratedTemplate(): Promise<string> {
  template ??= asAdmin(async (admin) => {
    const source = readFileSync(new URL('../../src/store/migrations.ts', import.meta.url));
    const name = `catrisk_tpl_${createHash('sha256').update(source).digest('hex').slice(0, 16)}`;
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_${randomBytes(4).toString('hex')}`;
        await admin.query(`create database ${building}`);
        const database = openDatabase({ stateDir: '', databaseUrl: urlOf(building) });
        try {
          await migrate(database.db, database.dialect);
        } finally {
          await database.close();
        }
        await admin.query(`alter database ${building} rename to ${name}`);
        // Templates of other migration sources are stale: dropped so they do not pile up on the
        // server. One in use (another checkout's run copying it) is left for a later run.
        const stale = await admin.query<{ datname: string }>(
          "select datname from pg_database where datname like 'catrisk\\_tpl\\_%' and datname <> $1 and datname !~ '_[0-9a-f]{8}$'", [name]);
        for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
    return name;
  });
  return template;
}

/** A new empty database; `migrated` gives one already at the latest schema (a copy of a template). */
export async function createScratchDatabase(options: { migrated?: boolean } = {}): Promise<ScratchDatabase> {
  if (!postgresAvailable) throw new Error('PostgreSQL is not available to the tests');
  const name = `catrisk_t_${randomBytes(6).toString('hex')}`;
  const create = async () => {
    const from = options.migrated ? ` template ${await migratedTemplate()}` : '';
    await asAdmin((admin) => admin.query(`create database ${name}${from}`));
  };
  try {
    await create();
  } catch (error) {
    // Another checkout's run (with other migrations) dropped this run's template as stale: build it again.
    if (!options.migrated || (error as { code?: string }).code !== '3D000') throw error;
    template = undefined;
    await create();
  }
  return {
    url: urlOf(name),
    async drop() {
      await asAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}
