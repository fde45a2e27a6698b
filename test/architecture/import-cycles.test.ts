// No import cycles under src/, counting `import type`, `export ... from` and dynamic imports: a
// module that needs what imports it wants a third module both can import. Cycles are read with
// Tarjan's strongly connected components over the import lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { importsOf, moduleOf, sources, SRC } from './source-files.js';

/** The modules of each circle (a component of more than one module, or a module importing itself), sorted. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative: a deep import chain must not overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const walk: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next); low.set(root, next); next += 1; stack.push(root); onStack.add(root);
    while (walk.length > 0) {
      const frame = walk[walk.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next); next += 1; stack.push(to); onStack.add(to);
          walk.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do { member = stack.pop()!; onStack.delete(member); component.push(member); } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** src/'s import graph, by path relative to src/. */
function importGraph(): Map<string, string[]> {
  const rel = (path: string) => relative(SRC, path).split('\\').join('/');
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const targets = importsOf(file, readFileSync(file, 'utf8')).flatMap(({ specifier }) => {
      const target = moduleOf(file, specifier);
      return target ? [rel(target)] : [];
    });
    graph.set(rel(file), [...new Set(targets)]);
  }
  return graph;
}

test('src/ has no import cycle, type imports and re-exports counted', () => {
  const graph = importGraph();
  assert.ok(graph.size > 50, `read ${graph.size} modules under ${SRC}`);
  const found = circles(graph);
  assert.deepEqual(found.map((c) => `a cycle through ${c.join(', ')}`), []);
});

test('a cycle is found whatever its length, and only a cycle', () => {
  const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
  assert.deepEqual(circles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })), [['a', 'b', 'c']]);
  assert.deepEqual(circles(g({ a: ['a'], b: [] })), [['a']]);
  assert.deepEqual(circles(g({ a: ['b', 'c'], b: ['c'], c: [] })), []);
  assert.deepEqual(circles(g({ a: ['b'], b: ['a'], c: ['d'], d: ['c'] })), [['a', 'b'], ['c', 'd']]);
});
