// How much of a host's answers its contract describes: each place a JSON answer's schema leaves
// open (an object with no members and no schema for its members, or a member with no schema at
// all), which a generated client can only type as Record<string, never> or unknown. Read by
// `npm run contract -- --open`, which prints them per host, and by test/http/contract-coverage.test.ts.

type Node = Record<string, unknown>;

export interface OpenPlace {
  /** JSON pointer of the schema in the document (after following references, where it is defined). */
  pointer: string;
  /** 'object': an object with no properties, additionalProperties schema or variants; 'any': no schema at all. */
  kind: 'object' | 'any';
}

const COMPOSITIONS = ['oneOf', 'anyOf', 'allOf'] as const;
const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function resolve(document: Node, ref: string): Node | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = document;
  for (const part of ref.slice(2).split('/')) at = (at as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return at as Node | undefined;
}

function typesOf(schema: Node): string[] {
  const t = schema.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

/** Whether a schema says nothing of its value's shape (a description at most). */
function isAny(schema: Node): boolean {
  return Object.keys(schema).every((k) => ['description', 'title', 'examples', 'default', 'deprecated'].includes(k));
}

/** Whether an object schema leaves its members undescribed. */
function isOpenObject(schema: Node): boolean {
  if (!typesOf(schema).includes('object')) return false;
  if (schema.properties && Object.keys(schema.properties as Node).length > 0) return false;
  if (schema.patternProperties) return false;
  if (schema.additionalProperties === false) return false;
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && !isAny(schema.additionalProperties as Node)) return false;
  return !COMPOSITIONS.some((c) => Array.isArray(schema[c])) && schema.$ref === undefined;
}

/** Every open place in the schemas a document's JSON answers use, each once, by where it is defined. */
export function openPlaces(document: Node): OpenPlace[] {
  const found = new Map<string, OpenPlace['kind']>();
  const seen = new Set<string>();
  const visit = (schema: unknown, pointer: string): void => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
    if (seen.has(pointer)) return;
    seen.add(pointer);
    const s = schema as Node;
    if (typeof s.$ref === 'string') visit(resolve(document, s.$ref), s.$ref.slice(1));
    if (isAny(s)) found.set(pointer, 'any');
    else if (isOpenObject(s)) found.set(pointer, 'object');
    for (const [name, member] of Object.entries((s.properties as Node | undefined) ?? {})) visit(member, `${pointer}/properties/${escape(name)}`);
    for (const [name, member] of Object.entries((s.patternProperties as Node | undefined) ?? {})) visit(member, `${pointer}/patternProperties/${escape(name)}`);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, `${pointer}/additionalProperties`);
    if (Array.isArray(s.prefixItems)) s.prefixItems.forEach((item, i) => visit(item, `${pointer}/prefixItems/${i}`));
    if (typeof s.items === 'object') visit(s.items, `${pointer}/items`);
    for (const c of COMPOSITIONS) if (Array.isArray(s[c])) (s[c] as unknown[]).forEach((v, i) => visit(v, `${pointer}/${c}/${i}`));
  };
  const paths = (document.paths ?? {}) as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (!type.endsWith('json') || media.schema === undefined) continue;
          visit(media.schema, `/paths/${escape(path)}/${method}/responses/${status}/content/${escape(type)}/schema`);
        }
      }
    }
  }
  return [...found].map(([pointer, kind]) => ({ pointer, kind })).sort((a, b) => a.pointer.localeCompare(b.pointer));
}

/** How many times openapi-typescript's output types an object as one with no members. */
export function neverRecords(generated: string): number {
  return generated.split('Record<string, never>').length - 1;
}
