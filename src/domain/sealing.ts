// Secrets sealed at rest: the exchange's connector credentials and the monitoring webhooks' signing
// secrets. AES-256-GCM under a key of the environment (config.ts: CATRISK_SEALING_KEY, the keys of
// CATRISK_SEALING_KEYS_PREVIOUS, the alias CATRISK_EXCHANGE_KEY), a fresh 12-byte nonce each time,
// the id of the key stored beside the sealed bytes so keys can rotate: the first key seals, every
// key opens. The context, the id of the row that holds the value (xm_… a listing, wh_… a webhook),
// is the additional authenticated data: a sealed value moved to another row does not open. The
// plaintext exists only in memory, on its way to where it is used.
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
export function seal(plaintext: string, context: string, keys: readonly SealKey[]): Sealed | undefined {
  const first = keys[0];
  if (!first) return undefined;
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', first.key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: first.id, sealed: Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64') };
}

/** Opens with the key it names; undefined when that key is not held or the bytes do not authenticate. */
export function open(value: Sealed, context: string, keys: readonly SealKey[]): string | undefined {
  const key = keys.find((k) => k.id === value.keyId);
  if (!key) return undefined;
  const bytes = Buffer.from(value.sealed, 'base64');
  if (bytes.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Why a value does not open, in words naming the key id (never a key): its key is not held, or does not authenticate it. */
export function unopenableReason(value: Sealed, keys: readonly SealKey[]): string {
  return keys.some((k) => k.id === value.keyId)
    ? `the key held as ${value.keyId} does not open it (not the key that sealed it, or the stored value was altered)`
    : `this environment does not hold the key ${value.keyId} that sealed it`;
}
