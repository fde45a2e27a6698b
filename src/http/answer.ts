// A use case's answer at the HTTP edge: its value, or its refusal thrown as the carrier that the
// error handler (host.ts) writes as the envelope, with the refusal's status, code and headers.
import { unwrap, type Result } from '../kernel/result.js';

export function answer<T>(result: Result<T>): T {
  return unwrap(result);
}
