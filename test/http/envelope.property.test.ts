// Random methods, paths, headers and bodies thrown at every host: every answer of 400 or above
// is a valid SPEC envelope, and no 5xx carries a stack.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rawRequest } from '../support/raw-http.js';
import { call, eachDialect, envelopeFaults, signup, startService } from '../support/service.js';

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
const segment = fc.oneof(
  fc.constantFrom('health', 'signup', 'account', 'jobs', 'usage', 'subscription', 'objects', 'feeds', 'events',
    'earthquake', 'catalog', 'models', 'runs', 'mcp', 'schema.json', '..', '%2e%2e', '%00', '00000000-0000-0000-0000-000000000000'),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.array(segment, { minLength: 0, maxLength: 4 }).chain((parts) =>
  fc.option(fc.string({ maxLength: 20 }).map((q) => `?${encodeURIComponent(q)}=1`), { nil: '' })
    .map((query) => `/${parts.join('/')}${query}`));
const contentType = fc.constantFrom(undefined, 'application/json', 'text/plain', 'multipart/form-data', 'application/xml',
  'application/json; charset=utf-16', 'image/png');
const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((j) => j),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const auth = fc.constantFrom('none', 'good', 'Bearer ', 'Basic abc', 'Bearer wrong');

eachDialect('every refusal from every host is a valid envelope', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const hosts = Object.values(svc.urls);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...hosts), methods, path, contentType, body, auth,
      async (host, method, p, type, payload, credential) => {
        const headers: Record<string, string> = {};
        if (type) headers['content-type'] = type;
        if (credential === 'good') headers.authorization = `Bearer ${key}`;
        else if (credential !== 'none') headers.authorization = credential;
        const sendsBody = payload !== undefined && method !== 'GET' && method !== 'HEAD';
        const answer = await call(host, method, p, { headers, raw: sendsBody ? payload : undefined });
        if (answer.status >= 400 && method !== 'HEAD') {
          assert.deepEqual(envelopeFaults(answer), [], `${method} ${p} -> ${answer.status} ${answer.text}`);
        }
        assert.ok(answer.status < 500, `${method} ${p} answered ${answer.status}: ${answer.text}`);
      }), { numRuns: dialect === 'sqlite' ? 400 : 150, seed: 20261122 });
  } finally {
    await svc.close();
  }
});

// Requests written byte for byte: the faults Node's parser and the router catch before any route
// (methods, percent-encoding, framing, header size, over-long ids) and bodies nested far deeper
// than any document. Every answer of 400 or above is still the envelope; none is a 5xx.
const rawMethod = fc.constantFrom('GET', 'POST', 'get', 'post', 'Get', 'FROB', 'PROPFIND', 'M-SEARCH', 'DELETE', 'PATCH');
const rawSegment = fc.oneof(
  fc.constantFrom('health', 'signup', 'account', 'jobs', 'objects', 'events', 'models', 'runs', '%', '%zz', '%E0%A4%A', '%C0%AF',
    '%00', '%ff%fe', '%2F', 'a'.repeat(150), 'b'.repeat(1000)),
  fc.string({ minLength: 1, maxLength: 8 }).map(encodeURIComponent),
);
const rawPath = fc.array(rawSegment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
const deepJson = fc.integer({ min: 1, max: 20_000 }).chain((depth) =>
  fc.constantFrom('[', '{"a":').map((open) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`));
const rawBody = fc.oneof(fc.constant(''), fc.json(), deepJson, fc.constant('{"label":"a\\u0000b"}'));
const framing = fc.constantFrom('length', 'bad-length', 'two-lengths', 'length-and-chunked', 'chunked', 'huge-header', 'expect');
const rawAgent = fc.constantFrom('catrisk-tests/1.0', 'curl/8.5.0', 'node', '');
const rawAuth = fc.constantFrom('none', 'good', 'wrong');

eachDialect('requests refused before any route are valid envelopes too (raw bytes)', async (dialect) => {
  const svc = await startService(dialect);
  try {
    const { key } = await signup(svc.api);
    const hosts = Object.values(svc.urls);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...hosts), rawMethod, rawPath, rawBody, framing, rawAgent, rawAuth,
      async (host, method, p, payload, frame, agent, credential) => {
        const lines = [`${method} ${p} HTTP/1.1`, 'Host: localhost', 'Connection: close', 'Content-Type: application/json'];
        if (agent) lines.push(`User-Agent: ${agent}`);
        if (credential === 'good') lines.push(`Authorization: Bearer ${key}`);
        if (credential === 'wrong') lines.push('Authorization: Bearer crk_wrong');
        const bytes = Buffer.byteLength(payload);
        let body = payload;
        if (frame === 'length' || frame === 'expect') lines.push(`Content-Length: ${bytes}`);
        if (frame === 'expect') lines.push('Expect: 200-ok');
        if (frame === 'bad-length') lines.push(`Content-Length: ${bytes}x`);
        if (frame === 'two-lengths') lines.push(`Content-Length: ${bytes}`, `Content-Length: ${bytes + 1}`);
        if (frame === 'length-and-chunked' || frame === 'chunked') {
          if (frame === 'length-and-chunked') lines.push(`Content-Length: ${bytes}`);
          lines.push('Transfer-Encoding: chunked');
          body = bytes > 0 ? `${bytes.toString(16)}\r\n${payload}\r\n0\r\n\r\n` : '0\r\n\r\n';
        }
        if (frame === 'huge-header') lines.push(`X-Filler: ${'f'.repeat(17_000)}`, `Content-Length: ${bytes}`);
        const answer = await rawRequest(host, [`${lines.join('\r\n')}\r\n\r\n${body}`]);
        const what = `${method} ${p.slice(0, 60)} ${frame} -> ${answer.status} ${answer.text.slice(0, 300)}`;
        assert.ok(answer.status < 500, what);
        if (answer.status >= 400) {
          assert.deepEqual(envelopeFaults({ status: answer.status, headers: new Headers(), text: answer.text, body: answer.body }), [], what);
          assert.doesNotMatch(answer.text, /FST_|HPE_|ERR_HTTP/, what);
        }
      }), { numRuns: dialect === 'sqlite' ? 300 : 120, seed: 20261123 });
  } finally {
    await svc.close();
  }
});
