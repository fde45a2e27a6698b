// Whether a published schema names every member real documents hold: the member paths of a
// document (array items folded to []), and those a schema names, following its references within
// itself and to the other published schemas (by $id). Used by the tests that hold a published
// schema of a structure the domain builds to real output.
import { readFileSync } from 'node:fs';

type Node = Record<string, unknown>;

/** A published schema of schemas/, parsed. */
export function publishedSchema(name: string): Node {
  return JSON.parse(readFileSync(new URL(`../../schemas/${name}.json`, import.meta.url), 'utf8')) as Node;
}

/** Every member name a document holds, by where it sits (.years[].occurrences[].payout). */
export function memberPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) memberPaths(item, `${at}[]`, out);
  else if (value && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      out.add(`${at}.${name}`);
      memberPaths(member, `${at}.${name}`, out);
    }
  }
  return out;
}

function pointed(root: Node, pointer: string): unknown {
  let at: unknown = root;
  for (const part of pointer.split('/').filter((p) => p !== '')) at = (at as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return at;
}

/** Every member path a schema names, in memberPaths' notation; `others` resolves references to other schemas by $id. */
export function schemaPaths(schema: Node, others: readonly Node[] = []): Set<string> {
  const byId = new Map([schema, ...others].map((s) => [String(s.$id), s]));
  const out = new Set<string>();
  const visit = (node: unknown, root: Node, at: string, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 16) return;
    const s = node as Node;
    if (typeof s.$ref === 'string') {
      const [id, pointer = ''] = s.$ref.split('#');
      const target = id ? byId.get(id) : root;
      if (!target) throw new Error(`${s.$ref}: no such schema given`);
      visit(pointed(target, pointer), target, at, depth + 1);
      return;
    }
    for (const [name, member] of Object.entries((s.properties as Node | undefined) ?? {})) {
      out.add(`${at}.${name}`);
      visit(member, root, `${at}.${name}`, depth + 1);
    }
    if (s.items) visit(s.items, root, `${at}[]`, depth + 1);
    for (const variant of [...((s.anyOf as unknown[] | undefined) ?? []), ...((s.oneOf as unknown[] | undefined) ?? [])]) visit(variant, root, at, depth + 1);
  };
  visit(schema, schema, '', 0);
  return out;
}
