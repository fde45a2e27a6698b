// Answers for requests Node's HTTP parser refuses before any route (or Fastify) sees them: a
// malformed request line or method, a bad or doubled Content-Length, Content-Length beside
// chunked, headers over the limit, a request that did not arrive in time. They still get the SPEC
// envelope, written straight to the socket, and the connection is closed (the parser cannot find
// where the next request would start).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, refusal } from '../kernel/refusal.js';
import { handWrittenRefusal } from './errors.js';

export interface ParserError extends Error {
  code?: string;
  /** The bytes the parser was reading when it failed (Node sets this on parser errors). */
  rawPacket?: Buffer;
}

/** The request line and headers of a request whose method the parser would not read. */
export interface RawHead {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** Reads the head of a request from the bytes the parser refused, when it is whole. */
export function rawHead(packet: Buffer | undefined): RawHead | undefined {
  if (!packet) return undefined;
  const text = packet.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line, ...fields] = text.slice(0, end).split('\r\n');
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/\S*) HTTP\/1\.[01]$/.exec(line ?? '');
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon <= 0) return undefined;
    const name = field.slice(0, colon).trim().toLowerCase();
    // A repeated header is ambiguous here; the first one counts, as Node keeps it for most headers.
    headers[name] ??= field.slice(colon + 1).trim();
  }
  return { method: match[1]!, path: match[2]!, headers };
}

/** The refusal for a parser error (the request is not readable as a whole). */
export function parserRefusal(error: ParserError, timeouts: { requestMs: number; headersMs: number }): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ApiError.of(refusal(408, 'client_error',
        `The request did not arrive whole in time (headers within ${timeouts.headersMs / 1000} s, the whole request within ${timeouts.requestMs / 1000} s); the connection is closed.`));
    case 'HPE_HEADER_OVERFLOW':
      return ApiError.of(refusal(431, 'client_error', 'The request headers are larger than the 16 KiB this service reads.'));
    case 'HPE_INVALID_METHOD':
      return ApiError.of(refusal(400, 'invalid_request', 'The request method is not one HTTP defines (methods are upper case: GET, POST, PATCH, PUT, DELETE).'));
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return ApiError.of(refusal(400, 'invalid_request', 'The Content-Length header is not one non-negative integer, is repeated with different values, or is sent beside Transfer-Encoding: chunked.'));
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return ApiError.of(refusal(400, 'invalid_request', 'The body framing is malformed: Transfer-Encoding must end in chunked, is never sent beside Content-Length, and each chunk size is hexadecimal.'));
    default:
      return ApiError.of(refusal(400, 'invalid_request', 'The request could not be read as HTTP/1.1 (malformed request line, header or framing).'));
  }
}

/** Writes the refusal and closes the connection. */
export function writeRawRefusal(socket: Duplex, error: ApiError, extraHeaders: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  if (socket.writable) {
    const { body, headers } = handWrittenRefusal(error, { ...extraHeaders, connection: 'close' });
    const lines = [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
      `date: ${new Date().toUTCString()}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  }
  // Never wait on a client that stopped reading.
  setTimeout(() => socket.destroy(), 1000).unref();
}
