// Jobs: a verb that takes time is queued as a job and read back by its id (SPEC: Jobs). The job
// document is the Job resource as SPEC shows it, with how far a long job has got; a job may be
// cancelled, and ends failed (code cancelled) when it is: SPEC's four states stay the only ones.
import type { JobRow } from '../store/jobs.js';
import { addChartLink } from '../domain/backtest/links.js';
import { JOB_SCHEMA_VERSION } from '../kernel/versions.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals, type ErrorBody } from '../kernel/refusal.js';
import type { JobProgress } from './progress.js';
import type { AppDeps } from './deps.js';

/** The verbs that run as jobs, and SPEC's four states of a job. */
export const JOB_VERBS = ['ingest', 'backtest', 'price', 'lab_run', 'model_run', 'package', 'analyse', 'webhook_delivery'] as const;
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
  // Long jobs (ingest, lab runs) say how far they got, once their task has counted anything.
  if (row.progress !== null) view.progress = JSON.parse(row.progress);
  if (row.status === 'succeeded' && row.result !== null) view.result = resultOf(row);
  if (row.status === 'failed' && row.error !== null) view.error = JSON.parse(row.error);
  return view;
}

/** A succeeded job's result; a backtest in it stored before charts existed gets its links.chart. */
function resultOf(row: JobRow): unknown {
  const result = JSON.parse(row.result!) as unknown;
  if (row.verb === 'backtest') addChartLink(result);
  else if (row.verb === 'price' && result !== null && typeof result === 'object') addChartLink((result as { backtest?: unknown }).backtest);
  return result;
}

export interface JobRequest {
  accountId: string;
  verb: string;
  subject: Record<string, unknown>;
  input: Record<string, unknown>;
  /** Epoch milliseconds before which no worker claims it (a delivery retry's backoff). */
  notBefore?: number;
}

/** A job's document, and the seconds a client might wait before reading it again while it runs. */
export interface JobAnswer {
  view: Record<string, unknown>;
  /** Undefined once the job has ended. */
  retryAfter: number | undefined;
}

/** The job a verb's request queued, as its document (the edge answers it 202 with its Location). */
export interface QueuedJob extends JobAnswer {
  id: string;
}

/** Seconds before a queued job is worth reading again: a worker takes it at once when one is free. */
const QUEUED_RETRY_AFTER = 1;
/** The hint for a running job whose progress is not known (yet). */
const RUNNING_RETRY_AFTER = 2;
/** The longest hint: a job is worth looking at again within this, however long it has to go. */
const MAX_RETRY_AFTER = 30;

/** The Retry-After hint for a job (or a lab run) by its status alone; none once it ended. */
export function statusRetryAfter(status: string): number | undefined {
  return status === 'queued' ? QUEUED_RETRY_AFTER : status === 'running' ? RUNNING_RETRY_AFTER : undefined;
}

/**
 * The Retry-After hint for a job: for a running one with progress, the time it has still to go at
 * the pace it has had since it started, within 1 to MAX_RETRY_AFTER seconds; none once it ended.
 */
export function retryAfter(row: JobRow, now: Date): number | undefined {
  if (row.status !== 'running') return statusRetryAfter(row.status);
  const progress = row.progress === null ? null : JSON.parse(row.progress) as JobProgress;
  const ranMs = row.started_at === null ? 0 : now.getTime() - Date.parse(row.started_at);
  if (progress === null || !(progress.fraction > 0) || !(ranMs > 0)) return RUNNING_RETRY_AFTER;
  const toGo = (ranMs / 1000) * (1 - progress.fraction) / progress.fraction;
  return Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil(toGo)));
}

function answerOf(row: JobRow, now: Date): JobAnswer {
  return { view: jobView(row), retryAfter: retryAfter(row, now) };
}

