// PostgreSQL for tests: each call makes its own database and drops it afterwards.
// scripts/test.mjs probes for a server once and passes its URL in CATRISK_TEST_PG ('' = none).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresUrl = process.env.CATRISK_TEST_PG || '';
export const postgresAvailable = postgresUrl !== '';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  if (!postgresAvailable) throw new Error('PostgreSQL is not available to the tests');
  const name = `catrisk_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
