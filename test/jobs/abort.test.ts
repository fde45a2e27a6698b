// A job's compute thread is stopped when the job is abandoned: its lease taken over by another
// worker, or its worker shutting down. The task is a real schedule read in a real compute thread;
// the schedule is made up by the test (test/support/schedules.ts), large enough to run for seconds.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after } from 'node:test';
import { closeComputePool, computePool, runTask } from '../../src/jobs/threads.js';
import type { ReadScheduleInput } from '../../src/app/read-schedule.js';
import { Worker, type JobHandler } from '../../src/jobs/worker.js';
import type { JobStore } from '../../src/store/jobs.js';
import { eachDialect } from '../support/service.js';
import { largeSchedule } from '../support/schedules.js';
import { FEEDS_DIR as feedsDir } from '../support/feeds.js';
import { silent, withStore } from './support.js';

after(() => closeComputePool());

function readInput(rows: number): ReadScheduleInput {
  return {
    bytes: new TextEncoder().encode(largeSchedule(rows)), currency: 'USD', feedsDir,
    provenance: { objectId: 'obj_abort', fileName: 'schedule.csv', sha256: '0'.repeat(64), runId: 'run', jobId: 'job', recordedAt: new Date(0).toISOString() },
  };
}

/** A handler whose job reads a long schedule in a compute thread; the test sees how the task ended. */
function longRead() {
  // The settling promise is wrapped: a promise resolved with a promise would wait for it.
  let running!: (task: { settled: Promise<unknown> }) => void;
  const started = new Promise<{ settled: Promise<unknown> }>((resolve) => { running = resolve; });
  const handler: JobHandler = async () => {
    const task = runTask('read-schedule', readInput(100_000));
    running({ settled: task.then((out) => ({ resolved: out.locations }), (error: unknown) => error) });
    await task;
    return { read: true };
  };
  return { handler, started };
}

/** Waits until the task is given to a compute thread (not queued); `exited` settles when one of the pool's threads ends. */
async function threadsRunning(): Promise<{ exited: Promise<unknown> }> {
  const pool = computePool();
  while (pool.queueSize > 0 || pool.threads.length === 0) await new Promise((r) => setTimeout(r, 5));
  return { exited: Promise.race(pool.threads.map((thread) => once(thread, 'exit'))) };
}

async function until(what: string, check: () => Promise<boolean> | boolean) {
  for (let i = 0; !(await check()); i += 1) {
    assert.ok(i < 3000, what);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function assertPoolUsable() {
  const out = await runTask('read-schedule', readInput(3));
  assert.equal(out.locations, 3, 'the pool runs tasks after the abort');
}

async function runningJob(jobs: JobStore, accountId: string, handler: JobHandler) {
  // A thread already up: a task handed to a thread still starting waits in piscina's queue, where
  // an abort only drops it, and the thread would end only when its 30 s idle timeout ran out.
  await runTask('read-schedule', readInput(3));
  const job = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} });
  const worker = new Worker(jobs, new Map([['ingest', handler]]), { concurrency: 1, leaseMs: 900, pollMs: 20, maxAttempts: 3, log: silent });
  worker.start();
  return { job, worker };
}

eachDialect('a job whose lease another worker takes over has its compute thread stopped; the old holder records nothing', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const { handler, started } = longRead();
    const { job, worker } = await runningJob(jobs, accountId, handler);
    try {
      const { settled } = await started;
      const { exited } = await threadsRunning();
      // Another worker claims the job as if the lease had lapsed (its clock a minute ahead).
      const taken = await jobs.claim('heir', 600_000, ['ingest'], Date.now() + 60_000);
      assert.equal(taken?.id, job.id);
      const error = await settled;
      assert.ok(error instanceof Error && error.name === 'AbortError', `the task was not aborted: ${JSON.stringify(error)}`);
      await exited;
      await until('the worker still holds the job', () => worker.busy === 0);
      const row = await jobs.get(job.id, accountId);
      assert.equal(row?.status, 'running');
      assert.equal(row?.lease_owner, 'heir');
      assert.equal(row?.result, null);
      assert.equal(row?.error, null);
      await assertPoolUsable();
    } finally {
      await worker.stop();
    }
  });
});

eachDialect('a worker shutting down stops its jobs\' compute threads and gives the jobs back uncounted', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const { handler, started } = longRead();
    const { job, worker } = await runningJob(jobs, accountId, handler);
    let stopped = false;
    try {
      const { settled } = await started;
      const { exited } = await threadsRunning();
      await worker.stop();
      stopped = true;
      const error = await settled;
      assert.ok(error instanceof Error && error.name === 'AbortError', `the task was not aborted: ${JSON.stringify(error)}`);
      await exited;
      const row = await jobs.get(job.id, accountId);
      assert.equal(row?.status, 'queued');
      assert.equal(row?.lease_owner, null);
      assert.equal(row?.attempts, 0);
      await assertPoolUsable();
    } finally {
      if (!stopped) await worker.stop();
    }
  });
});
