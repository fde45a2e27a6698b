#!/usr/bin/env node
// Runs every test file under test/ with Node's own runner (TypeScript through tsx), over SQLite
// and, when a PostgreSQL server answers, over PostgreSQL too. Node 20 does not expand globs for
// --test, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

async function probePostgres() {
  const candidates = [process.env.CATRISK_TEST_DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/test'].filter(Boolean);
  for (const url of candidates) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
    }
  }
  return '';
}

const pgUrl = await probePostgres();
if (pgUrl) {
  console.log(`PostgreSQL: tests run on SQLite and on PostgreSQL at ${pgUrl.replace(/\/\/[^@]*@/, '//')}`);
} else {
  console.log('='.repeat(78));
  console.log('PostgreSQL NOT AVAILABLE: the PostgreSQL half of the suite is SKIPPED.');
  console.log('Tests run on SQLite only. Set CATRISK_TEST_DATABASE_URL or start a server on 127.0.0.1:5432.');
  console.log('='.repeat(78));
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : walk('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, CATRISK_TEST_PG: pgUrl } },
);
if (!pgUrl) console.log('Reminder: PostgreSQL was skipped; only SQLite was exercised.');
process.exit(result.status ?? 1);
