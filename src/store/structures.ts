// Structures cut from objects, and backtest artifacts stored as the exact bytes served.
import type { Kysely } from 'kysely';
import type { BacktestsTable, StructuresTable, Tables } from './tables.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { perilCode, type BacktestSummary } from '../domain/list-summaries.js';
import type { ListPosition } from './list-position.js';

export type StructureListRow = Pick<StructuresTable, 'id' | 'object_id' | 'peril' | 'created_at'>;
export type BacktestListRow = Pick<BacktestsTable, 'id' | 'peril' | 'feed_id' | 'feed_version' | 'from_year' | 'to_year' | 'created_at'>;

export type StructureDocument = Record<string, unknown> & { id: string; object_id: string };

export class StructureStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(accountId: string, document: StructureDocument, now = new Date()): Promise<void> {
    await this.db.insertInto('structures').values({
      id: document.id, account_id: accountId, object_id: document.object_id,
      document: canonicalJson(document), created_at: now.toISOString(), peril: perilCode(document),
    }).execute();
  }

  async get(id: string, accountId: string): Promise<StructureDocument | undefined> {
    const row = await this.db.selectFrom('structures').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? JSON.parse(row.document) as StructureDocument : undefined;
  }

  /** Stores an artifact once per account; a replay finds the same bytes already there. */
  async putBacktest(accountId: string, id: string, json: string, summary: BacktestSummary, now = new Date()): Promise<void> {
    await this.db.insertInto('backtests').values({ id, account_id: accountId, document: json, created_at: now.toISOString(), ...summary })
      .onConflict((oc) => oc.columns(['id', 'account_id']).doNothing()).execute();
  }

  async backtestJson(id: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('backtests').select('document')
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row?.document;
  }

  /** A page of an account's structures, newest first, from after `position`. */
  async listStructures(accountId: string, after: ListPosition | undefined, limit: number): Promise<StructureListRow[]> {
    let query = this.db.selectFrom('structures').select(['id', 'object_id', 'peril', 'created_at']).where('account_id', '=', accountId);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)));
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** A page of an account's backtest artifacts, newest first, from after `position`; never reads an artifact. */
  async listBacktests(accountId: string, after: ListPosition | undefined, limit: number): Promise<BacktestListRow[]> {
    let query = this.db.selectFrom('backtests')
      .select(['id', 'peril', 'feed_id', 'feed_version', 'from_year', 'to_year', 'created_at']).where('account_id', '=', accountId);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    const year = (y: number | null) => (y === null ? null : Number(y));
    return rows.map((r) => ({ ...r, from_year: year(r.from_year), to_year: year(r.to_year) }));
  }
}
