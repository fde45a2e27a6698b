// The edge of every host: user agents, unknown paths and methods, rate limits, the envelope.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { call, eachDialect, envelopeFaults, signup, startService } from '../support/service.js';

eachDialect('anonymous default-library agents get 403 forbidden before any route runs', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const agents = ['', '   ', 'curl/8.5.0', 'Wget/1.21', 'python-requests/2.31.0', 'Python-urllib/3.11',
      'Go-http-client/1.1', 'node-fetch/1.0', 'axios/1.6.0', 'undici', 'okhttp/4.12.0', 'Java/17.0.2', 'libwww-perl/6.72'];
    for (const host of Object.values(svc.urls)) {
      for (const agent of agents) {
        const answer = await call(host, 'GET', '/health', { headers: { 'user-agent': agent } });
        assert.equal(answer.status, 403, `${host} ${JSON.stringify(agent)}`);
        assert.equal(answer.body.error.code, 'forbidden');
        assert.deepEqual(envelopeFaults(answer), []);
      }
    }
    // Refused before authentication too: a good key with a bad agent is still 403.
    const { key } = await signup(svc.api);
    assert.equal((await call(svc.api, 'GET', '/account', { key, headers: { 'user-agent': 'curl/8.5.0' } })).status, 403);
    assert.equal((await call(svc.api, 'GET', '/health', { headers: { 'user-agent': 'acme-pricing/2.0 (+ops@acme.example)' } })).status, 200);
  } finally {
    await svc.close();
  }
});

eachDialect('the refused agent list is configurable', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_REFUSED_AGENTS: 'badbot/' });
  try {
    assert.equal((await call(svc.api, 'GET', '/health', { headers: { 'user-agent': 'curl/8.5.0' } })).status, 200);
    assert.equal((await call(svc.api, 'GET', '/health', { headers: { 'user-agent': 'BadBot/1' } })).status, 403);
  } finally {
    await svc.close();
  }
});

eachDialect('a path served under other methods answers 405 with Allow', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const health = await call(svc.api, 'DELETE', '/health');
    assert.equal(health.status, 405);
    assert.equal(health.body.error.code, 'method_not_allowed');
    assert.equal(health.headers.get('allow'), 'GET, HEAD');
    const account = await call(svc.api, 'POST', '/account', { key });
    assert.equal(account.status, 405);
    assert.equal(account.headers.get('allow'), 'GET, HEAD');
    const signupGet = await call(svc.api, 'GET', '/signup');
    assert.equal(signupGet.status, 405);
    assert.equal(signupGet.headers.get('allow'), 'POST');
    for (const a of [health, account, signupGet]) assert.deepEqual(envelopeFaults(a), []);
  } finally {
    await svc.close();
  }
});

eachDialect('rate limits per key: 429 rate_limited with Retry-After, headers on every answer', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_RATE_LIMIT: '3', CATRISK_ADDRESS_RATE_LIMIT: '1000', CATRISK_RATE_WINDOW_SECONDS: '60' });
  try {
    const a = await signup(svc.api);
    const b = await signup(svc.api);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await call(svc.api, 'GET', '/account', { key: a.key }));
    assert.deepEqual(answers.map((x) => x.status), [200, 200, 200, 429]);
    const refused = answers[3]!;
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.deepEqual(envelopeFaults(refused), []);
    const retry = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.match(refused.body.error.message, /3 requests per 60 s/);
    assert.match(refused.body.error.message, new RegExp(`retry in ${retry} s`));
    for (const [i, x] of answers.entries()) {
      assert.equal(x.headers.get('ratelimit-policy'), '"default";q=3;w=60');
      assert.match(x.headers.get('ratelimit') ?? '', new RegExp(`^"default";r=${Math.max(0, 2 - i)};t=\\d+$`));
    }
    // Limits are per key: another key is untouched.
    assert.equal((await call(svc.api, 'GET', '/account', { key: b.key })).status, 200);
  } finally {
    await svc.close();
  }
});

eachDialect('routes without a key are limited per client address', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_ADDRESS_RATE_LIMIT: '2' });
  try {
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(svc.api, 'GET', '/health')).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  } finally {
    await svc.close();
  }
});

eachDialect('every host answers GET / with what it is and where its index is', async (dialect) => {
  const svc = await startService(dialect);
  try {
    for (const [name, url] of Object.entries(svc.urls)) {
      const answer = await call(url, 'GET', '/');
      assert.equal(answer.status, 200, name);
      assert.equal(answer.body.host, name);
      assert.ok(answer.body.what.length > 10);
      assert.match(answer.body.index, /^\//);
    }
    const health = await call(svc.api, 'GET', '/health');
    assert.deepEqual(health.body.verbs, ['ingest', 'analyse', 'price', 'structure', 'backtest', 'monitor', 'package']);
    assert.deepEqual(health.body.discovery.map((d: { path: string }) => d.path), ['/feeds', '/primitives', '/exchange/models']);
    assert.ok(health.body.discovery.every((d: { lists: string }) => d.lists.endsWith('.')));
    assert.equal(health.body.build.version, JSON.parse(readFileSync('package.json', 'utf8')).version);
    assert.equal(health.body.build.schema_versions.error, '0.1.0');
    assert.ok(health.body.registry);
    // Canonical member order (RFC 8785): keys sorted at every level.
    assert.equal(health.text, JSON.stringify(sortDeep(JSON.parse(health.text))));
  } finally {
    await svc.close();
  }
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}
