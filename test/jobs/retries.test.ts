// The retry limit: a run that ends without an outcome that is the request's fault is run again,
// up to CATRISK_JOB_MAX_ATTEMPTS runs; then the job fails and says how often it was tried.
// Handlers here are written for the test; the queue, worker and databases are the real ones.
import assert from 'node:assert/strict';
import { Worker, type JobHandler } from '../../src/jobs/worker.js';
import { jobView } from '../../src/app/jobs.js';
import { ApiError, refusal } from '../../src/kernel/refusal.js';
import { eachDialect } from '../support/service.js';
import { silent, untilEnded, withStore } from './support.js';

function counting(body: (run: number) => Promise<unknown>): JobHandler & { runs: number } {
  const handler = Object.assign(async () => body(++handler.runs), { runs: 0 });
  return handler;
}

eachDialect('a failing run is tried again up to the limit, then the job fails as internal_error naming the attempts; a refusal is not tried again', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const crashes = counting(async () => { throw new Error('boom with a secret stack'); });
    const flaky = counting(async (run) => { if (run === 1) throw new TypeError('transient'); return { run }; });
    const refuses = counting(async () => { throw ApiError.of(refusal(422, 'unpriceable_object', 'No trigger.')); });
    const unavailable = counting(async () => { throw ApiError.of(refusal(503, 'server_error', 'The lab model data is not available here.')); });
    const unconserved = counting(async () => { throw ApiError.of(refusal(500, 'loss_not_conserved', 'Ground up 10 is not retentions 4 + cessions 3 + net 2.')); });
    const handlers = new Map<string, JobHandler>([['analyse', crashes], ['ingest', flaky], ['price', refuses], ['lab_run', unavailable], ['backtest', unconserved]]);
    const worker = new Worker(jobs, handlers, { concurrency: 2, leaseMs: 5000, pollMs: 10, maxAttempts: 3, log: silent });
    const created = await Promise.all(['analyse', 'ingest', 'price', 'lab_run', 'backtest'].map((verb) => jobs.create({ accountId, verb, subject: {}, input: {} })));
    worker.start();
    let rows;
    try {
      rows = await untilEnded(jobs, accountId, [created[0]!.id, created[1]!.id, created[2]!.id, created[3]!.id, created[4]!.id]);
    } finally {
      await worker.stop();
    }
    const [crashed, recovered, refused, missing, notConserved] = rows;

    assert.equal(crashes.runs, 3);
    assert.equal(crashed.status, 'failed');
    assert.equal(crashed.attempts, 3);
    const crash = JSON.parse(crashed.error!);
    assert.equal(crash.status, 500);
    assert.equal(crash.code, 'internal_error');
    assert.match(crash.message, /tried 3 times/);
    assert.ok(!crash.message.includes('boom'), 'no internals leak into the job');
    const view = jobView(crashed);
    assert.equal(view.attempts, 3, 'attempts are shown on the job');
    assert.deepEqual(view.error, crash);

    assert.equal(flaky.runs, 2);
    assert.equal(recovered.status, 'succeeded');
    assert.equal(recovered.attempts, 2);
    assert.deepEqual(JSON.parse(recovered.result!), { run: 2 });

    assert.equal(refuses.runs, 1, 'a refusal is the request\'s fault: never run again');
    assert.equal(refused.attempts, 1);
    assert.deepEqual(JSON.parse(refused.error!), { status: 422, code: 'unpriceable_object', message: 'No trigger.' });

    // A 5xx thrown by the handler is not the request's fault: tried again, its own code kept.
    assert.equal(unavailable.runs, 3);
    const gone = JSON.parse(missing.error!);
    assert.equal(gone.status, 503);
    assert.equal(gone.code, 'server_error');
    assert.match(gone.message, /not available here\. It was tried 3 times\./);

    // A 5xx whose code says another run would answer the same (ERROR_CODES' not_retried) ends the job at once.
    assert.equal(unconserved.runs, 1);
    assert.equal(notConserved.attempts, 1);
    assert.deepEqual(JSON.parse(notConserved.error!), { status: 500, code: 'loss_not_conserved', message: 'Ground up 10 is not retentions 4 + cessions 3 + net 2.' });
  });
});

