// The durable queue: claim under a lease, take-over after expiry, finish exactly once, release.
import assert from 'node:assert/strict';
import { Worker, type JobHandler } from '../../src/jobs/worker.js';
import { ApiError, refusal } from '../../src/kernel/refusal.js';
import { eachDialect } from '../support/service.js';
import { silent, untilEnded, withStore } from './support.js';

eachDialect('a claimed job is held under a lease and finished only by its holder', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const job = await jobs.create({ accountId, verb: 'ingest', subject: { source: 'a.csv' }, input: {} });
    const t0 = 1_000_000;
    const a = await jobs.claim('A', 1000, ['ingest'], t0);
    assert.equal(a?.id, job.id);
    assert.equal(a?.status, 'running');
    assert.equal(await jobs.claim('B', 1000, ['ingest'], t0 + 500), undefined, 'a live lease is not taken');
    // Lease expired: B takes the job over; A can no longer finish it.
    const b = await jobs.claim('B', 1000, ['ingest'], t0 + 1001);
    assert.equal(b?.id, job.id);
    assert.equal(b?.attempts, 2);
    assert.equal(await jobs.heartbeat(job.id, 'A', 1000, t0 + 1002), false);
    assert.equal(await jobs.finish(job.id, 'A', { result: { from: 'A' } }), false);
    assert.equal(await jobs.finish(job.id, 'B', { result: { from: 'B' } }), true);
    assert.equal(await jobs.finish(job.id, 'B', { result: { from: 'B again' } }), false, 'never finished twice');
    const done = await jobs.get(job.id, accountId);
    assert.equal(done?.status, 'succeeded');
    assert.deepEqual(JSON.parse(done!.result!), { from: 'B' });
    assert.equal(await jobs.claim('C', 1000, ['ingest'], t0 + 10_000), undefined, 'a finished job is never claimed');
  });
});

eachDialect('released jobs go back to the queue; verbs without a handler are not claimed', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const first = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(1000));
    await jobs.create({ accountId, verb: 'price', subject: {}, input: {} }, new Date(2000));
    assert.equal((await jobs.claim('A', 60_000, ['ingest']))?.id, first.id);
    assert.equal(await jobs.claim('A', 60_000, ['ingest']), undefined);
    assert.equal(await jobs.release('A'), 1);
    const again = await jobs.get(first.id, accountId);
    assert.equal(again?.status, 'queued');
    assert.equal((await jobs.claim('B', 60_000, ['ingest']))?.id, first.id);
  });
});

eachDialect('concurrent claimers never take the same job', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    for (let i = 0; i < 40; i += 1) await jobs.create({ accountId, verb: 'ingest', subject: {}, input: { i } });
    const claimed: string[] = [];
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      for (;;) {
        const row = await jobs.claim(`W${w}`, 60_000, ['ingest']);
        if (!row) return;
        claimed.push(row.id);
      }
    }));
    assert.equal(claimed.length, 40);
    assert.equal(new Set(claimed).size, 40);
  });
});

eachDialect('the worker runs handlers and records success or the error envelope', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    // Handlers written for this test: the queue and worker around them are the real ones.
    const handlers = new Map<string, JobHandler>([
      ['ingest', async (job) => ({ echoed: job.input.n })],
      ['price', async () => { throw ApiError.of(refusal(422, 'unpriceable_object', 'No trigger.', ['trigger is missing'])); }],
      ['analyse', async () => { throw new Error('boom with a secret stack'); }],
    ]);
    const worker = new Worker(jobs, handlers, { concurrency: 2, leaseMs: 5000, pollMs: 10, maxAttempts: 3, log: silent });
    const ok = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: { n: 7 } });
    const refused = await jobs.create({ accountId, verb: 'price', subject: {}, input: {} });
    const crashed = await jobs.create({ accountId, verb: 'analyse', subject: {}, input: {} });
    worker.start();
    let rows;
    try {
      rows = await untilEnded(jobs, accountId, [ok.id, refused.id, crashed.id]);
    } finally {
      await worker.stop();
    }
    const [a, b, c] = rows;
    assert.equal(a?.status, 'succeeded');
    assert.deepEqual(JSON.parse(a!.result!), { echoed: 7 });
    assert.equal(b?.status, 'failed');
    assert.deepEqual(JSON.parse(b!.error!), { status: 422, code: 'unpriceable_object', message: 'No trigger.', details: ['trigger is missing'] });
    assert.equal(c?.status, 'failed');
    const crash = JSON.parse(c!.error!);
    assert.equal(crash.code, 'internal_error');
    assert.equal(crash.status, 500);
    assert.ok(!crash.message.includes('boom'), 'no internals leak into the job');
  });
});

eachDialect('requeueAbandoned takes back running jobs other owners hold, never this owner\'s nor finished ones', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const before = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(1000));
    const mine = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(2000));
    const done = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(3000));
    const queued = await jobs.create({ accountId, verb: 'ingest', subject: {}, input: {} }, new Date(4000));
    assert.equal((await jobs.claim('previous', 600_000, ['ingest']))?.id, before.id);
    assert.equal((await jobs.claim('current', 600_000, ['ingest']))?.id, mine.id);
    assert.equal((await jobs.claim('previous', 600_000, ['ingest']))?.id, done.id);
    assert.equal(await jobs.finish(done.id, 'previous', { result: {} }), true);
    assert.equal(await jobs.requeueAbandoned('current'), 1, 'only the live-leased job of the other owner');
    assert.equal((await jobs.get(before.id, accountId))?.status, 'queued');
    assert.equal((await jobs.get(mine.id, accountId))?.lease_owner, 'current');
    assert.equal((await jobs.get(done.id, accountId))?.status, 'succeeded');
    assert.equal((await jobs.get(queued.id, accountId))?.status, 'queued');
    // Taken back at once, long before the ten-minute lease would have lapsed.
    assert.equal((await jobs.claim('current', 600_000, ['ingest']))?.id, before.id);
  });
});
