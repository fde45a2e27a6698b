// Accounts, keys and metered usage: the only SQL about who is calling.
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountsTable, Tables } from './tables.js';
import { preparedQuery } from './prepared.js';
import { announceAccountChange } from './notices.js';

export type Account = AccountsTable;

export interface AccountWithKeys {
  readonly account: Account;
  readonly keys: ReadonlyArray<{ readonly id: string; readonly created_at: string }>;
}

export interface IssuedKey {
  id: string;
  secret: string;
  created_at: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Keys are 32 random bytes, so an unsalted SHA-256 is a safe digest to store and look up by. */
export function secretDigest(secret: string): string {
  // The one-shot digest: every keyed request computes one, and a Hash object costs more than the hash.
  return hash('sha256', secret, 'hex');
}

/** On PostgreSQL, how long an account read is trusted without a notice to say it changed. */
export const NOTIFIED_TRUST_MS = 5_000;

export class AccountStore {
  // Every keyed request reads these: compiled once (see prepared.ts).
  private readonly keyOfDigest;
  private readonly accountById;
  private readonly accountAndKeys;

  /**
   * Accounts with their keys, remembered by id. An account changes only by cancel(), which forgets
   * it, and keys are made only with their account. Where this process is the database's one writer
   * (SQLite) that is enough. Several processes share PostgreSQL: there an account is remembered only
   * while this process listens for the deployment's account notices (store/notices.ts; cancel()
   * announces in its transaction), everything is forgotten whenever listening stops, a read that a
   * notice overtook is not kept (`epoch`), and nothing is trusted longer than NOTIFIED_TRUST_MS (a
   * listening connection can die without a word: a cancellation then reaches this process late,
   * never not at all).
   */
  private readonly remembered: Map<string, { found: AccountWithKeys; until: number }> | undefined;
  private readonly trustMs: number;
  private remembering: boolean;
  private epoch = 0;
  private readonly announces: boolean;

  constructor(private readonly db: Kysely<Tables>, options: { soleWriter?: boolean; notified?: boolean; trustMs?: number } = {}) {
    this.remembered = options.soleWriter || options.notified ? new Map() : undefined;
    this.trustMs = options.trustMs ?? (options.soleWriter ? Infinity : NOTIFIED_TRUST_MS);
    this.remembering = options.soleWriter === true;
    this.announces = options.notified === true;
    this.keyOfDigest = preparedQuery(db, 1, (digest: string) => db.selectFrom('api_keys')
      .select(['id as key_id', 'account_id']).where('secret_digest', '=', digest));
    this.accountById = preparedQuery(db, 1, (id: string) => db.selectFrom('accounts').selectAll().where('id', '=', id));
    this.accountAndKeys = preparedQuery(db, 1, (id: string) => db.selectFrom('accounts')
      .innerJoin('api_keys', 'api_keys.account_id', 'accounts.id')
      .selectAll('accounts').select(['api_keys.id as key_id', 'api_keys.created_at as key_created_at'])
      .where('accounts.id', '=', id).orderBy('api_keys.created_at').orderBy('api_keys.id'));
  }

  async signup(input: { label?: string; email?: string }, now = new Date()): Promise<{ account: Account; key: IssuedKey }> {
    const created_at = now.toISOString();
    const account: Account = {
      id: `acct_${hex(12)}`,
      created_at,
      plan: 'sandbox',
      label: input.label ?? null,
      email: input.email ?? null,
      status: 'active',
      cancelled_at: null,
    };
    const key: IssuedKey = { id: `key_${hex(12)}`, secret: `crk_${randomBytes(32).toString('base64url')}`, created_at };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account).execute();
      await trx.insertInto('api_keys')
        .values({ id: key.id, account_id: account.id, secret_digest: secretDigest(key.secret), created_at })
        .execute();
    });
    return { account, key };
  }

  async keyByDigest(digest: string): Promise<{ key_id: string; account_id: string } | undefined> {
    return (await this.keyOfDigest(digest))[0];
  }

  async account(id: string): Promise<Account | undefined> {
    const known = this.known(id);
    if (known) return known.account;
    return (await this.accountById(id))[0];
  }

  /** The account and its keys in one round trip (GET /account is the hottest keyed read). */
  async accountWithKeys(id: string): Promise<AccountWithKeys | undefined> {
    const known = this.known(id);
    if (known) return known;
    const epoch = this.epoch;
    const rows = await this.accountAndKeys(id);
    const first = rows[0];
    if (!first) return undefined;
    const { key_id: _k, key_created_at: _c, ...account } = first;
    const found: AccountWithKeys = Object.freeze({
      account: Object.freeze(account as Account),
      keys: Object.freeze(rows.map((r) => Object.freeze({ id: r.key_id, created_at: r.key_created_at }))),
    });
    if (this.remembered && this.remembering && epoch === this.epoch) {
      if (this.remembered.size >= 50_000) this.remembered.clear();
      this.remembered.set(id, { found, until: Date.now() + this.trustMs });
    }
    return found;
  }

  /** Cancels at once, announced to the deployment's other processes; returns false when it was already cancelled. */
  async cancel(id: string, now = new Date()): Promise<boolean> {
    this.accountChanged(id);
    const result = await this.db.transaction().execute(async (trx) => {
      const updated = await trx.updateTable('accounts')
        .set({ status: 'cancelled', cancelled_at: now.toISOString() })
        .where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
      if (this.announces) await announceAccountChange(trx, id);
      return updated;
    });
    // Again after the write: a read while it ran may have remembered the account as it was.
    this.accountChanged(id);
    return Number(result.numUpdatedRows) > 0;
  }

  private known(id: string): AccountWithKeys | undefined {
    const entry = this.remembered?.get(id);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.found;
    this.remembered!.delete(id);
    return undefined;
  }

  /** Another process changed the account (its notice): what is remembered of it is forgotten. */
  accountChanged(id: string): void {
    this.epoch += 1;
    this.remembered?.delete(id);
  }

  /** Notices began or stopped reaching this process: remembered only while they do, from a clean slate. */
  noticesListening(listening: boolean): void {
    this.epoch += 1;
    this.remembered?.clear();
    if (this.announces) this.remembering = listening;
  }

  /**
   * Records a metered unit once per account, unit and subject, unless the account is cancelled
   * (nothing is recorded after). Idempotent: a re-run or a repeated run records nothing more;
   * true only when this call recorded it.
   */
  async recordUsage(accountId: string, unit: 'object' | 'model_run', subjectId: string, now = new Date()): Promise<boolean> {
    const account = await this.account(accountId);
    if (!account || account.status !== 'active') return false;
    const result = await this.db.insertInto('usage')
      .values({ id: randomUUID(), account_id: accountId, unit, subject_id: subjectId, recorded_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['account_id', 'unit', 'subject_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async usage(accountId: string) {
    return this.db.selectFrom('usage').select(['unit', 'subject_id', 'recorded_at'])
      .where('account_id', '=', accountId).orderBy('recorded_at').orderBy('id').execute();
  }
}
