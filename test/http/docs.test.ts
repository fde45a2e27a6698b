// The documentation host: pages, raw markdown, llms.txt, published schemas and the API contract.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startService, type TestService } from '../support/service.js';

let svc: TestService;
before(async () => { svc = await startService('sqlite'); });
after(() => svc.close());

test('pages render as HTML and as raw markdown; llms.txt indexes them', async () => {
  const index = await call(svc.urls.docs, 'GET', '/llms.txt');
  assert.equal(index.status, 200);
  const links = [...index.text.matchAll(/\]\((\/[^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length >= 10);
  for (const link of links) {
    const answer = await call(svc.urls.docs, 'GET', link);
    assert.equal(answer.status, 200, link);
  }
  const page = await call(svc.urls.docs, 'GET', '/errors');
  assert.match(page.headers.get('content-type')!, /text\/html/);
  assert.match(page.text, /<h1[^>]*>Errors<\/h1>/);
  const raw = await call(svc.urls.docs, 'GET', '/errors.md');
  assert.match(raw.headers.get('content-type')!, /text\/markdown/);
  assert.ok(raw.text.startsWith('# Errors'));
  assert.equal((await call(svc.urls.docs, 'GET', '/nope')).status, 404);
});

test('schemas are served without a key; the API contract comes from the running routes', async () => {
  const list = await call(svc.urls.docs, 'GET', '/schema');
  const names = list.body.schemas.map((s: any) => s.name);
  for (const name of ['risk-object.v0', 'error.v0', 'event-catalogue.v0', 'event-footprint.v0', 'lab-metrics.v1', 'api-contract.v0']) assert.ok(names.includes(name), name);
  const riskObject = await call(svc.urls.docs, 'GET', '/schema.json');
  assert.equal(riskObject.body.title, 'Canonical risk object');
  const contract = await call(svc.urls.docs, 'GET', '/schema/api-contract.v0.json');
  const paths = contract.body.paths;
  for (const r of ['GET /health', 'POST /signup', 'GET /jobs/{id}', 'POST /ingest', 'PATCH /objects/{id}', 'GET /events/{peril}', 'GET /hazard']) {
    const [method, path] = r.split(' ') as [string, string];
    assert.ok(paths[path]?.[method.toLowerCase()], r);
  }
  assert.deepEqual(paths['/health'].get.security, [], 'GET /health takes no key');
  assert.ok(contract.body['x-error-codes'].some((c: any) => c.code === 'unsupported_source'));
});

test('the lab models\' page is generated from the lane declarations: each model, its members and their schemas', async () => {
  const { LAB_LANES } = await import('../../src/app/lab-lanes.js');
  const raw = await call(svc.urls.docs, 'GET', '/lab-models.md');
  assert.equal(raw.status, 200);
  assert.ok(raw.text.startsWith('# Lab models'));
  for (const lane of LAB_LANES) {
    assert.ok(raw.text.includes(`## \`${lane.id}\``), lane.id);
    for (const [name, member] of Object.entries(lane.members)) {
      assert.ok(raw.text.includes(`| \`${name}\` | \`${JSON.stringify(member.schema).replace(/\|/g, '\\|')}\` |`), `${lane.id}: ${name}`);
    }
  }
  const index = await call(svc.urls.docs, 'GET', '/llms.txt');
  assert.ok(index.text.includes('(/lab-models.md)'), 'llms.txt lists the lab models\' page');
  assert.match((await call(svc.urls.docs, 'GET', '/lab-models')).text, /<table>/);
});
