// POST, GET and PATCH /objects: the schema, read-only blocks, the structures issue's acceptance
// bodies, metering and tenancy.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob } from '../support/service.js';
import { form, smallSchedule } from '../support/schedules.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';



eachDialect('POST /objects stores a complete object (201), metered; refusals name each violation', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const created = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, peril: { code: 'grid_outage' } } });
  assert.equal(created.status, 201, created.text);
  assert.match(created.body.id, /^obj_[0-9a-f]{24}$/);
  assert.equal(created.headers.get('location'), `/objects/${created.body.id}`);
  assert.equal(created.body.status, 'draft');
  assert.equal(created.body.schema_version, '0.1.0');
  assert.equal(created.body.provenance.runs[0].kind, 'create');
  const read = await call(svc.api, 'GET', `/objects/${created.body.id}`, { key });
  assert.deepEqual(read.body, created.body);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.objects, 1);

  // Objects of all nine perils are valid and storable.
  for (const code of ['earthquake', 'weather_station', 'tropical_cyclone', 'flood', 'wildfire', 'severe_convective_storm', 'cloud_outage', 'extratropical_cyclone', 'grid_outage']) {
    assert.equal((await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, peril: { code } } })).status, 201, code);
  }

  const invalid = await call(svc.api, 'POST', '/objects', { key, body: { exposure: { locations: 'none' }, peril: { code: 'hurricane' }, colour: 'red' } });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.error.code, 'invalid_risk_object');
  assert.ok(invalid.body.error.details.length >= 4, invalid.text);
  assert.ok(invalid.body.error.details.some((d: string) => d.includes('colour')));
  assert.ok(invalid.body.error.details.some((d: string) => d.includes('peril.code')));
  assert.deepEqual(envelopeFaults(invalid), []);
  const notObject = await call(svc.api, 'POST', '/objects', { key, body: [EXPOSURE] });
  assert.equal(notObject.body.error.code, 'invalid_risk_object');
});

eachDialect('PATCH writes whole blocks; read-only blocks and unknown members are refused by name', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv', currency: 'USD' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const path = job.result.objects[0].links.self;
  const before = (await call(svc.api, 'GET', path, { key })).body;

  for (const [peril, body] of Object.entries(ACCEPTANCE_BODIES)) {
    const patched = await call(svc.api, 'PATCH', path, { key, body });
    assert.equal(patched.status, 200, `${peril}: ${patched.text}`);
    assert.deepEqual(patched.body.trigger, (body as any).trigger);
    assert.deepEqual(patched.body.exposure, before.exposure, 'exposure is untouched');
  }
  const again = await call(svc.api, 'GET', path, { key });
  assert.equal(again.body.peril.code, 'wildfire');
  assert.ok(again.body.provenance.runs.length > before.provenance.runs.length, 'provenance only grows');
  assert.deepEqual(again.body.provenance.runs.slice(0, before.provenance.runs.length), before.provenance.runs);

  const readOnly = await call(svc.api, 'PATCH', path, { key, body: { exposure: {}, id: 'obj_x', status: 'priced', provenance: {}, schema_version: '9.9.9' } });
  assert.equal(readOnly.status, 422);
  assert.equal(readOnly.body.error.code, 'invalid_request');
  assert.equal(readOnly.body.error.details.length, 5);
  for (const name of ['exposure', 'id', 'status', 'provenance', 'schema_version']) {
    assert.ok(readOnly.body.error.details.some((d: string) => d.startsWith(name)), name);
  }
  const unknown = await call(svc.api, 'PATCH', path, { key, body: { colour: 'red' } });
  assert.equal(unknown.status, 422);
  const malformed = await call(svc.api, 'PATCH', path, { key, body: { peril: { code: 'hurricane' }, period: { start: 'soon', end: '2027-12-31' } } });
  assert.equal(malformed.status, 422);
  assert.equal(malformed.body.error.code, 'invalid_request');
  assert.equal(malformed.body.error.details.length, 2);
  assert.deepEqual((await call(svc.api, 'GET', path, { key })).body, again.body, 'a refused PATCH changes nothing');

  const cleared = await call(svc.api, 'PATCH', path, { key, body: { trigger: null, parties: { insured: { name: 'Acme Ltd' } }, jurisdiction: { country: 'US' } } });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.trigger, undefined);
  assert.equal(cleared.body.parties.insured.name, 'Acme Ltd');
});

eachDialect('another account\'s object answers 404 to GET and PATCH', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const created = await call(svc.api, 'POST', '/objects', { key: a.key, body: { exposure: EXPOSURE } });
  for (const method of ['GET', 'PATCH']) {
    const answer = await call(svc.api, method, `/objects/${created.body.id}`, { key: b.key, ...(method === 'PATCH' ? { body: { peril: { code: 'flood' } } } : {}) });
    assert.equal(answer.status, 404, method);
    assert.equal(answer.body.error.code, 'not_found');
  }
  assert.equal((await call(svc.api, 'GET', `/objects/${created.body.id}`, { key: a.key })).body.peril, undefined, 'B\'s PATCH did not land');
});
