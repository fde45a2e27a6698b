// Idempotency-Key over real HTTP on the writes that read it: byte-for-byte replays, another request
// under the same key, concurrent duplicates with one effect, malformed keys, refusals that keep
// nothing, and expiry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, type Answer, type TestService } from '../support/service.js';
import { form, smallSchedule } from '../support/schedules.js';
import { EXPOSURE, ingestedObject } from '../support/objects.js';

const OBJECT = { exposure: EXPOSURE, peril: { code: 'earthquake' } };

const withKey = (key: string) => ({ 'idempotency-key': key });

async function countOf(svc: TestService, table: 'objects' | 'jobs', accountId: string): Promise<number> {
  const row = await svc.services.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The repeat is the first answer given back: same status, headers that matter and bytes. */
function assertReplay(first: Answer, repeat: Answer) {
  assert.equal(repeat.status, first.status);
  assert.equal(repeat.text, first.text, 'the body byte for byte');
  for (const header of ['location', 'etag', 'content-type', 'retry-after']) assert.equal(repeat.headers.get(header), first.headers.get(header), header);
  assert.equal(repeat.headers.get('idempotent-replayed'), 'true');
  assert.equal(first.headers.get('idempotent-replayed'), null);
}

eachDialect('POST /objects with a key is stored once and its answer replayed byte for byte', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const first = await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('create-1') });
  assert.equal(first.status, 201, first.text);
  // Member order and spacing do not make another request.
  const repeat = await call(svc.api, 'POST', '/objects', { key, raw: JSON.stringify({ peril: OBJECT.peril, exposure: EXPOSURE }, null, 2), headers: { ...withKey('create-1'), 'content-type': 'application/json' } });
  assertReplay(first, repeat);
  assert.equal(await countOf(svc, 'objects', accountId), 1);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.objects, 1, 'metered once');

  // The same key with another body, method or path names another request: 422, nothing done.
  const other = await call(svc.api, 'POST', '/objects', { key, body: { ...OBJECT, peril: { code: 'flood' } }, headers: withKey('create-1') });
  assert.equal(other.status, 422);
  assert.equal(other.body.error.code, 'invalid_request');
  assert.match(other.body.error.message, /Idempotency-Key "create-1"/);
  assert.deepEqual(envelopeFaults(other), []);
  const elsewhere = await call(svc.api, 'POST', `/objects/${first.body.id}/price`, { key, body: {}, headers: withKey('create-1') });
  assert.equal(elsewhere.status, 422);
  assert.equal(elsewhere.body.error.code, 'invalid_request');
  assert.equal(await countOf(svc, 'objects', accountId), 1);
  assert.equal(await countOf(svc, 'jobs', accountId), 0);

  // Without a key, or with another, the write is a new one; keys are the account's own.
  assert.notEqual((await call(svc.api, 'POST', '/objects', { key, body: OBJECT })).body.id, first.body.id);
  assert.notEqual((await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('create-2') })).body.id, first.body.id);
  const stranger = await signup(svc.api);
  const theirs = await call(svc.api, 'POST', '/objects', { key: stranger.key, body: OBJECT, headers: withKey('create-1') });
  assert.equal(theirs.status, 201);
  assert.notEqual(theirs.body.id, first.body.id);
  assert.equal(theirs.headers.get('idempotent-replayed'), null);
});

eachDialect('a refused request keeps nothing: the corrected request may use the same key', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  // Refused by the use case (the risk object schema) and by the route's schema.
  const invalid = await call(svc.api, 'POST', '/objects', { key, body: { exposure: { locations: 'none' } }, headers: withKey('fix-me') });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.error.code, 'invalid_risk_object');
  const notObject = await call(svc.api, 'POST', '/objects', { key, body: [OBJECT], headers: withKey('fix-me') });
  assert.equal(notObject.status, 422);
  assert.equal(notObject.body.error.code, 'invalid_risk_object');
  const fixed = await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('fix-me') });
  assert.equal(fixed.status, 201, fixed.text);
  assert.equal(fixed.headers.get('idempotent-replayed'), null);
  assert.equal(await countOf(svc, 'objects', accountId), 1);
});

