// Request ids: the client's own when it sent a well-formed one, else one made here. Every answer
// carries it as X-Request-Id, every log line of the request names it as reqId, and a job the
// request queues keeps it, so one id follows a piece of work from the edge to its last job.
import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A client's id is kept when it is 1 to 128 letters, digits, '.', '_', ':' or '-'; anything else is replaced. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/** The id of a request: the one its client sent when well formed (a repeated header never is), else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return isWellFormedRequestId(header) ? header : newRequestId();
}

// A new id is this process's random prefix and a counter: unique across processes by the prefix
// (64 random bits), and made per request without asking for randomness again.
const PROCESS_PREFIX = `req_${randomBytes(8).toString('hex')}`;
let made = 0;

export function newRequestId(): string {
  made += 1;
  return `${PROCESS_PREFIX}${made.toString(36).padStart(8, '0')}`;
}
