// Entity tags and conditional reads. A strong ETag names one representation's exact bytes; a
// resource whose bytes can never change (a content address: a backtest, a finished lab run, a
// pinned feed file) is also sent Cache-Control: immutable, so a client never asks again, and a
// client that does ask with If-None-Match is answered 304 with no body.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A year, the longest max-age caches are asked to honour (RFC 9111 5.2.2.1). */
const IMMUTABLE_MAX_AGE = 31_536_000;

/** The strong entity tag of a representation: the SHA-256 of its bytes. */
export function bytesTag(bytes: string | Buffer): string {
  return digestTag(createHash('sha256').update(bytes).digest('hex'));
}

/** The strong entity tag of bytes whose SHA-256 is already known (a pinned file's). */
export function digestTag(sha256Hex: string): string {
  return `"${sha256Hex}"`;
}

/** The entity tags of If-Match or If-None-Match ('*' included), as sent. */
export function entityTags(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  return (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim()).filter((t) => t !== '');
}

/** If-None-Match names the tag: the client holds these bytes. It compares weakly: W/"3" names "3". */
export function ifNoneMatchHolds(header: string | string[] | undefined, tag: string): boolean {
  return (entityTags(header) ?? []).some((t) => t === '*' || t.replace(/^W\//, '') === tag);
}

/**
 * Sets a representation's ETag, and Cache-Control: immutable when its bytes never change (private
 * when it was read with a key: shared caches keep nothing of an account's). True when the request's
 * If-None-Match already names it: answer 304.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, tag: string, options: { immutable: boolean }): boolean {
  reply.header('etag', tag);
  if (options.immutable) reply.header('cache-control', `${request.caller ? 'private' : 'public'}, max-age=${IMMUTABLE_MAX_AGE}, immutable`);
  return ifNoneMatchHolds(request.headers['if-none-match'], tag);
}
