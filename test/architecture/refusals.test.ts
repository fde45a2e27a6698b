// The one refusal idiom (docs/architecture.md), read from the text of every module under src/: a
// refusal is plain data returned in a Result; only the edges (http/, jobs/) throw it, as the carrier
// ApiError.of makes of it. TypeScript lets any value be thrown, so a refusal thrown as data would
// compile and unwind as a bare object: these rules catch what the compiler cannot.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

interface Rule {
  readonly name: string;
  /** Whether the rule holds for a module, by its path under src/. */
  readonly covers: (path: string) => boolean;
  readonly pattern: RegExp;
  readonly why: string;
}

const everywhere = () => true;
/** The edges that unwind (and kernel/, which makes the carrier for them). */
const beyondEdges = (path: string) => !/^(?:http|jobs|kernel)\//.test(path);

const RULES: readonly Rule[] = [
  {
    name: 'thrown data',
    covers: everywhere,
    pattern: /(?:\bthrow\s+|\breject\(\s*|\bdone\(\s*)refusals?\b\s*[.(]/,
    why: 'a Refusal is plain data: thrown, it unwinds as a bare object; an edge throws ApiError.of(refusal)',
  },
  {
    name: 'carrier built',
    covers: (path) => !path.startsWith('kernel/'),
    pattern: /\bnew\s+ApiError\s*\(/,
    why: 'the carrier is made of a Refusal: ApiError.of(refusal(...)) or ApiError.of(refusals.x(...))',
  },
  {
    name: 'carrier beyond the edges',
    covers: beyondEdges,
    pattern: /\bApiError\b/,
    why: 'app/, domain/ and the rest return refused(refusal(...)); only http/ and jobs/ make and throw the carrier',
  },
  {
    name: 'unwrap beyond the edges',
    covers: beyondEdges,
    pattern: /\bunwrap\s*\(/,
    why: 'unwrap throws the refusal: app/, domain/ and the rest return the Result to the edge that unwraps it',
  },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** A comment line (line comment, or a line of a block comment) says nothing the code does. */
const isComment = (line: string) => /^\s*(?:\/\/|\/\*|\*)/.test(line);

/** Each rule a module breaks, with the first line that breaks it; path is under src/ with '/'. */
export function breaches(path: string, text: string): Array<{ rule: string; line: number; why: string }> {
  const lines = text.split('\n');
  const out: Array<{ rule: string; line: number; why: string }> = [];
  for (const rule of RULES) {
    if (!rule.covers(path)) continue;
    const at = lines.findIndex((l) => !isComment(l) && rule.pattern.test(l));
    if (at >= 0) out.push({ rule: rule.name, line: at + 1, why: rule.why });
  }
  return out;
}

test('every module of src/ speaks the one refusal idiom', () => {
  const files = sources(SRC);
  assert.ok(files.length > 50, `read ${files.length} modules under ${SRC}`);
  const found: string[] = [];
  for (const file of files) {
    const path = relative(SRC, file).split(/[\\/]/).join('/');
    for (const b of breaches(path, readFileSync(file, 'utf8'))) found.push(`${path}:${b.line} ${b.rule}: ${b.why}`);
  }
  assert.deepEqual(found, []);
});

test('the rules see each way a refusal is thrown or its carrier made', () => {
  const rules = (path: string, text: string) => breaches(path, text).map((b) => b.rule);
  assert.deepEqual(rules('http/x.ts', "throw refusals.notFound('No such route');"), ['thrown data']);
  assert.deepEqual(rules('jobs/x.ts', "  throw refusal(422, 'invalid_request', 'no');"), ['thrown data']);
  assert.deepEqual(rules('http/x.ts', "return Promise.reject(refusals.invalidRequest(400, 'no'));"), ['thrown data']);
  assert.deepEqual(rules('http/x.ts', "return done(refusals.invalidRequest(400, 'no'), undefined);"), ['thrown data']);
  assert.deepEqual(rules('http/x.ts', "throw new ApiError(403, 'forbidden', 'no');"), ['carrier built']);
  assert.deepEqual(rules('app/x.ts', "return refused(ApiError.of(refusals.notFound('gone')));"), ['carrier beyond the edges']);
  assert.deepEqual(rules('domain/a/x.ts', "import { ApiError } from '../../kernel/refusal.js';"), ['carrier beyond the edges']);
  assert.deepEqual(rules('domain/a/x.ts', 'const terms = unwrap(readTerms(spec));'), ['unwrap beyond the edges']);
  assert.deepEqual(rules('app/x.ts', "throw new ApiError(503, 'server_error', 'no');"), ['carrier built', 'carrier beyond the edges']);
  assert.deepEqual(rules('store/x.ts', "if (e instanceof ApiError) return undefined;"), ['carrier beyond the edges']);
  assert.deepEqual(rules('providers/x.ts', 'return unwrap(await call());'), ['unwrap beyond the edges']);
  // Allowed: data returned in a Result; the carrier made and thrown at an edge; comments.
  assert.deepEqual(rules('app/x.ts', [
    "if (!row) return refused(refusals.notFound(`No job ${id} for this key`));",
    "return refused(refusal(409, 'idempotency_key_in_use', 'busy', undefined, { 'retry-after': '1' }));",
    '// a refusal, never an ApiError: unwrap(result) is the edge\'s',
    ' * throw refusals.notFound() would throw a bare object',
  ].join('\n')), []);
  assert.deepEqual(rules('http/x.ts', [
    "throw ApiError.of(refusals.unauthenticated('No Authorization header.'));",
    'return unwrap(result);',
    "done(ApiError.of(refusals.invalidRequest(400, 'The body is not valid JSON.')), undefined);",
  ].join('\n')), []);
  assert.deepEqual(rules('kernel/refusal.ts', 'return refusal instanceof ApiError ? refusal : new ApiError(refusal);'), []);
});
