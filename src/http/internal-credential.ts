// The internal credential (SPEC Authentication 8): what a route of auth mode 'internal' asks of a
// request, checked by the edge (host.ts) before the route's schema, as an API key is.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, refusal, refusals } from '../kernel/refusal.js';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^::ffff:/i, '');
  return bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The same machine (the socket's peer is loopback), no proxy on the way (no forwarding header of
 * any name), and the environment's internal credential. No credential: 401; otherwise 403
 * internal_only naming every condition missing. Throws the refusal.
 */
export function admitInternal(headers: IncomingHttpHeaders, peerAddress: string | undefined, token: string): void {
  const header = headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw ApiError.of(refusals.unauthenticated('This route takes the environment\'s internal credential (Authorization: Bearer <CATRISK_INTERNAL_TOKEN>); none was carried.'));
  }
  const missing: string[] = [];
  if (!isLoopback(peerAddress)) missing.push('the request did not come from this machine (its peer address is not loopback)');
  const forwarded = FORWARDING_HEADERS.filter((name) => headers[name] !== undefined);
  if (forwarded.length > 0) missing.push(`the request was forwarded by a proxy (it carries ${forwarded.join(', ')})`);
  // Compared as digests, in constant time: the credential's length is not told either.
  if (!timingSafeEqual(digest(match[1]!), digest(token))) missing.push('the credential carried is not this environment\'s internal credential');
  if (missing.length > 0) {
    throw ApiError.of(refusal(403, 'internal_only', `This route answers only the service's own services: ${missing.join('; ')}.`, missing));
  }
}
