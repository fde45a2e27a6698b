// The edge of every host: user agents, unknown paths and methods, rate limits, the envelope.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { test } from 'node:test';
import { isAnonymousAgent } from '../../src/http/user-agents.js';
import { DEFAULT_REFUSED_AGENTS } from '../../src/config.js';
import { VERB_ROUTES } from '../../src/http/api/verbs.js';
import { closeHosts } from '../../src/http/servers.js';
import { head, rawRequest, type RawAnswer } from '../support/raw-http.js';
import { call, clearOfRateWindowReset, eachDialect, envelopeFaults, sharedService, signup, startService, USER_AGENT } from '../support/service.js';

eachDialect('anonymous default-library agents get 403 forbidden before any route runs', async (dialect) => {
  const svc = await sharedService(dialect);
  const agents = ['', '   ', 'curl/8.5.0', 'Wget/1.21', 'python-requests/2.31.0', 'Python-urllib/3.11',
    'Go-http-client/1.1', 'node-fetch/1.0', 'axios/1.6.0', 'undici', 'okhttp/4.12.0', 'Java/17.0.2', 'libwww-perl/6.72',
    // The defaults of Node's built-in fetch, Deno, Bun, aiohttp, httpx, Java's HttpClient, Ruby,
    // PHP (Guzzle), Dart and Rust's reqwest.
    'node', 'Deno/1.40.2', 'Bun/1.0.25', 'Python/3.12 aiohttp/3.9.1', 'python-httpx/0.27.0', 'Java-http-client/17.0.2',
    'Ruby', 'GuzzleHttp/7', 'Dart/3.2 (dart:io)', 'reqwest/0.11.24', 'Faraday v2.9.0'];
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
  // Product names are matched whole: an application named like a library, or naming itself
  // beside its library, passes.
  for (const agent of ['acme-pricing/2.0 (+ops@acme.example)', 'nodeapp/1.0', 'deno-risk-sync/2', 'acme-pricing/1.2 python-requests/2.31.0', 'Mozilla/5.0 (X11; Linux x86_64)']) {
    assert.equal((await call(svc.api, 'GET', '/health', { headers: { 'user-agent': agent } })).status, 200, agent);
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
  const svc = await sharedService(dialect);
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
});

eachDialect('rate limits per key: 429 rate_limited with Retry-After, headers on every answer', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_RATE_LIMIT: '3', CATRISK_ADDRESS_RATE_LIMIT: '1000', CATRISK_RATE_WINDOW_SECONDS: '60' });
  try {
    await clearOfRateWindowReset(60, 15_000);
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
  const svc = await sharedService(dialect);
  for (const [name, url] of Object.entries(svc.urls)) {
    const answer = await call(url, 'GET', '/');
    assert.equal(answer.status, 200, name);
    assert.equal(answer.body.host, name);
    assert.ok(answer.body.what.length > 10);
    assert.match(answer.body.index, /^\//);
  }
  const health = await call(svc.api, 'GET', '/health');
  assert.ok(health.body.discovery.every((d: { lists: string }) => d.lists.endsWith('.')));
  assert.equal(health.body.build.version, JSON.parse(readFileSync('package.json', 'utf8')).version);
  assert.equal(health.body.build.schema_versions.error, '0.1.0');
  assert.ok(health.body.registry);
  // Canonical member order (RFC 8785): keys sorted at every level.
  assert.equal(health.text, JSON.stringify(sortDeep(JSON.parse(health.text))));
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}

test('a User-Agent is anonymous when every product it names is a default library (whole names, not substrings)', () => {
  const refused = new Set<string>(DEFAULT_REFUSED_AGENTS);
  for (const agent of [undefined, '', 'node', 'NODE', 'curl/8.5.0', 'Python/3.12 aiohttp/3.9.1', 'Dart/3.2 (dart:io)', 'Faraday v2.9.0']) {
    assert.equal(isAnonymousAgent(agent, refused), true, String(agent));
  }
  for (const agent of ['nodeapp/1.0', 'node-red-risk/3', 'curling/1', 'acme/1 (node)', 'acme-pricing/1.2 node']) {
    assert.equal(isAnonymousAgent(agent, refused), false, agent);
  }
});

/** Every route the /health document names must be served (SPEC Versioning 7), and nothing else is claimed. */
eachDialect('/health lists only verbs, registry and discovery routes that are registered', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const health = (await call(svc.api, 'GET', '/health')).body;
  const reachable = async (method: string, path: string) => {
    const answer = await call(svc.api, method, path.replace(/\{\w+\}/g, 'x'), { key, headers: { 'content-type': 'application/json' }, raw: method === 'GET' ? undefined : '{}' });
    // A missing route is 404 with a "No route" message; a missing object is a 404 from the route.
    return !(answer.status === 404 && /^No route/.test(answer.body?.error?.message ?? '')) && answer.status !== 405;
  };
  for (const { verb, method, path } of VERB_ROUTES) {
    assert.equal(health.verbs.includes(verb), await reachable(method, path), `${verb}: ${method} ${path}`);
  }
  for (const [name, entry] of Object.entries(health.registry as Record<string, { method: string; path: string }>)) {
    assert.ok(await reachable(entry.method, entry.path), `registry ${name}`);
  }
  for (const entry of health.discovery as Array<{ method: string; path: string }>) {
    assert.ok(await reachable(entry.method, entry.path), `discovery ${entry.path}`);
  }
  assert.ok(health.verbs.includes('ingest') && health.discovery.some((d: { path: string }) => d.path === '/feeds'));
  assert.ok(health.being_retired.verbs.every((v: string) => health.verbs.includes(v)));
});

