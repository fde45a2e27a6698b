// Jobs over real HTTP: how far a long job has got (progress), when to look again (Retry-After),
// and POST /jobs/{id}/cancel at each state: a queued job never starts, a running one is stopped at
// its next checkpoint, an ended one is refused 409 job_finished. A cancelled job ends failed with
// the code cancelled, its message naming the key that cancelled it and when.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startWorker } from '../../src/services.js';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, waitForJob, type Answer } from '../support/service.js';
import { postgresAvailable } from '../support/postgres.js';
import { form, largeSchedule, smallSchedule } from '../support/schedules.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rows enough for a read of several seconds, so a cancel reaches the job while it reads. */
const LONG_ROWS = 200_000;

function retryAfterOf(answer: Answer): number {
  const value = answer.headers.get('retry-after');
  assert.match(value ?? '', /^[1-9]\d*$/, `Retry-After is a whole number of seconds: ${value}`);
  return Number(value);
}

async function signedUp(base: string) {
  const { key, accountId, body } = await signup(base);
  return { key, accountId, keyId: body.api_key.id as string };
}

function assertCancelled(job: any, who: { accountId: string; keyId: string }) {
  assert.equal(job.status, 'failed');
  assert.equal(job.error.status, 409);
  assert.equal(job.error.code, 'cancelled');
  assert.ok(job.error.message.includes(who.keyId) && job.error.message.includes(who.accountId), job.error.message);
  assert.match(job.error.message, / at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\.$/);
  assert.match(job.finished_at, /^\d{4}-\d\d-\d\dT/);
}

/** Reads the job until it runs with some of its file read; answers that reading. */
async function runningWithProgress(base: string, key: string, id: string): Promise<Answer> {
  for (let i = 0; ; i += 1) {
    const read = await call(base, 'GET', `/jobs/${id}`, { key });
    assert.equal(read.status, 200, read.text);
    assert.notEqual(read.body.status, 'succeeded', 'the long read ended before its progress was seen');
    assert.notEqual(read.body.status, 'failed', JSON.stringify(read.body.error));
    if (read.body.status === 'running' && read.body.progress?.fraction > 0) return read;
    assert.ok(i < 2000, `no progress seen: ${read.text}`);
    await sleep(10);
  }
}

eachDialect('a queued job that is cancelled fails with code cancelled and never starts', async (dialect) => {
  // No worker: the job stays queued until the test starts one.
  const svc = await startService(dialect, { CATRISK_IN_PROCESS_WORKERS: 'false' });
  try {
    const me = await signedUp(svc.api);
    const accepted = await call(svc.api, 'POST', '/ingest', { key: me.key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(retryAfterOf(accepted), 1);
    const queued = await call(svc.api, 'GET', `/jobs/${accepted.body.id}`, { key: me.key });
    assert.equal(queued.body.status, 'queued');
    assert.equal(retryAfterOf(queued), 1);
    assert.equal('progress' in queued.body, false, 'nothing is known of a queued job\'s progress');

    // Another account's job is not found, and stays as it was.
    const other = await signedUp(svc.api);
    const foreign = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: other.key });
    assert.equal(foreign.status, 404);
    assert.deepEqual(envelopeFaults(foreign), []);
    assert.equal(foreign.body.error.code, 'not_found');
    assert.equal((await call(svc.api, 'GET', `/jobs/${accepted.body.id}`, { key: me.key })).body.status, 'queued');

    const cancelled = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assertCancelled(cancelled.body, me);
    assert.equal(cancelled.body.started_at, null);
    assert.equal(cancelled.body.attempts, 0);
    assert.equal(cancelled.headers.get('retry-after'), null, 'an ended job has no Retry-After');

    // Cancelling again answers the job as it stands.
    const again = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key, body: {} });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, cancelled.body);

    // A worker that starts now never runs it.
    startWorker(svc.services);
    const later = await call(svc.api, 'POST', '/ingest', { key: me.key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }) });
    assert.equal((await waitForJob(svc.api, me.key, `/jobs/${later.body.id}`)).status, 'succeeded');
    const after = await call(svc.api, 'GET', `/jobs/${accepted.body.id}`, { key: me.key });
    assert.deepEqual(after.body, cancelled.body);
    assert.equal(after.headers.get('retry-after'), null);
  } finally {
    await svc.close();
  }
});

eachDialect('a running ingest shows its progress and stops at its next checkpoint when cancelled', async (dialect) => {
  const svc = await sharedService(dialect);
  const me = await signedUp(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key: me.key, raw: form(largeSchedule(LONG_ROWS), { type: 'text/csv', currency: 'USD' }) });
  assert.equal(accepted.status, 202, accepted.text);
  assert.equal(retryAfterOf(accepted), 1);

  const running = await runningWithProgress(svc.api, me.key, accepted.body.id);
  const { fraction, sentence } = running.body.progress;
  assert.ok(fraction > 0 && fraction < 1, `fraction ${fraction}`);
  assert.match(sentence, /^Read [\d,]+ rows of the file \(\d+% of its text\)\.$/);
  const hint = retryAfterOf(running);
  assert.ok(hint >= 1 && hint <= 30, `Retry-After ${hint}`);

  const cancel = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key });
  assert.equal(cancel.status, 202, cancel.text);
  assert.equal(cancel.body.status, 'running');
  retryAfterOf(cancel);

  const job = await waitForJob(svc.api, me.key, `/jobs/${accepted.body.id}`, 60_000);
  assertCancelled(job, me);
  assert.equal(job.attempts, 1);
  assert.ok(job.progress.fraction < 1, `the read was stopped part way: ${JSON.stringify(job.progress)}`);
  assert.equal('result' in job, false);

  const again = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body, job);
});

