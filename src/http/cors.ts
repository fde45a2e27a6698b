// Cross-origin reads by a browser: the API reference on the docs host tries operations on the API,
// lab and data room hosts, which a browser allows only when those hosts say so (the Fetch
// standard's CORS protocol). Every origin is allowed: a key travels in the Authorization header,
// never in a cookie, so a page on another origin holds no credential of a visitor's it could use.
// The tool server's host keeps its own origin rule (config.mcp), and is left out.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Request headers a browser may send cross-origin beyond the CORS-safelisted ones. */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id', 'traceparent', 'tracestate'];

/** Answer headers a page's script may read. */
export const CORS_EXPOSED_HEADERS = [
  'Allow', 'Content-Disposition', 'Deprecation', 'ETag', 'Idempotent-Replayed', 'Link', 'Location', 'RateLimit', 'RateLimit-Policy',
  'Repr-Digest', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id',
];

/** A preflight: OPTIONS from a page, asking whether it may send a method. */
export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/** Every answer to a request from a page on another origin says the page may read it. */
export function allowOrigin(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin === undefined) return;
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS.join(', '));
}

/**
 * Answers a preflight for a path served under the method asked: 204 with the methods the path is
 * served under and the headers a page may send; a path not served so is left to the router (405 or 404).
 */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply, methods: readonly string[]): boolean {
  const asked = String(request.headers['access-control-request-method']).toUpperCase();
  if (!methods.includes(asked)) return false;
  void reply.code(204)
    .header('access-control-allow-methods', methods.filter((m) => m !== 'OPTIONS').join(', '))
    .header('access-control-allow-headers', CORS_REQUEST_HEADERS.join(', '))
    .header('access-control-max-age', '600')
    .header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    .send();
  return true;
}