function assertRefusal(answer: RawAnswer, status: number, code: string, what: string) {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.body?.error?.code, code, what);
  assert.deepEqual(envelopeFaults({ status: answer.status, headers: new Headers(), text: answer.text, body: answer.body }), [], what);
  assert.doesNotMatch(answer.text, /FST_|HPE_|ERR_/, what);
}

const UA = `User-Agent: ${USER_AGENT}`;

eachDialect('requests Node\'s parser or the router refuse are answered in the envelope', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const auth = `Authorization: Bearer ${key}`;
  const cases: Array<[string, string, number, string]> = [
    ['malformed percent-encoding', head('GET /jobs/%zz HTTP/1.1', UA, auth, 'Connection: close'), 400, 'invalid_request'],
    ['truncated UTF-8 escape', head('GET /objects/%E0%A4%A HTTP/1.1', UA, auth, 'Connection: close'), 400, 'invalid_request'],
    ['lower-case method', head('get /health HTTP/1.1', UA), 405, 'method_not_allowed'],
    ['unknown method', head('FROB /health HTTP/1.1', UA), 405, 'method_not_allowed'],
    ['unknown method, unknown path', head('FROB /nowhere HTTP/1.1', UA, auth), 404, 'not_found'],
    ['garbage request line', '\x01\x02 nonsense\r\n\r\n', 400, 'invalid_request'],
    ['Content-Length not a number', head('POST /signup HTTP/1.1', UA, 'Content-Length: abc'), 400, 'invalid_request'],
    ['two different Content-Lengths', head('POST /signup HTTP/1.1', UA, 'Content-Length: 2', 'Content-Length: 3') + '{}', 400, 'invalid_request'],
    ['Content-Length with chunked', head('POST /signup HTTP/1.1', UA, 'Content-Length: 5', 'Transfer-Encoding: chunked') + '0\r\n\r\n', 400, 'invalid_request'],
    ['headers over the limit', head('GET /health HTTP/1.1', UA, `X-Filler: ${'a'.repeat(20_000)}`), 431, 'client_error'],
    ['path parameter over the limit', head(`GET /jobs/${'a'.repeat(500)} HTTP/1.1`, UA, auth, 'Connection: close'), 414, 'client_error'],
    ['an expectation not met', head('POST /signup HTTP/1.1', UA, 'Expect: 200-ok', 'Content-Type: application/json', 'Content-Length: 2', 'Connection: close') + '{}', 417, 'client_error'],
    ['NUL in an id', head('GET /jobs/abc%00def HTTP/1.1', UA, auth, 'Connection: close'), 400, 'invalid_request'],
    ['NUL in a query value', head('GET /events/earthquake?feed=a%00b HTTP/1.1', UA, auth, 'Connection: close'), 400, 'invalid_request'],
  ];
  for (const [what, bytes, status, code] of cases) assertRefusal(await rawRequest(svc.api, [bytes]), status, code, what);

  // The edge's order holds where the request can be read: agent, then key, then path.
  assertRefusal(await rawRequest(svc.api, [head('GET /jobs/%zz HTTP/1.1', 'User-Agent: curl/8.5.0', 'Connection: close')]), 403, 'forbidden', 'bad URL, curl');
  assertRefusal(await rawRequest(svc.api, [head('GET /jobs/%zz HTTP/1.1', UA, 'Connection: close')]), 401, 'unauthenticated', 'bad URL, no key');
  assertRefusal(await rawRequest(svc.api, [head(`GET /jobs/${'a'.repeat(500)} HTTP/1.1`, UA, 'Connection: close')]), 401, 'unauthenticated', 'long id, no key');
  assertRefusal(await rawRequest(svc.api, [head('get /account HTTP/1.1', 'User-Agent: node')]), 403, 'forbidden', 'lower-case method, bare node agent');
  assertRefusal(await rawRequest(svc.api, [head('get /account HTTP/1.1', UA)]), 401, 'unauthenticated', 'lower-case method, no key');
  assertRefusal(await rawRequest(svc.api, [head('get /account HTTP/1.1', UA, 'Authorization: Bearer wrong')]), 401, 'unauthenticated', 'lower-case method, wrong key');
  const lower = await rawRequest(svc.api, [head('get /account HTTP/1.1', UA, auth)]);
  assertRefusal(lower, 405, 'method_not_allowed', 'lower-case method, good key');
  assert.equal(lower.headers.allow, 'GET, HEAD');
  assert.ok(lower.headers.ratelimit, 'RateLimit on a parser refusal');

  // The service still answers afterwards.
  assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
});

