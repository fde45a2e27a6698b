// When a job started and ended: started_at is the first time a worker started it (kept when the
// job is run again), finished_at when it succeeded or failed; both null until then, and null on
// jobs stored before the columns existed.
import assert from 'node:assert/strict';
import { jobView } from '../../src/app/jobs.js';
import { migrate } from '../../src/store/migrations.js';
import { call, eachDialect, signup, startService, waitForJob } from '../support/service.js';
import { form, largeSchedule } from '../support/schedules.js';
import { withStore } from './support.js';

const iso = (ms: number) => new Date(ms).toISOString();

eachDialect('started_at is the first start, kept across runs; finished_at is when the job ended', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(1_000_000));
    const queued = jobView((await jobs.get(job.id, accountId))!);
    assert.equal(queued.started_at, null);
    assert.equal(queued.finished_at, null);
    assert.equal(queued.attempts, 0);

    assert.equal((await jobs.claim('A', 1000, ['ingest'], 2_000_000))?.started_at, iso(2_000_000));
    // A's lease lapses; B runs the job again: it started when A started it.
    const again = await jobs.claim('B', 1000, ['ingest'], 2_005_000);
    assert.equal(again?.started_at, iso(2_000_000));
    assert.equal(again?.finished_at, null);
    assert.equal(await jobs.finish(job.id, 'B', { result: {} }, new Date(2_009_000)), true);
    const done = jobView((await jobs.get(job.id, accountId))!);
    assert.equal(done.started_at, iso(2_000_000));
    assert.equal(done.finished_at, iso(2_009_000));
    assert.equal(done.attempts, 2);

    const failing = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(3_000_000));
    await jobs.claim('C', 1000, ['ingest'], 3_001_000);
    assert.equal(await jobs.finish(failing.id, 'C', { error: { status: 500, code: 'internal_error', message: 'm' } }, new Date(3_002_000)), true);
    assert.equal((await jobs.get(failing.id, accountId))?.finished_at, iso(3_002_000));
  });
});

eachDialect('jobs stored before the times were recorded keep them null (nothing is guessed)', async (dialect) => {
  await withStore(dialect, async (database, _jobs, accountId) => {
    const at = iso(1_000_000);
    await database.db.insertInto('jobs').values({
      id: 'job-before', account_id: accountId, verb: 'ingest', status: 'succeeded', subject: '{}', input: '{}', result: '{}', error: null,
      created_at: at, updated_at: at, lease_owner: null, lease_expires_at: null, attempts: 1,
    } as never).execute();
    assert.deepEqual(await migrate(database.db, database.dialect, '0007_job_times'), ['0007_job_times']);
    const row = await database.db.selectFrom('jobs').selectAll().where('id', '=', 'job-before').executeTakeFirstOrThrow();
    assert.equal(row.started_at, null);
    assert.equal(row.finished_at, null);
    assert.equal(row.attempts, 1);
  }, { migrateTo: '0006_api_keys_by_account' });
});

eachDialect('GET /jobs/{id} shows attempts, started_at and finished_at', async (dialect) => {
  const service = await startService(dialect);
  try {
    const { key } = await signup(service.api);
    const accepted = await call(service.api, 'POST', '/ingest', { key, raw: form(largeSchedule(3), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(accepted.status, 202, accepted.text);
    assert.ok('started_at' in accepted.body && 'finished_at' in accepted.body && typeof accepted.body.attempts === 'number');
    const job = await waitForJob(service.api, key, accepted.headers.get('location')!);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal(job.attempts, 1);
    assert.match(job.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(job.finished_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(job.created_at <= job.started_at && job.started_at <= job.finished_at, JSON.stringify(job));
  } finally {
    await service.close();
  }
});
