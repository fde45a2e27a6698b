// A job queued to wait (a webhook delivery's retry): not claimed before its time, claimed after,
// and an older job still due meanwhile is taken first.
import assert from 'node:assert/strict';
import { eachDialect } from '../support/service.js';
import { withStore } from './support.js';

eachDialect('a job with not_before waits in the queue until its time', async (dialect) => {
  await withStore(dialect, async (_db, jobs, accountId) => {
    const t0 = 5_000_000;
    const waiting = await jobs.create({ accountId, verb: 'webhook_delivery', subject: {}, input: { attempt: 2 }, notBefore: t0 + 5_000 }, new Date(1000));
    const due = await jobs.create({ accountId, verb: 'webhook_delivery', subject: {}, input: { attempt: 1 } }, new Date(2000));
    assert.equal((await jobs.claim('A', 60_000, ['webhook_delivery'], t0))?.id, due.id, 'the waiting job is older but not due');
    assert.equal(await jobs.claim('A', 60_000, ['webhook_delivery'], t0 + 4_999), undefined);
    const claimed = await jobs.claim('A', 60_000, ['webhook_delivery'], t0 + 5_000);
    assert.equal(claimed?.id, waiting.id);
    assert.equal(Number(claimed?.not_before), t0 + 5_000);
  });
});
