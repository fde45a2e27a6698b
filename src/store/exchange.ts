// Model-exchange listings and their grants. Credentials are stored only sealed, beside the id of
// the key that sealed them; this store never sees a plaintext.
import type { Kysely } from 'kysely';
import type { ExchangeModelsTable, Tables } from './tables.js';
import { SealedColumn } from './sealed-values.js';

export type ListingRow = ExchangeModelsTable;

export class ExchangeStore {
  /** Every listing's sealed credentials, for the sealing keys' check and `catrisk keys reseal`. */
  readonly sealedCredentials: SealedColumn;

  constructor(private readonly db: Kysely<Tables>) {
    this.sealedCredentials = new SealedColumn(db as unknown as Kysely<any>, 'exchange_models', 'credentials_sealed', 'credentials_key_id');
  }

  async insert(row: ListingRow): Promise<void> {
    await this.db.insertInto('exchange_models').values(row).execute();
  }

  async get(id: string): Promise<ListingRow | undefined> {
    return this.db.selectFrom('exchange_models').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Listed models (their order is the use case's: by name, the same on every database). */
  async listed(): Promise<ListingRow[]> {
    return this.db.selectFrom('exchange_models').selectAll().where('state', '=', 'listed').execute();
  }

  /** Writes what changed; false when the listing is gone. */
  async update(id: string, change: Partial<Omit<ListingRow, 'id' | 'account_id' | 'created_at'>>): Promise<boolean> {
    const result = await this.db.updateTable('exchange_models').set(change).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves a listing from one state to another; false when it was no longer in `from` (someone moved it first). */
  async moveState(id: string, from: string, to: string, at: string, reviewNote: string | null): Promise<boolean> {
    const result = await this.db.updateTable('exchange_models').set({ state: to, updated_at: at, review_note: reviewNote })
      .where('id', '=', id).where('state', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The grants of a listing, oldest first. */
  async grants(modelId: string): Promise<Array<{ account_id: string; granted_at: string }>> {
    return this.db.selectFrom('exchange_grants').select(['account_id', 'granted_at']).where('model_id', '=', modelId)
      .orderBy('granted_at').orderBy('account_id').execute();
  }

  async granted(modelId: string, accountId: string): Promise<boolean> {
    const row = await this.db.selectFrom('exchange_grants').select('account_id').where('model_id', '=', modelId).where('account_id', '=', accountId).executeTakeFirst();
    return row !== undefined;
  }

  /** Grants once: a grant already made keeps its first time. */
  async grant(modelId: string, accountId: string, at: string): Promise<void> {
    await this.db.insertInto('exchange_grants').values({ model_id: modelId, account_id: accountId, granted_at: at })
      .onConflict((oc) => oc.columns(['model_id', 'account_id']).doNothing()).execute();
  }

  async revoke(modelId: string, accountId: string): Promise<void> {
    await this.db.deleteFrom('exchange_grants').where('model_id', '=', modelId).where('account_id', '=', accountId).execute();
  }
}
