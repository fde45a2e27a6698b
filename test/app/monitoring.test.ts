// The sweep of a newly pinned snapshot, through the use cases over a scratch database: two sweeps
// at once (as two processes noticing the same version would) queue each move's deliveries once;
// a sweep of an unchanged record queues nothing; an ended record is not swept.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signup } from '../../src/app/accounts.js';
import { addWebhook, deliveryJob, endMonitoring, startMonitoring, sweepFeeds } from '../../src/app/monitoring.js';
import { addSnapshot, FeedStore } from '../../src/feeds/store.js';
import { unwrap } from '../../src/kernel/result.js';
import { eachDialect } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { CALIFORNIA, feedsWithEarlierVersion } from '../support/earlier-version.js';
import { FEEDS_DIR, latestVersion } from '../support/feeds.js';
import { AT, withDeps } from './support.js';

eachDialect('two sweeps of the same new version queue each move once; unchanged and ended records queue nothing', async (dialect) => {
  const root = mkdtempSync(join(tmpdir(), 'catrisk-sweep-'));
  try {
    const dir = await feedsWithEarlierVersion(root);
    await withDeps(dialect, async (base) => {
      // Two stores over one folder: two processes, each noticing the version for itself.
      const [one, two] = [await FeedStore.open(dir), await FeedStore.open(dir)];
      const deps = { ...base, feeds: one };
      const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
      const terms = ACCEPTANCE_BODIES.earthquake as any;
      const structure = (version: string, id: string) => ({
        id, object_id: 'obj_sweep', schema_version: '0.1.0', ...terms,
        trigger: { ...terms.trigger, data_sources: [{ feed_id: CALIFORNIA, version }] },
        period: id.endsWith('quiet') ? { start: '2018-01-01', end: '2018-12-31' } : { start: '2019-01-01', end: '2019-12-31' },
      });
      await deps.structures.insert(accountId, structure('2019-06-30', 'str_sweepmoves'));
      await deps.structures.insert(accountId, structure('2019-06-30', 'str_sweepquiet'));
      await deps.structures.insert(accountId, structure('2019-06-30', 'str_sweepended'));
      const record = async (id: string) => unwrap(await startMonitoring(deps, { accountId, structureId: id, body: null })).id as string;
      const [moves, quiet, ended] = [await record('str_sweepmoves'), await record('str_sweepquiet'), await record('str_sweepended')];
      for (const r of [moves, quiet, ended]) {
        for (const url of ['https://93.184.216.34/a', 'https://93.184.216.34/b']) unwrap(await addWebhook(deps, { accountId, recordId: r, url }));
      }
      unwrap(await endMonitoring(deps, { accountId, id: ended }));

      await addSnapshot(dir, join(FEEDS_DIR, CALIFORNIA, latestVersion(CALIFORNIA)));
      assert.deepEqual((await one.rescan()).map((s) => s.version), [latestVersion(CALIFORNIA)]);
      assert.deepEqual((await two.rescan()).map((s) => s.version), [latestVersion(CALIFORNIA)]);
      assert.deepEqual(await one.rescan(), [], 'served versions are not read again');
      const queued = await Promise.all([sweepFeeds(deps, [CALIFORNIA]), sweepFeeds({ ...deps, feeds: two }, [CALIFORNIA])]);
      // 2018 holds no M6.5 in the box either way: the quiet record did not move.
      assert.equal(queued[0] + queued[1], 2, `one delivery per webhook of the record that moved, once: ${queued}`);
      const deliveries = await deps.monitoring.deliveries((await deps.monitoring.webhooks(moves)).map((w) => w.id));
      assert.deepEqual(deliveries.map((d) => d.event_type), ['monitoring.level_reached', 'monitoring.level_reached']);
      assert.equal(new Set(deliveries.map((d) => d.id)).size, 2, 'each webhook its own webhook-id');
      assert.equal(deliveries[0]!.body, deliveries[1]!.body);
      assert.deepEqual(await deps.monitoring.deliveries((await deps.monitoring.webhooks(quiet)).map((w) => w.id)), []);
      assert.deepEqual(await deps.monitoring.deliveries((await deps.monitoring.webhooks(ended)).map((w) => w.id)), []);
      assert.equal((await deps.jobs.list(accountId, { verb: 'webhook_delivery' }, undefined, 10)).length, 2);
      // Sweeping again finds every record already compared with this version.
      assert.equal(await sweepFeeds(deps, [CALIFORNIA]), 0);
      // Ended before its delivery ran: nothing is sent, and the delivery stops.
      unwrap(await endMonitoring(deps, { accountId, id: moves }));
      const outcome = unwrap(await deliveryJob(deps, { accountId, input: { delivery_id: deliveries[0]!.id, attempt: 1 } }));
      assert.deepEqual(outcome, { delivery_id: deliveries[0]!.id, attempt: 1, outcome: 'record_ended' });
      assert.equal((await deps.monitoring.delivery(deliveries[0]!.id))?.status, 'failed');
      assert.deepEqual(await deps.monitoring.attempts([deliveries[0]!.id]), [], 'no attempt was made');
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

eachDialect('a signing secret the keys held cannot open is never used: nothing is sent, the attempt says why, and it is retried', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    await deps.monitoring.insertRecord({
      id: 'mon_sealtest', account_id: accountId, structure_id: 'str_sealtest', feed_id: CALIFORNIA, label: null,
      in_force_from: '2019-01-01', in_force_to: '2019-12-31', created_at: AT.toISOString(), ended_at: null, last_measurement: null,
    });
    const hook = unwrap(await addWebhook(deps, { accountId, recordId: 'mon_sealtest', url: 'https://93.184.216.34/in' }));
    const row = (await deps.monitoring.webhook(hook.id as string))!;
    assert.equal(row.secret_key_id, 'app-tests');
    assert.ok(!JSON.stringify(row).includes((hook.secret as string).slice('whsec_'.length)), 'sealed in the row');
    await deps.monitoring.insertDelivery({
      id: 'msg_sealtest', webhook_id: row.id, record_id: 'mon_sealtest', event_type: 'monitoring.measurement_moved', body: '{}',
      status: 'pending', created_at: AT.toISOString(), next_attempt_at: AT.toISOString(),
    });
    // Another process resealed under a key this one does not hold (or the key was given wrong).
    let sent = 0;
    const elsewhere = {
      ...deps,
      config: { ...deps.config, sealing: { keys: [{ id: 'other', key: Buffer.alloc(32, 8) }, { id: 'app-tests', key: Buffer.alloc(32, 9) }] } },
      targets: { ...deps.targets, send: async () => { sent += 1; throw new Error('not to be called'); } },
    };
    const outcome = unwrap(await deliveryJob(elsewhere, { accountId, input: { delivery_id: 'msg_sealtest', attempt: 1 } })) as Record<string, unknown>;
    assert.equal(sent, 0, 'nothing sent');
    assert.equal(outcome.outcome, 'retry_queued');
    const [attempt] = await deps.monitoring.attempts(['msg_sealtest']);
    assert.equal(attempt!.http_status, null);
    assert.match(attempt!.error!, /^unsealable: the webhook's signing secret cannot be opened \(the key held as app-tests does not open it/);
    assert.equal((await deps.monitoring.delivery('msg_sealtest'))?.status, 'pending');
    const noKey = { ...elsewhere, config: { ...deps.config, sealing: { keys: [{ id: 'other', key: Buffer.alloc(32, 8) }] } } };
    unwrap(await deliveryJob(noKey, { accountId, input: { delivery_id: 'msg_sealtest', attempt: 2 } }));
    assert.match((await deps.monitoring.attempts(['msg_sealtest']))[1]!.error!, /does not hold the key app-tests/);
    assert.equal(sent, 0);
  });
});