eachDialect('slow clients are answered 408 in the envelope and disconnected after the documented timeouts', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_REQUEST_TIMEOUT_MS: '1500', CATRISK_HEADERS_TIMEOUT_MS: '1000' });
  try {
    const { key } = await signup(svc.api);
    const started = Date.now();
    // Headers that never end.
    const slowHead = await rawRequest(svc.api, ['GET /health HTTP/1.1\r\nHost: x\r\n', { waitMs: 600 }, `${UA}\r\n`, { waitMs: 8000 }], 12_000);
    assertRefusal(slowHead, 408, 'client_error', 'slow headers');
    assert.ok(slowHead.closed);
    // A body that trickles in and never completes.
    const body = JSON.stringify({ label: 'x'.repeat(100) });
    const trickle: Array<string | { waitMs: number }> = [head('POST /signup HTTP/1.1', UA, 'Content-Type: application/json', `Content-Length: ${body.length}`)];
    for (let i = 0; i < 20; i += 1) trickle.push(body[i]!, { waitMs: 400 });
    const slowBody = await rawRequest(svc.api, trickle, 12_000);
    assert.ok(slowBody.closed, 'the slow body\'s connection is closed');
    assert.ok(slowBody.status === 408, `slow body answered ${slowBody.status} ${slowBody.text}`);
    assertRefusal(slowBody, 408, 'client_error', 'slow body');
    assert.ok(Date.now() - started < 11_000);
    // Nothing was stored from the slow signup, and the service answers.
    assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
    const accounts = await svc.services.database.db.selectFrom('accounts').select('id').execute();
    assert.equal(accounts.length, 1);
  } finally {
    await svc.close();
  }
});