/** Queues a verb's job and wakes the worker. */
export async function queueJob(deps: Pick<AppDeps, 'jobs' | 'wakeWorker'>, job: JobRequest): Promise<QueuedJob> {
  const row = await deps.jobs.create(job);
  deps.wakeWorker();
  return { id: row.id, view: jobView(row), retryAfter: QUEUED_RETRY_AFTER };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A job of the caller's account, at any state (a failed job is a document too, not a refusal). */
export async function readJob(deps: Pick<AppDeps, 'jobs' | 'now'>, input: { accountId: string; id: string }): Promise<Result<JobAnswer>> {
  const row = UUID.test(input.id) ? await deps.jobs.get(input.id, input.accountId) : undefined;
  if (!row) return refused(refusals.notFound(`No job ${input.id} for this key`));
  return ok(answerOf(row, deps.now()));
}

/** The error a cancelled job ends with: who cancelled it (the key and its account) and when. */
export function cancelledError(input: { accountId: string; keyId: string }, at: Date): ErrorBody {
  return { status: 409, code: 'cancelled', message: `The job was cancelled by key ${input.keyId} of account ${input.accountId} at ${at.toISOString()}.` };
}

/** A cancel's answer: the job, and whether its cancel is still to take effect (it was running). */
export interface CancelAnswer extends JobAnswer {
  pending: boolean;
}

/**
 * POST /jobs/{id}/cancel: a queued job fails at once and never starts; a running one is stopped by
 * its worker at its next checkpoint (pending until then), unless its work is done first. Asking
 * again answers the job as it stands; a job that had already ended otherwise is refused 409.
 */
export async function cancelJob(deps: Pick<AppDeps, 'jobs' | 'now'>, input: { accountId: string; keyId: string; id: string }): Promise<Result<CancelAnswer>> {
  const at = deps.now();
  const row = UUID.test(input.id) ? await deps.jobs.cancel(input.id, input.accountId, cancelledError(input, at), at) : undefined;
  if (!row) return refused(refusals.notFound(`No job ${input.id} for this key`));
  const now = deps.now();
  if (row.status === 'running' && row.cancellation !== null) return ok({ ...answerOf(row, now), pending: true });
  if (row.status === 'failed' && row.error !== null && (JSON.parse(row.error) as ErrorBody).code === 'cancelled') {
    return ok({ ...answerOf(row, now), pending: false });
  }
  if (row.status === 'succeeded' || row.status === 'failed') {
    return refused(refusal(409, 'job_finished', `Job ${row.id} already ${row.status}${row.finished_at ? ` at ${row.finished_at}` : ''}; a job that has ended cannot be cancelled.`));
  }
  // The job kept moving between queued and running while the cancel was tried.
  return refused(refusal(503, 'server_error', `Job ${row.id} is changing state; send the cancel again.`, undefined, { 'retry-after': '1' }));
}

/** How long a front door that answers once (the tool server) waits for a job before answering its link. */
export interface WaitBound {
  timeoutMs: number;
  /** The caller went away: stop waiting. */
  signal?: AbortSignal;
  /** Between reads; 100 ms unless told. */
  pollMs?: number;
}

/**
 * Reads a document until it has ended or the bound is reached, and answers its last reading (a
 * refusal at once). The job runs on regardless; a caller that stopped waiting reads it later.
 */
export async function settled<T>(read: () => Promise<Result<T>>, ended: (value: T) => boolean, bound: WaitBound): Promise<Result<T>> {
  const until = Date.now() + bound.timeoutMs;
  for (;;) {
    const reading = await read();
    if (!reading.ok || ended(reading.value) || Date.now() >= until || bound.signal?.aborted) return reading;
    await new Promise((resolve) => setTimeout(resolve, Math.min(bound.pollMs ?? 100, Math.max(1, until - Date.now()))));
  }
}

/** A job of the caller's account, read until it ends or the bound is reached. */
export function awaitJob(deps: Pick<AppDeps, 'jobs' | 'now'>, input: { accountId: string; id: string }, bound: WaitBound): Promise<Result<JobAnswer>> {
  return settled(() => readJob(deps, input), (job) => job.retryAfter === undefined, bound);
}
