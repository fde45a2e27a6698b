// GET /metrics on the metrics listener, scraped and parsed as Prometheus would (the text format read
// by parse-prometheus-text-format): every series is there, requests and jobs move their counts
// (route templates, never raw paths), two services in one process keep apart, and the listener
// answers nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { call, eachDialect, envelopeFaults, finishedRun, signup, startService, waitForJob } from '../support/service.js';
import { family, sampleOf, scrape, valueOf } from '../support/metrics.js';
import { form, smallSchedule } from '../support/schedules.js';

const SERIES = {
  catrisk_build_info: 'GAUGE',
  catrisk_http_request_duration_seconds: 'HISTOGRAM',
  catrisk_http_unreadable_requests_total: 'COUNTER',
  catrisk_job_duration_seconds: 'HISTOGRAM',
  catrisk_job_queue_depth: 'GAUGE',
  catrisk_job_queue_oldest_age_seconds: 'GAUGE',
  catrisk_jobs_running: 'GAUGE',
  catrisk_lab_runs_total: 'COUNTER',
  catrisk_webhook_deliveries_total: 'COUNTER',
  catrisk_feed_snapshots: 'GAUGE',
  catrisk_db_pool_connections: 'GAUGE',
  catrisk_db_pool_waiting_queries: 'GAUGE',
  catrisk_db_query_failures_total: 'COUNTER',
  catrisk_compute_threads: 'GAUGE',
  catrisk_compute_queue_depth: 'GAUGE',
  nodejs_eventloop_lag_seconds: 'GAUGE',
  process_cpu_seconds_total: 'COUNTER',
} as const;

eachDialect('the scrape parses, names every series, and requests and jobs move their counts', async (dialect, t) => {
  const svc = await startService(dialect);
  t.after(() => svc.close());
  const first = await scrape(svc);
  for (const [name, type] of Object.entries(SERIES)) assert.equal(family(first, name)?.type, type, name);
  // Every catrisk series is named with the service's prefix, and a unit where it has one.
  for (const f of first.families.filter((x) => x.name.startsWith('catrisk_'))) {
    assert.match(f.name, /^catrisk_[a-z_]+$/, f.name);
    if (f.type === 'HISTOGRAM') assert.match(f.name, /_seconds$/, f.name);
    if (f.type === 'COUNTER') assert.match(f.name, /_total$/, f.name);
    assert.ok(f.help.length > 20, `${f.name} says what it counts`);
  }
  assert.deepEqual(sampleOf(first, 'catrisk_build_info')!.labels, { version: svc.services.config.build.version, commit: svc.services.config.build.commit, storage: dialect });
  assert.ok(valueOf(first, 'catrisk_feed_snapshots', { state: 'served' }) > 10, 'the pinned snapshots are served');
  assert.equal(valueOf(first, 'catrisk_feed_snapshots', { state: 'refused' }), 0);
  // Every verb has its queue series, empty or not.
  for (const kind of ['ingest', 'backtest', 'price', 'lab_run', 'webhook_delivery']) {
    assert.equal(valueOf(first, 'catrisk_job_queue_depth', { kind }), 0, kind);
    assert.ok(sampleOf(first, 'catrisk_job_queue_oldest_age_seconds', { kind }), kind);
  }
  assert.ok(sampleOf(first, 'catrisk_db_pool_connections', { state: 'idle' }));
  assert.ok(sampleOf(first, 'catrisk_db_query_failures_total', { kind: 'unavailable' }));
  assert.ok(valueOf(first, 'nodejs_eventloop_lag_seconds') >= 0 && sampleOf(first, 'nodejs_eventloop_lag_seconds'));

  const { key } = await signup(svc.api);
  const account = { host: 'api', route: '/account', method: 'GET', status: '200' };
  const before = valueOf(await scrape(svc), 'catrisk_http_request_duration_seconds_count', account);
  for (let i = 0; i < 3; i += 1) assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
  assert.equal((await call(svc.api, 'GET', '/objects/obj_nope', { key })).status, 404);
  assert.equal((await call(svc.api, 'GET', '/no/such/route/42', { key })).status, 404);
  const afterRequests = await scrape(svc);
  assert.equal(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_count', account), before + 3, 'three more GET /account');
  assert.equal(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_bucket', { ...account, le: '+Inf' }), before + 3);
  assert.ok(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_sum', account) > 0);
  // A route's template, never the id asked for; an unknown path is one fixed label.
  assert.equal(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_count', { route: '/objects/:id', status: '404' }), 1);
  assert.equal(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }), 1);
  assert.ok(!afterRequests.text.includes('obj_nope') && !afterRequests.text.includes('/no/such'), 'no raw path is a label');
  assert.equal(valueOf(afterRequests, 'catrisk_http_request_duration_seconds_count', { host: 'api', route: '/signup', method: 'POST', status: '201' }), 1);

  // A job: its run is timed by kind and outcome, and the queue is read again at each scrape.
  const ingest = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD' }) });
  assert.equal(ingest.status, 202, ingest.text);
  assert.equal((await waitForJob(svc.api, key, ingest.headers.get('location')!)).status, 'succeeded');
  const afterJob = await scrape(svc);
  assert.equal(valueOf(afterJob, 'catrisk_job_duration_seconds_count', { kind: 'ingest', outcome: 'succeeded' }), 1);
  assert.equal(valueOf(afterJob, 'catrisk_job_queue_depth', { kind: 'ingest' }), 0);
  assert.equal(valueOf(afterJob, 'catrisk_jobs_running', { kind: 'ingest' }), 0);
  assert.ok(valueOf(afterJob, 'catrisk_compute_threads') >= 1, 'the ingest read its schedule in a compute thread');

  // A lab run: by its model and outcome.
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1_000_000 }] } } });
  assert.equal(run.status, 202, run.text);
  assert.equal((await finishedRun(svc, key, `/runs/${run.body.id}`)).status, 'succeeded');
  const afterRun = await scrape(svc);
  assert.equal(valueOf(afterRun, 'catrisk_lab_runs_total', { model: 'oasislmf-windstorm', outcome: 'succeeded' }), 1);
  assert.equal(valueOf(afterRun, 'catrisk_job_duration_seconds_count', { kind: 'lab_run', outcome: 'succeeded' }), 1);
  assert.equal(valueOf(afterRun, 'catrisk_http_request_duration_seconds_count', { host: 'lab', route: '/runs', method: 'POST', status: '202' }), 1);
});