eachDialect('RateLimit headers arrive on 401 and 403 answers too', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_ADDRESS_RATE_LIMIT: '50' });
  try {
    const answers = [
      await call(svc.api, 'GET', '/account'),
      await call(svc.api, 'GET', '/account', { key: 'crk_wrong' }),
      await call(svc.api, 'GET', '/account', { headers: { authorization: 'Basic abc' } }),
      await call(svc.api, 'GET', '/nowhere'),
      await call(svc.api, 'GET', '/health', { headers: { 'user-agent': 'curl/8.5.0' } }),
      await call(svc.urls.lab, 'GET', '/models'),
      await call(svc.urls.data, 'GET', '/catalog', { headers: { 'user-agent': 'node' } }),
    ];
    for (const a of answers) {
      assert.ok([401, 403].includes(a.status), `${a.status} ${a.text}`);
      assert.equal(a.headers.get('ratelimit-policy'), '"default";q=50;w=60', a.text);
      assert.match(a.headers.get('ratelimit') ?? '', /^"default";r=\d+;t=\d+$/);
    }
  } finally {
    await svc.close();
  }
});

eachDialect('a flood of wrong keys from one address is refused 429 without a key lookup each', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_INVALID_KEY_LIMIT: '10' });
  try {
    const { key } = await signup(svc.api);
    assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
    let lookups = 0;
    const accounts = svc.services.accounts;
    const original = accounts.keyByDigest.bind(accounts);
    accounts.keyByDigest = async (digest: string) => { lookups += 1; return original(digest); };
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 60; i += 1) {
      last = await call(svc.api, 'GET', '/account', { key: `crk_wrong_${i}` });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(11), Array(49).fill(429));
    assert.equal(last!.body.error.code, 'rate_limited');
    assert.deepEqual(envelopeFaults(last!), []);
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    assert.match(last!.headers.get('ratelimit') ?? '', /^"default";r=0;t=\d+$/);
    assert.ok(lookups <= 11, `${lookups} key lookups for 60 wrong keys`);
    // A key already known still works from that address.
    assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
  } finally {
    await svc.close();
  }
});

test('under load on PostgreSQL, killed and stalled client connections crash nothing, hang nothing and lose nothing', { skip: !process.env.CATRISK_TEST_PG && 'PostgreSQL not available' }, async () => {
  const svc = await startService('postgres', { CATRISK_REQUEST_TIMEOUT_MS: '2000', CATRISK_HEADERS_TIMEOUT_MS: '1000' });
  try {
    const keys: string[] = [];
    const body = JSON.stringify({ label: 'load' });
    const signupBytes = head('POST /signup HTTP/1.1', UA, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Connection: close');
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 120; i += 1) {
      switch (i % 4) {
        case 0: // a whole signup: must be stored and its key must work
          work.push(signup(svc.api).then((s) => keys.push(s.key)));
          break;
        case 1: // killed half-way through its body
          work.push(new Promise<void>((resolve) => {
            const socket = net.connect(Number(new URL(svc.api).port), '127.0.0.1', () => {
              socket.write(signupBytes + body.slice(0, 5));
              setTimeout(() => { socket.destroy(); resolve(); }, 20);
            });
            socket.on('error', () => resolve());
          }));
          break;
        case 2: // stalled: the body never finishes; answered 408 and closed
          work.push(rawRequest(svc.api, [signupBytes + body.slice(0, 5), { waitMs: 6000 }], 8000).then((a) => {
            assert.equal(a.status, 408, a.text);
            assert.ok(a.closed);
          }));
          break;
        default: // a keyed read from a known key while the rest goes on
          work.push(keys.length > 0 ? call(svc.api, 'GET', '/account', { key: keys[0]! }).then((a) => assert.equal(a.status, 200)) : Promise.resolve());
      }
    }
    await Promise.all(work);
    // Every whole signup is stored and answers; no partial one was stored.
    assert.equal(keys.length, 30);
    for (const key of keys) assert.equal((await call(svc.api, 'GET', '/account', { key })).status, 200);
    const accounts = await svc.services.database.db.selectFrom('accounts').select('id').execute();
    assert.equal(accounts.length, 30);
    assert.equal((await call(svc.api, 'GET', '/health')).status, 200);
  } finally {
    await svc.close();
  }
});

/** A refusal written at the edge: the envelope, and the RateLimit headers of the bucket it was counted in. */
function assertCountedRefusal(answer: RawAnswer, status: number, code: string, what: string, policy = /^"default";q=\d+;w=\d+$/) {
  assertRefusal(answer, status, code, what);
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', what);
  assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.text), what);
  assert.match(answer.headers['ratelimit-policy'] ?? '', policy, `${what}: RateLimit-Policy`);
  assert.match(answer.headers.ratelimit ?? '', /^"default";r=\d+;t=\d+$/, `${what}: RateLimit`);
}

