// The daily row budget of exposure coding: rows each account has sent to the coding provider on
// each UTC day. Rows are taken before the provider is asked, in one statement, so two requests at
// once cannot both take the last rows; rows of a request the provider answered not at all are
// given back.
import { sql, type Kysely } from 'kysely';
import type { Tables } from './tables.js';

export class CodingBudgetStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Takes `rows` of the day's `limit` for the account; answers the rows used after, or undefined when they do not fit. */
  async take(accountId: string, day: string, rows: number, limit: number): Promise<number | undefined> {
    if (rows > limit) return undefined;
    const row = await this.db.insertInto('coding_budget')
      .values({ account_id: accountId, day, rows })
      .onConflict((oc) => oc.columns(['account_id', 'day'])
        .doUpdateSet({ rows: sql`coding_budget.rows + ${rows}` })
        .where(sql<boolean>`coding_budget.rows + ${rows} <= ${limit}`))
      .returning('rows')
      .executeTakeFirst();
    return row ? Number(row.rows) : undefined;
  }

  /** Gives rows back (the provider answered none of them). */
  async giveBack(accountId: string, day: string, rows: number): Promise<void> {
    await this.db.updateTable('coding_budget').set({ rows: sql`case when rows >= ${rows} then rows - ${rows} else 0 end` })
      .where('account_id', '=', accountId).where('day', '=', day).execute();
  }

  /** Rows the account has used on the day. */
  async used(accountId: string, day: string): Promise<number> {
    const row = await this.db.selectFrom('coding_budget').select('rows').where('account_id', '=', accountId).where('day', '=', day).executeTakeFirst();
    return row ? Number(row.rows) : 0;
  }
}