test('two services in one process keep their own series; the listener serves GET /metrics only', async (t) => {
  const one = await startService('sqlite');
  t.after(() => one.close());
  const two = await startService('sqlite');
  t.after(() => two.close());
  assert.notEqual(one.metrics, two.metrics);
  for (let i = 0; i < 2; i += 1) await call(one.api, 'GET', '/health');
  const health = { host: 'api', route: '/health', method: 'GET', status: '200' };
  assert.equal(valueOf(await scrape(one), 'catrisk_http_request_duration_seconds_count', health), 2);
  assert.equal(valueOf(await scrape(two), 'catrisk_http_request_duration_seconds_count', health), 0);

  const base = one.metrics!.replace(/\/metrics$/, '');
  const other = await call(base, 'GET', '/health');
  assert.equal(other.status, 404);
  assert.deepEqual(envelopeFaults(other), []);
  const post = await call(base, 'POST', '/metrics');
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  assert.deepEqual(envelopeFaults(post), []);
  assert.match(new URL(one.metrics!).hostname, /^127\.0\.0\.1$/, 'loopback unless the operator opens it');
});

test('CATRISK_METRICS_PORT: 9464 by default, off or empty switches the listener off, anything else must be a port', () => {
  assert.deepEqual(loadConfig({}).metrics, { port: 9464, host: '127.0.0.1' });
  assert.equal(loadConfig({ CATRISK_METRICS_PORT: 'off' }).metrics.port, undefined);
  assert.equal(loadConfig({ CATRISK_METRICS_PORT: '' }).metrics.port, undefined);
  assert.equal(loadConfig({ CATRISK_METRICS_PORT: '0' }).metrics.port, 0);
  assert.equal(loadConfig({ CATRISK_METRICS_HOST: '0.0.0.0', CATRISK_METRICS_PORT: '9100' }).metrics.host, '0.0.0.0');
  assert.throws(() => loadConfig({ CATRISK_METRICS_PORT: 'ninety' }), /CATRISK_METRICS_PORT/);
});

test('a service with the listener off has no metrics URL and still counts', async (t) => {
  const svc = await startService('sqlite', { CATRISK_METRICS_PORT: 'off' });
  t.after(() => svc.close());
  assert.equal(svc.metrics, undefined);
  await call(svc.api, 'GET', '/health');
  assert.match(await svc.services.metrics.exposition(), /catrisk_http_request_duration_seconds_count\{host="api",route="\/health",method="GET",status="200"\} 1/);
});