eachDialect('a job that has ended cannot be cancelled: 409 job_finished in the envelope', async (dialect) => {
  const svc = await sharedService(dialect);
  const me = await signedUp(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key: me.key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD' }) });
  const job = await waitForJob(svc.api, me.key, `/jobs/${accepted.body.id}`);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  // Even a small read says how far it got once it has ended.
  assert.deepEqual(job.progress, { fraction: 1, sentence: 'Read 4 rows of the file (100% of its text).' });
  const read = await call(svc.api, 'GET', `/jobs/${accepted.body.id}`, { key: me.key });
  assert.equal(read.headers.get('retry-after'), null);

  const refused = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key });
  assert.equal(refused.status, 409, refused.text);
  assert.deepEqual(envelopeFaults(refused), []);
  assert.equal(refused.body.error.code, 'job_finished');
  assert.match(refused.body.error.message, /already succeeded/);
  assert.deepEqual((await call(svc.api, 'GET', `/jobs/${accepted.body.id}`, { key: me.key })).body, job);

  // A job that failed on its own is finished too.
  const binary = new Uint8Array(4096).map((_, i) => (i * 131 + 7) % 256);
  const unreadable = await call(svc.api, 'POST', '/ingest', { key: me.key, raw: form(binary, { type: 'application/octet-stream' }) });
  const failed = await waitForJob(svc.api, me.key, `/jobs/${unreadable.body.id}`);
  assert.equal(failed.status, 'failed');
  assert.notEqual(failed.error.code, 'cancelled');
  const refusedFailed = await call(svc.api, 'POST', `/jobs/${unreadable.body.id}/cancel`, { key: me.key });
  assert.equal(refusedFailed.status, 409, refusedFailed.text);
  assert.equal(refusedFailed.body.error.code, 'job_finished');

  // No such job; a body other than {} is refused.
  const missing = await call(svc.api, 'POST', '/jobs/00000000-0000-4000-8000-000000000000/cancel', { key: me.key });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'not_found');
  const withBody = await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key, body: { reason: 'x' } });
  assert.equal(withBody.status, 422, withBody.text);
  assert.equal(withBody.body.error.code, 'invalid_request');
  assert.equal((await call(svc.api, 'POST', `/jobs/${accepted.body.id}/cancel`)).status, 401);

  // The contract names the route, its refusals and the code a cancelled job fails with.
  const contract = await call(svc.urls.docs, 'GET', '/schema/api-contract.v0.json');
  const operation = contract.body.paths['/jobs/{id}/cancel'].post;
  for (const code of ['job_finished', 'not_found']) assert.ok(operation['x-error-codes'].includes(code), code);
  assert.deepEqual(operation['x-job-error-codes'], ['cancelled']);
  assert.ok(operation.responses['409'] && operation.responses['202'].headers['Retry-After']);
  assert.ok(contract.body.paths['/jobs/{id}'].get.responses['200'].headers['Retry-After']);
});

eachDialect('a lab run\'s job says how many of the model\'s events it computed; its 202 carries Retry-After', async (dialect) => {
  const svc = await sharedService(dialect);
  const me = await signedUp(svc.api);
  const spec = { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.745, lon: -0.905, value: 1_234_567 }] } };
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key: me.key, body: spec });
  assert.equal(submitted.status, 202, submitted.text);
  // The worker may have taken the job before the run was answered.
  assert.equal(retryAfterOf(submitted), submitted.body.status === 'queued' ? 1 : 2, submitted.body.status);
  const jobUrl = new URL(submitted.body.links.job as string);
  const job = await waitForJob(svc.api, me.key, jobUrl.pathname, 120_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  assert.equal(job.progress.fraction, 1);
  const [, done, total] = /^Computed the losses of ([\d,]+) of the model's ([\d,]+) events\.$/.exec(job.progress.sentence) ?? [];
  assert.ok(done !== undefined && done === total && Number(total!.replace(/,/g, '')) > 0, job.progress.sentence);
  const run = await call(svc.urls.lab, 'GET', `/runs/${submitted.body.id as string}`, { key: me.key });
  assert.equal(run.body.status, 'succeeded');
  assert.equal(run.headers.get('retry-after'), null);
});

test('on PostgreSQL a cancel asked through one process stops the job another process runs', { skip: postgresAvailable ? false : 'PostgreSQL not available' }, async () => {
  const worker = await startService('postgres');
  // The front door's process runs no worker: only the row tells the other process of the cancel.
  const door = await startService('postgres', { DATABASE_URL: worker.env.DATABASE_URL!, CATRISK_IN_PROCESS_WORKERS: 'false' });
  try {
    const me = await signedUp(door.api);
    const accepted = await call(door.api, 'POST', '/ingest', { key: me.key, raw: form(largeSchedule(LONG_ROWS), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(accepted.status, 202, accepted.text);
    await runningWithProgress(door.api, me.key, accepted.body.id);
    const cancel = await call(door.api, 'POST', `/jobs/${accepted.body.id}/cancel`, { key: me.key });
    assert.equal(cancel.status, 202, cancel.text);
    const job = await waitForJob(door.api, me.key, `/jobs/${accepted.body.id}`, 60_000);
    assertCancelled(job, me);
    assert.ok(job.progress.fraction < 1, JSON.stringify(job.progress));
  } finally {
    await door.close();
    await worker.close();
  }
});
