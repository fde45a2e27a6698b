// The API contract: one OpenAPI 3.1 document per host (api, data room, docs, lab), generated from
// the running hosts, valid by a real OpenAPI validator, each listing every route its host serves at
// its own server, with a stable operationId, its named error codes, and the reference page that
// renders them from the installed swagger-ui-dist files and tries them against each host.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES } from '../../src/kernel/refusal.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { BEING_RETIRED, VERB_ROUTES } from '../../src/http/api/verbs.js';
import { DEPRECATION } from '../../src/http/schemas/operation.js';
import { call, signup, startService, type TestService } from '../support/service.js';

const HTTP_HOSTS = ['api', 'data', 'docs', 'lab'] as const;
type HostName = (typeof HTTP_HOSTS)[number];

let svc: TestService;
const contracts = {} as Record<HostName, any>;
before(async () => {
  svc = await startService('sqlite');
  for (const host of HTTP_HOSTS) {
    const answer = await call(svc.urls.docs, 'GET', `/schema/${host}-contract.v0.json`);
    assert.equal(answer.status, 200, host);
    contracts[host] = answer.body;
  }
});
after(() => svc.close());

const CODES = new Set(ERROR_CODES.map((c) => c.code));
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{path}');
const operationsOf = (host: HostName) => Object.entries(contracts[host].paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ host, name: `${method.toUpperCase()} ${path}`, op })));
const operations = () => HTTP_HOSTS.flatMap(operationsOf);

/**
 * Every operation's id, host by host: generated clients call operations by these names, so an id
 * never changes silently. A new route declares its id in operation() (`id`, required: a verb and
 * its object in camelCase, unique within its host) and is added here.
 */
