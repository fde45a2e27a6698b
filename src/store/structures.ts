// Structures cut from objects, and backtest artifacts stored as the exact bytes served.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';
import { canonicalJson } from '../kernel/canonical-json.js';

export type StructureDocument = Record<string, unknown> & { id: string; object_id: string };

export class StructureStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(accountId: string, document: StructureDocument, now = new Date()): Promise<void> {
    await this.db.insertInto('structures').values({
      id: document.id, account_id: accountId, object_id: document.object_id,
      document: canonicalJson(document), created_at: now.toISOString(),
    }).execute();
  }

  async get(id: string, accountId: string): Promise<StructureDocument | undefined> {
    const row = await this.db.selectFrom('structures').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? JSON.parse(row.document) as StructureDocument : undefined;
  }

  /** Stores an artifact once per account; a replay finds the same bytes already there. */
  async putBacktest(accountId: string, id: string, json: string, now = new Date()): Promise<void> {
    await this.db.insertInto('backtests').values({ id, account_id: accountId, document: json, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['id', 'account_id']).doNothing()).execute();
  }

  async backtestJson(id: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('backtests').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row?.document;
  }
}
