// Monitoring records over HTTP: recorded, measured on every read against the newest pinned
// snapshot, listed, ended; a term ahead of the record; every unmonitorable cause on the request;
// tenancy; webhook registration and its address refusals.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, type Answer, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';
import { latestVersion } from '../support/feeds.js';

const EARTHQUAKE = ACCEPTANCE_BODIES.earthquake as any;

/** An object with the earthquake acceptance terms (period as given) and a structure cut from it. */
async function structureOf(svc: TestService, key: string, terms: Record<string, unknown> = {}): Promise<string> {
  const made = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, ...EARTHQUAKE, ...terms } });
  assert.equal(made.status, 201, made.text);
  const cut = await call(svc.api, 'POST', `/objects/${made.body.id}/structures`, { key });
  assert.equal(cut.status, 201, cut.text);
  return cut.body.links.self;
}

function refusedWith(answer: Answer, status: number, code: string, what: string): void {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.body?.error?.code, code, what);
  assert.deepEqual(envelopeFaults(answer), [], what);
}

eachDialect('a structure recorded as in force is measured on every read, listed and ended', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const structure = await structureOf(svc, key, { period: { start: '2019-01-01', end: '2019-12-31' } });
  const made = await call(svc.api, 'POST', `${structure}/monitoring`, { key, body: { label: 'Ridgecrest cover' } });
  assert.equal(made.status, 201, made.text);
  const record = made.body;
  assert.match(record.id, /^mon_[0-9a-f]{24}$/);
  assert.equal(made.headers.get('location'), `/monitoring/${record.id}`);
  assert.equal(record.label, 'Ridgecrest cover');
  assert.deepEqual(record.in_force, { from: '2019-01-01', to: '2019-12-31' }, 'the term by default');
  assert.equal(record.state, 'expired', 'its last day in force has passed');
  const m = record.measurement;
  assert.equal(m.status, 'complete');
  assert.deepEqual([m.feed.feed_id, m.feed.version], ['usgs-comcat-m6-california', latestVersion('usgs-comcat-m6-california')]);
  assert.match(m.feed.sha256, /^[0-9a-f]{64}$/);
  assert.equal(m.as_of, '2022-12-20');
  assert.deepEqual([m.index.value, m.index.unit, m.index.event_id], [7.1, 'magnitude', 'ci38457511']);
  assert.deepEqual(m.occurrences.map((o: any) => o.event_id), ['ci38457511']);
  assert.deepEqual(m.level, { reached: 2, of: 3, at_least: 7 });
  assert.deepEqual([m.payout_fraction, m.distance_to_attachment, m.distance_to_exhaustion], [0.5, 0, 0.4]);

  const read = await call(svc.api, 'GET', `/monitoring/${record.id}`, { key });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.measurement, m, 'the same snapshot measures the same');
  assert.notEqual(read.body.measured_at, undefined);

  // In force for part of the term only.
  const partial = await call(svc.api, 'POST', `${structure}/monitoring`, { key, body: { in_force: { from: '2019-08-01', to: '2019-12-31' } } });
  assert.equal(partial.status, 201, partial.text);
  assert.deepEqual(partial.body.measurement.term, { year: 2019, from: '2019-08-01', to: '2019-12-31' });
  assert.deepEqual(partial.body.measurement.occurrences, []);

  // Listed newest first, a page at a time, each measured.
  const first = await call(svc.api, 'GET', '/monitoring?limit=1', { key });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body.records.map((r: any) => r.id), [partial.body.id]);
  assert.equal(first.body.records[0].measurement.status, 'complete');
  const second = await call(svc.api, 'GET', first.body.page.next, { key });
  assert.deepEqual(second.body.records.map((r: any) => r.id), [record.id]);
  assert.equal(second.body.page.next, null);

  // Ended: still readable, state ended.
  const ended = await call(svc.api, 'DELETE', `/monitoring/${record.id}`, { key });
  assert.equal(ended.status, 200, ended.text);
  assert.equal(ended.body.state, 'ended');
  assert.match(ended.body.ended_at, /^\d{4}-/);
  assert.equal((await call(svc.api, 'GET', `/monitoring/${record.id}`, { key })).body.state, 'ended');
  refusedWith(await call(svc.api, 'POST', `/monitoring/${record.id}/webhooks`, { key, body: { url: 'https://hooks.example.com/in' } }), 422, 'invalid_request', 'webhook on an ended record');

  // Monitor is listed as being retired, and works (above).
  const health = (await call(svc.api, 'GET', '/health')).body;
  assert.ok(health.verbs.includes('monitor'));
  assert.ok(health.being_retired.verbs.includes('monitor'));
});

eachDialect('a term ahead of the pinned record measures nothing and says so', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const structure = await structureOf(svc, key); // the acceptance body's 2027 term
  const made = await call(svc.api, 'POST', `${structure}/monitoring`, { key });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.state, 'active');
  const m = made.body.measurement;
  assert.equal(m.status, 'ahead_of_record');
  assert.match(m.reason, /2027-01-01 .* after the last day the snapshot holds \(2022-12-20\)/);
  assert.deepEqual([m.index.value, m.level, m.payout_fraction, m.distance_to_attachment, m.occurrences.length], [null, null, null, null, 0], 'never a zero');
  assert.equal((await call(svc.api, 'GET', `/monitoring/${made.body.id}`, { key })).body.measurement.status, 'ahead_of_record');
});

