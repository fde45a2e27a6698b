// The one refusal every layer speaks (SPEC: Errors): plain data, built by `refusal()` or a named
// constructor of `refusals` and returned in a Result; the throwable carrier the edges (http/, jobs/)
// make of it to unwind; and the catalogue of named codes. Writing it onto an HTTP reply is the edge's
// business.

export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: readonly string[];
  /** Extra response headers that belong to this refusal (Allow, Retry-After, WWW-Authenticate). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The refusal as it stands in an envelope or on a failed job. */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: string[];
}

const CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * A refusal that unwinds the stack, made only of a Refusal (`ApiError.of`) by the code that unwinds
 * at the edges: http/ (the host, routes, the tool server) and jobs/ (a job's handler, runTask).
 * app/ and domain/ return the Refusal itself, in a Result.
 */
export class ApiError extends Error implements Refusal {
  readonly status: number;
  readonly code: string;
  readonly details: readonly string[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  private constructor(refusal: Refusal) {
    super(refusal.message);
    const { status, code, details } = refusal;
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`bad error status ${status}`);
    if (!CODE_PATTERN.test(code)) throw new Error(`bad error code ${code}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details && details.length > 0 ? details.map((d) => d || '(no detail)') : undefined;
    this.headers = { ...refusal.headers };
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { status: this.status, code: this.code, message: this.message || this.code };
    if (this.details) body.details = [...this.details];
    return body;
  }

  /** The carrier for a refusal (a Result's, one the edge words, or an error body sent back by a compute thread). */
  static of(refusal: Refusal): ApiError {
    return refusal instanceof ApiError ? refusal : new ApiError(refusal);
  }
}

/** A refusal as data; details and headers are kept only when there are some, as the envelope writes them. */
export function refusal(
  status: number,
  code: string,
  message: string,
  details?: readonly string[],
  headers?: Readonly<Record<string, string>>,
): Refusal {
  const base: Refusal = details && details.length > 0 ? { status, code, message, details } : { status, code, message };
  return headers && Object.keys(headers).length > 0 ? { ...base, headers } : base;
}

/** The fallback code for a status with no more specific code (SPEC: client_error, server_error). */
export function genericCode(status: number): string {
  switch (status) {
    case 401: return 'unauthenticated';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 405: return 'method_not_allowed';
    case 406: return 'not_acceptable';
    case 413: return 'payload_too_large';
    case 412: return 'precondition_failed';
    case 415: return 'unsupported_media_type';
    case 429: return 'rate_limited';
    case 500: return 'internal_error';
    default: return status < 500 ? 'client_error' : 'server_error';
  }
}

/** Every named code (SPEC Errors: Codes); the list may grow. */
export const ERROR_CODES: ReadonlyArray<{ code: string; status: number[]; meaning: string; not_retried?: true }> = [
  { code: 'account_cancelled', status: [402], meaning: 'account cancelled its plan; billable verbs no longer run' },
  { code: 'cancelled', status: [409], meaning: 'the job was cancelled (POST /jobs/{id}/cancel); the message names the key that cancelled it and when; on the job' },
  { code: 'client_error', status: [400], meaning: 'a 4xx with no more specific code' },
  { code: 'currency_conflict', status: [422], meaning: 'ingest currency part contradicted by the file; on the ingest job; no object stored' },
  { code: 'exchange_access_refused', status: [403], meaning: 'listing is by grant and this account is not granted' },
  { code: 'exchange_credentials_unavailable', status: [422, 503], meaning: 'credentials cannot be encrypted (422) or decrypted (503)' },
  { code: 'exchange_not_ready', status: [422], meaning: 'listing cannot take this step in its current state' },
  { code: 'feed_not_servable', status: [403], meaning: 'snapshot exists but its content is not served (aggregate-only licence)' },
  { code: 'exposure_coding_unavailable', status: [503], meaning: 'exposure coding is off, its daily budget is used, or the provider gave no usable answer' },
  { code: 'forbidden', status: [403], meaning: 'a 403 with no more specific code (e.g. an anonymous default User-Agent)' },
  { code: 'geocoder_unavailable', status: [503], meaning: 'geocoding off, or every geocoder asked was unreachable, slow or refused' },
  { code: 'idempotency_key_in_use', status: [409], meaning: 'a request with this Idempotency-Key is still being answered; carries Retry-After; send it again once answered' },
  { code: 'internal_error', status: [500], meaning: 'failure not the request\'s fault' },
  { code: 'internal_only', status: [403], meaning: 'route answers only the service\'s own services' },
  { code: 'invalid_composition', status: [422], meaning: 'composition outside the v1 vocabulary' },
  { code: 'invalid_exchange_model', status: [422], meaning: 'listing does not validate' },
  { code: 'invalid_model', status: [422], meaning: 'composed model fails the model object schema' },
  { code: 'invalid_request', status: [400, 422], meaning: '400 when the bytes are wrong; 422 when they parse but the content is unacceptable' },
  { code: 'invalid_risk_object', status: [422], meaning: 'submitted object fails the risk object schema; details name violations' },
  { code: 'invalid_structure', status: [422], meaning: 'structure cannot be cut; on the POST' },
  { code: 'job_finished', status: [409], meaning: 'the job already succeeded or failed, so it can no longer be cancelled' },
  { code: 'loss_not_conserved', status: [500], meaning: 'a lab run\'s losses failed a conservation check (ground up = retentions + cessions + net, insured = ground up less retentions); on the job; the model data and the loss engine disagree', not_retried: true },
  { code: 'method_not_allowed', status: [405], meaning: 'path exists, method not served; Allow names the methods' },
  { code: 'model_validation_failed', status: [422], meaning: 'composition refused by the mandatory validation pass' },
  { code: 'no_event_catalogue', status: [404], meaning: 'no catalog for the peril, feed or vintage asked, or the peril\'s record is a gridded series' },
  { code: 'no_event_footprint', status: [404], meaning: 'report-extract events have no footprint' },
  { code: 'not_acceptable', status: [406], meaning: 'no representation of the resource that the Accept header (or format=) admits; the message names the media types served' },
  { code: 'not_found', status: [404], meaning: 'no such route, or no such object, job or account for the presented key' },
  { code: 'not_ready', status: [503], meaning: 'GET /ready: the service is up but cannot serve yet (database, migrations, feeds or compute threads); details name each check that failed' },
  { code: 'object_changed', status: [409], meaning: 'the object\'s priced terms changed while a price ran; no premium written; on the price job' },
  { code: 'outside_feed_coverage', status: [422], meaning: 'no pinned snapshot covers the point' },
  { code: 'payload_too_large', status: [413], meaning: 'ingest file over 32 MB, or a body over its route\'s limit' },
  { code: 'precondition_failed', status: [412], meaning: 'If-Match names no current version of the object (it changed since it was read); read it again' },
  { code: 'rate_limited', status: [429], meaning: 'the key (or address) is over its request limit; carries Retry-After' },
  { code: 'run_not_succeeded', status: [409], meaning: 'the lab run is queued, running or failed: what exists only once it has succeeded (its chart) does not exist; the message says its status' },
  { code: 'server_error', status: [500, 503], meaning: 'a 5xx with no more specific code; 503 when the database is unreachable for the moment (with Retry-After) or the process is shutting down: send the request again' },
  { code: 'unauthenticated', status: [401], meaning: 'the credential that arrived is wrong; never an expiry' },
  { code: 'unmonitorable_structure', status: [422], meaning: 'index cannot be measured' },
  { code: 'unbacktestable_structure', status: [422], meaning: 'trigger the backtest model does not read, or window outside the period of record; on the job' },
  { code: 'unpackageable_object', status: [422], meaning: 'missing blocks the slip needs; on the request' },
  { code: 'unanalysable_object', status: [422], meaning: 'object cannot be analysed; on the job' },
  { code: 'unknown_analysis', status: [422], meaning: 'analysis unknown or none named; on the request' },
  { code: 'unpriceable_object', status: [422], meaning: 'no financial structure or trigger, unpinned vintage, or a premium of 0.00; on the price job' },
  { code: 'unrunnable_object', status: [422], meaning: 'model cannot run against the object; on the model run job' },
  { code: 'unsafe_platform_address', status: [422], meaning: 'listing connector.base_url is not a public https address' },
  { code: 'unsupported_media_type', status: [415], meaning: 'content type not read' },
  { code: 'unsupported_peril', status: [422], meaning: 'hazard lookup for a peril with no pinned data' },
  { code: 'unsupported_source', status: [415], meaning: 'file unreadable (encoding, container or structure); on the ingest job' },
];

/**
 * Whether a job refused so ends at once: every 4xx (the request's fault), and a 5xx whose code says
 * running it again would give the same answer (`not_retried`). Other 5xx (a database away, an input
 * not pinned yet, a provider down) are worth another run.
 */
export function endsTheJob(refusal: Pick<Refusal, 'status' | 'code'>): boolean {
  return refusal.status < 500 || ERROR_CODES.some((c) => c.code === refusal.code && c.not_retried === true);
}

// Named constructors for refusals used in many places, so their wording stays one.
export const refusals = {
  unauthenticated: (message: string) =>
    refusal(401, 'unauthenticated', message, undefined, { 'www-authenticate': 'Bearer' }),
  notFound: (what = 'No such route') => refusal(404, 'not_found', what),
  invalidRequest: (status: 400 | 422, message: string, details?: readonly string[]) =>
    refusal(status, 'invalid_request', message, details),
  /** The database dropped the connection or did not answer in time; the service itself is up. */
  databaseUnavailable: () =>
    refusal(503, 'server_error', 'The database is unreachable for the moment; retry shortly.',
      undefined, { 'retry-after': '2' }),
  /**
   * The process is stopping (SIGTERM): a request arriving while it drains, or one still unanswered
   * when the shutdown bound is near. A write answered so may or may not have been applied.
   */
  shuttingDown: () =>
    refusal(503, 'server_error', 'This service process is shutting down and did not answer the request; send it again (with its Idempotency-Key, for a write) to another process or once this one is back.'),
  accountCancelled: () =>
    refusal(402, 'account_cancelled', 'This account cancelled its plan; billable verbs no longer run. Sign up again for a new account and key.'),
};
