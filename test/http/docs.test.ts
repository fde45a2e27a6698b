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
  for (const name of ['risk-object.v0', 'error.v0', 'event-catalogue.v0', 'event-footprint.v0', 'lab-metrics.v1', 'api-contract.v0', 'lab-contract.v0', 'data-contract.v0', 'docs-contract.v0']) assert.ok(names.includes(name), name);
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

test('the docs host\'s home: a browser gets a page linking every page, the reference, the schemas and llms.txt; a client gets the JSON index', async () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const home = await call(svc.urls.docs, 'GET', '/', { headers: { accept: browser } });
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type')!, /^text\/html/);
  // Every page llms.txt lists is linked from the home, and every link of the home answers 200.
  const listed = [...(await call(svc.urls.docs, 'GET', '/llms.txt')).text.matchAll(/\]\((\/[^)]+)\.md\)/g)].map((m) => m[1]!);
  const linked = new Set([...home.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!));
  assert.ok(listed.length >= 30, `${listed.length} pages`);
  assert.deepEqual(listed.filter((p) => !linked.has(p)), []);
  for (const path of ['/reference', '/schema', '/llms.txt', '/schema/api-contract.v0.json']) assert.ok(linked.has(path), path);
  for (const link of linked) assert.equal((await call(svc.urls.docs, 'GET', link)).status, 200, link);
  // A client, or one asking for JSON or for nothing in particular, gets the host index as before.
  for (const accept of [undefined, '*/*', 'application/json', 'text/plain']) {
    const index = await call(svc.urls.docs, 'GET', '/', accept === undefined ? {} : { headers: { accept } });
    assert.equal(index.status, 200, String(accept));
    assert.equal(index.body.host, 'docs', String(accept));
    assert.equal(index.body.index, '/llms.txt');
  }
  // The other hosts answer their index whatever the Accept.
  assert.equal((await call(svc.urls.lab, 'GET', '/', { headers: { accept: browser } })).body.host, 'lab');
});
