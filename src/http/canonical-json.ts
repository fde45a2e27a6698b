// RFC 8785 canonical JSON: every response body and every content address goes through here.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no JSON form');
  return text;
}

/** Content address: SHA-256 of the canonical JSON of what it identifies. */
export function contentAddress(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
