// The error envelope as the HTTP edge writes it (SPEC: Errors); the refusal itself is the kernel's.
import { ERROR_SCHEMA_VERSION } from '../kernel/versions.js';
import type { ApiError, ErrorBody } from '../kernel/refusal.js';

export interface ErrorEnvelope {
  schema_version: string;
  error: ErrorBody;
}

export function envelope(error: ApiError): ErrorEnvelope {
  return { schema_version: ERROR_SCHEMA_VERSION, error: error.toBody() };
}