eachDialect('a job whose runs all ended without an outcome (lost leases, crashes) fails once its attempts are spent, without running again', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    // Created a millisecond apart: claims take the oldest first (same-millisecond ties go by id).
    const created = Date.now();
    const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(created));
    const other = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(created + 1));
    // Three workers in turn claim it and die holding it: each lease lapses and is taken over.
    const t0 = Date.now() - 60_000;
    for (const [i, owner] of ['A', 'B', 'C'].entries()) {
      assert.equal((await jobs.claim(owner, 1000, ['ingest'], t0 + i * 2000, 3))?.id, job.id);
    }
    assert.equal((await jobs.claim('D', 1000, ['ingest'], t0 + 10_000, 3))?.id, other.id, 'a spent job is passed over, the next one claimed');
    assert.equal(await jobs.release('D'), 1);

    const handler = counting(async () => ({}));
    const worker = new Worker(jobs, new Map([['ingest', handler]]), { concurrency: 1, leaseMs: 5000, pollMs: 10, maxAttempts: 3, log: silent });
    worker.start();
    let rows;
    try {
      rows = await untilEnded(jobs, accountId, [job.id, other.id]);
    } finally {
      await worker.stop();
    }
    const [spent, next] = rows;
    assert.equal(handler.runs, 1, 'only the other job ran');
    assert.equal(next.status, 'succeeded');
    assert.equal(spent.status, 'failed');
    assert.equal(spent.attempts, 3);
    assert.equal(spent.lease_owner, null);
    assert.ok(spent.finished_at, 'a spent job has ended');
    const error = JSON.parse(spent.error!);
    assert.equal(error.status, 500);
    assert.equal(error.code, 'internal_error');
    assert.match(error.message, /tried 3 times/);
    assert.equal(await jobs.claim('E', 1000, ['ingest'], Date.now() + 60_000), undefined, 'a failed job is never claimed');
  });
});

eachDialect('runs given back at a clean shutdown or because the database went away do not count', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} });
    assert.equal((await jobs.claim('A', 60_000, ['ingest']))?.attempts, 1);
    assert.equal(await jobs.release('A'), 1);
    assert.equal((await jobs.get(job.id, accountId))?.attempts, 0, 'a clean shutdown gives the run back');
    assert.equal((await jobs.claim('B', 60_000, ['ingest']))?.attempts, 1);
    assert.equal(await jobs.requeue(job.id, 'B', { counted: false }), true);
    assert.equal((await jobs.get(job.id, accountId))?.attempts, 0, 'an outage gives the run back');
    assert.equal((await jobs.claim('C', 60_000, ['ingest']))?.attempts, 1);
    assert.equal(await jobs.requeue(job.id, 'C', { counted: true }), true);
    assert.equal((await jobs.claim('D', 60_000, ['ingest']))?.attempts, 2, 'a failed run counts');

    // Through the worker: a handler the database keeps interrupting is never failed for it.
    const outage = await jobs.create({ accountId, verb: 'price', subject: {}, input: {} });
    const interrupted = counting(async (run) => {
      if (run <= 4) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return { run };
    });
    const worker = new Worker(jobs, new Map([['price', interrupted]]), { concurrency: 1, leaseMs: 5000, pollMs: 5, maxAttempts: 2, log: silent });
    worker.start();
    let row;
    try {
      [row] = await untilEnded(jobs, accountId, [outage.id]);
    } finally {
      await worker.stop();
    }
    assert.equal(interrupted.runs, 5);
    assert.equal(row.status, 'succeeded', row.error ?? '');
    assert.equal(row.attempts, 1);
  });
});
