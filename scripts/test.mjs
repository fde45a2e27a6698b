#!/usr/bin/env node
// Runs every test file under test/ with Node's own runner, over SQLite and, when a PostgreSQL
// server answers, over PostgreSQL too. Node 20 does not expand globs for --test, so the files are
// listed here.
// The sources and tests are first transpiled to JavaScript in .test-build/ (esbuild, the
// transform tsx applies on the fly, done once for the ~150 test processes instead of in each:
// about a second of CPU saved per process). The build mirrors the repository: every other file
// and top-level entry is linked in place, so paths read relative to a module still resolve.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import pg from 'pg';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const BUILD = join(ROOT, '.test-build');

function walk(dir, keep = (path) => path.endsWith('.test.ts')) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, keep) : keep(path) ? [path] : [];
  });
}

/** Transpiles src/ and test/ into .test-build/ and links everything else beside the output. */
async function buildForTests() {
  rmSync(BUILD, { recursive: true, force: true });
  const files = [...walk(join(ROOT, 'src'), () => true), ...walk(join(ROOT, 'test'), () => true)];
  const typescript = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: typescript, outdir: BUILD, outbase: ROOT, format: 'esm', platform: 'node', target: 'node20',
    bundle: false, logLevel: 'error',
  });
  // The TypeScript sources too, copied (a run reads what it was built from, even while the tree
  // changes): tests that read them (architecture rules, the migrations digest) and fixtures.
  for (const file of files) {
    const target = join(BUILD, relative(ROOT, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  for (const entry of readdirSync(ROOT)) {
    if (['src', 'test', '.git', '.test-build'].includes(entry)) continue;
    symlinkSync(join(ROOT, entry), join(BUILD, entry));
  }
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
const files = only.length > 0 ? only.map((f) => relative(ROOT, resolve(f))) : walk(join(ROOT, 'test')).map((f) => relative(ROOT, f)).sort();
await buildForTests();
const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', ...files.map((f) => join(BUILD, f.replace(/\.ts$/, '.js')))],
  // One record of verified feed files for the run's ~150 processes: the first hashes the pinned
  // feeds, the others trust it while the files are unchanged (src/feeds/verification-record.ts).
  { stdio: 'inherit', env: { ...process.env, CATRISK_TEST_PG: pgUrl, CATRISK_FEED_RECORD_DIR: process.env.CATRISK_FEED_RECORD_DIR ?? join(BUILD, 'feed-records'),
    // Node 22 and later keep compiled modules for the next process (Node 20 ignores it).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(BUILD, 'compile-cache') } },
);
if (!pgUrl) console.log('Reminder: PostgreSQL was skipped; only SQLite was exercised.');
process.exit(result.status ?? 1);
