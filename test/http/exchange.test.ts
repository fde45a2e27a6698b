// The model exchange end to end over HTTP, on both databases: listings, their states, sealed
// credentials (the database holds no plaintext), grants, the connector check and a run through
// the internal route against a provider platform speaking the documented protocol, run locally
// over HTTPS with a self-signed certificate (test mode trusts it and allows loopback).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { call, eachDialect, envelopeFaults, finishedRun, signup, startService, USER_AGENT, type Answer, type TestService } from '../support/service.js';
import { HAND_MADE_RATE, MODEL_REF, PLATFORM_HOST, PLATFORM_TOKEN, startPlatform } from '../support/exchange-platform.js';
import { probe } from '../../src/providers/safe-outbound.js';
import { ingestedObject } from '../support/objects.js';

const platform = await startPlatform();
after(() => platform.close());

const KEY_1 = Buffer.alloc(32, 7).toString('base64');
const INTERNAL_TOKEN = 'internal-4b1f0c3e9d2a7765-test';
const BASE_URL = `https://${PLATFORM_HOST}:${platform.port}/catrisk`;
const ACCESS_URL = 'https://provider.example.com/catrisk-access';
const ENV = {
  CATRISK_EXCHANGE_KEY: `k1:${KEY_1}`,
  CATRISK_INTERNAL_TOKEN: INTERNAL_TOKEN,
  CATRISK_OUTBOUND_ALLOW_LOOPBACK: 'true',
  CATRISK_OUTBOUND_EXTRA_CA_FILE: platform.caFile,
};
// No DNS on the test machine: the platform's name resolves to the local platform.
const resolve = async (host: string) => (host === PLATFORM_HOST ? ['127.0.0.1'] : []);

function listing(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Kanto quake (provider-run)',
    description: 'Ground-up earthquake losses for Kanto, run on the provider\'s platform.',
    perils: ['earthquake'],
    regions: ['Japan: Kanto'],
    access: 'by_grant',
    access_url: ACCESS_URL,
    connector: { base_url: BASE_URL, model_ref: MODEL_REF },
    provider: { name: 'Example Risk Ltd', email: 'models@provider.example.com' },
    ...overrides,
  };
}

function refusedWith(answer: Answer, status: number, code: string, where: string) {
  assert.equal(answer.status, status, `${where}: ${answer.text}`);
  assert.equal(answer.body?.error?.code, code, where);
  assert.deepEqual(envelopeFaults(answer), [], where);
}

/** The database's bytes (SQLite) or the listings table (PostgreSQL) as text, to look for a plaintext. */
async function storedText(svc: TestService): Promise<string> {
  if (svc.dialect === 'sqlite') {
    // Read by another process: closing a file descriptor of the database in this one would drop the
    // service's POSIX locks on it (SQLite's documented pitfall), and another process's close would
    // then take the write-ahead log from under the service.
    const dir = svc.env.CATRISK_STATE_DIR!;
    const files = readdirSync(dir).filter((f) => f.startsWith('catrisk.sqlite')).map((f) => join(dir, f));
    return execFileSync('cat', files, { maxBuffer: 1 << 30 }).toString('latin1');
  }
  const rows = await sql<Record<string, unknown>>`select * from exchange_models`.execute(svc.services.database.db);
  return JSON.stringify(rows.rows);
}

