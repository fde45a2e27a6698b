// A cancel is stored on the job row, so it holds whatever happens to the job's worker: a job put
// back in the queue (a failed run, a shutdown, a restart) fails with its cancel instead, and a job
// whose worker went away is failed by the next worker's sweep, never run again. A worker that sees
// the cancel stops the job, which fails with it, unless its work was already done.
import assert from 'node:assert/strict';
import type { ErrorBody } from '../../src/kernel/refusal.js';
import type { JobStore } from '../../src/store/jobs.js';
import { Worker, type JobHandler } from '../../src/jobs/worker.js';
import { eachDialect } from '../support/service.js';
import { silent, untilEnded, withStore } from './support.js';

const CANCEL: ErrorBody = { status: 409, code: 'cancelled', message: 'The job was cancelled by key k of account a at 1970-01-01T00:16:40.000Z.' };

async function runningJob(jobs: JobStore, accountId: string, owner: string, nowMs: number) {
  const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(nowMs - 1000));
  assert.equal((await jobs.claim(owner, 1000, ['ingest'], nowMs))?.id, job.id);
  return job;
}

eachDialect('a queued job cancelled fails at once; a running one keeps running with its cancel stored for its worker', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const queued = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} });
    const failed = await jobs.cancel(queued.id, accountId, CANCEL, new Date(5_000));
    assert.equal(failed?.status, 'failed');
    assert.deepEqual(JSON.parse(failed!.error!), CANCEL);
    assert.equal(failed?.finished_at, new Date(5_000).toISOString());
    assert.equal(await jobs.claim('A', 1000, ['ingest']), undefined, 'a cancelled job is never claimed');

    const running = await runningJob(jobs, accountId, 'A', Date.now());
    assert.equal(await jobs.cancellation(running.id, 'A'), undefined);
    const asked = await jobs.cancel(running.id, accountId, CANCEL);
    assert.equal(asked?.status, 'running');
    assert.deepEqual(await jobs.cancellation(running.id, 'A'), CANCEL);
    assert.equal(await jobs.cancellation(running.id, 'B'), undefined, 'only its holder is told');
    // A second cancel keeps the first (who asked first, and when).
    const second = await jobs.cancel(running.id, accountId, { ...CANCEL, message: 'later' });
    assert.deepEqual(JSON.parse(second!.cancellation!), CANCEL);

    assert.equal(await jobs.cancel(running.id, 'another-account', CANCEL), undefined);
  });
});

eachDialect('a running job with a cancel stored that is put back fails with its cancel instead of being queued', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const now = Date.now();
    for (const putBack of [
      (id: string) => jobs.requeue(id, 'A', { counted: true }),
      (id: string) => jobs.requeue(id, 'A', { counted: false }),
      () => jobs.release('A'),
      () => jobs.requeueAbandoned('B'),
    ]) {
      const job = await runningJob(jobs, accountId, 'A', now);
      await jobs.cancel(job.id, accountId, CANCEL);
      await putBack(job.id);
      const row = await jobs.get(job.id, accountId);
      assert.equal(row?.status, 'failed');
      assert.deepEqual(JSON.parse(row!.error!), CANCEL);
      assert.notEqual(row?.finished_at, null);
      assert.equal(row?.lease_owner, null);
    }
    // Without a cancel, a job put back is queued as before.
    const plain = await runningJob(jobs, accountId, 'A', now);
    await jobs.requeue(plain.id, 'A', { counted: true });
    const row = await jobs.get(plain.id, accountId);
    assert.equal(row?.status, 'queued');
    assert.equal(row?.error, null);
    assert.equal(row?.finished_at, null);
  });
});

eachDialect('a cancelled job whose worker went away is failed by the sweep, not run again', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const now = Date.now();
    const job = await runningJob(jobs, accountId, 'A', now);
    await jobs.cancel(job.id, accountId, CANCEL);
    // A's lease lapses: B takes nothing, and its sweep ends the job with the cancel.
    assert.equal(await jobs.claim('B', 1000, ['ingest'], now + 60_000), undefined);
    assert.deepEqual(await jobs.failExhausted('B', ['ingest'], 1, () => ({ status: 500, code: 'internal_error', message: 'spent' }), now + 60_000), []);
    assert.deepEqual(await jobs.failCancelled('B', ['ingest'], now), [], 'not while A\'s lease holds');
    const swept = await jobs.failCancelled('B', ['ingest'], now + 60_000);
    assert.deepEqual(swept.map((r) => r.id), [job.id]);
    assert.equal(swept[0]?.status, 'failed');
    assert.deepEqual(JSON.parse(swept[0]!.error!), CANCEL);
    // A, back, cannot record anything on it.
    assert.equal(await jobs.finish(job.id, 'A', { result: {} }), false);
  });
});

eachDialect('progress is recorded on a running job only', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const queued = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} });
    await jobs.setProgress(queued.id, { fraction: 0.5, sentence: 's' });
    assert.equal((await jobs.get(queued.id, accountId))?.progress, null);
    const running = await runningJob(jobs, accountId, 'A', Date.now());
    await jobs.setProgress(running.id, { fraction: 0.5, sentence: 's' });
    assert.deepEqual(JSON.parse((await jobs.get(running.id, accountId))!.progress!), { fraction: 0.5, sentence: 's' });
    // A run taken over starts without the last run's progress.
    const again = await jobs.claim('B', 1000, ['ingest'], Date.now() + 60_000);
    assert.equal(again?.id, running.id);
    assert.equal(again?.progress, null);
  });
});

/** Runs one job under a worker that looks for a cancel every 20 ms; cancels it once it runs. */
async function cancelWhileRunning(jobs: JobStore, accountId: string, handler: JobHandler) {
  const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} });
  const worker = new Worker(jobs, new Map([['ingest', handler]]), { concurrency: 1, leaseMs: 5000, pollMs: 20, maxAttempts: 3, log: silent, checkpointMs: 20 });
  worker.start();
  try {
    for (let i = 0; (await jobs.get(job.id, accountId))?.status !== 'running'; i += 1) {
      assert.ok(i < 500, 'the job never started');
      await new Promise((r) => setTimeout(r, 10));
    }
    await jobs.cancel(job.id, accountId, CANCEL);
    const [row] = await untilEnded(jobs, accountId, [job.id] as const);
    return row;
  } finally {
    await worker.stop();
  }
}

eachDialect('a worker that sees a cancel stops the job, which fails with the cancel', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const row = await cancelWhileRunning(jobs, accountId, (job) => new Promise((_resolve, reject) => {
      job.signal.addEventListener('abort', () => reject(new Error('stopped')));
    }));
    assert.equal(row.status, 'failed');
    assert.deepEqual(JSON.parse(row.error!), CANCEL);
    assert.equal(row.attempts, 1);
  });
});

eachDialect('a job whose work is done when its worker sees the cancel keeps its result', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const row = await cancelWhileRunning(jobs, accountId, (job) => new Promise((resolve) => {
      job.signal.addEventListener('abort', () => resolve({ stored: true }));
    }));
    assert.equal(row.status, 'succeeded');
    assert.deepEqual(JSON.parse(row.result!), { stored: true });
    assert.equal(row.error, null);
  });
});
