// Submission packs, stored as the exact canonical JSON served, once per account and content address.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export class PackageStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores a pack once per account; assembling the same pack again finds the same bytes there. */
  async put(accountId: string, id: string, objectId: string, json: string, now = new Date()): Promise<void> {
    await this.db.insertInto('packages').values({ id, account_id: accountId, object_id: objectId, document: json, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['id', 'account_id']).doNothing()).execute();
  }

  async json(id: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('packages').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row?.document;
  }
}
