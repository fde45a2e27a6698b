// A small multipart/form-data reader (RFC 7578) over a buffered body. Ingest needs what general
// parsers hide: whether a part carried a Content-Type header at all, and a part's raw bytes
// whether or not it has a filename.
import type { Readable } from 'node:stream';
import { ApiError, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';

export interface FormPart {
  name: string;
  filename: string | undefined;
  /** The part's Content-Type as sent, or undefined when the part had no such header. */
  contentType: string | undefined;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * How many bytes of a body over its limit are read and dropped before the refusal is answered. The
 * refusal closes the connection; answered while the client is still sending, the close makes the
 * client's peer reset the connection, and a client that has not read the answer yet loses it (an
 * HTTP client sending a 33 MB upload over a fast link sees "connection reset" rather than 413).
 * Draining first, as servers do on a lingering close, lets the client read the answer; a body
 * further over than this is refused at once.
 */
const DRAIN_AT_MOST = 64 * 1024 * 1024;

/** Reads and drops the rest of a body, at most `atMost` bytes; resolves when it ends, fails or passes the bound. */
function drain(payload: Readable, atMost: number): Promise<void> {
  return new Promise((resolve) => {
    let dropped = 0;
    const done = () => {
      payload.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer | string) => {
      dropped += chunk.length;
      if (dropped > atMost) done();
    };
    payload.on('data', onData).on('end', done).on('error', done).on('close', done);
    payload.resume();
  });
}

/**
 * The whole body as one Buffer, at most limit bytes. With a Content-Length the bytes are copied
 * into a buffer of that size as they arrive: a large upload is held once, never as its chunks and
 * then their join as well. Without one (chunked), the chunks are joined at the end.
 */
export function readBody(payload: Readable, contentLength: string | undefined, limit: number, tooLarge: (bytes: number) => ApiError): Promise<Buffer> {
  const declared = contentLength === undefined || contentLength === '' ? undefined : Number(contentLength);
  if (declared !== undefined && !(Number.isSafeInteger(declared) && declared >= 0)) {
    return Promise.reject(ApiError.of(refusals.invalidRequest(400, 'The Content-Length is not a byte count.')));
  }
  // Refused without keeping a byte; the body is drained first when it is not far over (see drain).
  if (declared !== undefined && declared > limit) {
    return declared - limit > DRAIN_AT_MOST ? Promise.reject(tooLarge(declared)) : drain(payload, DRAIN_AT_MOST).then(() => Promise.reject(tooLarge(declared)));
  }
  const mismatch = () => ApiError.of(refusals.invalidRequest(400, 'The body is shorter or longer than its Content-Length.'));
  return new Promise((resolve, reject) => {
    const body = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: ApiError) => {
      payload.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (body !== undefined) {
        if (received + bytes.length > body.length) return stop(mismatch());
        bytes.copy(body, received);
      } else {
        if (received + bytes.length > limit) {
          payload.off('data', onData).off('end', onEnd).off('error', onError);
          const refusal = tooLarge(received + bytes.length);
          void drain(payload, DRAIN_AT_MOST).then(() => reject(refusal));
          return;
        }
        chunks.push(bytes);
      }
      received += bytes.length;
    };
    const onEnd = () => {
      payload.off('data', onData).off('end', onEnd).off('error', onError);
      if (body !== undefined && received !== body.length) reject(mismatch());
      else resolve(body ?? Buffer.concat(chunks, received));
    };
    const onError = () => stop(ApiError.of(refusals.invalidRequest(400, 'The body could not be read to its end.')));
    payload.on('data', onData).on('end', onEnd).on('error', onError);
    payload.resume();
  });
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** A form too malformed to read is refused 400, naming what is wrong with it. */
const malformed = (why: string) => refused<never>(refusals.invalidRequest(400, `The multipart body could not be read: ${why}.`));

/** The form's parts, or its refusal (the route's, and the idempotency fingerprint's, reading of it). */
export function parseMultipart(body: Buffer, boundary: string): Result<FormPart[]> {
  const delimiter = Buffer.from(`--${boundary}`);
  let position = body.indexOf(delimiter);
  if (position < 0) return malformed('no boundary line');
  const parts: FormPart[] = [];
  for (;;) {
    position += delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) return ok(parts);
    if (!body.subarray(position, position + 2).equals(CRLF)) return malformed('a boundary line is not followed by a line break');
    const headerStart = position + 2;
    const headerEnd = body.indexOf(HEADER_END, headerStart);
    if (headerEnd < 0) return malformed('a part has no end to its headers');
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), headerEnd + 4);
    if (next < 0) return malformed('the closing boundary is missing');
    const part = readPart(body.subarray(headerStart, headerEnd).toString('latin1'), body.subarray(headerEnd + 4, next));
    if (!part.ok) return part;
    parts.push(part.value);
    position = next + 2;
  }
}

function readPart(headerText: string, data: Buffer): Result<FormPart> {
  let name: string | undefined;
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'content-disposition') {
      name = param(value, 'name');
      filename = param(value, 'filename*') ?? param(value, 'filename');
    } else if (field === 'content-type') {
      contentType = value;
    }
  }
  if (name === undefined) return malformed('a part has no name in its Content-Disposition');
  // Header bytes are UTF-8 in practice; latin1 kept them byte for byte until here.
  const utf8 = (s: string | undefined) => (s === undefined ? s : Buffer.from(s, 'latin1').toString('utf8'));
  // The file name is recorded on the job; PostgreSQL text cannot hold U+0000.
  if (name.includes('\u0000') || filename?.includes('\u0000')) return malformed('a part name or file name holds a NUL character');
  return ok({ name: utf8(name)!, filename: utf8(filename), contentType, data });
}

function param(header: string, key: string): string | undefined {
  const escaped = key.replace('*', '\\*');
  const match = new RegExp(`(?:^|;)\\s*${escaped}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  if (!match) return undefined;
  const raw = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '').trim();
  if (key.endsWith('*')) {
    const ext = /^[^']*'[^']*'(.*)$/.exec(raw);
    try { return decodeURIComponent(ext ? ext[1]! : raw); } catch { return raw; }
  }
  return raw;
}