const OPERATION_IDS: Record<HostName, ReadonlyArray<readonly [string, string]>> = {
  api: [
    ['GET /', 'readHostIndex'],
    ['GET /account', 'readAccount'],
    ['POST /accumulation', 'readAccumulation'],
    ['GET /backtests', 'listBacktests'],
    ['GET /backtests/{id}', 'readBacktest'],
    ['GET /backtests/{id}/chart.png', 'readBacktestChartPng'],
    ['GET /backtests/{id}/chart.svg', 'readBacktestChartSvg'],
    ['GET /events/{peril}', 'listEvents'],
    ['GET /events/{peril}/{event_id}/footprint', 'readEventFootprint'],
    ['GET /exchange/models', 'listListings'],
    ['POST /exchange/models', 'createListing'],
    ['GET /exchange/models/{id}', 'readListing'],
    ['PATCH /exchange/models/{id}', 'patchListing'],
    ['POST /exchange/models/{id}/check', 'checkListing'],
    ['GET /exchange/models/{id}/grants', 'listGrants'],
    ['DELETE /exchange/models/{id}/grants/{account_id}', 'deleteGrant'],
    ['PUT /exchange/models/{id}/grants/{account_id}', 'putGrant'],
    ['POST /exchange/models/{id}/review', 'reviewListing'],
    ['POST /exchange/models/{id}/withdraw', 'withdrawListing'],
    ['POST /exposure-codes', 'codeExposure'],
    ['GET /feeds', 'listFeeds'],
    ['GET /feeds/{feed_id}/versions/{version}', 'readManifest'],
    ['GET /feeds/{feed_id}/versions/{version}/data', 'readSnapshotData'],
    ['GET /geocode', 'geocode'],
    ['GET /hazard', 'readHazard'],
    ['GET /health', 'readHealth'],
    ['POST /ingest', 'ingestSchedule'],
    ['GET /internal/exchange/models/{id}/connector', 'readConnector'],
    ['GET /jobs', 'listJobs'],
    ['GET /jobs/{id}', 'readJob'],
    ['POST /jobs/{id}/cancel', 'cancelJob'],
    ['POST /models', 'composeModel'],
    ['GET /models/{id}', 'readModel'],
    ['POST /models/{id}/runs', 'runModel'],
    ['GET /monitoring', 'listMonitoring'],
    ['DELETE /monitoring/{id}', 'endMonitoring'],
    ['GET /monitoring/{id}', 'readMonitoring'],
    ['GET /monitoring/{id}/webhooks', 'listWebhooks'],
    ['POST /monitoring/{id}/webhooks', 'addWebhook'],
    ['DELETE /monitoring/{id}/webhooks/{webhook_id}', 'removeWebhook'],
    ['POST /multi-building-flags', 'flagMultiBuilding'],
    ['GET /objects', 'listObjects'],
    ['POST /objects', 'createObject'],
    ['GET /objects/{id}', 'readObject'],
    ['PATCH /objects/{id}', 'patchObject'],
    ['POST /objects/{id}/analyse', 'analyseObject'],
    ['GET /objects/{id}/locations', 'listLocations'],
    ['GET /objects/{id}/map.png', 'readObjectMapPng'],
    ['GET /objects/{id}/map.svg', 'readObjectMapSvg'],
    ['POST /objects/{id}/package', 'packageObject'],
    ['POST /objects/{id}/price', 'priceObject'],
    ['POST /objects/{id}/structures', 'cutStructure'],
    ['GET /packages/{id}', 'readPackage'],
    ['GET /packages/{id}/documents/backtest_exhibit.pdf', 'readBacktestExhibitPdf'],
    ['GET /packages/{id}/documents/draft_slip.pdf', 'readDraftSlipPdf'],
    ['GET /packages/{id}/documents/exposure_summary.pdf', 'readExposureSummaryPdf'],
    ['GET /packages/{id}/documents/pricing_exhibit.pdf', 'readPricingExhibitPdf'],
    ['GET /packages/{id}/pack.pdf', 'readPackPdf'],
    ['GET /primitives', 'listPrimitives'],
    ['GET /ready', 'readReadiness'],
    ['POST /signup', 'signUp'],
    ['GET /structures', 'listStructures'],
    ['GET /structures/{id}', 'readStructure'],
    ['POST /structures/{id}/backtest', 'runBacktest'],
    ['POST /structures/{id}/monitoring', 'startMonitoring'],
    ['DELETE /subscription', 'cancelSubscription'],
    ['GET /usage', 'readUsage'],
  ],
  data: [
    ['GET /', 'readHostIndex'],
    ['GET /catalog', 'readCatalog'],
    ['GET /datasets/{feed_id}/{version}/files/{path}', 'readDatasetFile'],
  ],
  docs: [
    ['GET /', 'readHostIndex'],
    ['GET /llms.txt', 'readLlmsIndex'],
    ['GET /reference', 'readReference'],
    ['GET /reference/assets/reference.js', 'readReferenceScript'],
    ['GET /reference/assets/{file}', 'readReferenceAsset'],
    ['GET /schema', 'listSchemas'],
    ['GET /schema.json', 'readRiskObjectSchema'],
    ['GET /schema/{name}', 'readSchema'],
    ['GET /{page}', 'readPage'],
  ],
  lab: [
    ['GET /', 'readHostIndex'],
    ['GET /health', 'readHealth'],
    ['GET /inputs', 'listLabInputs'],
    ['POST /inputs', 'storeLabInput'],
    ['GET /inputs/{id}', 'readLabInput'],
    ['GET /models', 'listLabModels'],
    ['GET /runs', 'listRuns'],
    ['POST /runs', 'submitRun'],
    ['GET /runs/{id}', 'readRun'],
    ['GET /runs/{id}/chart.png', 'readRunChartPng'],
    ['GET /runs/{id}/chart.svg', 'readRunChartSvg'],
  ],
};

