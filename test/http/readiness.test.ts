// GET /ready beside GET /health: 200 with each check when the database answers and is migrated,
// feeds are served and a compute thread answers; 503 in the envelope, in bounded time, when the
// database is closed or stalled or no snapshot is served (not_ready, while /health still answers).
// The lab host answers /health too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, eachDialect, envelopeFaults, startService } from '../support/service.js';
import { createScratchDatabase, postgresAvailable, postgresUrl } from '../support/postgres.js';
import { startStallingProxy } from '../support/tcp-proxy.js';

eachDialect('GET /ready answers 200 with its checks, without a key; the lab host answers GET /health', async (dialect, t) => {
  const svc = await startService(dialect);
  t.after(() => svc.close());
  const ready = await call(svc.api, 'GET', '/ready');
  assert.equal(ready.status, 200, ready.text);
  assert.equal(ready.body.status, 'ready');
  assert.equal(ready.body.schema_version, '0.1.0');
  assert.deepEqual(Object.keys(ready.body.checks).sort(), ['compute_threads', 'database', 'feeds', 'migrations']);
  for (const [name, check] of Object.entries(ready.body.checks as Record<string, { ok: boolean; ms?: number }>)) {
    assert.equal(check.ok, true, name);
    if (name !== 'feeds') assert.ok(typeof check.ms === 'number' && check.ms >= 0 && check.ms < 2000, name);
  }
  assert.ok(ready.body.checks.feeds.served > 10);
  assert.equal(ready.body.checks.feeds.refused, 0);
  assert.match(ready.headers.get('x-request-id') ?? '', /^req_/);

  const labHealth = await call(svc.urls.lab, 'GET', '/health');
  assert.equal(labHealth.status, 200, labHealth.text);
  assert.equal(labHealth.body.status, 'ok');
  assert.equal(labHealth.body.build.version, (await call(svc.api, 'GET', '/health')).body.build.version);
  // The lab serves none of the API's verbs: its /health lists only what its own router serves.
  assert.deepEqual(labHealth.body.verbs, []);
});

test('a closed database: GET /ready answers 503 not_ready naming the database, GET /health still 200', async (t) => {
  const svc = await startService('sqlite');
  t.after(() => svc.close());
  // The worker stops first: it would otherwise poll the closed database (and close stops it again).
  await svc.services.worker?.stop();
  svc.services.worker = undefined;
  await svc.services.database.close();
  const ready = await call(svc.api, 'GET', '/ready');
  assert.equal(ready.status, 503, ready.text);
  assert.deepEqual(envelopeFaults(ready), []);
  assert.equal(ready.body.error.code, 'not_ready');
  assert.ok(ready.body.error.details.some((d: string) => d.startsWith('database: ')), ready.text);
  assert.ok(!ready.body.error.details.some((d: string) => d.startsWith('feeds: ') || d.startsWith('compute_threads: ')), ready.text);
  assert.match(ready.headers.get('x-request-id') ?? '', /^req_/);
  assert.equal((await call(svc.api, 'GET', '/health')).status, 200);
});

// No snapshot served cannot be reached through a started service (the start refuses such a feeds
// folder: test/http/feeds.test.ts); test/app/readiness.test.ts checks the feeds check itself.

// On PostgreSQL the edge's rate counter is in the database too: a stalled link may be refused at the
// edge (503 server_error) before the checks run (test/app/readiness.test.ts runs them on a stalled link).
test('a stalled PostgreSQL link: GET /ready answers 503 in bounded time, and 200 again once the link is back', { skip: !postgresAvailable && 'PostgreSQL not available', timeout: 60_000 }, async (t) => {
  const scratch = await createScratchDatabase({ migrated: true });
  t.after(() => scratch.drop());
  const target = new URL(postgresUrl);
  const proxy = await startStallingProxy(target.hostname, Number(target.port || 5432));
  t.after(() => proxy.close());
  const viaProxy = new URL(scratch.url);
  viaProxy.host = proxy.address;
  const svc = await startService('postgres', {
    DATABASE_URL: viaProxy.toString(), CATRISK_DB_STATEMENT_TIMEOUT_MS: '1000', CATRISK_DB_CONNECT_TIMEOUT_MS: '1000', CATRISK_IN_PROCESS_WORKERS: 'false',
  });
  t.after(() => svc.close());
  assert.equal((await call(svc.api, 'GET', '/ready')).status, 200);

  proxy.stall();
  const started = performance.now();
  const stalled = await call(svc.api, 'GET', '/ready');
  const took = performance.now() - started;
  assert.equal(stalled.status, 503, stalled.text);
  assert.deepEqual(envelopeFaults(stalled), []);
  assert.ok(['not_ready', 'server_error'].includes(stalled.body.error.code), stalled.text);
  if (stalled.body.error.code === 'not_ready') assert.ok(stalled.body.error.details.some((d: string) => d.startsWith('database: ')), stalled.text);
  assert.ok(took < 5_000, `answered in ${Math.round(took)} ms`);

  // New connections pass again (the stalled ones stay dead and are dropped by their timeout).
  proxy.resume();
  let again = stalled;
  for (let i = 0; i < 20 && again.status !== 200; i += 1) {
    await new Promise((r) => setTimeout(r, 250));
    again = await call(svc.api, 'GET', '/ready');
  }
  assert.equal(again.status, 200, again.text);
});
