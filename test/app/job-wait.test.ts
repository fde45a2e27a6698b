// Waiting for a job within a bound (awaitJob, settled), as the tool server's run_backtest does:
// called directly over a scratch database, with the job moved by the job store as a worker would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signup } from '../../src/app/accounts.js';
import { awaitJob, queueJob, settled } from '../../src/app/jobs.js';
import { ok, refused } from '../../src/kernel/result.js';
import { refusals } from '../../src/kernel/refusal.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

eachDialect('awaitJob answers a job that ends within the bound, the job as it stands when the bound passes, and a refusal at once', (dialect) => withDeps(dialect, async (deps) => {
  const account = await signup(deps, {});
  assert.ok(account.ok);
  const accountId = account.value.id as string;
  const other = await signup(deps, {});
  assert.ok(other.ok);

  // Nothing runs the job: the bound passes and the job is answered queued, with its Retry-After hint.
  const idle = await queueJob(deps, { accountId, verb: 'backtest', subject: {}, input: {} });
  const started = Date.now();
  const waited = await awaitJob(deps, { accountId, id: idle.id }, { timeoutMs: 300, pollMs: 20 });
  assert.ok(waited.ok);
  assert.equal(waited.value.view.status, 'queued');
  assert.equal(waited.value.retryAfter, 1);
  assert.ok(Date.now() - started >= 300, 'waited the whole bound');

  // A worker takes the job and finishes it while the caller waits: answered at once, well inside the bound.
  const claimed = await deps.jobs.claim('worker-1', 30_000, ['backtest']);
  assert.equal(claimed?.id, idle.id);
  setTimeout(() => { void deps.jobs.finish(idle.id, 'worker-1', { result: { answer: 42 } }); }, 100);
  const before = Date.now();
  const done = await awaitJob(deps, { accountId, id: idle.id }, { timeoutMs: 20_000, pollMs: 20 });
  assert.ok(done.ok);
  assert.equal(done.value.view.status, 'succeeded');
  assert.deepEqual(done.value.view.result, { answer: 42 });
  assert.equal(done.value.retryAfter, undefined);
  assert.ok(Date.now() - before < 10_000);

  // Another account's job is not found, answered without waiting.
  const t = Date.now();
  const foreign = await awaitJob(deps, { accountId: other.value.id as string, id: idle.id }, { timeoutMs: 20_000 });
  assert.equal(foreign.ok, false);
  assert.equal(!foreign.ok && foreign.refusal.code, 'not_found');
  assert.ok(Date.now() - t < 10_000);
}));

test('settled stops at the first refusal and when its caller goes away', async () => {
  let reads = 0;
  const refusal = await settled(async () => (++reads === 3 ? refused(refusals.notFound('gone')) : ok(reads)), () => false, { timeoutMs: 20_000, pollMs: 1 });
  assert.equal(reads, 3);
  assert.equal(!refusal.ok && refusal.refusal.code, 'not_found');

  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const t = Date.now();
  const abandoned = await settled(async () => ok('running'), () => false, { timeoutMs: 20_000, pollMs: 10, signal: controller.signal });
  assert.deepEqual(abandoned, ok('running'));
  assert.ok(Date.now() - t < 10_000, 'stopped when the signal fired, not at the bound');
});