test('each host\'s contract is a valid OpenAPI 3.1 document at its own server', async () => {
  for (const host of HTTP_HOSTS) {
    const contract = contracts[host];
    const validator = new Validator();
    const result = await validator.validate(structuredClone(contract));
    assert.equal(result.valid, true, `${host}: ${JSON.stringify(result.errors, null, 1)}`);
    assert.equal(validator.version, '3.1');
    assert.equal(contract['x-id'], `${host}-contract.v0.json`);
    // A generator reads the document's servers: the host's own, and only it.
    assert.deepEqual(contract.servers.map((s: { url: string }) => s.url), [svc.urls[host]], host);
    for (const { name, op } of operationsOf(host)) assert.equal(op.servers, undefined, `${host} ${name} names no server of its own`);
    // Every reference points into the document.
    for (const ref of JSON.stringify(contract).matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = ref[1]!.split('/').reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
      assert.ok(target !== undefined, `${host}: #/${ref[1]} resolves`);
    }
    // SPEC's placeholders are shown as the reader reaches the hosts.
    assert.doesNotMatch(JSON.stringify(contract), /\{(base|lab|data|docs|mcp)_url\}/, host);
  }
});

test('every route a host serves is in its own document with its method, and no other', () => {
  for (const name of HTTP_HOSTS) {
    const host = svc.hosts.find((h) => h.name === name)!;
    assert.ok(host.routes.length >= 3, name);
    for (const route of host.routes) {
      const op = contracts[name].paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      assert.ok(op, `${name}: ${route.method} ${route.path}`);
      assert.equal(op.security.length === 0, route.auth === 'none', `${route.method} ${route.path}: security says whether a key is needed`);
    }
    const served = new Set(host.routes.map((r) => `${r.method} ${openApiPath(r.path)}`));
    for (const { name: op } of operationsOf(name)) assert.ok(served.has(op), `${name}: ${op} is served`);
  }
  // The lab's routes are in the lab's document only: a client generated from the API's calls no lab route.
  assert.equal(contracts.api.paths['/runs'], undefined);
  assert.equal(contracts.api.paths['/models'].get, undefined);
  assert.ok(contracts.lab.paths['/models'].get && contracts.lab.paths['/runs'].post);
});

test('every operation has its own stable operationId and a tag naming its capability', () => {
  for (const host of HTTP_HOSTS) {
    const ids = operationsOf(host).map(({ name, op }) => [name, op.operationId] as const);
    const expected = new Map(OPERATION_IDS[host]);
    for (const [name, id] of ids) {
      assert.ok(expected.has(name), `${host}: ${name} (operationId ${id}) is new: add it to OPERATION_IDS`);
      assert.equal(id, expected.get(name), `${host}: ${name}'s operationId changed (generated clients call it by name)`);
    }
    assert.equal(ids.length, expected.size, `${host}: every listed operation is still served`);
    assert.equal(new Set(ids.map(([, id]) => id)).size, ids.length, `${host}: operationIds are unique`);
    const tags = new Set(contracts[host].tags.map((t: { name: string }) => t.name));
    for (const { name, op } of operationsOf(host)) {
      assert.equal(op.tags.length, 1, `${host} ${name}`);
      assert.ok(tags.has(op.tags[0]), `${host} ${name}: its tag is described`);
    }
  }
  const tagOf = (host: HostName, name: string) => operationsOf(host).find((o) => o.name === name)!.op.tags[0];
  assert.equal(tagOf('api', 'POST /objects/{id}/price'), 'pricing');
  assert.equal(tagOf('api', 'POST /structures/{id}/backtest'), 'backtests');
  assert.equal(tagOf('api', 'POST /objects'), 'objects');
  assert.equal(tagOf('lab', 'POST /runs'), 'lab runs');
});

