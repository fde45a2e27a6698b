// Standard Webhooks 1.0 signing (https://www.standardwebhooks.com/): the secret is "whsec_" and the
// base64 of the key bytes; a delivery carries webhook-id, webhook-timestamp (Unix seconds) and
// webhook-signature "v1,<base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`>".
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The webhook-signature header of one attempt. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  if (!secret.startsWith(PREFIX)) throw new Error('a signing secret starts with whsec_');
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/** The three headers of one attempt (timestamp: when it is sent, in Unix seconds). */
export function signedHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
    'content-type': 'application/json',
  };
}
