// Lab runs: finished results by content address, and the accounts that submitted each.
import type { Kysely } from 'kysely';
import type { LabRunOwnersTable, Tables } from './tables.js';

export class LabRunStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async result(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('lab_runs').select('document').where('id', '=', id).executeTakeFirst();
    return row?.document;
  }

  async putResult(id: string, model: string, json: string, now = new Date()): Promise<void> {
    await this.db.insertInto('lab_runs').values({ id, model, document: json, created_at: now.toISOString() })
      .onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  async owner(id: string, accountId: string): Promise<LabRunOwnersTable | undefined> {
    return this.db.selectFrom('lab_run_owners').selectAll().where('run_id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** Records the account as a submitter; false when it already was one. */
  async addOwner(row: LabRunOwnersTable): Promise<boolean> {
    const r = await this.db.insertInto('lab_run_owners').values(row)
      .onConflict((oc) => oc.columns(['run_id', 'account_id']).doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async setJob(id: string, accountId: string, jobId: string): Promise<void> {
    await this.db.updateTable('lab_run_owners').set({ job_id: jobId }).where('run_id', '=', id).where('account_id', '=', accountId).execute();
  }
}
