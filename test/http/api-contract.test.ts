// The API contract: an OpenAPI 3.1 document generated from the running API and lab hosts, valid by
// a real OpenAPI validator, listing every route each host serves with its named error codes; and
// the reference page that renders it from the installed swagger-ui-dist files.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES } from '../../src/kernel/refusal.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { call, signup, startService, type TestService } from '../support/service.js';

let svc: TestService;
let contract: any;
before(async () => {
  svc = await startService('sqlite');
  const answer = await call(svc.urls.docs, 'GET', '/schema/api-contract.v0.json');
  assert.equal(answer.status, 200);
  contract = answer.body;
});
after(() => svc.close());

const CODES = new Set(ERROR_CODES.map((c) => c.code));
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{path}');
const operations = () => Object.entries(contract.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));

test('the contract is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(contract));
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
  assert.equal(validator.version, '3.1');
  assert.equal(contract['x-id'], 'api-contract.v0.json');
  // Every reference points into the document.
  for (const ref of JSON.stringify(contract).matchAll(/"\$ref":"#\/([^"]+)"/g)) {
    const target = ref[1]!.split('/').reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
    assert.ok(target !== undefined, `#/${ref[1]} resolves`);
  }
});

const HTTP_HOSTS = ['api', 'data', 'docs', 'lab'] as const;

test('every route the API, data room, docs and lab hosts serve is in paths with its method', () => {
  for (const name of HTTP_HOSTS) {
    const host = svc.hosts.find((h) => h.name === name)!;
    assert.ok(host.routes.length >= 3, name);
    for (const route of host.routes) {
      const op = contract.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      assert.ok(op, `${name}: ${route.method} ${route.path}`);
      assert.ok(op['x-hosts'].includes(name), `${route.method} ${route.path} names the ${name} host`);
      // An operation of one other host names its server first; one served on several hosts (GET /health) names each.
      if (name !== 'api' && route.path !== '/') {
        if (op['x-hosts'].length === 1) assert.equal(op.servers[0].url, svc.urls[name], `${route.method} ${route.path} names the ${name} server`);
        else assert.deepEqual(op.servers.map((s: { url: string }) => s.url), op['x-hosts'].map((h: keyof typeof svc.urls) => svc.urls[h]), `${route.method} ${route.path} names each host's server`);
      }
      const keyless = route.auth === 'none';
      assert.equal(op.security.length === 0, keyless, `${route.method} ${route.path}: security says whether a key is needed`);
    }
  }
  // No operation is listed that no host serves.
  const served = new Set(svc.hosts.filter((h) => (HTTP_HOSTS as readonly string[]).includes(h.name)).flatMap((h) => h.routes.map((r) => `${r.method} ${openApiPath(r.path)}`)));
  for (const { name } of operations()) assert.ok(served.has(name), name);
});

