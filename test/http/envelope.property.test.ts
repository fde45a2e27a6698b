// Random methods, paths, headers and bodies thrown at every host: every answer of 400 or above
// is a valid SPEC envelope, and no 5xx carries a stack.
import assert from 'node:assert/strict';
import fc from 'fast-check';
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
