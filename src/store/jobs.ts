// The durable jobs table: claimed under a lease, finished only by the lease holder, so a job
// is never lost (an expired lease is taken over) and never finished twice.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { JobsTable, Tables } from './tables.js';
import type { ErrorBody } from '../kernel/refusal.js';
import type { ListPosition } from './list-position.js';

/** What a list of jobs shows: never the input or the result (a backtest's result is its whole artifact). */
export type JobListRow = Pick<JobRow, 'id' | 'verb' | 'status' | 'subject' | 'attempts' | 'created_at' | 'updated_at' | 'started_at' | 'finished_at'>;

export type JobRow = JobsTable;

/** Where a job came from: the request id and W3C trace context of the work that queued it. */
export interface JobOrigin {
  readonly requestId: string | null;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
}

/** What is queued and running of one verb (the queue's gauges). */
export interface QueueCount {
  readonly verb: string;
  /** Queued jobs a worker may claim now (not those whose not_before is still ahead). */
  readonly queued: number;
  readonly running: number;
  /** When the oldest of those queued jobs was created (epoch ms), or null when none is queued. */
  readonly oldestQueuedAt: number | null;
}

export class JobStore {
  /**
   * `originOfNew` answers the origin of the work under way when a job is queued (the request that
   * queues it), unless the caller names one.
   */
  constructor(private readonly db: Kysely<Tables>, private readonly dialect: Dialect, private readonly originOfNew: () => JobOrigin | undefined = () => undefined) {}

  /** `notBefore` (epoch ms): the job is not claimed before then (a delivery's retry backoff). */
  async create(input: { accountId: string; verb: string; subject: unknown; input: unknown; notBefore?: number; origin?: JobOrigin }, now = new Date()): Promise<JobRow> {
    const at = now.toISOString();
    const origin = input.origin ?? this.originOfNew();
    const row: JobRow = {
      id: randomUUID(),
      account_id: input.accountId,
      verb: input.verb,
      status: 'queued',
      subject: JSON.stringify(input.subject ?? {}),
      input: JSON.stringify(input.input ?? {}),
      result: null,
      error: null,
      created_at: at,
      updated_at: at,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      started_at: null,
      finished_at: null,
      progress: null,
      cancellation: null,
      not_before: input.notBefore ?? null,
      request_id: origin?.requestId ?? null,
      traceparent: origin?.traceparent ?? null,
      tracestate: origin?.tracestate ?? null,
    };
    await this.db.insertInto('jobs').values(row).execute();
    return row;
  }

