// A raw-socket fuzz of every host, kept small: request lines, methods (CONNECT among them),
// targets, versions, Host lines, malformed and oversized headers, every body framing (bad,
// doubled, unterminated chunked encoding), sent as bytes. Every request is answered (never a
// connection dropped without one), nothing is a 5xx, and every answer of 400 or above is the SPEC
// envelope with the RateLimit headers (and X-Request-Id, once the edge writes it on any answer).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';
import { eachDialect, envelopeFaults, signup, startService, USER_AGENT } from '../support/service.js';

/** Mostly the well-formed value, sometimes one of the odd ones: most requests carry one or two faults, not ten. */
function mostly<T>(usual: T, ...odd: T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
}

const method = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constant('CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'get', 'Post', 'FROB', 'M-SEARCH', 'PRI', 'G@T', '') },
);
const target = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('/', '/health', '/signup', '/account', '/jobs/abc', '/objects', '/events/earthquake?limit=2',
    '/mcp', '/catalog', '/models', '/llms.txt', '/nowhere') },
  { weight: 1, arbitrary: fc.constantFrom('/jobs/%zz', '/jobs/a%00b', '*', 'http://localhost/health', 'example.com:443',
    `/jobs/${'x'.repeat(300)}`, '/health?x=%', '//health', '/ spaced', '/\x7f', '') },
);
const version = mostly('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'http/1.1', 'HTTP/1.1 extra', '');
const host = mostly('one', 'missing', 'two', 'empty');
const agent = mostly<string | undefined>(USER_AGENT, 'curl/8.5.0', undefined);
const auth = fc.constantFrom('none', 'good', 'good', 'wrong', 'Basic abc');
const oddHeader = mostly<string | undefined>(undefined, 'NoColonHere', 'Bad Name: x', 'X-Space : x', ' folded continuation',
  'X-Control: a\x01b', 'X-Nul: a\x00b', `X-Filler: ${'f'.repeat(17_000)}`, 'many', 'Content-Type: text/plain', 'Expect: 200-ok',
  'Upgrade: websocket');
const framing = mostly('none', 'length', 'length-short', 'bad-length', 'negative-length', 'two-lengths', 'chunked',
  'chunked-bad-size', 'chunked-unterminated', 'chunked-extension', 'gzip-then-chunked', 'chunked-then-gzip', 'length-and-chunked');
const payload = fc.constantFrom('', '{}', '{"label":"fuzz"}', 'not json', `${'['.repeat(100)}1${']'.repeat(100)}`);
const lineEnd = mostly('\r\n', '\n');

const request = fc.record({ method, target, version, host, agent, auth, oddHeader, framing, payload, lineEnd, hostIndex: fc.nat(4) });
type Case = typeof request extends fc.Arbitrary<infer T> ? T : never;

function bytesOf(c: Case, key: string): string {
  const eol = c.lineEnd;
  const line = [c.method, c.target, c.version].filter((part) => part !== '').join(' ');
  const headers: string[] = [];
  if (c.host === 'one') headers.push('Host: localhost');
  if (c.host === 'two') headers.push('Host: localhost', 'Host: elsewhere');
  if (c.host === 'empty') headers.push('Host:');
  if (c.agent) headers.push(`User-Agent: ${c.agent}`);
  if (c.auth === 'good') headers.push(`Authorization: Bearer ${key}`);
  if (c.auth === 'wrong') headers.push('Authorization: Bearer crk_wrong');
  if (c.auth === 'Basic abc') headers.push('Authorization: Basic abc');
  if (c.oddHeader === 'many') for (let i = 0; i < 150; i += 1) headers.push(`X-Many-${i}: ${i}`);
  else if (c.oddHeader) headers.push(c.oddHeader);
  headers.push('Connection: close', 'Content-Type: application/json');
  const length = Buffer.byteLength(c.payload);
  const chunk = length > 0 ? `${length.toString(16)}${eol}${c.payload}${eol}` : '';
  let body = '';
  switch (c.framing) {
    case 'length': headers.push(`Content-Length: ${length}`); body = c.payload; break;
    case 'length-short': headers.push(`Content-Length: ${length + 10}`); body = c.payload; break;
    case 'bad-length': headers.push(`Content-Length: ${length}x`); body = c.payload; break;
    case 'negative-length': headers.push('Content-Length: -1'); break;
    case 'two-lengths': headers.push(`Content-Length: ${length}`, `Content-Length: ${length + 1}`); body = c.payload; break;
    case 'chunked': headers.push('Transfer-Encoding: chunked'); body = `${chunk}0${eol}${eol}`; break;
    case 'chunked-bad-size': headers.push('Transfer-Encoding: chunked'); body = `zz${eol}${c.payload}${eol}0${eol}${eol}`; break;
    case 'chunked-unterminated': headers.push('Transfer-Encoding: chunked'); body = chunk; break;
    case 'chunked-extension': headers.push('Transfer-Encoding: chunked'); body = `${length.toString(16)};name=value${eol}${c.payload}${eol}0${eol}${eol}`; break;
    case 'gzip-then-chunked': headers.push('Transfer-Encoding: gzip, chunked'); body = `${chunk}0${eol}${eol}`; break;
    case 'chunked-then-gzip': headers.push('Transfer-Encoding: chunked, gzip'); body = `${chunk}0${eol}${eol}`; break;
    case 'length-and-chunked': headers.push(`Content-Length: ${length}`, 'Transfer-Encoding: chunked'); body = `${chunk}0${eol}${eol}`; break;
  }
  return `${line}${eol}${headers.map((h) => `${h}${eol}`).join('')}${eol}${body}`;
}

/** What is wrong with one answer; none for a success or a well-formed refusal. */
function faultsOf(answer: RawAnswer, requestIds: boolean): string[] {
  const faults: string[] = [];
  if (answer.status >= 500) faults.push(`status ${answer.status}`);
  if (answer.status < 400) return faults;
  faults.push(...envelopeFaults({ status: answer.status, headers: new Headers(), text: answer.text, body: answer.body }));
  if (answer.headers['content-type'] !== 'application/json; charset=utf-8') faults.push(`content-type ${answer.headers['content-type']}`);
  if (!/^"default";q=\d+;w=\d+$/.test(answer.headers['ratelimit-policy'] ?? '')) faults.push('no RateLimit-Policy');
  if (!/^"default";r=\d+;t=\d+$/.test(answer.headers.ratelimit ?? '')) faults.push('no RateLimit');
  if (requestIds && !answer.headers['x-request-id']) faults.push('no X-Request-Id');
  if (answer.status === 405 && !answer.headers.allow) faults.push('405 without Allow');
  if (answer.status === 429 && !/^\d+$/.test(answer.headers['retry-after'] ?? '')) faults.push('429 without Retry-After');
  if (/FST_|HPE_|ERR_HTTP/.test(answer.text)) faults.push('internal error name in the body');
  return faults;
}

/** Runs `work` over the items, `width` at a time. */
async function pooled<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  }));
  return results;
}