eachDialect('an HTTP/1.1 request without exactly one Host is refused 400 invalid_request in the envelope, on every host', async (dialect) => {
  const svc = await sharedService(dialect);
  for (const [name, url] of Object.entries(svc.urls)) {
    const missing = await rawRequest(url, [`GET / HTTP/1.1\r\n${UA}\r\n\r\n`]);
    assertCountedRefusal(missing, 400, 'invalid_request', `${name}: no Host`);
    assert.match(missing.body.error.message, /Host/);
    assert.equal(missing.headers.connection, 'close');
    assert.ok(missing.closed, `${name}: the connection is closed`);
    assertCountedRefusal(await rawRequest(url, [`GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n${UA}\r\n\r\n`]), 400, 'invalid_request', `${name}: two Hosts`);
  }
  // The edge's order holds: an anonymous agent is refused first.
  assertCountedRefusal(await rawRequest(svc.api, ['GET /health HTTP/1.1\r\nUser-Agent: curl/8.5.0\r\n\r\n']), 403, 'forbidden', 'no Host, curl');
  // HTTP/1.0 has no Host requirement.
  const old = await rawRequest(svc.api, [`GET /health HTTP/1.0\r\n${UA}\r\n\r\n`]);
  assert.equal(old.status, 200, old.text);
});

eachDialect('CONNECT is answered 405 method_not_allowed with Allow on every host, never dropped', async (dialect) => {
  const svc = await sharedService(dialect);
  for (const [name, url] of Object.entries(svc.urls)) {
    const tunnel = await rawRequest(url, [`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${UA}\r\n\r\n`]);
    assertCountedRefusal(tunnel, 405, 'method_not_allowed', `${name}: CONNECT host:port`);
    const allowed = tunnel.headers.allow!.split(', ');
    assert.ok(allowed.includes('GET') && !allowed.includes('CONNECT'), `${name}: Allow ${tunnel.headers.allow}`);
    assert.match(tunnel.body.error.message, /CONNECT/);
    assert.ok(tunnel.closed, `${name}: the connection is closed`);
  }
  // A path served here: Allow names that path's methods.
  const health = await rawRequest(svc.api, [head('CONNECT /health HTTP/1.1', UA)]);
  assertCountedRefusal(health, 405, 'method_not_allowed', 'CONNECT /health');
  assert.equal(health.headers.allow, 'GET, HEAD');
  // The edge's order holds: agent, then the key of a keyed path.
  assertCountedRefusal(await rawRequest(svc.api, [head('CONNECT example.com:443 HTTP/1.1', 'User-Agent: curl/8.5.0')]), 403, 'forbidden', 'CONNECT, curl');
  assertCountedRefusal(await rawRequest(svc.api, [head('CONNECT /account HTTP/1.1', UA)]), 401, 'unauthenticated', 'CONNECT /account, no key');
  // The service still answers afterwards.
  assert.equal((await call(svc.api, 'GET', '/health')).status, 200);
});

eachDialect('a known path under a method it is not served with answers 405 with Allow on every host (raw bytes)', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  for (const [name, url] of Object.entries(svc.urls)) {
    const index = await rawRequest(url, [head('DELETE / HTTP/1.1', UA, `Authorization: Bearer ${key}`, 'Connection: close')]);
    assertCountedRefusal(index, 405, 'method_not_allowed', `${name}: DELETE /`);
    assert.equal(index.headers.allow, 'GET, HEAD', name);
  }
  for (const method of ['PUT', 'PATCH', 'TRACE', 'OPTIONS']) {
    const answer = await rawRequest(svc.api, [head(`${method} /signup HTTP/1.1`, UA, 'Content-Length: 0', 'Connection: close')]);
    assertCountedRefusal(answer, 405, 'method_not_allowed', `${method} /signup`);
    assert.equal(answer.headers.allow, 'POST', method);
  }
  const keyed = await rawRequest(svc.api, [head('PUT /account HTTP/1.1', UA, `Authorization: Bearer ${key}`, 'Content-Length: 0', 'Connection: close')]);
  assertCountedRefusal(keyed, 405, 'method_not_allowed', 'PUT /account');
  assert.equal(keyed.headers.allow, 'GET, HEAD');
});

