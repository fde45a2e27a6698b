// One shape for an answer that may be a refusal, so no module invents its own.
import { ApiError, type Refusal } from './refusal.js';

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: Refusal };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function refused<T = never>(refusal: Refusal): Result<T> {
  return { ok: false, refusal };
}

/** The value, or the refusal thrown as the carrier (for code that unwinds to an edge). */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw ApiError.of(result.refusal);
}
