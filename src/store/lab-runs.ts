// Lab runs: finished results by content address, and the accounts that submitted each.
import { sql, type Kysely } from 'kysely';
import type { LabRunOwnersTable, Tables } from './tables.js';
import type { ListPosition } from './list-position.js';

export interface RunListRow {
  id: string;
  model: string | null;
  /** As the run document says: succeeded once stored, else its job's status, queued without one. */
  status: string;
  job_id: string | null;
  created_at: string;
}

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

  /** A page of the runs an account submitted, newest submission first, from after `position`. */
  async list(accountId: string, filter: { model?: string; status?: string }, after: ListPosition | undefined, limit: number): Promise<RunListRow[]> {
    const status = sql<string>`case when lab_runs.id is not null then 'succeeded' when jobs.status is null then 'queued' else jobs.status end`;
    let query = this.db.selectFrom('lab_run_owners')
      .leftJoin('lab_runs', 'lab_runs.id', 'lab_run_owners.run_id')
      .leftJoin('jobs', 'jobs.id', 'lab_run_owners.job_id')
      .select(['lab_run_owners.run_id as id', 'lab_run_owners.model', 'lab_run_owners.job_id', 'lab_run_owners.created_at', status.as('status')])
      .where('lab_run_owners.account_id', '=', accountId);
    if (filter.model !== undefined) query = query.where('lab_run_owners.model', '=', filter.model);
    if (filter.status !== undefined) query = query.where(status, '=', filter.status);
    if (after) query = query.where((eb) => eb(eb.refTuple('lab_run_owners.created_at', 'lab_run_owners.run_id'), '<', eb.tuple(after.created_at, after.id)));
    return query.orderBy('lab_run_owners.created_at', 'desc').orderBy('lab_run_owners.run_id', 'desc').limit(limit).execute();
  }
}