eachDialect('each cause of unmonitorable_structure is refused on the request and named; tenancy answers 404', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const base = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, ...EARTHQUAKE } });
  // The API cuts no structure without a trigger or a term (invalid_structure), so these two are
  // stored directly, as hand-made documents of an account's own structures.
  const stored = async (id: string, terms: Record<string, unknown>) => {
    await svc.services.structures.insert(accountId, { id, object_id: base.body.id, schema_version: '0.1.0', ...terms });
    return `/structures/${id}`;
  };
  const noTrigger = await stored(`str_notrigger${dialect}`, { peril: EARTHQUAKE.peril, financial_structure: EARTHQUAKE.financial_structure, period: EARTHQUAKE.period });
  const noTerm = await stored(`str_noterm${dialect}`, { peril: EARTHQUAKE.peril, trigger: EARTHQUAKE.trigger, financial_structure: EARTHQUAKE.financial_structure });
  const twoSources = await structureOf(svc, key, { trigger: { ...EARTHQUAKE.trigger, data_sources: [EARTHQUAKE.trigger.data_sources[0], { feed_id: 'usgs-comcat-m6-cascadia', version: latestVersion('usgs-comcat-m6-cascadia') }] } });
  const unpinned = await structureOf(svc, key, { trigger: { ...EARTHQUAKE.trigger, data_sources: [{ feed_id: 'usgs-comcat-m6-atlantis', version: '2022-12-20' }] } });
  const unpinnedVersion = await structureOf(svc, key, { trigger: { ...EARTHQUAKE.trigger, data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '1999-01-01' }] } });
  for (const [path, cause] of [[noTrigger, 'no_trigger'], [noTerm, 'no_term'], [twoSources, 'more_than_one_data_source'], [unpinned, 'unpinned_feed'], [unpinnedVersion, 'unpinned_feed']] as const) {
    const refused = await call(svc.api, 'POST', `${path}/monitoring`, { key });
    refusedWith(refused, 422, 'unmonitorable_structure', cause);
    assert.match(refused.body.error.message, new RegExp(`\\(${cause}\\)`), cause);
    assert.ok(refused.body.error.details.some((d: string) => d.startsWith(`${cause}:`)), cause);
  }
  // Days in force holding no day of the term: no term to measure.
  const seasonal = await structureOf(svc, key, { period: { start: '2019-06-01', end: '2019-11-30' } });
  const offSeason = await call(svc.api, 'POST', `${seasonal}/monitoring`, { key, body: { in_force: { from: '2019-01-01', to: '2019-03-31' } } });
  refusedWith(offSeason, 422, 'unmonitorable_structure', 'in force off season');
  assert.match(offSeason.body.error.message, /no_term/);
  // The request's own faults: invalid_request.
  for (const body of [{ in_force: { from: '2019-02-30', to: '2019-03-31' } }, { in_force: { from: '2019-09-01', to: '2019-08-01' } }, { in_force: { from: '2019-01-01' } }, { color: 'red' }, { label: '' }]) {
    refusedWith(await call(svc.api, 'POST', `${seasonal}/monitoring`, { key, body }), 422, 'invalid_request', JSON.stringify(body));
  }

  // Tenancy: another key sees none of it.
  const mine = await call(svc.api, 'POST', `${seasonal}/monitoring`, { key });
  assert.equal(mine.status, 201, mine.text);
  const other = await signup(svc.api);
  for (const [method, path, body] of [
    ['POST', `${seasonal}/monitoring`, undefined], ['GET', `/monitoring/${mine.body.id}`, undefined], ['DELETE', `/monitoring/${mine.body.id}`, undefined],
    ['GET', `/monitoring/${mine.body.id}/webhooks`, undefined], ['POST', `/monitoring/${mine.body.id}/webhooks`, { url: 'https://hooks.example.com/in' }],
    ['DELETE', `/monitoring/${mine.body.id}/webhooks/wh_000000000000000000000000`, undefined], ['GET', '/monitoring/mon_nope', undefined],
  ] as const) {
    refusedWith(await call(svc.api, method, path, { key: other.key, ...(body ? { body } : {}) }), 404, 'not_found', `${method} ${path}`);
  }
  assert.deepEqual((await call(svc.api, 'GET', '/monitoring', { key: other.key })).body.records, []);
  assert.equal((await call(svc.api, 'GET', `/monitoring/${mine.body.id}`, { key })).status, 200);
});

// The address rule at registration, on a service without the loopback allowance, whose resolver
// is a table built here (there is no DNS on the test machine).
const HOSTS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'intranet-hooks.example.com': ['10.0.0.7'],
  'sneaky.example.com': ['93.184.216.34', '192.168.1.20'],
};
let strict: Promise<TestService> | undefined;
after(async () => (await strict)?.close());

