// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): a write sent again with the key it
// was first sent with has its effect once. The first request takes the key; its answer, when it is
// a success, is stored for the key's lifetime and given back to every repeat. A refusal (4xx) or a
// failure (5xx) stores nothing and gives the key back, so a corrected request may use it again.
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import type { StoredAnswer } from '../store/idempotency.js';
import type { AppDeps } from './deps.js';

export type { StoredAnswer } from '../store/idempotency.js';

/** What the request holding a key does: run (it took the key) or give back the stored answer. */
export type KeyTurn = { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer };

/** How long a key is held by a request still being answered, at most: a crashed one frees it then. */
const IN_FLIGHT_MS = 10 * 60_000;

/** Seconds a client waits before sending a duplicate again while the first is answered. */
const IN_FLIGHT_RETRY_SECONDS = 1;

type Deps = Pick<AppDeps, 'idempotency' | 'now' | 'config'>;

interface KeyInput {
  accountId: string;
  key: string;
  /** Digest of what makes the request this request: method, path and body. */
  fingerprint: string;
}

/**
 * Takes the account's key for a request, or answers what an earlier request with it left: its
 * stored answer (the same request), 422 (another request), 409 (the first is still being answered).
 */
export async function takeKey(deps: Deps, input: KeyInput): Promise<Result<KeyTurn>> {
  const { accountId, key, fingerprint } = input;
  const now = deps.now();
  const inFlightUntil = now.getTime() + Math.min(IN_FLIGHT_MS, ttlMs(deps));
  await deps.idempotency.dropExpired(accountId, key, now.getTime());
  // A claim taken and answered between our insert and our read is read on the next pass.
  for (let pass = 0; pass < 3; pass += 1) {
    if (await deps.idempotency.claim(accountId, key, fingerprint, now, inFlightUntil)) return ok({ kind: 'run' });
    const held = await deps.idempotency.get(accountId, key);
    if (!held) continue;
    if (held.fingerprint !== fingerprint) {
      return refused(refusals.invalidRequest(422,
        `Idempotency-Key "${key}" was first sent with another request (a different method, path or body); a key names one request. Send this one with a new key.`));
    }
    if (held.answer) return ok({ kind: 'replay', answer: held.answer });
    return refused(refusal(409, 'idempotency_key_in_use',
      `A request with Idempotency-Key "${key}" is still being answered; send this one again once it has been, and its answer is given back.`,
      undefined, { 'retry-after': String(IN_FLIGHT_RETRY_SECONDS) }));
  }
  throw new Error(`Idempotency-Key ${key} was neither free nor held after three reads`);
}

/** The request holding the key was answered: a success is kept for the key's lifetime, anything else gives the key back. */
export async function settleKey(deps: Deps, input: { accountId: string; key: string; answer: StoredAnswer }): Promise<void> {
  const { accountId, key, answer } = input;
  if (answer.status >= 400) await deps.idempotency.release(accountId, key);
  else await deps.idempotency.answer(accountId, key, answer, deps.now().getTime() + ttlMs(deps));
}

/** The request holding the key ended with no answer to keep (a stream, a lost connection). */
export async function releaseKey(deps: Deps, input: { accountId: string; key: string }): Promise<void> {
  await deps.idempotency.release(input.accountId, input.key);
}

function ttlMs(deps: Deps): number {
  return deps.config.idempotencyTtlSeconds * 1000;
}