eachDialect('a key must be 1 to 255 visible ASCII characters', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  for (const bad of ['', 'two words', 'tab\there', 'caf\u00e9', 'k'.repeat(256)]) {
    const refused = await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey(bad) });
    assert.equal(refused.status, 422, JSON.stringify(bad));
    assert.equal(refused.body.error.code, 'invalid_request', JSON.stringify(bad));
    assert.match(refused.body.error.message, /idempotency-key must be 1 to 255 visible ASCII characters/);
    assert.deepEqual(envelopeFaults(refused), []);
  }
  // The same on a route whose schema has its own refusal code, and on the lab host.
  const ingest = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(1), { type: 'text/csv', currency: 'USD' }), headers: withKey('no good') });
  assert.equal(ingest.status, 422);
  assert.equal(ingest.body.error.code, 'invalid_request');
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'oasislmf-windstorm' }, headers: withKey('') });
  assert.equal(run.status, 422);
  assert.equal(run.body.error.code, 'invalid_request');
  assert.equal(await countOf(svc, 'objects', accountId), 0);
  assert.equal(await countOf(svc, 'jobs', accountId), 0);
  // Every visible ASCII character, and 255 of them, make a key.
  const visible = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('');
  for (const good of [visible, 'k'.repeat(255), '"quoted-as-in-the-draft"']) {
    assert.equal((await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey(good) })).status, 201, good);
  }
});

eachDialect('concurrent duplicates have one effect; each is answered the first answer or 409', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const answers = await Promise.all(Array.from({ length: 10 }, () => call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('together') })));
  assert.equal(await countOf(svc, 'objects', accountId), 1, 'one object');
  const created = answers.filter((a) => a.status === 201);
  assert.ok(created.length >= 1);
  for (const a of created) assert.equal(a.text, created[0]!.text);
  assert.equal(created.filter((a) => a.headers.get('idempotent-replayed') === null).length, 1, 'one first answer');
  for (const busy of answers.filter((a) => a.status !== 201)) {
    assert.equal(busy.status, 409, busy.text);
    assert.equal(busy.body.error.code, 'idempotency_key_in_use');
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.deepEqual(envelopeFaults(busy), []);
  }
  // Once answered, every repeat is the first answer.
  const firstAnswer = created.find((a) => a.headers.get('idempotent-replayed') === null)!;
  assertReplay(firstAnswer, await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('together') }));
  // SQLite answers one request at a time, so its duplicates rarely overlap: a first request still
  // being answered is the key's claim without its answer.
  const inFlight = () => svc.services.database.db.updateTable('idempotency_keys').set({ response_status: null })
    .where('account_id', '=', accountId).where('idempotency_key', '=', 'together').execute();
  await inFlight();
  const busy = await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('together') });
  assert.equal(busy.status, 409, busy.text);
  assert.equal(busy.body.error.code, 'idempotency_key_in_use');
  assert.match(busy.body.error.message, /"together" is still being answered/);
  assert.equal(busy.headers.get('retry-after'), '1');
  assert.equal((await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('together') })).status, 409, 'a repeat while in flight is never run');
  assert.equal(await countOf(svc, 'objects', accountId), 1);

  // Multipart ingest: each send of a form has its own boundary, and is still the same request.
  const uploads = await Promise.all(Array.from({ length: 5 }, () => call(svc.api, 'POST', '/ingest', {
    key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }), headers: withKey('upload'),
  })));
  assert.equal(await countOf(svc, 'jobs', accountId), 1, 'one ingest job');
  const accepted = uploads.filter((a) => a.status === 202);
  assert.ok(accepted.length >= 1);
  for (const a of accepted) assert.equal(a.text, accepted[0]!.text);
  for (const busy of uploads.filter((a) => a.status !== 202)) assert.equal(busy.body.error.code, 'idempotency_key_in_use', busy.text);
});