test('each operation lists its named error codes, and every refusal is the envelope', () => {
  for (const { host, name, op } of operations()) {
    const label = `${host} ${name}`;
    assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${label} has a summary`);
    assert.ok(Array.isArray(op['x-error-codes']) && op['x-error-codes'].length > 0, `${label} lists error codes`);
    for (const code of [...op['x-error-codes'], ...(op['x-job-error-codes'] ?? [])]) assert.ok(CODES.has(code), `${label}: ${code} is a named code`);
    const statuses = Object.keys(op.responses);
    assert.ok(statuses.some((s) => /^[23]/.test(s)), `${label} documents its success`);
    for (const status of statuses.filter((s) => Number(s) >= 400)) {
      assert.equal(op.responses[status].content['application/json'].schema.$ref, '#/components/schemas/error.v0', `${label} ${status}`);
    }
    for (const code of op['x-error-codes']) {
      for (const status of ERROR_CODES.find((c) => c.code === code)!.status) assert.ok(op.responses[status], `${label}: ${code} has its ${status}`);
    }
    // The path answers any other method 405 with Allow: a generated client knows the refusal.
    assert.ok(op['x-error-codes'].includes('method_not_allowed'), `${label} names method_not_allowed`);
    assert.ok(op.responses['405'].headers.Allow, `${label}: 405 names its Allow header`);
    // A database outage (or a shutdown) answers any operation 503 server_error, with Retry-After.
    assert.ok(op.responses['503'].headers['Retry-After'], `${label}: 503 names Retry-After`);
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
  assert.ok(contracts.lab.paths['/health'].get, 'the lab host answers GET /health too, in its own document');
  const ingestJob = operations().find((o) => o.name === 'POST /ingest')!.op['x-job-error-codes'];
  assert.deepEqual([...ingestJob].sort(), ['currency_conflict', 'unsupported_source']);
});

test('what GET /health lists as being retired is deprecated in the contract and answers with Deprecation', async () => {
  const health = await call(svc.api, 'GET', '/health');
  const retiring = health.body.being_retired.verbs as string[];
  assert.deepEqual([...retiring].sort(), [...BEING_RETIRED].sort());
  for (const verb of retiring) {
    const route = VERB_ROUTES.find((v) => v.verb === verb)!;
    const op = contracts.api.paths[route.path][route.method.toLowerCase()];
    assert.equal(op.deprecated, true, `${route.method} ${route.path}`);
    assert.equal(op['x-being-retired'], verb);
  }
  for (const { host, name, op } of operations().filter((o) => o.op.deprecated)) {
    assert.ok(BEING_RETIRED.includes(op['x-being-retired']), `${host} ${name} names the verb being retired`);
    for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
      if (Number(status) < 400) assert.ok(response.headers?.Deprecation, `${host} ${name} ${status} declares Deprecation`);
    }
  }
  // Not deprecated: the verbs that stay.
  assert.equal(contracts.api.paths['/structures/{id}/backtest'].post.deprecated, undefined);
  const { key } = await signup(svc.api);
  const priced = await call(svc.api, 'POST', '/objects/obj_missing/price', { key, body: {} });
  assert.equal(priced.headers.get('deprecation'), DEPRECATION, `a retiring verb's answer says so, a refusal (${priced.status}) too`);
  assert.equal((await call(svc.api, 'GET', '/structures', { key })).headers.get('deprecation'), null);
});

test('the documentation pages declare their markdown, and llms.txt names the hosts by their URLs', async () => {
  const page = contracts.docs.paths['/{page}'].get.responses['200'].content;
  assert.deepEqual(Object.keys(page).sort(), ['text/html', 'text/markdown']);
  const index = await call(svc.urls.docs, 'GET', '/llms.txt');
  assert.doesNotMatch(index.text, /\{(base|lab|data|docs|mcp)_url\}/);
  assert.ok(index.text.includes(`${svc.urls.mcp}/mcp`), index.text);
  const markdown = await call(svc.urls.docs, 'GET', '/exchange.md');
  assert.match(markdown.headers.get('content-type')!, /^text\/markdown/);
  assert.doesNotMatch(markdown.text, /\{(base|lab|data|docs|mcp)_url\}/);
  assert.ok(markdown.text.includes(svc.urls.lab) || markdown.text.includes(svc.api), 'the exchange page names a host by its URL');
});

test('documented response shapes leave answers as the canonical serializer writes them', async () => {
  const { key } = await signup(svc.api);
  for (const path of ['/health', '/account', '/usage', '/feeds']) {
    const answer = await call(svc.api, 'GET', path, { key });
    assert.equal(answer.status, 200, path);
    assert.equal(answer.text, canonicalJson(answer.body), `${path} is canonical JSON, every member kept`);
  }
});

test('the API reference page renders each host\'s contract from bundled assets, and tries them', async () => {
  const page = await call(svc.urls.docs, 'GET', '/reference');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  assert.doesNotMatch(page.text, /https?:\/\//, 'no asset comes from another host');
  const assets = [...page.text.matchAll(/(?:src|href)="(\/reference\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  assert.ok(assets.length >= 4, page.text);
  const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png/ };
  for (const asset of assets) {
    const answer = await fetch(svc.urls.docs + asset, { headers: { 'user-agent': 'catrisk-tests/1.0' } });
    assert.equal(answer.status, 200, asset);
    assert.match(answer.headers.get('content-type')!, types[asset.split('.').pop()!]!, asset);
    assert.ok((await answer.arrayBuffer()).byteLength > 0, asset);
  }
  const script = await call(svc.urls.docs, 'GET', '/reference/assets/reference.js');
  for (const host of HTTP_HOSTS) assert.ok(script.text.includes(`/schema/${host}-contract.v0.json`), host);
  // Offline: the validator badge would send the document to an outside service. Try it out is on.
  assert.ok(script.text.includes('validatorUrl: null'));
  assert.ok(!script.text.includes('supportedSubmitMethods'));
  assert.equal((await call(svc.urls.docs, 'GET', '/reference/assets/index.html')).status, 404);
  const index = await call(svc.urls.docs, 'GET', '/llms.txt');
  assert.ok(index.text.includes('(/reference)'), 'llms.txt lists the reference page');
});

test('the API and lab hosts answer a page on the docs host: preflight, then the answer it may read', async () => {
  const origin = svc.urls.docs;
  const headers = { 'user-agent': 'Mozilla/5.0 (catrisk-tests)', origin };
  for (const [base, path, method] of [[svc.api, '/objects', 'POST'], [svc.urls.lab, '/runs', 'POST'], [svc.api, '/objects/obj_x', 'PATCH']] as const) {
    const preflight = await fetch(base + path, { method: 'OPTIONS', headers: { ...headers, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, idempotency-key' } });
    assert.equal(preflight.status, 204, `${method} ${path}`);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.ok(preflight.headers.get('access-control-allow-methods')!.split(', ').includes(method));
    for (const header of ['Authorization', 'Content-Type', 'Idempotency-Key']) assert.ok(preflight.headers.get('access-control-allow-headers')!.includes(header), header);
    assert.ok(preflight.headers.get('ratelimit'), 'a preflight is counted as any request');
  }
  // A method the path is not served under is not allowed: the refusal as without a page.
  const refused = await fetch(svc.api + '/health', { method: 'OPTIONS', headers: { ...headers, 'access-control-request-method': 'DELETE' } });
  assert.equal(refused.status, 405);
  const read = await fetch(svc.api + '/health', { headers });
  assert.equal(read.headers.get('access-control-allow-origin'), '*');
  assert.ok(read.headers.get('access-control-expose-headers')!.includes('X-Request-Id'));
  const unauthenticated = await fetch(svc.urls.lab + '/runs', { headers });
  assert.equal(unauthenticated.status, 401);
  assert.equal(unauthenticated.headers.get('access-control-allow-origin'), '*', 'a page may read a refusal too');
  // Without an Origin nothing changes.
  assert.equal((await fetch(svc.api + '/health', { headers: { 'user-agent': headers['user-agent'] } })).headers.get('access-control-allow-origin'), null);
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
