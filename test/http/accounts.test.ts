// Signup, account, keys and the credential rules of SPEC Authentication, over real HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';

eachDialect('signup answers 201 with the account and a key shown once', async (dialect) => {
  const svc = await sharedService(dialect);
  const full = await call(svc.api, 'POST', '/signup', { body: { email: 'analyst@example.com', label: 'pricing desk' } });
  assert.equal(full.status, 201);
  const b = full.body;
  assert.match(b.id, /^acct_[0-9a-f]{24}$/);
  assert.equal(b.plan, 'sandbox');
  assert.equal(b.label, 'pricing desk');
  assert.equal(b.email, 'analyst@example.com');
  assert.match(b.schema_version, /^\d+\.\d+\.\d+$/);
  assert.ok(!Number.isNaN(Date.parse(b.created_at)));
  assert.match(b.api_key.id, /^key_[0-9a-f]{24}$/);
  assert.equal(b.api_key.scheme, 'Bearer');
  assert.equal(b.api_key.expires_at, null);
  assert.ok(b.api_key.secret.length >= 40);

  for (const empty of [undefined, {}]) {
    const answer = empty === undefined
      ? await call(svc.api, 'POST', '/signup')
      : await call(svc.api, 'POST', '/signup', { body: empty });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.email, undefined);
  }
  const bare = await call(svc.api, 'POST', '/signup', { raw: '', headers: { 'content-type': 'application/json' } });
  assert.equal(bare.status, 201);

  // Only the digest is stored: the secret appears nowhere in the database.
  const keys = await svc.services.database.db.selectFrom('api_keys').selectAll().execute();
  assert.ok(keys.every((k) => k.secret_digest !== b.api_key.secret && !JSON.stringify(k).includes(b.api_key.secret)));

  const account = await call(svc.api, 'GET', '/account', { key: b.api_key.secret });
  assert.equal(account.status, 200);
  assert.equal(account.body.id, b.id);
  assert.ok(!account.text.includes(b.api_key.secret), 'GET /account never shows the secret');
  assert.equal(account.body.api_keys[0].id, b.api_key.id);
});

eachDialect('signup refuses unknown members, wrong types and unreadable bodies', async (dialect) => {
  const svc = await sharedService(dialect);
  const unknown = await call(svc.api, 'POST', '/signup', { body: { label: 'x', plan: 'enterprise' } });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.code, 'invalid_request');
  assert.deepEqual(envelopeFaults(unknown), []);
  assert.ok(unknown.body.error.details.some((d: string) => d.includes('plan')));

  const several = await call(svc.api, 'POST', '/signup', { body: { email: 7, colour: 'red' } });
  assert.equal(several.status, 422);
  assert.equal(several.body.error.details.length, 2, 'one detail per fault');

  const badEmail = await call(svc.api, 'POST', '/signup', { body: { email: 'not an address' } });
  assert.equal(badEmail.status, 422);

  const notObject = await call(svc.api, 'POST', '/signup', { body: [1, 2] });
  assert.equal(notObject.status, 422);

  const broken = await call(svc.api, 'POST', '/signup', { raw: '{"label":', headers: { 'content-type': 'application/json' } });
  assert.equal(broken.status, 400);
  assert.equal(broken.body.error.code, 'invalid_request');

  const text = await call(svc.api, 'POST', '/signup', { raw: 'label=x', headers: { 'content-type': 'text/plain' } });
  assert.equal(text.status, 415);
  assert.equal(text.body.error.code, 'unsupported_media_type');

  const surrogate = await call(svc.api, 'POST', '/signup', { raw: '{"label":"\\ud800"}', headers: { 'content-type': 'application/json' } });
  assert.equal(surrogate.status, 400);

  const huge = await call(svc.api, 'POST', '/signup', { raw: JSON.stringify({ label: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
  assert.equal(huge.status, 413);
  assert.equal(huge.body.error.code, 'payload_too_large');
  for (const a of [unknown, several, badEmail, notObject, broken, text, surrogate, huge]) assert.deepEqual(envelopeFaults(a), []);
});

eachDialect('every wrong credential answers 401 unauthenticated with WWW-Authenticate: Bearer', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  const cases: Array<[string, Record<string, string>]> = [
    ['no header', {}],
    ['Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Token scheme', { authorization: `Token ${key}` }],
    ['Bearer with an empty key', { authorization: 'Bearer ' }],
    ['Bearer alone', { authorization: 'Bearer' }],
    ['altered key', { authorization: `Bearer ${altered}` }],
    ['key not held by this environment', { authorization: 'Bearer crk_0000000000000000000000000000000000000000000' }],
  ];
  for (const [name, headers] of cases) {
    const answer = await call(svc.api, 'GET', '/account', { headers });
    assert.equal(answer.status, 401, name);
    assert.equal(answer.body.error.code, 'unauthenticated', name);
    assert.equal(answer.headers.get('www-authenticate'), 'Bearer', name);
    assert.ok(!/expir/i.test(answer.body.error.message), `${name}: never an expiry`);
    assert.deepEqual(envelopeFaults(answer), [], name);
  }
  assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
  // The scheme name is case-insensitive (RFC 9110).
  assert.equal((await call(svc.api, 'GET', '/account', { headers: { authorization: `bearer ${key}` } })).status, 200);
});

eachDialect('the key is checked before the path', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const without = await call(svc.api, 'GET', '/no/such/route');
  assert.equal(without.status, 401);
  const withKey = await call(svc.api, 'GET', '/no/such/route', { key });
  assert.equal(withKey.status, 404);
  assert.equal(withKey.body.error.code, 'not_found');
  // A documentation path on the API host answers 401 or 404 (SPEC Hosts rule 1).
  assert.equal((await call(svc.api, 'GET', '/llms.txt')).status, 401);
  assert.equal((await call(svc.api, 'GET', '/schema.json', { key })).status, 404);
});

eachDialect('keys survive a restart of the service', async (dialect) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-restart-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase({ migrated: true }) : undefined;
  const env: Record<string, string> = { CATRISK_STATE_DIR: stateDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  try {
    const first = await startService(dialect, env);
    const { key, accountId } = await signup(first.api, { label: 'survivor' });
    await first.close();
    const second = await startService(dialect, env);
    try {
      const account = await call(second.api, 'GET', '/account', { key });
      assert.equal(account.status, 200);
      assert.equal(account.body.id, accountId);
    } finally {
      await second.close();
    }
  } finally {
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
});
