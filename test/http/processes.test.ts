// Several OS processes sharing one PostgreSQL database: the rate limit is shared, a job is run
// exactly once, and a worker killed mid-job leaves its job to be finished by another.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { createScratchDatabase, postgresAvailable } from '../support/postgres.js';
import { spawnService } from '../support/process.js';
import { call, signup, waitForJob } from '../support/service.js';
import { form, largeSchedule, smallSchedule } from '../support/schedules.js';

const skip = postgresAvailable ? false : 'PostgreSQL not available';

async function sharedDatabase() {
  const scratch = await createScratchDatabase({ migrated: true });
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-procs-'));
  return {
    env: { DATABASE_URL: scratch.url, CATRISK_STATE_DIR: stateDir, CATRISK_JOB_POLL_MS: '25' },
    scratch,
    async drop() {
      await scratch.drop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

test('two API processes share one rate limit per key', { skip }, async () => {
  const shared = await sharedDatabase();
  const env = { ...shared.env, CATRISK_RATE_LIMIT: '4', CATRISK_RATE_WINDOW_SECONDS: '60' };
  const a = await spawnService('serve', env);
  const b = await spawnService('serve', env);
  try {
    const { key } = await signup(a.urls.api!);
    const statuses = [];
    for (const host of [a, b, a, b, b]) statuses.push((await call(host.urls.api!, 'GET', '/account', { key })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    assert.equal((await call(a.urls.api!, 'GET', '/account', { key })).status, 429);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await shared.drop();
  }
});

test('jobs queued through two API processes are each run exactly once by workers in both', { skip }, async () => {
  const shared = await sharedDatabase();
  const a = await spawnService('serve', shared.env);
  const b = await spawnService('serve', shared.env);
  try {
    const { key } = await signup(a.urls.api!);
    const accepted = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      call((i % 2 ? a : b).urls.api!, 'POST', '/ingest', { key, raw: form(smallSchedule(2 + i), { type: 'text/csv', currency: 'USD' }) })));
    assert.ok(accepted.every((x) => x.status === 202), accepted.map((x) => x.text).join('\n'));
    const jobs = await Promise.all(accepted.map((x) => waitForJob(a.urls.api!, key, x.headers.get('location')!)));
    assert.ok(jobs.every((j) => j.status === 'succeeded'), JSON.stringify(jobs.filter((j) => j.status !== 'succeeded')));
    const db = new pg.Client({ connectionString: shared.env.DATABASE_URL });
    await db.connect();
    try {
      const attempts = await db.query('select attempts from jobs');
      assert.ok(attempts.rows.every((r) => r.attempts === 1), 'each job claimed once');
      const objects = await db.query('select count(*)::int as n from objects');
      assert.equal(objects.rows[0].n, 12);
      const usage = await db.query("select count(*)::int as n from usage where unit = 'object'");
      assert.equal(usage.rows[0].n, 12);
    } finally {
      await db.end();
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await shared.drop();
  }
});

test('a worker killed mid-job leaves the job to another worker, finished exactly once', { skip, timeout: 180_000 }, async () => {
  const shared = await sharedDatabase();
  const env = { ...shared.env, CATRISK_JOB_LEASE_MS: '4000' };
  const api = await spawnService('serve', { ...env, CATRISK_IN_PROCESS_WORKERS: 'false' });
  const doomed = await spawnService('worker', env);
  const db = new pg.Client({ connectionString: shared.env.DATABASE_URL });
  await db.connect();
  try {
    const { key } = await signup(api.urls.api!);
    const accepted = await call(api.urls.api!, 'POST', '/ingest', { key, raw: form(largeSchedule(150_000), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(accepted.status, 202, accepted.text);
    const jobId = accepted.body.id as string;
    // Wait until the doomed worker holds the job, then kill it without warning.
    for (let i = 0; ; i += 1) {
      const row = (await db.query('select status, lease_owner from jobs where id = $1', [jobId])).rows[0];
      if (row.status === 'running' && row.lease_owner === doomed.workerOwner) break;
      assert.ok(i < 2000, `job never ran on the doomed worker: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await doomed.stop('SIGKILL');
    const heir = await spawnService('worker', env);
    try {
      const job = await waitForJob(api.urls.api!, key, `/jobs/${jobId}`, 150_000);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      const row = (await db.query('select attempts, lease_owner from jobs where id = $1', [jobId])).rows[0];
      assert.equal(row.attempts, 2, 'claimed by the doomed worker, then by its heir');
      assert.equal((await db.query('select count(*)::int as n from objects')).rows[0].n, 1);
      assert.equal((await db.query('select count(*)::int as n from usage')).rows[0].n, 1);
      const object = await call(api.urls.api!, 'GET', job.result.objects[0].links.self, { key });
      assert.equal(object.status, 200);
      assert.equal(object.body.exposure.locations.length, 150_000);
    } finally {
      await heir.stop();
    }
  } finally {
    await db.end();
    await api.stop();
    await doomed.stop();
    await shared.drop();
  }
});

test('a job queued through an API process without workers starts at once on a worker process: notified, not found by polling', { skip }, async () => {
  const shared = await sharedDatabase();
  // The worker polls once a minute: only the queue's notice can start the job sooner.
  const env = { ...shared.env, CATRISK_JOB_POLL_MS: '60000' };
  const api = await spawnService('serve', { ...env, CATRISK_IN_PROCESS_WORKERS: 'false' });
  const worker = await spawnService('worker', env);
  try {
    const { key } = await signup(api.urls.api!);
    // The worker's first poll at start found nothing; give its listener a moment to be up.
    await new Promise((r) => setTimeout(r, 1_000));
    for (let i = 0; i < 3; i++) {
      const accepted = await call(api.urls.api!, 'POST', '/ingest', { key, raw: form(smallSchedule(2 + i), { type: 'text/csv', currency: 'USD' }) });
      assert.equal(accepted.status, 202, accepted.text);
      const job = await waitForJob(api.urls.api!, key, accepted.headers.get('location')!, 30_000);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    }
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
    await shared.drop();
  }
});
