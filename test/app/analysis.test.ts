// Analyse and accumulation through their use cases, without HTTP: the location limit of an
// accumulation checked before any object is read (two hand-made objects of 500,001 bare locations),
// and the analyse request's refusals before a job is queued.
import assert from 'node:assert/strict';
import { signup } from '../../src/app/accounts.js';
import { accumulate } from '../../src/app/accumulation.js';
import { requestAnalyse } from '../../src/app/analyse.js';
import { unwrap, type Result } from '../../src/kernel/result.js';
import dispatch from '../../src/jobs/threads/dispatch.js';
import type { TaskInput, TaskName, TaskOutput } from '../../src/app/deps.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

const bare = (id: string, n: number) => ({
  id, status: 'draft',
  exposure: { locations: Array.from({ length: n }, () => ({})), values: { total: null }, source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] } },
});

eachDialect('an accumulation over more than 1,000,000 locations is refused before any is read', async (dialect) => {
  await withDeps(dialect, async (base) => {
    // The accumulation's compute task run in this process, as a compute thread runs it.
    const deps = { ...base, objects: base.objects, compute: async <K extends TaskName>(task: K, input: TaskInput<K>) => dispatch({ task, input } as never) as Promise<Result<TaskOutput<K>>> };
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const other = (unwrap(await signup(deps, {})) as { id: string }).id;
    await deps.objects.insert(accountId, bare('obj_000000000000000000000001', 500_001));
    await deps.objects.insert(accountId, bare('obj_000000000000000000000002', 500_001));
    const over = await accumulate(deps, { accountId, objects: ['obj_000000000000000000000001', 'obj_000000000000000000000002'] });
    assert.ok(!over.ok);
    assert.deepEqual([over.refusal.status, over.refusal.code], [422, 'invalid_request']);
    assert.match(over.refusal.message, /1000002 locations; one accumulation reads at most 1000000/);
    // Another account's object is not found, whatever it holds.
    const theirs = await accumulate(deps, { accountId: other, objects: ['obj_000000000000000000000001'] });
    assert.ok(!theirs.ok);
    assert.deepEqual([theirs.refusal.status, theirs.refusal.code], [404, 'not_found']);
    const one = unwrap(await accumulate(deps, { accountId, objects: ['obj_000000000000000000000001'] })) as any;
    assert.equal(one.totals.locations, 500_001);
    assert.equal(one.totals.located_locations, 0);
  });
});

eachDialect('the analyse request is refused before a job exists', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    await deps.objects.insert(accountId, bare('obj_000000000000000000000003', 1));
    for (const body of [undefined, {}, { analyses: ['everything'] }]) {
      const refused = await requestAnalyse(deps, { accountId, objectId: 'obj_000000000000000000000003', body });
      assert.ok(!refused.ok);
      assert.equal(refused.refusal.code, 'unknown_analysis');
    }
    const queued = unwrap(await requestAnalyse(deps, { accountId, objectId: 'obj_000000000000000000000003', body: { analyses: ['exposure_quality'] } }));
    assert.equal(queued.view.verb, 'analyse');
    assert.deepEqual(queued.view.subject, { object_id: 'obj_000000000000000000000003', analyses: ['exposure_quality'] });
    assert.equal(deps.woken, 1, 'the worker is woken once, for the one job queued');
  });
});
