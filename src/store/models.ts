// The registry's composed models: immutable documents, one per account and content address, a
// name's versions unique within the account.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export type ModelDocument = Record<string, unknown> & { id: string; name: string; version: string };

export class ModelStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores a model once; false when the account already holds this id or this name and version. */
  async insert(accountId: string, document: ModelDocument, json: string, createdAt: string): Promise<boolean> {
    const result = await this.db.insertInto('models')
      .values({ id: document.id, account_id: accountId, name: document.name, version: document.version, document: json, created_at: createdAt })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** The stored canonical JSON of one of the account's models. */
  async json(id: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('models').select('document').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row?.document;
  }

  /** The account's versions of a name: id and version, oldest first. */
  async versions(accountId: string, name: string): Promise<{ id: string; version: string; created_at: string }[]> {
    return this.db.selectFrom('models').select(['id', 'version', 'created_at'])
      .where('account_id', '=', accountId).where('name', '=', name).orderBy('created_at').orderBy('id').execute();
  }
}
