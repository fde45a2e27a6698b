// Request ids, the access log and W3C trace context over real HTTP: every answer of every host
// carries X-Request-Id (the client's when well formed), refusals and the edge's raw refusals
// included; each request is one info line naming its host, route, status, duration and account,
// never its key; a job keeps the id and trace of the request that queued it, logs with that id,
// and passes the trace on to its outbound calls, as a request's own outbound calls do.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serviceLogger } from '../../src/telemetry/logger.js';
import { call, eachDialect, envelopeFaults, signup, startService, USER_AGENT, waitForJob, type TestService } from '../support/service.js';
import { rawRequest } from '../support/raw-http.js';
import { form, smallSchedule } from '../support/schedules.js';
import { fakeUpstream, json } from '../support/fake-upstream.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';
import { latestVersion } from '../support/feeds.js';
import { scrape, valueOf } from '../support/metrics.js';

const GENERATED = /^req_[0-9a-f]{16}[0-9a-z]{8,}$/;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** A service whose log lines (level info) are kept, parsed, for the test to read. */
async function loggedService(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<{ svc: TestService; lines: Array<Record<string, any>> }> {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const svc = await startService(dialect, env, { log: serviceLogger('info', stream) });
  return { svc, lines };
}

/** The access line of the request with this id (one per request). */
function accessLine(lines: Array<Record<string, any>>, requestId: string): Record<string, any> {
  const found = lines.filter((l) => l.msg === 'request' && l.reqId === requestId);
  assert.equal(found.length, 1, `one access line for ${requestId}: ${JSON.stringify(found)}`);
  return found[0]!;
}

eachDialect('every answer carries X-Request-Id: 200, 401, 403, 404, 405, 422 and the raw refusals, on every host', async (dialect, t) => {
  const { svc, lines } = await loggedService(dialect);
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const answers = {
    ok: await call(svc.api, 'GET', '/account', { key }),
    unauthenticated: await call(svc.api, 'GET', '/account'),
    anonymous: await call(svc.api, 'GET', '/health', { headers: { 'user-agent': 'curl/8.5.0' } }),
    notFound: await call(svc.api, 'GET', '/no/such/route', { key }),
    notAllowed: await call(svc.api, 'DELETE', '/health'),
    invalid: await call(svc.api, 'POST', '/signup', { body: { plan: 'gold' } }),
  };
  const statuses = Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, a.status]));
  assert.deepEqual(statuses, { ok: 200, unauthenticated: 401, anonymous: 403, notFound: 404, notAllowed: 405, invalid: 422 });
  for (const [name, answer] of Object.entries(answers)) {
    const id = answer.headers.get('x-request-id');
    assert.match(id ?? '', GENERATED, name);
    if (answer.status >= 400) assert.deepEqual(envelopeFaults(answer), [], name);
    // The access line names the same id, and 4xx answers have theirs.
    assert.equal(accessLine(lines, id!).status, answer.status, name);
  }
  const ids = Object.values(answers).map((a) => a.headers.get('x-request-id'));
  assert.equal(new Set(ids).size, ids.length, 'each request its own id');

  // Requests Node's parser refuses: the envelope written to the socket carries one too.
  const unreadable = await rawRequest(svc.api, [`get /health HTTP/1.1\r\nHost: x\r\nUser-Agent: ${USER_AGENT}\r\nX-Request-Id: lower-case-7\r\n\r\n`]);
  assert.equal(unreadable.status, 405);
  assert.equal(unreadable.headers['x-request-id'], 'lower-case-7');
  const overflow = await rawRequest(svc.api, [`GET /health HTTP/1.1\r\nHost: x\r\nUser-Agent: ${USER_AGENT}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
  assert.equal(overflow.status, 431);
  assert.match(overflow.headers['x-request-id'] ?? '', GENERATED);
  assert.equal(accessLine(lines, overflow.headers['x-request-id']!).route, 'unreadable');
  assert.equal(valueOf(await scrape(svc), 'catrisk_http_unreadable_requests_total', { host: 'api', status: '431' }), 1);

  // Every host.
  for (const host of ['docs', 'mcp', 'data', 'lab'] as const) {
    const index = await call(svc.urls[host], 'GET', '/', { headers: { 'x-request-id': `index-of-${host}` } });
    assert.equal(index.status, 200, host);
    assert.equal(index.headers.get('x-request-id'), `index-of-${host}`, host);
    assert.equal(accessLine(lines, `index-of-${host}`).host, host);
  }
  const toolRefusal = await call(svc.urls.mcp, 'POST', '/mcp', { raw: 'not json', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
  assert.match(toolRefusal.headers.get('x-request-id') ?? '', GENERATED);
});

eachDialect('a well-formed client id is kept; a malformed one is replaced', async (dialect, t) => {
  const { svc, lines } = await loggedService(dialect);
  t.after(() => svc.close());
  for (const id of ['a', 'trace-42', 'Svc.edge:7f3a_01', '0'.repeat(128)]) {
    const answer = await call(svc.api, 'GET', '/health', { headers: { 'x-request-id': id } });
    assert.equal(answer.headers.get('x-request-id'), id);
    accessLine(lines, id);
  }
  for (const id of ['0'.repeat(129), 'two words', 'semi;colon', 'é', 'a/b', '']) {
    const answer = await call(svc.api, 'GET', '/health', { headers: { 'x-request-id': id } });
    assert.match(answer.headers.get('x-request-id') ?? '', GENERATED, JSON.stringify(id));
  }
  // A repeated header arrives joined with a comma: not one id, so it is replaced.
  const repeated = await rawRequest(svc.api, [`GET /health HTTP/1.1\r\nHost: x\r\nUser-Agent: ${USER_AGENT}\r\nX-Request-Id: one\r\nX-Request-Id: two\r\nConnection: close\r\n\r\n`]);
  assert.equal(repeated.status, 200);
  assert.match(repeated.headers['x-request-id'] ?? '', GENERATED);
});

eachDialect('the access line: host, method, route template, status, duration and account, never the key', async (dialect, t) => {
  const { svc, lines } = await loggedService(dialect);
  t.after(() => svc.close());
  const { key, accountId } = await signup(svc.api);
  await call(svc.api, 'GET', '/objects/obj_missing', { key, headers: { 'x-request-id': 'read-missing' } });
  await call(svc.api, 'GET', '/account', { key: `${key}x`, headers: { 'x-request-id': 'wrong-key' } });
  await call(svc.urls.lab, 'GET', '/models', { key, headers: { 'x-request-id': 'lab-models' } });
  const missing = accessLine(lines, 'read-missing');
  assert.deepEqual({ ...missing, time: 0, pid: 0, hostname: '', duration_ms: 0 }, {
    level: 30, time: 0, pid: 0, hostname: '', host: 'api', reqId: 'read-missing', method: 'GET', route: '/objects/:id', status: 404, duration_ms: 0, account: accountId, msg: 'request',
  });
  assert.ok(typeof missing.duration_ms === 'number' && missing.duration_ms >= 0);
  const wrong = accessLine(lines, 'wrong-key');
  assert.equal(wrong.status, 401);
  assert.ok(!('account' in wrong), 'no account for a key that names none');
  assert.deepEqual([accessLine(lines, 'lab-models').host, accessLine(lines, 'lab-models').route], ['lab', '/models']);
  const text = JSON.stringify(lines);
  assert.ok(!text.includes(key), 'no key in any log line');
  assert.ok(!text.includes(key.slice(-12)), 'no part of a key in any log line');
});

eachDialect('a job keeps the id and trace of the request that queued it, and its log lines name the id', async (dialect, t) => {
  const { svc, lines } = await loggedService(dialect);
  t.after(() => svc.close());
  const { key, accountId } = await signup(svc.api);
  const queued = await call(svc.api, 'POST', '/ingest', {
    key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD' }),
    headers: { 'x-request-id': 'ingest-from-client-1', traceparent: TRACEPARENT, tracestate: 'acme=7' },
  });
  assert.equal(queued.status, 202, queued.text);
  assert.equal(queued.headers.get('x-request-id'), 'ingest-from-client-1');
  assert.equal((await waitForJob(svc.api, key, queued.headers.get('location')!)).status, 'succeeded');
  const row = await svc.services.jobs.get(queued.body.id, accountId);
  // No OpenTelemetry SDK is installed here: the trace is kept as it arrived.
  assert.deepEqual([row!.request_id, row!.traceparent, row!.tracestate], ['ingest-from-client-1', TRACEPARENT, 'acme=7']);
  const ran = lines.filter((l) => l.job === queued.body.id);
  assert.ok(ran.some((l) => l.msg === 'job run ended' && l.outcome === 'succeeded' && l.verb === 'ingest'), JSON.stringify(ran));
  assert.ok(ran.every((l) => l.reqId === 'ingest-from-client-1'), JSON.stringify(ran));

  // A malformed traceparent is ignored: the job keeps the request id and no trace.
  const untraced = await call(svc.api, 'POST', '/ingest', {
    key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }),
    headers: { traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01' },
  });
  await waitForJob(svc.api, key, untraced.headers.get('location')!);
  const untracedRow = await svc.services.jobs.get(untraced.body.id, accountId);
  assert.deepEqual([untracedRow!.request_id, untracedRow!.traceparent], [untraced.headers.get('x-request-id'), null]);
});

eachDialect('a request\'s traceparent is passed on to the geocoder it calls; a malformed one is not', async (dialect, t) => {
  const nominatim = await fakeUpstream(json(200, [{ lat: '45.7637', lon: '4.8317', display_name: 'Lyon', place_rank: 30, addresstype: 'building' }]));
  t.after(() => nominatim.close());
  const svc = await startService(dialect, { CATRISK_GEOCODING: '1', CATRISK_GEOCODERS: `nominatim ${nominatim.url} 2000`, CATRISK_GEOCODER_INTERVAL_MS: '0' });
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const traced = await call(svc.api, 'GET', '/geocode?q=Lyon', { key, headers: { traceparent: TRACEPARENT, tracestate: 'acme=7,other=x' } });
  assert.equal(traced.status, 200, traced.text);
  assert.equal(nominatim.received.at(-1)!.headers.traceparent, TRACEPARENT);
  assert.equal(nominatim.received.at(-1)!.headers.tracestate, 'acme=7,other=x');
  for (const malformed of ['ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', `${TRACEPARENT}-extra`, '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01']) {
    await call(svc.api, 'GET', '/geocode?q=Lyon', { key, headers: { traceparent: malformed } });
    assert.equal(nominatim.received.at(-1)!.headers.traceparent, undefined, malformed);
  }
  await call(svc.api, 'GET', '/geocode?q=Lyon', { key });
  assert.equal(nominatim.received.at(-1)!.headers.traceparent, undefined, 'none sent when none arrived');
});

eachDialect('a webhook delivery passes on the trace its job was queued in', async (dialect, t) => {
  const received: IncomingHttpHeaders[] = [];
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => { received.push(request.headers); response.writeHead(200).end('ok'); });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const { svc, lines } = await loggedService(dialect, { CATRISK_OUTBOUND_ALLOW_HTTP: 'true', CATRISK_OUTBOUND_ALLOW_LOOPBACK: 'true' });
  t.after(() => svc.close());
  const { key, accountId } = await signup(svc.api);
  const terms = ACCEPTANCE_BODIES.earthquake as any;
  const trigger = { ...terms.trigger, data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: latestVersion('usgs-comcat-m6-california') }] };
  const made = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, ...terms, trigger, period: { start: '2019-01-01', end: '2019-12-31' } } });
  assert.equal(made.status, 201, made.text);
  const structure = await call(svc.api, 'POST', `/objects/${made.body.id}/structures`, { key });
  const record = await call(svc.api, 'POST', `${structure.body.links.self}/monitoring`, { key });
  assert.equal(record.status, 201, record.text);
  const port = (receiver.address() as AddressInfo).port;
  const hook = await call(svc.api, 'POST', `/monitoring/${record.body.id}/webhooks`, { key, body: { url: `http://127.0.0.1:${port}/hook` } });
  assert.equal(hook.status, 201, hook.text);

  // A delivery queued by work that had a trace (as a request's would be): its attempt carries it.
  const at = new Date().toISOString();
  await svc.services.monitoring.insertDelivery({
    id: 'msg_traced', webhook_id: hook.body.id, record_id: record.body.id, event_type: 'monitoring.level_reached',
    body: JSON.stringify({ type: 'monitoring.level_reached', timestamp: at, data: {} }), status: 'pending', created_at: at, next_attempt_at: at,
  });
  const job = await svc.services.jobs.create({
    accountId, verb: 'webhook_delivery', subject: { delivery_id: 'msg_traced' }, input: { delivery_id: 'msg_traced', attempt: 1 },
    origin: { requestId: 'sweep-7', traceparent: TRACEPARENT, tracestate: 'acme=7' },
  });
  svc.services.wakeWorker();
  const done = await waitForJob(svc.api, key, `/jobs/${job.id}`);
  assert.equal(done.result.outcome, 'delivered', JSON.stringify(done));
  assert.equal(received.length, 1);
  assert.equal(received[0]!.traceparent, TRACEPARENT);
  assert.equal(received[0]!.tracestate, 'acme=7');
  assert.equal(received[0]!['webhook-id'], 'msg_traced', 'the delivery itself is unchanged');
  assert.ok(lines.some((l) => l.job === job.id && l.msg === 'job run ended' && l.reqId === 'sweep-7'));
  const scraped = await scrape(svc);
  assert.equal(valueOf(scraped, 'catrisk_webhook_deliveries_total', { outcome: 'delivered' }), 1);
  assert.equal(valueOf(scraped, 'catrisk_job_duration_seconds_count', { kind: 'webhook_delivery', outcome: 'succeeded' }), 1);
});
