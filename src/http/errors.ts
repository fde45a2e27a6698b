// The one error type and the one envelope writer, shared by every host (SPEC: Errors).

export const ERROR_SCHEMA_VERSION = '0.1.0';

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: string[];
}

export interface ErrorEnvelope {
  schema_version: string;
  error: ErrorBody;
}

const CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly string[] | undefined;
  /** Extra response headers that belong to this refusal (Allow, Retry-After, WWW-Authenticate). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: readonly string[],
    headers: Record<string, string> = {},
  ) {
    super(message);
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`bad error status ${status}`);
    if (!CODE_PATTERN.test(code)) throw new Error(`bad error code ${code}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details && details.length > 0 ? details.map((d) => d || '(no detail)') : undefined;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { status: this.status, code: this.code, message: this.message || this.code };
    if (this.details) body.details = [...this.details];
    return body;
  }

  static fromBody(body: ErrorBody): ApiError {
    return new ApiError(body.status, body.code, body.message, body.details);
  }
}

/** The fallback code for a status with no more specific code (SPEC: client_error, server_error). */
export function genericCode(status: number): string {
  switch (status) {
    case 401: return 'unauthenticated';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 405: return 'method_not_allowed';
    case 413: return 'payload_too_large';
    case 415: return 'unsupported_media_type';
    case 429: return 'rate_limited';
    case 500: return 'internal_error';
    default: return status < 500 ? 'client_error' : 'server_error';
  }
}

export function envelope(error: ApiError): ErrorEnvelope {
  return { schema_version: ERROR_SCHEMA_VERSION, error: error.toBody() };
}

// Named constructors for refusals used in many places, so their wording stays one.
export const refusals = {
  unauthenticated: (message: string) =>
    new ApiError(401, 'unauthenticated', message, undefined, { 'www-authenticate': 'Bearer' }),
  notFound: (what = 'No such route') => new ApiError(404, 'not_found', what),
  invalidRequest: (status: 400 | 422, message: string, details?: string[]) =>
    new ApiError(status, 'invalid_request', message, details),
  accountCancelled: () =>
    new ApiError(402, 'account_cancelled', 'This account cancelled its plan; billable verbs no longer run. Sign up again for a new account and key.'),
};