eachDialect('POST /ingest, POST /objects/{id}/price and lab POST /runs replay their first answer', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const upload = () => form(smallSchedule(2), { type: 'text/csv', currency: 'USD' });
  const ingest = await call(svc.api, 'POST', '/ingest', { key, raw: upload(), headers: withKey('ingest-1') });
  assert.equal(ingest.status, 202, ingest.text);
  assertReplay(ingest, await call(svc.api, 'POST', '/ingest', { key, raw: upload(), headers: withKey('ingest-1') }));
  // Another currency, or another file name, is another request.
  const otherCurrency = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'EUR' }), headers: withKey('ingest-1') });
  assert.equal(otherCurrency.status, 422);
  const otherName = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD', filename: 'b.csv' }), headers: withKey('ingest-1') });
  assert.equal(otherName.status, 422);
  assert.equal(await countOf(svc, 'jobs', accountId), 1);

  const objectPath = await ingestedObject(svc, key);
  const price = await call(svc.api, 'POST', `${objectPath}/price`, { key, body: {}, headers: withKey('price-1') });
  assert.equal(price.status, 202, price.text);
  // The job has moved on since; the repeat still answers what the first request was answered.
  assertReplay(price, await call(svc.api, 'POST', `${objectPath}/price`, { key, body: {}, headers: withKey('price-1') }));
  assert.equal(await countOf(svc, 'jobs', accountId), 3, 'two ingests and one price');

  const spec = { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.76, lon: -0.89, value: 1000 }] } };
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: spec, headers: withKey('run-1') });
  assert.ok(run.status === 202 || run.status === 200, run.text);
  assertReplay(run, await call(svc.urls.lab, 'POST', '/runs', { key, body: spec, headers: withKey('run-1') }));
  assert.equal((await call(svc.urls.lab, 'POST', '/runs', { key, body: { ...spec, samples: 1 }, headers: withKey('run-1') })).status, 422);
});

eachDialect('an answer is kept for the configured time, then the key is free again', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_IDEMPOTENCY_TTL_SECONDS: '1' });
  try {
    const { key, accountId } = await signup(svc.api);
    const first = await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('short') });
    assertReplay(first, await call(svc.api, 'POST', '/objects', { key, body: OBJECT, headers: withKey('short') }));
    await new Promise((r) => setTimeout(r, 1_100));
    const after = await call(svc.api, 'POST', '/objects', { key, body: { ...OBJECT, peril: { code: 'flood' } }, headers: withKey('short') });
    assert.equal(after.status, 201, after.text);
    assert.equal(after.headers.get('idempotent-replayed'), null);
    assert.equal(await countOf(svc, 'objects', accountId), 2);
  } finally {
    await svc.close();
  }
});

test('the contract shows the Idempotency-Key header on the writes that read it', async () => {
  const svc = await sharedService('sqlite');
  const contract = (await call(svc.urls.docs, 'GET', '/schema/api-contract.v0.json')).body;
  const lab = (await call(svc.urls.docs, 'GET', '/schema/lab-contract.v0.json')).body;
  for (const [path, method] of [['/ingest', 'post'], ['/objects', 'post'], ['/objects/{id}/price', 'post'], ['/runs', 'post']] as const) {
    const op = (path === '/runs' ? lab : contract).paths[path][method];
    const header = op.parameters.find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
    assert.ok(header, `${method} ${path}`);
    assert.equal(header.required, false);
    assert.ok(op['x-error-codes'].includes('idempotency_key_in_use'), `${method} ${path}`);
    assert.ok(op.responses['409'], `${method} ${path} documents 409`);
  }
  assert.equal(contract.paths['/objects/{id}'].patch.parameters.some((p: any) => p.name === 'Idempotency-Key'), false);
});
