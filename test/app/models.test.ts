// The registry's use cases without HTTP, as the tool server calls them: plain-data inputs, the
// refusals as Results (no request schema in front of them), and the cancelled account.
import assert from 'node:assert/strict';
import { composeModel, readModel, requestModelRun } from '../../src/app/models.js';
import { cancelPlan, signup } from '../../src/app/accounts.js';
import { unwrap } from '../../src/kernel/result.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

eachDialect('registry use cases answer their refusals as Results', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    // No feed is pinned in this scratch service: a composition naming one is outside the vocabulary.
    const composed = await composeModel(deps, { accountId, body: { name: 'x', feed: { id: 'usgs-comcat-m6-california', version: '2022-12-20' }, measurement: 'magnitude_in_box', transforms: ['occurrence_clustering'] } });
    assert.equal(composed.ok, false);
    if (!composed.ok) {
      assert.deepEqual([composed.refusal.status, composed.refusal.code], [422, 'invalid_composition']);
      assert.deepEqual(composed.refusal.details, [
        'payout_function is missing: a model is composed of a feed, a measurement, transforms ([] for none) and a payout function',
        'feed usgs-comcat-m6-california version 2022-12-20 is not a pinned snapshot (GET /primitives lists the feeds a model can read)',
      ]);
    }
    const notObject = await composeModel(deps, { accountId, body: 'a model' });
    assert.equal(!notObject.ok && notObject.refusal.code, 'invalid_composition');
    const read = await readModel(deps, { accountId, id: 'mdl_000000000000000000000000' });
    assert.equal(!read.ok && read.refusal.code, 'not_found');
    const run = await requestModelRun(deps, { accountId, id: 'mdl_000000000000000000000000', body: {} as never });
    assert.deepEqual(!run.ok && [run.refusal.status, run.refusal.code], [422, 'invalid_request']);
    // A cancelled account composes and runs nothing.
    await cancelPlan(deps, accountId);
    const cancelled = await composeModel(deps, { accountId, body: {} });
    assert.deepEqual(!cancelled.ok && [cancelled.refusal.status, cancelled.refusal.code], [402, 'account_cancelled']);
    const cancelledRun = await requestModelRun(deps, { accountId, id: 'mdl_000000000000000000000000', body: { object_id: 'obj_x' } });
    assert.equal(!cancelledRun.ok && cancelledRun.refusal.code, 'account_cancelled');
  });
});
