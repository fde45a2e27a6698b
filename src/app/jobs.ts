// Jobs: a verb that takes time is queued as a job and read back by its id (SPEC: Jobs). The job
// document is the Job resource as SPEC shows it.
import type { JobRow } from '../store/jobs.js';
import { JOB_SCHEMA_VERSION } from '../kernel/versions.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusals } from '../kernel/refusal.js';
import type { AppDeps } from './deps.js';

/** The verbs that run as jobs, and SPEC's four states of a job. */
export const JOB_VERBS = ['ingest', 'backtest', 'price', 'lab_run'] as const;
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;

export function jobView(row: JobRow): Record<string, unknown> {
  const subject = JSON.parse(row.subject) as Record<string, unknown>;
  const view: Record<string, unknown> = {
    schema_version: JOB_SCHEMA_VERSION,
    id: row.id,
    verb: row.verb,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // How many runs the job took so far, when the first began and when the job ended (null until then).
    attempts: row.attempts,
    started_at: row.started_at,
    finished_at: row.finished_at,
    links: { self: `/jobs/${row.id}` },
  };
  if (Object.keys(subject).length > 0) view.subject = subject;
  if (row.status === 'succeeded' && row.result !== null) view.result = JSON.parse(row.result);
  if (row.status === 'failed' && row.error !== null) view.error = JSON.parse(row.error);
  return view;
}

export interface JobRequest {
  accountId: string;
  verb: string;
  subject: Record<string, unknown>;
  input: Record<string, unknown>;
}

/** The job a verb's request queued, as its document (the edge answers it 202 with its Location). */
export interface QueuedJob {
  id: string;
  view: Record<string, unknown>;
}

/** Queues a verb's job and wakes the worker. */
export async function queueJob(deps: Pick<AppDeps, 'jobs' | 'wakeWorker'>, job: JobRequest): Promise<QueuedJob> {
  const row = await deps.jobs.create(job);
  deps.wakeWorker();
  return { id: row.id, view: jobView(row) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A job of the caller's account, at any state (a failed job is a document too, not a refusal). */
export async function readJob(deps: Pick<AppDeps, 'jobs'>, input: { accountId: string; id: string }): Promise<Result<Record<string, unknown>>> {
  const row = UUID.test(input.id) ? await deps.jobs.get(input.id, input.accountId) : undefined;
  if (!row) return refused(refusals.notFound(`No job ${input.id} for this key`));
  return ok(jobView(row));
}