eachDialect('the parser\'s own refusals (400, 408, 431) carry RateLimit headers counted per client address, and 429 past the limit', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_ADDRESS_RATE_LIMIT: '8', CATRISK_REQUEST_TIMEOUT_MS: '1500', CATRISK_HEADERS_TIMEOUT_MS: '1000' });
  try {
    await clearOfRateWindowReset(60, 15_000);
    const policy = /^"default";q=8;w=60$/;
    const cases: Array<[string, Array<string | { waitMs: number }>, number, string]> = [
      ['garbage request line', ['\x01\x02 nonsense\r\n\r\n'], 400, 'invalid_request'],
      ['bad Content-Length', [head('POST /signup HTTP/1.1', UA, 'Content-Length: 1x')], 400, 'invalid_request'],
      ['headers over the limit', [head('GET /health HTTP/1.1', UA, `X-Filler: ${'a'.repeat(20_000)}`)], 431, 'client_error'],
      ['malformed chunk size', [head('POST /signup HTTP/1.1', UA, 'Content-Type: application/json', 'Transfer-Encoding: chunked') + 'zz\r\n{}\r\n0\r\n\r\n'], 400, 'invalid_request'],
      ['headers that never end', ['GET /health HTTP/1.1\r\nHost: x\r\n', { waitMs: 2500 }], 408, 'client_error'],
    ];
    const remaining: number[] = [];
    for (const [what, pieces, status, code] of cases) {
      const answer = await rawRequest(svc.api, pieces, 8_000);
      assertCountedRefusal(answer, status, code, what, policy);
      assert.ok(answer.closed, `${what}: the connection is closed`);
      remaining.push(Number(/r=(\d+)/.exec(answer.headers.ratelimit!)![1]));
    }
    // Each answer was counted once against the address (the malformed chunk's request was admitted
    // by the edge before its body failed: its answer carries that count).
    assert.deepEqual(remaining, [7, 6, 5, 4, 3]);
    for (let i = 0; i < 3; i += 1) assert.equal((await call(svc.api, 'GET', '/health')).status, 200);
    const over = await rawRequest(svc.api, ['\x01\x02 nonsense\r\n\r\n']);
    assertCountedRefusal(over, 429, 'rate_limited', 'over the limit', policy);
    assert.match(over.headers['retry-after'] ?? '', /^\d+$/);
    assert.match(over.headers.ratelimit!, /r=0;/);
  } finally {
    await svc.close();
  }
});

eachDialect('at shutdown, a request still unanswered is answered 503 in the envelope with Connection: close, and one arriving while the host drains too', async (dialect) => {
  const svc = await startService(dialect);
  try {
    await signup(svc.api);
    // A key whose lookup never ends: the request stays in flight, as on a stalled database.
    const accounts = svc.services.accounts;
    accounts.keyByDigest = () => new Promise(() => {});
    const stalled = rawRequest(svc.api, [head('GET /account HTTP/1.1', UA, 'Authorization: Bearer crk_never_answered')], 10_000);
    // A request whose head is still arriving when the hosts begin to close.
    const late = rawRequest(svc.api, ['GET /health HTTP/1.1\r\nHost: x\r\n', { waitMs: 400 }, `${UA}\r\n\r\n`], 10_000);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await closeHosts(svc.hosts, 1_000);
    assert.ok(Date.now() - started < 3_000, `closed in ${Date.now() - started} ms`);
    for (const [what, answer] of [['in flight', await stalled], ['arriving while draining', await late]] as const) {
      assertCountedRefusal(answer, 503, 'server_error', what);
      assert.equal(answer.headers.connection, 'close', what);
      assert.match(answer.body.error.message, /shutting down/, what);
      assert.ok(answer.closed, what);
    }
  } finally {
    await svc.close();
  }
});
