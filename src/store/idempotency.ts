// Idempotency-Key claims of each account: taken by the first request with a key, answered once,
// replayed until they expire. The primary key (account, key) lets one request of several
// concurrent duplicates take the claim.
import type { Kysely } from 'kysely';
import type { IdempotencyKeysTable, Tables } from './tables.js';

/** The answer stored for a key, replayed as it was given. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A key as stored: the request's digest, when it expires, and its answer once given. */
export interface KeyClaim {
  fingerprint: string;
  expiresAt: number;
  answer: StoredAnswer | undefined;
}

export class IdempotencyStore {
  private lastSweep = 0;

  constructor(private readonly db: Kysely<Tables>) {}

  /** Takes the key for a request not yet answered; false when the account already holds it. */
  async claim(accountId: string, key: string, fingerprint: string, now: Date, expiresAt: number): Promise<boolean> {
    const result = await this.db.insertInto('idempotency_keys').values({
      account_id: accountId, idempotency_key: key, fingerprint, response_status: null, response_headers: null,
      response_body: null, created_at: now.toISOString(), expires_at: expiresAt,
    }).onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async get(accountId: string, key: string): Promise<KeyClaim | undefined> {
    const row = await this.db.selectFrom('idempotency_keys').selectAll()
      .where('account_id', '=', accountId).where('idempotency_key', '=', key).executeTakeFirst();
    return row ? claimOf(row) : undefined;
  }

  /** Stores the answer of the request holding the key, kept until expiresAt. */
  async answer(accountId: string, key: string, answer: StoredAnswer, expiresAt: number): Promise<void> {
    await this.db.updateTable('idempotency_keys').set({
      response_status: answer.status, response_headers: JSON.stringify(answer.headers), response_body: answer.body, expires_at: expiresAt,
    }).where('account_id', '=', accountId).where('idempotency_key', '=', key).where('response_status', 'is', null).execute();
  }

  /** Gives back a key whose request was not answered with a stored answer. */
  async release(accountId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId).where('idempotency_key', '=', key).where('response_status', 'is', null).execute();
  }

  /**
   * Deletes the account's key if it has expired, so it can be claimed again; and, at most once a
   * minute, every expired key of every account (expiry is lazy: nothing runs on a timer).
   */
  async dropExpired(accountId: string, key: string, nowMs: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId).where('idempotency_key', '=', key).where('expires_at', '<=', nowMs).execute();
    if (nowMs - this.lastSweep > 60_000) {
      this.lastSweep = nowMs;
      void this.purgeExpired(nowMs).catch(() => {});
    }
  }

  /** Deletes every key expired by nowMs; answers how many. */
  async purgeExpired(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', nowMs).executeTakeFirst();
    return Number(result.numDeletedRows ?? 0n);
  }
}

function claimOf(row: IdempotencyKeysTable): KeyClaim {
  const answer = row.response_status === null ? undefined : {
    status: row.response_status,
    headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
    body: Buffer.from(row.response_body ?? new Uint8Array()),
  };
  return { fingerprint: row.fingerprint, expiresAt: Number(row.expires_at), answer };
}
