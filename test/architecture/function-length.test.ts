// No function in src/ is longer than 150 lines: a longer one is split into named steps. Read with
// the TypeScript compiler's parser, every kind of function counted (declarations, methods,
// accessors, constructors, function expressions and arrows), a nested one on its own as well as
// within its outer one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { sources, SRC } from './source-files.js';

const LIMIT = 150;

interface FunctionLength { readonly where: string; readonly lines: number }

/** The name a function is known by: its own, its variable's or property's, else its line. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (n: ts.Node): string | undefined => {
    const name = (n as { name?: ts.Node }).name;
    return name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
  };
  if (ts.isConstructorDeclaration(node)) return `${named(node.parent) ?? 'class'}.constructor`;
  const own = named(node);
  const inClass = (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && ts.isClassLike(node.parent);
  if (own) return inClass ? `${named(node.parent) ?? 'class'}.${own}` : own;
  const holder = node.parent && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent)) ? named(node.parent) : undefined;
  return holder ?? `function at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}

/** Every function of a module longer than `limit` lines, first line to last. */
export function longFunctions(file: string, text: string, limit = LIMIT): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ where: `${relative(SRC, file).split('\\').join('/')}: ${nameOf(node, source)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in src/ is longer than ${LIMIT} lines`, () => {
  const files = sources();
  assert.ok(files.length > 50, `read ${files.length} modules under ${SRC}`);
  const long = files.flatMap((f) => longFunctions(f, readFileSync(f, 'utf8')));
  assert.deepEqual(long.map((f) => `${f.where} is ${f.lines} lines`), []);
});

test('every kind of function is measured and named', () => {
  const body = (n: number) => Array.from({ length: n }, () => '  x();').join('\n');
  const text = [
    `function plain() {\n${body(3)}\n}`,
    `const arrow = () => {\n${body(3)}\n};`,
    `class Table {\n  record() {\n${body(3)}\n  }\n  constructor() {\n${body(3)}\n  }\n}`,
    `const table = { up: async function () {\n${body(3)}\n} };`,
  ].join('\n');
  assert.deepEqual(longFunctions(`${SRC}/x.ts`, text, 4).map((f) => [f.where, f.lines]), [
    ['x.ts: plain', 5], ['x.ts: arrow', 5], ['x.ts: Table.record', 5], ['x.ts: Table.constructor', 5], ['x.ts: up', 5],
  ]);
  assert.deepEqual(longFunctions(`${SRC}/x.ts`, text, 5), []);
});