const runCatrisk = promisify(execFile);
async function operator(svc: TestService, args: string[]) {
  const env = { ...process.env, CATRISK_STATE_DIR: svc.env.CATRISK_STATE_DIR!, DATABASE_URL: svc.env.DATABASE_URL ?? '', CATRISK_LOG_LEVEL: 'silent' };
  return runCatrisk(process.execPath, ['--import', 'tsx', 'src/main.ts', 'exchange', ...args], { env }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

eachDialect('exchange: listings, states, sealed credentials, grants, check and runs on the provider\'s platform', async (dialect) => {
  const svc = await startService(dialect, ENV, { resolve });
  try {
    const { api } = svc;
    const lab = svc.urls.lab;
    const provider = await signup(api);
    const stranger = await signup(api);
    const granted = await signup(api);

    // ---- creation and its refusals ----
    const invalid = await call(api, 'POST', '/exchange/models', { key: provider.key, body: { ...listing(), access: 'paid', perils: [], extra: 1 } });
    refusedWith(invalid, 422, 'invalid_exchange_model', 'invalid listing');
    assert.deepEqual([...invalid.body.error.details].sort(), [
      'listing has an unknown member "extra"',
      'listing.access must be one of "free", "by_grant"',
      'listing.perils must NOT have fewer than 1 items',
    ]);
    refusedWith(await call(api, 'POST', '/exchange/models', { key: provider.key, body: listing({ connector: { base_url: `${BASE_URL}?tenant=1`, model_ref: MODEL_REF } }) }), 422, 'unsafe_platform_address', 'query string');
    refusedWith(await call(api, 'POST', '/exchange/models', { body: listing() }), 401, 'unauthenticated', 'no key');

    const created = await call(api, 'POST', '/exchange/models', { key: provider.key, body: listing() });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    assert.match(id, /^xm_[0-9a-f]{16}$/);
    assert.equal(created.headers.get('location'), `/exchange/models/${id}`);
    assert.equal(created.body.state, 'draft');
    assert.equal(created.body.connector.credentials_stored, false);

    // ---- reads: the provider's own in any state, a listed one for anyone ----
    assert.equal((await call(api, 'GET', `/exchange/models/${id}`, { key: provider.key })).status, 200);
    refusedWith(await call(api, 'GET', `/exchange/models/${id}`), 404, 'not_found', 'draft without key');
    refusedWith(await call(api, 'GET', `/exchange/models/${id}`, { key: stranger.key }), 404, 'not_found', 'another account\'s draft');
    refusedWith(await call(api, 'GET', `/exchange/models/${id}`, { key: 'not-a-key-of-this-environment' }), 401, 'unauthenticated', 'unknown key on the read');
    refusedWith(await call(api, 'GET', '/exchange/models', { key: 'not-a-key-of-this-environment' }), 401, 'unauthenticated', 'unknown key on the list');
    refusedWith(await call(api, 'PATCH', `/exchange/models/${id}`, { key: stranger.key, body: { name: 'Mine now' } }), 404, 'not_found', 'another account\'s PATCH');

    // ---- steps before credentials are stored ----
    refusedWith(await call(api, 'POST', `/exchange/models/${id}/review`, { key: provider.key }), 422, 'exchange_not_ready', 'review without credentials');
    const points = [{ lat: 35.68, lon: 139.76, value: 2_000_000 }, { lat: 35.45, lon: 139.64, value: 750_000 }];
    refusedWith(await call(lab, 'POST', '/runs', { key: provider.key, body: { model: id, exposure: { points } } }), 422, 'exchange_not_ready', 'run before credentials');
    const early = await call(api, 'POST', `/exchange/models/${id}/check`, { key: provider.key });
    assert.equal(early.status, 200, early.text);
    assert.deepEqual(early.body.steps.map((s: any) => [s.step, s.status]), [['address', 'passed'], ['dns', 'passed'], ['tls_connect', 'passed'], ['login', 'failed'], ['model', 'skipped']]);
    assert.match(early.body.steps[3].detail, /no credentials are stored/);

    // ---- credentials: sealed, never answered, never stored in plain ----
    const patched = await call(api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { connector: { credentials: PLATFORM_TOKEN } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.connector.credentials_stored, true);
    assert.equal(patched.body.connector.base_url, BASE_URL, 'the other connector members are kept');
    assert.ok(!patched.text.includes(PLATFORM_TOKEN));
    const stored = await storedText(svc);
    assert.ok(!stored.includes(PLATFORM_TOKEN), 'the plaintext is nowhere in the database');
    assert.ok(!stored.includes(Buffer.from(PLATFORM_TOKEN).toString('base64')), 'nor its base64');
    const row = await svc.services.exchange.get(id);
    assert.equal(row?.credentials_key_id, 'k1');
    assert.ok((row?.credentials_sealed?.length ?? 0) > 28);
    refusedWith(await call(api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { perils: ['hail'] } }), 422, 'invalid_exchange_model', 'PATCH leaving an invalid listing');
    refusedWith(await call(api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { connector: { base_url: 'https://localhost:8443/' } } }), 422, 'unsafe_platform_address', 'PATCH to a local name');

    // ---- the check, step by step and timed ----
    const check = await call(api, 'POST', `/exchange/models/${id}/check`, { key: provider.key });
    assert.equal(check.status, 200, check.text);
    assert.equal(check.body.ok, true, check.text);
    assert.deepEqual(check.body.steps.map((s: any) => s.step), ['address', 'dns', 'tls_connect', 'login', 'model']);
    for (const step of check.body.steps) {
      assert.equal(step.status, 'passed', JSON.stringify(step));
      assert.ok(typeof step.ms === 'number' && step.ms >= 0);
    }
    assert.deepEqual(check.body.steps[1].addresses, ['127.0.0.1']);
    assert.match(check.body.steps[2].detail, /TLSv1\.[23], certificate verified/);
    assert.ok(!check.text.includes(PLATFORM_TOKEN));
    const login = platform.seen.filter((r) => r.path === '/v1/account').at(-1)!;
    assert.equal(login.authorization, `Bearer ${PLATFORM_TOKEN}`, 'the platform is sent the opened credentials');

    // ---- states: review, a person decides ----
    const review = await call(api, 'POST', `/exchange/models/${id}/review`, { key: provider.key });
    assert.equal(review.body.state, 'in_review', review.text);
    refusedWith(await call(api, 'POST', `/exchange/models/${id}/review`, { key: provider.key }), 422, 'exchange_not_ready', 'review twice');
    const noReason = await operator(svc, ['reject', id]);
    assert.equal(noReason.code, 1, 'a rejection needs a reason');
    const rejected = await operator(svc, ['reject', id, '--reason', 'Name the vintage of the exposure data']);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.deepEqual(JSON.parse(rejected.stdout), { id, state: 'rejected' });
    const seen = await call(api, 'GET', `/exchange/models/${id}`, { key: provider.key });
    assert.deepEqual(seen.body.review, { reason: 'Name the vintage of the exposure data' });
    assert.equal((await call(api, 'POST', `/exchange/models/${id}/review`, { key: provider.key })).body.state, 'in_review');
    const approved = await operator(svc, ['approve', id]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal((await operator(svc, ['approve', id])).code, 1, 'approving a listed model is refused');
    refusedWith(await call(api, 'POST', `/exchange/models/${id}/review`, { key: provider.key }), 422, 'exchange_not_ready', 'review of a listed model');

    // A second, free listing, listed too: the list is in name order.
    const free = await call(api, 'POST', '/exchange/models', { key: provider.key, body: listing({ name: 'Alpha flood (provider-run)', access: 'free', perils: ['flood'], connector: { base_url: BASE_URL, model_ref: MODEL_REF, credentials: PLATFORM_TOKEN } }) });
    assert.equal(free.status, 201, free.text);
    const freeId = free.body.id as string;
    await call(api, 'POST', `/exchange/models/${freeId}/review`, { key: provider.key });
    await svc.services.exchange.moveState(freeId, 'in_review', 'listed', new Date().toISOString(), null);
    const listed = await call(api, 'GET', '/exchange/models');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.models.map((m: any) => m.id), [freeId, id]);
    assert.equal(listed.body.count, 2);
    assert.ok(!listed.text.includes(PLATFORM_TOKEN));
    assert.equal(listed.body.models[1].links.grants, undefined, 'grants are linked for the provider only');
    assert.equal((await call(api, 'GET', `/exchange/models/${id}`)).status, 200, 'a listed model without a key');

    // ---- grants, exactly the SPEC's document ----
    refusedWith(await call(api, 'GET', `/exchange/models/${id}/grants`, { key: stranger.key }), 404, 'not_found', 'another account\'s grants');
    refusedWith(await call(api, 'PUT', `/exchange/models/${id}/grants/${granted.accountId}`, { key: stranger.key }), 404, 'not_found', 'another account grants');
    refusedWith(await call(api, 'PUT', `/exchange/models/${freeId}/grants/${granted.accountId}`, { key: provider.key }), 422, 'exchange_not_ready', 'grant on a free listing');
    refusedWith(await call(api, 'PUT', `/exchange/models/${id}/grants/acct_nothex`, { key: provider.key }), 422, 'invalid_request', 'malformed account id');
    const none = await call(api, 'GET', `/exchange/models/${id}/grants`, { key: provider.key });
    assert.deepEqual(none.body, { schema_version: '0.1.0', model_id: id, access: 'by_grant', count: 0, grants: [] });
    const put = await call(api, 'PUT', `/exchange/models/${id}/grants/${granted.accountId}`, { key: provider.key });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(Object.keys(put.body).sort(), ['access', 'count', 'grants', 'model_id', 'schema_version']);
    assert.equal(put.body.count, 1);
    assert.deepEqual(Object.keys(put.body.grants[0]).sort(), ['account_id', 'granted_at']);
    const again = await call(api, 'PUT', `/exchange/models/${id}/grants/${granted.accountId}`, { key: provider.key, body: {} });
    assert.deepEqual(again.body, put.body, 'a grant made again keeps its first time');
    // An id of the right form is granted without being looked up (a grant names an id; whether an
    // account holds it is not told to the provider).
    const second = await call(api, 'PUT', `/exchange/models/${id}/grants/${stranger.accountId.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`, { key: provider.key });
    assert.equal(second.body.count, 2);
    assert.equal(second.body.grants[0].account_id, granted.accountId, 'oldest grant first');

    // ---- runs through the internal route ----
    const refusedRun = await call(lab, 'POST', '/runs', { key: stranger.key, body: { model: id, exposure: { points } } });
    refusedWith(refusedRun, 403, 'exchange_access_refused', 'an account not granted');
    assert.ok(refusedRun.body.error.message.includes(ACCESS_URL));
    assert.deepEqual(refusedRun.body.error.details, [`access_url: ${ACCESS_URL}`]);

    const submitted = await call(lab, 'POST', '/runs', { key: granted.key, body: { model: id, exposure: { points }, parameters: { demand_surge: false } } });
    assert.equal(submitted.status, 202, submitted.text);
    const run = await finishedRun(svc, granted.key, `/runs/${submitted.body.id}`);
    assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
    assert.match(run.label, /Run by its provider on the provider's own platform/);
    assert.deepEqual(run.result.run_by, { provider: 'Example Risk Ltd', platform: `${PLATFORM_HOST}:${platform.port}`, model_ref: MODEL_REF, run_ref: run.result.run_by.run_ref });
    // The hand-made platform's loss, recomputed here from the points sent: 0.1% of the values (exact in binary to 1e-9).
    const expected = points.reduce((s, p) => s + p.value, 0) * HAND_MADE_RATE;
    assert.ok(Math.abs(run.result.provider_result.average_annual_loss - expected) < 1e-9);
    const sent = platform.seen.filter((r) => r.method === 'POST').at(-1)!;
    assert.deepEqual(sent.body, { run_id: submitted.body.id, exposure: { points }, parameters: { demand_surge: false } });
    assert.equal(sent.authorization, `Bearer ${PLATFORM_TOKEN}`);
    assert.ok(!JSON.stringify(run).includes(PLATFORM_TOKEN));
    const job = await call(api, 'GET', new URL(run.links.job).pathname, { key: granted.key });
    assert.ok(!job.text.includes(PLATFORM_TOKEN), 'the job holds no credentials');

    // A stored object's schedule: its located places are sent, each valued at buildings plus contents.
    const objectPath = await ingestedObject(svc, provider.key);
    const object = (await call(api, 'GET', objectPath, { key: provider.key })).body;
    const byObject = await call(lab, 'POST', '/runs', { key: provider.key, body: { model: id, exposure: { object_id: object.id } } });
    assert.equal(byObject.status, 202, byObject.text);
    assert.equal((await finishedRun(svc, provider.key, `/runs/${byObject.body.id}`)).status, 'succeeded');
    const fromObject = platform.seen.filter((r) => r.method === 'POST').at(-1)!.body.exposure.points;
    assert.deepEqual(fromObject, object.exposure.locations.map((l: any) => ({
      lat: l.latitude, lon: l.longitude, value: Number(l.values.buildings ?? 0) + Number(l.values.contents ?? 0),
    })));

    // A run the platform fails fails the lab run, with its message.
    platform.failNext('exposure outside the model domain');
    const failing = await call(lab, 'POST', '/runs', { key: provider.key, body: { model: id, exposure: { points: [points[0]] } } });
    const failed = await finishedRun(svc, provider.key, `/runs/${failing.body.id}`);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'unrunnable_object');
    assert.match(failed.error.message, /exposure outside the model domain/);

    // A grant taken back: the account is refused again; a free listing runs for anyone.
    const revoked = await call(api, 'DELETE', `/exchange/models/${id}/grants/${granted.accountId}`, { key: provider.key });
    assert.equal(revoked.body.count, 1);
    refusedWith(await call(lab, 'POST', '/runs', { key: granted.key, body: { model: id, exposure: { points: [points[1]] } } }), 403, 'exchange_access_refused', 'grant taken back');
    assert.equal((await call(lab, 'POST', '/runs', { key: stranger.key, body: { model: freeId, exposure: { points } } })).status, 202);
    refusedWith(await call(lab, 'POST', '/runs', { key: stranger.key, body: { model: 'xm_0000000000000000', exposure: { points } } }), 404, 'not_found', 'no such exchange model');
    refusedWith(await call(lab, 'POST', '/runs', { key: stranger.key, body: { model: freeId, exposure: { points }, parameters: [1] } }), 422, 'invalid_request', 'parameters not an object');

    // ---- the internal route: same machine, no proxy, the internal credential ----
    const path = `/internal/exchange/models/${id}/connector?account_id=${provider.accountId}`;
    refusedWith(await call(api, 'GET', path), 401, 'unauthenticated', 'no internal credential');
    // The credential is asked for before the query is read: no account_id is still 401, not 422.
    refusedWith(await call(api, 'GET', `/internal/exchange/models/${id}/connector`), 401, 'unauthenticated', 'no internal credential, no account_id');
    const userKey = await call(api, 'GET', path, { key: provider.key });
    refusedWith(userKey, 403, 'internal_only', 'an API key is not the internal credential');
    assert.match(userKey.body.error.message, /not this environment's internal credential/);
    const forwarded = await call(api, 'GET', path, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'x-forwarded-for': '203.0.113.7' } });
    refusedWith(forwarded, 403, 'internal_only', 'forwarded');
    assert.match(forwarded.body.error.message, /forwarded by a proxy \(it carries x-forwarded-for\)/);
    refusedWith(await call(api, 'GET', path, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, forwarded: 'for=203.0.113.7' } }), 403, 'internal_only', 'Forwarded');
    const apiHost = svc.hosts.find((h) => h.name === 'api')!.app;
    const remote = await apiHost.inject({ method: 'GET', url: path, remoteAddress: '198.51.100.20', headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${INTERNAL_TOKEN}` } });
    assert.equal(remote.statusCode, 403);
    assert.equal(remote.json().error.code, 'internal_only');
    assert.match(remote.json().error.message, /did not come from this machine/);
    const internal = await call(api, 'GET', path, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } });
    assert.equal(internal.status, 200, internal.text);
    assert.equal(internal.body.credentials, PLATFORM_TOKEN, 'the one place the credentials are opened: for the lab');
    refusedWith(await call(api, 'GET', `/internal/exchange/models/${id}/connector?account_id=${stranger.accountId}`, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } }), 403, 'exchange_access_refused', 'internal route for an account not granted');

    // ---- published: the listing and grants schemas, the provider protocol, the contract ----
    const docs = svc.urls.docs;
    const index = await call(docs, 'GET', '/schema');
    for (const name of ['exchange-listing.v0', 'exchange-grants.v0', 'exchange-provider.v0']) {
      assert.ok(index.body.schemas.some((s: any) => s.name === name), name);
    }
    assert.equal((await call(docs, 'GET', '/schema/exchange-listing.v0.json')).body.properties.connector.required.join(), 'base_url,model_ref');
    const protocol = (await call(docs, 'GET', '/schema/exchange-provider.v0.json')).body;
    assert.equal(protocol.openapi, '3.1.0');
    const templates = Object.keys(protocol.paths).map((p) => new RegExp(`^${p.replace(/\{\w+\}/g, '[^/]+')}$`));
    for (const request of platform.seen) assert.ok(templates.some((t) => t.test(request.path)), `the service called only documented paths: ${request.path}`);
    assert.deepEqual(Object.keys(protocol.paths).sort(), ['/v1/account', '/v1/models/{model_ref}', '/v1/models/{model_ref}/runs', '/v1/runs/{run_ref}', '/v1/runs/{run_ref}/result']);
    const contract = (await call(docs, 'GET', '/schema/api-contract.v0.json')).body;
    const exchangePaths = Object.entries(contract.paths).filter(([p]) => p.includes('/exchange/')).flatMap(([p, ops]) => Object.keys(ops as object).filter((m) => m !== 'parameters').map((m) => `${m.toUpperCase()} ${p}`));
    assert.equal(exchangePaths.length, 11, exchangePaths.join(', '));
    assert.ok((await call(api, 'GET', '/health')).body.discovery.some((d: any) => d.path === '/exchange/models'));

    // ---- withdraw ----
    const withdrawn = await call(api, 'POST', `/exchange/models/${id}/withdraw`, { key: provider.key });
    assert.equal(withdrawn.body.state, 'withdrawn');
    refusedWith(await call(api, 'POST', `/exchange/models/${id}/withdraw`, { key: provider.key }), 422, 'exchange_not_ready', 'withdraw twice');
    refusedWith(await call(api, 'GET', `/exchange/models/${id}`), 404, 'not_found', 'withdrawn, without key');
    assert.deepEqual((await call(api, 'GET', '/exchange/models')).body.models.map((m: any) => m.id), [freeId]);
    refusedWith(await call(lab, 'POST', '/runs', { key: granted.key, body: { model: id, exposure: { points } } }), 404, 'not_found', 'a withdrawn listing runs for nobody but its provider');
    assert.equal((await call(api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { description: 'Retired.' } })).status, 200, 'PATCH in any state');
  } finally {
    await svc.close();
  }
});

test('production refuses the local platform: its self-signed certificate, and loopback', async () => {
  const url = `https://${PLATFORM_HOST}:${platform.port}/catrisk`;
  const table = async () => ['127.0.0.1'];
  const untrusted = await probe(url, { allowHttp: false, allowLoopback: true, extraCa: undefined, resolve: table }, 5000);
  assert.equal(untrusted.connect?.ok, false);
  assert.match((untrusted.connect as { fault: string }).fault, /self-signed|SELF_SIGNED/i);
  const strict = await probe(url, { allowHttp: false, allowLoopback: false, extraCa: platform.ca, resolve: table }, 5000);
  assert.equal(strict.dns.ok, false);
  assert.match((strict.dns as { fault: string }).fault, /127\.0\.0\.1 is a loopback address/);
});
