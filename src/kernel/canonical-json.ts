// RFC 8785 canonical JSON: every response body and every content address goes through here.
// JCS is ECMAScript's own number and string serialization with object members sorted by UTF-16
// code units (Array.prototype.sort's default order). JavaScript objects put integer-like keys first
// whatever their insertion order, so objects holding such keys are written out by hand.
import { createHash } from 'node:crypto';

function write(value: unknown, out: string[]): void {
  if (value === null) { out.push('null'); return; }
  switch (typeof value) {
    case 'string': out.push(JSON.stringify(value)); return;
    case 'number':
      if (!Number.isFinite(value)) throw new Error('NaN and Infinity have no JSON form');
      out.push(JSON.stringify(value));
      return;
    case 'boolean': out.push(value ? 'true' : 'false'); return;
    case 'object': break;
    default: throw new Error(`a ${typeof value} has no JSON form`);
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    write((value as { toJSON(): unknown }).toJSON(), out);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out.push(',');
      const item = value[i];
      write(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined && typeof record[k] !== 'function' && typeof record[k] !== 'symbol').sort();
  out.push('{');
  for (let i = 0; i < keys.length; i += 1) {
    if (i > 0) out.push(',');
    out.push(JSON.stringify(keys[i]), ':');
    write(record[keys[i]!], out);
  }
  out.push('}');
}

const INTEGER_LIKE = /^(?:0|[1-9]\d*)$/;

class NeedsSlowPath extends Error {}

/** Replacer for the fast path: members re-inserted in sorted order; gives up on integer-like keys. */
function sortedMembers(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('NaN and Infinity have no JSON form');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.some((k) => INTEGER_LIKE.test(k))) throw new NeedsSlowPath();
  keys.sort();
  const sorted: Record<string, unknown> = {};
  for (const k of keys) sorted[k] = (value as Record<string, unknown>)[k];
  return sorted;
}

/** Values a small document may hold before it is left to the native serializer. */
const SMALL_VALUES = 2048;
let smallBudget = 0;

/**
 * A small plain document written by string concatenation, or undefined when it is not small and
 * plain: over SMALL_VALUES values, or holding anything but plain objects, arrays and JSON
 * primitives (a toJSON, a Date, a BigInt), which the native path writes or refuses. For an answer
 * the size of an account (a dozen members) this is several times cheaper than the native
 * serializer with its replacer, which builds a sorted copy of every object.
 */
function small(value: unknown): string | undefined {
  if (--smallBudget < 0) return undefined;
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('NaN and Infinity have no JSON form');
      return String(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'object': break;
    default: return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const text = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : small(item);
      if (text === undefined) return undefined;
      out += i === 0 ? text : `,${text}`;
    }
    return `${out}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const record = value as Record<string, unknown>;
  // Sorted by UTF-16 code units whatever the keys (integer-like ones included).
  const keys = Object.keys(record);
  // String comparison is by UTF-16 code units, as sort's default order: most objects need no sort.
  for (let i = 1; i < keys.length; i += 1) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const text = small(member);
    if (text === undefined) return undefined;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new Error('value has no JSON form');
  const outer = smallBudget;
  smallBudget = SMALL_VALUES;
  let text: string | undefined;
  try {
    text = small(value);
  } finally {
    smallBudget = outer;
  }
  if (text !== undefined) return text;
  // The native serializer is several times faster and leaner on large documents; objects with
  // integer-like keys (rare here) take the hand-written path.
  try {
    return JSON.stringify(value, sortedMembers);
  } catch (error) {
    if (!(error instanceof NeedsSlowPath)) throw error;
  }
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

/** Content address: SHA-256 of the canonical JSON of what it identifies. */
export function contentAddress(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
