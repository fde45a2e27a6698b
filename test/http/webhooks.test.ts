// Webhook deliveries end to end: a snapshot version pinned while the service runs (into a feeds
// folder built here from the real pinned California catalog) moves a record's measurement; real
// local receivers get signed deliveries (verified with the standardwebhooks package), a receiver
// answering 500 then 200 gets a retry with the same webhook-id, one that never answers is given up
// after the schedule, and the log shows every attempt.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { addSnapshot } from '../../src/feeds/store.js';
import { CALIFORNIA as FEED, feedsWithEarlierVersion } from '../support/earlier-version.js';
import { call, eachDialect, signup, startService, waitForJob } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';
import { FEEDS_DIR, latestVersion } from '../support/feeds.js';

interface Received { path: string; headers: IncomingHttpHeaders; body: string }

/** A receiver on 127.0.0.1: /flaky answers 500 to its first request and 200 after; /ok answers 200. */
async function receiver(): Promise<{ server: Server; base: string; received: Received[] }> {
  const received: Received[] = [];
  let flaky = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = req.url === '/flaky' && flaky++ === 0 ? 500 : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A port nothing listens on any more: connections to it are refused. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const port = (s.address() as AddressInfo).port;
  await new Promise((done) => s.close(done));
  return port;
}

eachDialect('a newly pinned snapshot that moves the measurement is delivered signed, retried with the same id, and logged', async (dialect) => {
  const root = mkdtempSync(join(tmpdir(), 'catrisk-webhooks-'));
  const hooks = await receiver();
  const svc = await startService(dialect, {
    CATRISK_FEEDS_DIR: await feedsWithEarlierVersion(root),
    CATRISK_OUTBOUND_ALLOW_HTTP: 'true', CATRISK_OUTBOUND_ALLOW_LOOPBACK: 'true',
    CATRISK_FEEDS_RESCAN_SECONDS: '1',
    // Production waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h; here two short retries.
    CATRISK_WEBHOOK_RETRY_SECONDS: '0.2,0.3', CATRISK_WEBHOOK_TIMEOUT_MS: '2000',
  });
  try {
    const { key } = await signup(svc.api);
    // Written on the vintage pinned then; monitoring reads the newest pinned version of the feed.
    const terms = ACCEPTANCE_BODIES.earthquake as any;
    const trigger = { ...terms.trigger, data_sources: [{ feed_id: FEED, version: '2019-06-30' }] };
    const made = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, ...terms, trigger, period: { start: '2019-01-01', end: '2019-12-31' } } });
    assert.equal(made.status, 201, made.text);
    const structure = await call(svc.api, 'POST', `/objects/${made.body.id}/structures`, { key });
    const record = await call(svc.api, 'POST', `${structure.body.links.self}/monitoring`, { key });
    assert.equal(record.status, 201, record.text);
    // The earlier version holds the year up to 30 June: nothing in the box yet.
    const before = record.body.measurement;
    assert.deepEqual([before.status, before.feed.version, before.as_of, before.index.value, before.distance_to_attachment], ['in_progress', '2019-06-30', '2019-06-30', null, null]);

    // A backtest before the new version opens a compute thread's feed store on the earlier one.
    const early = await call(svc.api, 'POST', `${structure.body.links.self}/backtest`, { key });
    assert.equal((await waitForJob(svc.api, key, early.headers.get('location')!)).status, 'succeeded');

    const path = `/monitoring/${record.body.id}/webhooks`;
    const flaky = await call(svc.api, 'POST', path, { key, body: { url: `${hooks.base}/flaky` } });
    const ok = await call(svc.api, 'POST', path, { key, body: { url: `${hooks.base}/ok`, description: 'second receiver' } });
    const dead = await call(svc.api, 'POST', path, { key, body: { url: `http://127.0.0.1:${await deadPort()}/gone` } });
    for (const w of [flaky, ok, dead]) assert.equal(w.status, 201, w.text);

    // `catrisk feeds add` of the full pinned catalog, as another process would: the running service notices it.
    await addSnapshot(svc.env.CATRISK_FEEDS_DIR!, join(FEEDS_DIR, FEED, latestVersion(FEED)));
    let log: any;
    const until = Date.now() + 30_000;
    for (;;) {
      log = (await call(svc.api, 'GET', path, { key })).body;
      const statuses = log.webhooks.map((w: any) => w.deliveries[0]?.status);
      if (statuses.every((s: string | undefined) => s === 'delivered' || s === 'failed')) break;
      if (Date.now() > until) throw new Error(`deliveries not settled: ${JSON.stringify(log)}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    // What each receiver got: Standard Webhooks headers whose signature verifies with its own secret.
    const at = (p: string) => hooks.received.filter((r) => r.path === p);
    assert.equal(at('/flaky').length, 2, 'a 500, then the retry');
    assert.equal(at('/ok').length, 1);
    const [first, retry] = at('/flaky');
    assert.equal(first!.headers['webhook-id'], retry!.headers['webhook-id'], 'the same webhook-id on the retry');
    assert.equal(first!.body, retry!.body, 'the same body');
    const payload = new Webhook(flaky.body.secret).verify(retry!.body, retry!.headers as Record<string, string>) as any;
    assert.deepEqual(new Webhook(flaky.body.secret).verify(first!.body, first!.headers as Record<string, string>), payload);
    assert.throws(() => new Webhook(ok.body.secret).verify(retry!.body, retry!.headers as Record<string, string>), /signature/i, 'each webhook its own secret');
    assert.deepEqual(new Webhook(ok.body.secret).verify(at('/ok')[0]!.body, at('/ok')[0]!.headers as Record<string, string>), payload);
    assert.equal(payload.type, 'monitoring.level_reached');
    assert.match(payload.timestamp, /^\d{4}-\d{2}-\d{2}T/);
    const data = payload.data;
    assert.deepEqual(data.feed, { feed_id: FEED, version: latestVersion(FEED), sha256: data.feed.sha256 });
    assert.deepEqual([data.as_of, data.index.value, data.index.unit, data.index.event_id, data.distance_to_attachment], ['2022-12-20', 7.1, 'magnitude', 'ci38457511', 0]);
    assert.deepEqual(data.previous, { feed_version: '2019-06-30', index_value: null, distance_to_attachment: null });
    for (const claim of ['payout', 'payout_fraction', 'level', 'amount']) assert.ok(!(claim in data), `no ${claim} in the delivery`);

    // The log: every attempt with its time, status or error, and duration.
    const byUrl = Object.fromEntries(log.webhooks.map((w: any) => [w.id, w.deliveries]));
    const flakyLog = byUrl[flaky.body.id][0];
    assert.equal(flakyLog.id, first!.headers['webhook-id']);
    assert.equal(flakyLog.status, 'delivered');
    assert.deepEqual(flakyLog.attempts.map((a: any) => [a.attempt, a.http_status, a.error]), [[1, 500, null], [2, 200, null]]);
    assert.ok(flakyLog.attempts.every((a: any) => /^\d{4}-.*Z$/.test(a.at) && Number.isInteger(a.duration_ms) && a.duration_ms >= 0));
    // The retry waited its scheduled 0.2 s, jittered by at most 20%.
    assert.ok(Date.parse(flakyLog.attempts[1].at) - Date.parse(flakyLog.attempts[0].at) >= 160, JSON.stringify(flakyLog.attempts));
    assert.deepEqual(byUrl[ok.body.id][0].attempts.map((a: any) => a.http_status), [200]);
    const deadLog = byUrl[dead.body.id][0];
    assert.equal(deadLog.status, 'failed', 'given up once the schedule is spent');
    assert.equal(deadLog.next_attempt_at, null);
    assert.deepEqual(deadLog.attempts.map((a: any) => [a.attempt, a.http_status]), [[1, null], [2, null], [3, null]]);
    assert.ok(deadLog.attempts.every((a: any) => /^unreachable/.test(a.error)), JSON.stringify(deadLog.attempts));

    // The record now reads the new version.
    const after = (await call(svc.api, 'GET', `/monitoring/${record.body.id}`, { key })).body.measurement;
    assert.deepEqual([after.status, after.feed.version, after.index.value, after.level.reached], ['complete', latestVersion(FEED), 7.1, 2]);
    // The snapshot is served to every reader of the running service, compute threads included.
    assert.ok((await call(svc.api, 'GET', '/feeds', { key })).text.includes(latestVersion(FEED)));
    const onNew = await call(svc.api, 'POST', `/objects/${made.body.id}/structures`, { key, body: { trigger: { ...trigger, data_sources: [{ feed_id: FEED, version: latestVersion(FEED) }] } } });
    const late = await call(svc.api, 'POST', `${onNew.body.links.self}/backtest`, { key });
    const replayed = await waitForJob(svc.api, key, late.headers.get('location')!);
    assert.equal(replayed.status, 'succeeded', JSON.stringify(replayed.error));
    assert.equal(replayed.result.years.find((y: any) => y.year === 2019).payout, 5_000_000, 'Ridgecrest, in the version pinned while running');
  } finally {
    await svc.close();
    await new Promise((done) => hooks.server.close(done));
    rmSync(root, { recursive: true, force: true });
  }
});
