// PostgreSQL connections killed or stalled under load, with serve and worker as real OS
// processes: nothing crashes or hangs, requests answer or say 503 with Retry-After, the service
// recovers by itself, and no job is lost or finished twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { createScratchDatabase, postgresAvailable, postgresUrl } from '../support/postgres.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { call, envelopeFaults, signup, waitForJob, type Answer } from '../support/service.js';
import { form, largeSchedule, smallSchedule } from '../support/schedules.js';
import { startStallingProxy } from '../support/tcp-proxy.js';
import { head, rawRequest } from '../support/raw-http.js';

const skip = postgresAvailable ? false : 'PostgreSQL not available';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request that must answer: a hang past the limit is a failure, not a wait. */
async function answered(limitMs: number, request: Promise<Answer>): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs); });
  try {
    return await Promise.race([request, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Success, or the outage refusal: 503 server_error with Retry-After in a valid envelope. */
function outageFaults(answer: Answer, ok: number[]): string[] {
  if (ok.includes(answer.status)) return [];
  if (answer.status !== 503) return [`status ${answer.status}: ${answer.text}`];
  const faults = envelopeFaults(answer);
  if (answer.body?.error?.code !== 'server_error') faults.push(`code ${answer.body?.error?.code}`);
  if (!/^\d+$/.test(answer.headers.get('retry-after') ?? '')) faults.push('no Retry-After');
  return faults;
}

function alive(service: ServiceProcess): boolean {
  return service.child.exitCode === null && service.child.signalCode === null;
}

async function scratchWithState() {
  const scratch = await createScratchDatabase({ migrated: true });
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-outage-'));
  return {
    scratch, stateDir,
    async drop() {
      await scratch.drop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

test('backends terminated under load: no crash, 503 with Retry-After, recovery, every job run once', { skip, timeout: 240_000 }, async () => {
  const shared = await scratchWithState();
  const env = {
    DATABASE_URL: shared.scratch.url, CATRISK_STATE_DIR: shared.stateDir, CATRISK_JOB_POLL_MS: '25', CATRISK_JOB_LEASE_MS: '5000',
    // The outage is the point of the test: its expected error lines would only bury a failure.
    CATRISK_RATE_LIMIT: '100000', CATRISK_LOG_LEVEL: process.env.CATRISK_TEST_LOG ?? 'fatal',
  };
  // Whatever started is stopped however the test ends: a process or connection left open would
  // keep the file from ever ending.
  let api: ServiceProcess | undefined;
  let worker: ServiceProcess | undefined;
  const admin = new pg.Client({ connectionString: postgresUrl });
  const database = new URL(shared.scratch.url).pathname.slice(1);
  try {
    api = await spawnService('serve', { ...env, CATRISK_IN_PROCESS_WORKERS: 'false' });
    worker = await spawnService('worker', env);
    await admin.connect();
    const base = api.urls.api!;
    const { key } = await signup(base);
    // A job that is running when the connections die.
    const long = await call(base, 'POST', '/ingest', { key, raw: form(largeSchedule(60_000), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(long.status, 202, long.text);
    for (let i = 0; (await call(base, 'GET', `/jobs/${long.body.id}`, { key })).body.status !== 'running'; i += 1) {
      assert.ok(i < 1000, 'the long job never started');
      await sleep(10);
    }

    let killing = true;
    const accepted: string[] = [long.body.id];
    const faults: string[] = [];
    const outage: number[] = [];
    const load = Array.from({ length: 6 }, async (_, lane) => {
      for (let i = 0; killing; i += 1) {
        const answer = await answered(20_000, lane % 3 === 0
          ? call(base, 'POST', '/ingest', { key, raw: form(smallSchedule(2 + (i % 5)), { type: 'text/csv', currency: 'USD' }) })
          : call(base, 'GET', lane % 3 === 1 ? '/account' : `/jobs/${long.body.id}`, { key }))
          .catch((error: Error) => ({ status: 0, text: error.message } as Answer));
        if (answer.status === 0) {
          faults.push(`lane ${lane}: ${answer.text}`);
          return;
        }
        faults.push(...outageFaults(answer, [200, 202]).map((f) => `lane ${lane}: ${f}`));
        if (answer.status === 503) outage.push(answer.status);
        if (answer.status === 202) accepted.push(answer.body.id);
      }
    });
    let killed = 0;
    const started = Date.now();
    while (Date.now() - started < 2_500) {
      const r = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
      killed += r.rows[0].n;
      await sleep(60);
    }
    killing = false;
    await Promise.all(load);

    assert.ok(killed > 0, 'no backend was terminated');
    assert.ok(alive(api), `serve exited with ${api.child.exitCode}`);
    assert.ok(alive(worker), `worker exited with ${worker.child.exitCode}`);
    assert.deepEqual(faults, []);

    // Recovered by itself: every accepted job finishes, each once, each writing its one object.
    const account = await call(base, 'GET', '/account', { key });
    assert.equal(account.status, 200, account.text);
    const jobs = await Promise.all(accepted.map((id) => waitForJob(base, key, `/jobs/${id}`, 120_000)));
    assert.deepEqual(jobs.filter((j) => j.status !== 'succeeded').map((j) => j.error), []);
    const direct = new pg.Client({ connectionString: shared.scratch.url });
    await direct.connect();
    try {
      const counts = await direct.query("select count(*)::int as n, count(*) filter (where status = 'succeeded')::int as done from jobs");
      assert.equal(counts.rows[0].n, accepted.length, 'every stored job was accepted (202) by a request');
      assert.equal(counts.rows[0].done, accepted.length);
      assert.equal((await direct.query('select count(*)::int as n from objects')).rows[0].n, accepted.length, 'one object a job');
    } finally {
      await direct.end();
    }
    assert.ok(alive(api) && alive(worker));
    assert.equal(await worker.stop(), 0);
    assert.equal(await api.stop(), 0);
  } finally {
    await admin.end().catch(() => {});
    await Promise.all([api?.stop(), worker?.stop()]);
    await shared.drop();
  }
});

test('a stalled database link: requests answer 503 in bounded time, the worker is not wedged, SIGTERM ends within its bound', { skip, timeout: 180_000 }, async () => {
  const shared = await scratchWithState();
  const target = new URL(postgresUrl);
  const proxy = await startStallingProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(shared.scratch.url);
  viaProxy.host = proxy.address;
  const env = {
    DATABASE_URL: viaProxy.toString(), CATRISK_STATE_DIR: shared.stateDir, CATRISK_JOB_POLL_MS: '25', CATRISK_RATE_LIMIT: '100000',
    CATRISK_DB_STATEMENT_TIMEOUT_MS: '1000', CATRISK_DB_CONNECT_TIMEOUT_MS: '1000', CATRISK_SHUTDOWN_TIMEOUT_MS: '3000',
    CATRISK_LOG_LEVEL: process.env.CATRISK_TEST_LOG ?? 'fatal',
  };
  let api: ServiceProcess | undefined;
  try {
    api = await spawnService('serve', env);
    const base = api.urls.api!;
    const { key } = await signup(base);
    const before = await call(base, 'POST', '/ingest', { key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(before.status, 202, before.text);
    assert.equal((await waitForJob(base, key, before.headers.get('location')!)).status, 'succeeded');

    // Every pooled connection, the worker's claim among them, now waits on a link that never answers.
    proxy.stall();
    await sleep(200);
    const during = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      answered(15_000, call(base, 'GET', i % 2 ? '/account' : before.headers.get('location')!, { key }))));
    for (const answer of during) {
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual(outageFaults(answer, []), []);
    }
    assert.ok(alive(api));

    // The link comes back (the stalled connections stay dead): a new job is claimed and run.
    proxy.resume();
    let after: Answer | undefined;
    for (let i = 0; i < 100; i += 1) {
      after = await answered(15_000, call(base, 'POST', '/ingest', { key, raw: form(smallSchedule(4), { type: 'text/csv', currency: 'USD' }) }));
      if (after.status === 202) break;
      await sleep(100);
    }
    assert.equal(after?.status, 202, after?.text);
    assert.equal((await waitForJob(base, key, after!.headers.get('location')!, 60_000)).status, 'succeeded');

    // Stalled again with a request in flight: SIGTERM still ends the process within its bound.
    proxy.stall();
    const inFlight = call(base, 'GET', '/account', { key }).catch(() => undefined);
    await sleep(100);
    const exit = await answered(3_000 + 10_000, api.stop('SIGTERM').then((code) => ({ status: code ?? -1 } as Answer)));
    assert.ok(exit.status === 0 || exit.status === 1, `exit ${exit.status}`);
    await inFlight;
  } finally {
    await api?.stop('SIGKILL');
    await proxy.close();
    await shared.drop();
  }
});

test('SIGTERM with requests stalled on the database: each is answered 503 in the envelope with Connection: close within the bound, then the process exits', { skip, timeout: 120_000 }, async () => {
  const shared = await scratchWithState();
  const target = new URL(postgresUrl);
  const proxy = await startStallingProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(shared.scratch.url);
  viaProxy.host = proxy.address;
  const boundMs = 3_000;
  const env = {
    DATABASE_URL: viaProxy.toString(), CATRISK_STATE_DIR: shared.stateDir, CATRISK_RATE_LIMIT: '100000',
    // The database's own bounds are far past the shutdown's: only the shutdown can answer.
    CATRISK_DB_STATEMENT_TIMEOUT_MS: '30000', CATRISK_DB_CONNECT_TIMEOUT_MS: '30000', CATRISK_SHUTDOWN_TIMEOUT_MS: String(boundMs),
    CATRISK_LOG_LEVEL: process.env.CATRISK_TEST_LOG ?? 'fatal',
  };
  let api: ServiceProcess | undefined;
  try {
    api = await spawnService('serve', env);
    const base = api.urls.api!;
    const { key } = await signup(base);
    assert.equal((await call(base, 'GET', '/account', { key })).status, 200);
    proxy.stall();
    const child = api.child;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Two requests in flight on the stalled database: a keyed read, and a signup (a write).
    const inFlight = [
      // GET /usage reads the database (the account itself may be answered from what the process remembers).
      rawRequest(base, [head('GET /usage HTTP/1.1', 'User-Agent: catrisk-tests/1.0', `Authorization: Bearer ${key}`)], 20_000),
      rawRequest(base, [head('POST /signup HTTP/1.1', 'User-Agent: catrisk-tests/1.0', 'Content-Type: application/json', 'Content-Length: 2') + '{}'], 20_000),
    ].map((request) => request.then((answer) => ({ answer, at: Date.now() })));
    await sleep(300);
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    for (const { answer, at } of await Promise.all(inFlight)) {
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual(envelopeFaults({ status: answer.status, headers: new Headers(), text: answer.text, body: answer.body }), []);
      assert.equal(answer.body.error.code, 'server_error');
      assert.match(answer.body.error.message, /shutting down/);
      assert.equal(answer.headers.connection, 'close');
      assert.ok(at - signalled < boundMs, `answered ${at - signalled} ms after SIGTERM, past the ${boundMs} ms bound`);
    }
    const code = await answered(boundMs + 5_000, exited.then((c) => ({ status: c ?? -1 } as Answer)));
    assert.ok(code.status === 0 || code.status === 1, `exit ${code.status}`);
  } finally {
    await api?.stop('SIGKILL');
    await proxy.close();
    await shared.drop();
  }
});