eachDialect('raw-socket fuzz: every request to every host is answered, and every refusal is the envelope with RateLimit headers', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_REQUEST_TIMEOUT_MS: '1500', CATRISK_HEADERS_TIMEOUT_MS: '1000' });
  try {
    const { key } = await signup(svc.api);
    const hosts = Object.values(svc.urls);
    const cases = fc.sample(request, { numRuns: dialect === 'sqlite' ? 300 : 150, seed: 20261127 });
    const answers = await pooled(cases, 6, async (c) => {
      const bytes = bytesOf(c, key);
      try {
        return { c, bytes, answer: await rawRequest(hosts[c.hostIndex]!, [bytes], 10_000) };
      } catch (error) {
        return { c, bytes, error: (error as Error).message };
      }
    });
    const requestIds = answers.some((a) => a.answer?.headers['x-request-id'] !== undefined);
    const faults = answers.flatMap(({ bytes, answer, error }) => {
      const what = JSON.stringify(bytes.length > 300 ? `${bytes.slice(0, 300)}…` : bytes);
      if (!answer) return [`${what}: ${error}`];
      return faultsOf(answer, requestIds).map((f) => `${what} -> ${answer.status} ${answer.text.slice(0, 200)}: ${f}`);
    });
    assert.deepEqual(faults, []);
    // The fuzz reached the edge's refusals it is about, not only the routes.
    const statuses = new Set(answers.map((a) => a.answer!.status));
    for (const status of [200, 400, 401, 403, 404, 405, 408, 431]) assert.ok(statuses.has(status), `some answer was ${status}: ${[...statuses].sort()}`);
    assert.ok(answers.some((a) => a.c.method === 'CONNECT' && a.answer!.status === 405), 'some CONNECT was answered 405');
    assert.ok(answers.some((a) => a.c.host === 'missing' && a.c.version === 'HTTP/1.1' && a.answer!.status === 400), 'some request without Host was answered 400');
  } finally {
    await svc.close();
  }
});
