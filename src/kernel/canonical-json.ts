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

export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new Error('value has no JSON form');
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
