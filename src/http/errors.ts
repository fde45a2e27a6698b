// The error envelope as the HTTP edge writes it (SPEC: Errors); the refusal itself is the kernel's.
import type { ServerResponse } from 'node:http';
import { ERROR_SCHEMA_VERSION } from '../kernel/versions.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import type { ApiError, ErrorBody } from '../kernel/refusal.js';

export interface ErrorEnvelope {
  schema_version: string;
  error: ErrorBody;
}

export function envelope(error: ApiError): ErrorEnvelope {
  return { schema_version: ERROR_SCHEMA_VERSION, error: error.toBody() };
}

/**
 * A refusal written by hand, where Fastify's reply is not used (a parser refusal on the socket, a
 * request answered at shutdown): the body, and the headers every refusal of the edge carries
 * (the `extra` ones, such as RateLimit, then the refusal's own).
 */
export function handWrittenRefusal(error: ApiError, extra: Record<string, string | number | readonly string[]> = {}): { body: string; headers: Record<string, string> } {
  const body = canonicalJson(envelope(error));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...extra, ...error.headers })) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(body));
  return { body, headers };
}

/** Writes the refusal on a response whose head is not yet sent, and ends it. */
export function writeRefusal(response: ServerResponse, error: ApiError, extra: Record<string, string | number | readonly string[]> = {}): void {
  const { body, headers } = handWrittenRefusal(error, extra);
  response.writeHead(error.status, headers);
  response.end(body);
}
