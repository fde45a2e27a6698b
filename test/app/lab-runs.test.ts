// A lab run submitted through the use case, without HTTP: ownership per account, one usage record
// and one job however often the same spec is submitted.
import assert from 'node:assert/strict';
import { submitRun, readRun } from '../../src/app/lab-runs.js';
import { signup, usageDocument } from '../../src/app/accounts.js';
import { unwrap } from '../../src/kernel/result.js';
import { LAB_LANES } from '../../src/app/lab-lanes.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

const MODEL = LAB_LANES[0]!.id;
const POINTS = [{ lat: 52.1, lon: 4.3, value: 1_000_000 }];
const jobLink = (jobId: string) => `https://api.example/jobs/${jobId}`;

async function newAccount(deps: Parameters<typeof signup>[0]): Promise<string> {
  return (unwrap(await signup(deps, {})) as { id: string }).id;
}

eachDialect('the same spec is one run, metered once per account, queued once', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const a = await newAccount(deps);
    const b = await newAccount(deps);
    const first = unwrap(await submitRun(deps, { accountId: a, body: { model: MODEL, samples: 0, exposure: { points: POINTS } }, jobLink }));
    // Member order and a spelled-out default do not make another run.
    const again = unwrap(await submitRun(deps, { accountId: a, body: { exposure: { points: POINTS }, model: MODEL }, jobLink }));
    assert.equal(again.id, first.id);
    assert.equal(first.status, 'queued');
    assert.deepEqual(again.links, first.links);
    assert.match((first.links as { job: string }).job, /^https:\/\/api\.example\/jobs\//);
    assert.equal(deps.woken, 1, 'one job queued for the run');

    const usage = unwrap(await usageDocument(deps, a)) as { units: { model_runs: number }; records: { subject_id: string }[] };
    assert.equal(usage.units.model_runs, 1);
    assert.deepEqual(usage.records.map((r) => r.subject_id), [first.id]);

    // Another account does not see the run until it submits the spec itself; then it owns it too.
    const unseen = await readRun(deps, { accountId: b, id: first.id as string, jobLink });
    assert.equal(unseen.ok, false);
    assert.equal(!unseen.ok && unseen.refusal.status, 404);
    const theirs = unwrap(await submitRun(deps, { accountId: b, body: { model: MODEL, samples: 0, exposure: { points: POINTS } }, jobLink }));
    assert.equal(theirs.id, first.id);
    assert.equal((unwrap(await usageDocument(deps, b)) as { units: { model_runs: number } }).units.model_runs, 1);
  });
});

eachDialect('a run is refused as data: a bad spec, an object of another account, a cancelled account', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const a = await newAccount(deps);
    const bad = await submitRun(deps, { accountId: a, body: { model: 'nope', samples: 0, exposure: { points: POINTS } }, jobLink });
    assert.deepEqual(!bad.ok && [bad.refusal.status, bad.refusal.code], [422, 'invalid_request']);
    const missing = await submitRun(deps, { accountId: a, body: { model: MODEL, exposure: { object_id: 'obj_000000000000000000000000' } }, jobLink });
    assert.deepEqual(!missing.ok && [missing.refusal.status, missing.refusal.code], [404, 'not_found']);
    await deps.accounts.cancel(a);
    const cancelled = await submitRun(deps, { accountId: a, body: { model: MODEL, samples: 0, exposure: { points: POINTS } }, jobLink });
    assert.deepEqual(!cancelled.ok && [cancelled.refusal.status, cancelled.refusal.code], [402, 'account_cancelled']);
    assert.equal(deps.woken, 0, 'nothing queued');
  });
});