  async get(id: string, accountId: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /**
   * Per verb, the jobs queued and due, the jobs running and when the oldest due one was queued: one
   * grouped query over the claim index (status, created_at), read when metrics are scraped.
   */
  async queueCounts(nowMs = Date.now()): Promise<QueueCount[]> {
    const rows = await sql<{ verb: string; status: string; n: number | string; oldest: string | null }>`
      select verb, status, count(*) as n, min(created_at) as oldest from jobs
      where status in ('queued', 'running') and (status = 'running' or not_before is null or not_before <= ${nowMs})
      group by verb, status`.execute(this.db);
    const byVerb = new Map<string, { queued: number; running: number; oldestQueuedAt: number | null }>();
    for (const row of rows.rows) {
      const count = byVerb.get(row.verb) ?? { queued: 0, running: 0, oldestQueuedAt: null };
      if (row.status === 'queued') {
        count.queued = Number(row.n);
        count.oldestQueuedAt = row.oldest === null ? null : Date.parse(row.oldest);
      } else {
        count.running = Number(row.n);
      }
      byVerb.set(row.verb, count);
    }
    return [...byVerb].map(([verb, count]) => ({ verb, ...count }));
  }

  /** A page of an account's jobs, newest first, from after `position`. */
  async list(accountId: string, filter: { verb?: string; status?: string }, after: ListPosition | undefined, limit: number): Promise<JobListRow[]> {
    let query = this.db.selectFrom('jobs')
      .select(['id', 'verb', 'status', 'subject', 'attempts', 'created_at', 'updated_at', 'started_at', 'finished_at'])
      .where('account_id', '=', accountId);
    if (filter.verb !== undefined) query = query.where('verb', '=', filter.verb);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status as JobRow['status']);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.created_at, after.id)));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
  }

  /**
   * Claims the oldest queued job, or a running one whose lease has expired, among those tried
   * fewer than maxAttempts times (the others are for failExhausted).
   */
  async claim(owner: string, leaseMs: number, verbs: readonly string[], nowMs = Date.now(), maxAttempts?: number): Promise<JobRow | undefined> {
    if (verbs.length === 0) return undefined;
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const at = new Date(nowMs).toISOString();
    const result = await sql<JobRow>`
      update jobs set status = 'running', lease_owner = ${owner}, lease_expires_at = ${nowMs + leaseMs},
        attempts = attempts + 1, started_at = coalesce(started_at, ${at}), updated_at = ${at}, progress = null
      where id = (
        select id from jobs
        where ${claimable(owner, verbs, nowMs)}
          ${maxAttempts === undefined ? sql`` : sql`and attempts < ${maxAttempts}`}
        order by created_at, id
        limit 1 ${lock}
      )
      returning *`.execute(this.db);
    return result.rows[0];
  }

  /**
   * Fails every claimable job already tried maxAttempts times or more (its runs crashed, or lost
   * their lease, without recording an outcome), with the error `errorFor` gives for its attempts.
   * Returns the jobs failed.
   */
  async failExhausted(owner: string, verbs: readonly string[], maxAttempts: number, errorFor: (attempts: number) => ErrorBody, nowMs = Date.now()): Promise<JobRow[]> {
    if (verbs.length === 0) return [];
    const found = await sql<{ id: string; attempts: number }>`
      select id, attempts from jobs where ${claimable(owner, verbs, nowMs)} and attempts >= ${maxAttempts}
      order by created_at, id limit 100`.execute(this.db);
    const failed: JobRow[] = [];
    const at = new Date(nowMs).toISOString();
    for (const { id, attempts } of found.rows) {
      // Guarded by the same conditions, so a job claimed or finished meanwhile is left alone.
      const result = await sql<JobRow>`
        update jobs set status = 'failed', error = ${JSON.stringify(errorFor(Number(attempts)))},
          lease_owner = null, lease_expires_at = null, finished_at = ${at}, updated_at = ${at}
        where id = ${id} and attempts = ${attempts} and ${claimable(owner, verbs, nowMs)}
        returning *`.execute(this.db);
      if (result.rows[0]) failed.push(result.rows[0]);
    }
    return failed;
  }

  /** Extends the lease; false means the lease was lost and the work must be abandoned. */
  async heartbeat(id: string, owner: string, leaseMs: number, nowMs = Date.now()): Promise<boolean> {
    const r = await this.db.updateTable('jobs').set({ lease_expires_at: nowMs + leaseMs })
      .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The cancel asked for a job this owner runs (the error body it is to end with), if any. */
  async cancellation(id: string, owner: string): Promise<ErrorBody | undefined> {
    const row = await this.db.selectFrom('jobs').select('cancellation')
      .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return row?.cancellation ? JSON.parse(row.cancellation) as ErrorBody : undefined;
  }

  /** Records how far a running job has got (JSON text); a job no longer running is left alone. */
  async setProgress(id: string, progress: unknown, now = new Date()): Promise<void> {
    await this.db.updateTable('jobs').set({ progress: JSON.stringify(progress), updated_at: now.toISOString() })
      .where('id', '=', id).where('status', '=', 'running').execute();
  }

  /**
   * Cancels a job of the account: a queued one fails at once with `error` and never starts; on a
   * running one the cancel is stored for its worker to act on at its next checkpoint (a worker in
   * any process reads it from the row). Answers the job as it then stands (undefined: no such job
   * for the account); a job that had already ended is left as it was.
   */
  async cancel(id: string, accountId: string, error: ErrorBody, now = new Date()): Promise<JobRow | undefined> {
    const at = now.toISOString();
    const cancellation = JSON.stringify(error);
    // A job may move between queued and running meanwhile (claimed, or put back): try again then.
    for (let tries = 0; ; tries += 1) {
      const failed = await this.db.updateTable('jobs')
        .set({ status: 'failed', error: cancellation, cancellation, finished_at: at, updated_at: at })
        .where('id', '=', id).where('account_id', '=', accountId).where('status', '=', 'queued')
        .returningAll().executeTakeFirst();
      if (failed) return failed;
      const asked = await this.db.updateTable('jobs').set({ cancellation, updated_at: at })
        .where('id', '=', id).where('account_id', '=', accountId).where('status', '=', 'running').where('cancellation', 'is', null)
        .returningAll().executeTakeFirst();
      if (asked) return asked;
      const row = await this.get(id, accountId);
      const settled = !row || row.status === 'succeeded' || row.status === 'failed' || (row.status === 'running' && row.cancellation !== null);
      if (settled || tries >= 3) return row;
    }
  }

  /**
   * Fails, with the cancel asked for, every job a worker could take but whose cancel was stored
   * (its worker went away before acting on it). Returns the jobs failed.
   */
  async failCancelled(owner: string, verbs: readonly string[], nowMs = Date.now()): Promise<JobRow[]> {
    if (verbs.length === 0) return [];
    const at = new Date(nowMs).toISOString();
    const result = await sql<JobRow>`
      update jobs set status = 'failed', error = cancellation, lease_owner = null, lease_expires_at = null,
        finished_at = ${at}, updated_at = ${at}
      where cancellation is not null and ${takeable(owner, verbs, nowMs)}
      returning *`.execute(this.db);
    return result.rows;
  }

  /** Records the outcome only while this owner holds the job; returns whether it did. */
  async finish(id: string, owner: string, outcome: { result: unknown } | { error: ErrorBody }, now = new Date()): Promise<boolean> {
    const set = 'result' in outcome
      ? { status: 'succeeded' as const, result: JSON.stringify(outcome.result) }
      : { status: 'failed' as const, error: JSON.stringify(outcome.error) };
    const at = now.toISOString();
    const r = await this.db.updateTable('jobs')
      .set({ ...set, lease_owner: null, lease_expires_at: null, finished_at: at, updated_at: at })
      .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Puts one job this owner runs back in the queue; false if the lease was lost. `counted: false`
   * (interrupted, not failed: the database went away) takes back the attempt the claim counted.
   */
  async requeue(id: string, owner: string, { counted }: { counted: boolean }, now = new Date()): Promise<boolean> {
    const r = await this.db.updateTable('jobs')
      .set((eb) => ({
        ...putBack(now),
        ...(counted ? {} : { attempts: eb('attempts', '-', 1) }),
      }))
      .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Puts back every running job some other owner holds, whatever its lease. Only sound where one
   * process runs by design (SQLite) and before this owner claims: those jobs were left by the
   * process's previous incarnation, which cannot be running them any more.
   */
  async requeueAbandoned(owner: string, now = new Date()): Promise<number> {
    const r = await this.db.updateTable('jobs')
      .set(putBack(now))
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '<>', owner)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Puts this owner's running jobs back in the queue (clean shutdown: the attempts are not counted). */
  async release(owner: string, now = new Date()): Promise<number> {
    const r = await this.db.updateTable('jobs')
      .set((eb) => ({ ...putBack(now), attempts: eb('attempts', '-', 1) }))
      .where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}

/**
 * A job no worker holds: queued, or running under another owner's expired lease (a worker never
 * takes back a job it still runs itself, even when its lease lapsed).
 */
function takeable(owner: string, verbs: readonly string[], nowMs: number) {
  return sql`verb in (${sql.join(verbs)})
    and (status = 'queued' or (status = 'running' and lease_expires_at < ${nowMs} and lease_owner <> ${owner}))`;
}

/** A job a worker may run: takeable, not cancelled (failCancelled ends those) and due. */
function claimable(owner: string, verbs: readonly string[], nowMs: number) {
  return sql`${takeable(owner, verbs, nowMs)} and cancellation is null and (not_before is null or not_before <= ${nowMs})`;
}

/**
 * A running job given back: queued again, or failed with its cancel when one was asked for while
 * it ran (a cancelled job never runs again).
 */
function putBack(now: Date) {
  const at = now.toISOString();
  return {
    status: sql<JobRow['status']>`case when cancellation is null then 'queued' else 'failed' end`,
    error: sql<string | null>`cancellation`,
    finished_at: sql<string | null>`case when cancellation is null then null else ${at} end`,
    lease_owner: null, lease_expires_at: null, updated_at: at,
  };
}