test('webhook urls naming non-public addresses or credentials are refused with the reason; a public one is registered, listed and removed', async () => {
  strict ??= startService('sqlite', {}, { resolve: async (host) => HOSTS[host] ?? [] });
  const svc = await strict;
  const { key } = await signup(svc.api);
  const structure = await structureOf(svc, key, { period: { start: '2019-01-01', end: '2019-12-31' } });
  const record = (await call(svc.api, 'POST', `${structure}/monitoring`, { key })).body;
  const hooks = `/monitoring/${record.id}/webhooks`;
  for (const [url, why] of [
    ['https://127.0.0.1/hook', /loopback/], ['https://[::1]/hook', /loopback/], ['https://10.1.2.3/hook', /private/],
    ['https://172.16.0.9/hook', /private/], ['https://172.31.255.1/hook', /private/], ['https://192.168.0.1/hook', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/], ['https://intranet-hooks.example.com/hook', /10\.0\.0\.7.*private|private.*10\.0\.0\.7/],
    ['https://sneaky.example.com/hook', /192\.168\.1\.20/], ['https://user:secret@hooks.example.com/hook', /user name or password/],
    ['http://hooks.example.com/hook', /https/], ['https://localhost/hook', /this machine/],
  ] as const) {
    const refused = await call(svc.api, 'POST', hooks, { key, body: { url } });
    refusedWith(refused, 422, 'invalid_request', url);
    assert.match(refused.body.error.details.join(' '), why, url);
  }
  refusedWith(await call(svc.api, 'POST', hooks, { key, body: {} }), 422, 'invalid_request', 'no url');
  refusedWith(await call(svc.api, 'POST', hooks, { key, body: { url: 'https://hooks.example.com/in', secret: 'mine' } }), 422, 'invalid_request', 'unknown member');

  const made = await call(svc.api, 'POST', hooks, { key, body: { url: 'https://hooks.example.com/in', description: 'ops' } });
  assert.equal(made.status, 201, made.text);
  assert.match(made.body.id, /^wh_[0-9a-f]{24}$/);
  assert.match(made.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const listed = await call(svc.api, 'GET', hooks, { key });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.webhooks.map((w: any) => [w.id, w.url, w.description, w.deliveries.length]), [[made.body.id, 'https://hooks.example.com/in', 'ops', 0]]);
  assert.ok(!listed.text.includes(made.body.secret), 'the secret is shown once');
  const removed = await call(svc.api, 'DELETE', `${hooks}/${made.body.id}`, { key });
  assert.equal(removed.status, 204);
  refusedWith(await call(svc.api, 'DELETE', `${hooks}/${made.body.id}`, { key }), 404, 'not_found', 'removed twice');
  assert.deepEqual((await call(svc.api, 'GET', hooks, { key })).body.webhooks, []);
});

test('the address rule again at delivery: a name that resolved publicly at registration and privately now is not called', async () => {
  strict ??= startService('sqlite', {}, { resolve: async (host) => HOSTS[host] ?? [] });
  const svc = await strict;
  const { key, accountId } = await signup(svc.api);
  const structure = await structureOf(svc, key, { period: { start: '2019-01-01', end: '2019-12-31' } });
  const record = (await call(svc.api, 'POST', `${structure}/monitoring`, { key })).body;
  HOSTS['rebind.example.com'] = ['93.184.216.34'];
  const hook = await call(svc.api, 'POST', `/monitoring/${record.id}/webhooks`, { key, body: { url: 'https://rebind.example.com/in' } });
  assert.equal(hook.status, 201, hook.text);
  HOSTS['rebind.example.com'] = ['10.0.0.7'];
  // A delivery as a moved measurement queues one (stored here directly: this service's feeds do not change).
  const id = 'msg_rebindtest';
  await svc.services.monitoring.insertDelivery({
    id, webhook_id: hook.body.id, record_id: record.id, event_type: 'monitoring.measurement_moved', body: '{"type":"monitoring.measurement_moved"}',
    status: 'pending', created_at: new Date().toISOString(), next_attempt_at: new Date().toISOString(),
  });
  await svc.services.jobs.create({ accountId, verb: 'webhook_delivery', subject: {}, input: { delivery_id: id, attempt: 1 } });
  svc.services.wakeWorker();
  let delivery: any;
  for (const until = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 50))) {
    delivery = (await call(svc.api, 'GET', `/monitoring/${record.id}/webhooks`, { key })).body.webhooks[0].deliveries[0];
    if (delivery.attempts.length > 0) break;
    if (Date.now() > until) throw new Error('no attempt logged');
  }
  const [attempt] = delivery.attempts;
  assert.equal(attempt.http_status, null);
  assert.match(attempt.error, /^unsafe_address: .*10\.0\.0\.7/);
  assert.equal(delivery.status, 'pending', 'retried on the schedule: the name may resolve publicly again');
  assert.ok(delivery.next_attempt_at > attempt.at);
});