test('each operation lists its named error codes, and every refusal is the envelope', () => {
  for (const { name, op } of operations()) {
    assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${name} has a summary`);
    assert.ok(Array.isArray(op['x-error-codes']) && op['x-error-codes'].length > 0, `${name} lists error codes`);
    for (const code of [...op['x-error-codes'], ...(op['x-job-error-codes'] ?? [])]) assert.ok(CODES.has(code), `${name}: ${code} is a named code`);
    const statuses = Object.keys(op.responses);
    assert.ok(statuses.some((s) => /^[23]/.test(s)), `${name} documents its success`);
    for (const status of statuses.filter((s) => Number(s) >= 400)) {
      assert.equal(op.responses[status].content['application/json'].schema.$ref, '#/components/schemas/error.v0', `${name} ${status}`);
    }
    for (const code of op['x-error-codes']) {
      for (const status of ERROR_CODES.find((c) => c.code === code)!.status) assert.ok(op.responses[status], `${name}: ${code} has its ${status}`);
    }
    // The path answers any other method 405 with Allow: a generated client knows the refusal.
    assert.ok(op['x-error-codes'].includes('method_not_allowed'), `${name} names method_not_allowed`);
    assert.ok(op.responses['405'].headers.Allow, `${name}: 405 names its Allow header`);
  }
  const codes = (name: string) => operations().find((o) => o.name === name)!.op['x-error-codes'] as string[];
  // The refusals SPEC names per route.
  for (const [name, code] of [
    ['POST /objects', 'invalid_risk_object'], ['POST /objects/{id}/structures', 'invalid_structure'],
    ['GET /hazard', 'unsupported_peril'], ['GET /hazard', 'outside_feed_coverage'], ['GET /events/{peril}', 'no_event_catalogue'],
    ['GET /events/{peril}/{event_id}/footprint', 'no_event_footprint'], ['GET /feeds/{feed_id}/versions/{version}/data', 'feed_not_servable'],
    ['POST /ingest', 'unsupported_media_type'], ['POST /ingest', 'payload_too_large'], ['POST /ingest', 'account_cancelled'],
    ['PATCH /objects/{id}', 'precondition_failed'], ['GET /jobs/{id}', 'unauthenticated'],
  ] as const) assert.ok(codes(name).includes(code), `${name}: ${code}`);
  assert.ok(!codes('GET /health').includes('unauthenticated'), 'GET /health takes no key');
  assert.ok(!codes('GET /ready').includes('unauthenticated') && codes('GET /ready').includes('not_ready'), 'GET /ready takes no key and may answer 503 not_ready');
  assert.deepEqual(operations().find((o) => o.name === 'GET /health')!.op['x-hosts'], ['api', 'lab'], 'the lab host answers GET /health too');
  const ingestJob = operations().find((o) => o.name === 'POST /ingest')!.op['x-job-error-codes'];
  assert.deepEqual([...ingestJob].sort(), ['currency_conflict', 'unsupported_source']);
});

test('documented response shapes leave answers as the canonical serializer writes them', async () => {
  const { key } = await signup(svc.api);
  for (const path of ['/health', '/account', '/usage', '/feeds']) {
    const answer = await call(svc.api, 'GET', path, { key });
    assert.equal(answer.status, 200, path);
    assert.equal(answer.text, canonicalJson(answer.body), `${path} is canonical JSON, every member kept`);
  }
});

test('the API reference page renders the contract from bundled assets', async () => {
  const page = await call(svc.urls.docs, 'GET', '/reference');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  assert.doesNotMatch(page.text, /https?:\/\//, 'no asset comes from another host');
  const assets = [...page.text.matchAll(/(?:src|href)="(\/reference\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  assert.ok(assets.length >= 3, page.text);
  const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png/ };
  for (const asset of assets) {
    const answer = await fetch(svc.urls.docs + asset, { headers: { 'user-agent': 'catrisk-tests/1.0' } });
    assert.equal(answer.status, 200, asset);
    assert.match(answer.headers.get('content-type')!, types[asset.split('.').pop()!]!, asset);
    assert.ok((await answer.arrayBuffer()).byteLength > 0, asset);
  }
  const script = await call(svc.urls.docs, 'GET', '/reference/assets/reference.js');
  assert.ok(script.text.includes('/schema/api-contract.v0.json'));
  assert.equal((await call(svc.urls.docs, 'GET', '/reference/assets/index.html')).status, 404);
  const index = await call(svc.urls.docs, 'GET', '/llms.txt');
  assert.ok(index.text.includes('(/reference)'), 'llms.txt lists the reference page');
});

test('exported formats are in the contract beside the JSON, with 406 for an Accept not served', () => {
  const op = (name: string) => operations().find((o) => o.name === name)!.op;
  for (const [name, types] of [
    ['GET /backtests/{id}', ['application/json', 'text/csv']],
    ['GET /runs/{id}', ['application/json', 'text/csv']],
    ['GET /events/{peril}', ['application/json', 'text/csv', 'application/geo+json']],
    ['GET /objects/{id}/locations', ['application/json', 'text/csv']],
  ] as const) {
    assert.deepEqual(Object.keys(op(name).responses['200'].content).sort(), [...types].sort(), name);
    assert.ok(op(name)['x-error-codes'].includes('not_acceptable'), name);
    assert.equal(op(name).responses['406'].content['application/json'].schema.$ref, '#/components/schemas/error.v0', name);
    assert.ok(op(name).parameters.some((p: any) => p.in === 'query' && p.name === 'format'), `${name} takes format=`);
  }
});
