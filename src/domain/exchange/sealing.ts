// Connector credentials sealed at rest: AES-256-GCM under a key of the environment, the key's id
// stored beside the ciphertext so keys can rotate (the first key seals, every key opens). The
// listing's id is the additional authenticated data: a sealed value moved to another listing's row
// does not open. The plaintext exists only in memory, on its way to the provider's platform.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealKey {
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

export interface Sealed {
  readonly keyId: string;
  /** base64 of nonce (12 bytes) | tag (16 bytes) | ciphertext. */
  readonly sealed: string;
}

/** Seals under the first key; undefined when the environment holds none. */
export function seal(plaintext: string, listingId: string, keys: readonly SealKey[]): Sealed | undefined {
  const first = keys[0];
  if (!first) return undefined;
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', first.key, nonce);
  cipher.setAAD(Buffer.from(listingId, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: first.id, sealed: Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64') };
}

/** Opens with the key it names; undefined when that key is not held or the bytes do not authenticate. */
export function open(value: Sealed, listingId: string, keys: readonly SealKey[]): string | undefined {
  const key = keys.find((k) => k.id === value.keyId);
  if (!key) return undefined;
  const bytes = Buffer.from(value.sealed, 'base64');
  if (bytes.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(listingId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
