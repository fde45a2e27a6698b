// The worker loop: claims jobs under a lease, runs the verb's handler, records the outcome.
// Database failures never end the loop: claims back off and retry, and an outcome is retried
// until it is recorded, the lease is lost or the worker stops.
// A run that fails for a reason that is not the request's fault is tried again, up to
// maxAttempts runs; a refusal (4xx) fails the job at once.
import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { ApiError, endsTheJob, refusal, type ErrorBody } from '../kernel/refusal.js';
import { isDatabaseUnavailable } from '../store/database.js';
import type { JobRow, JobStore } from '../store/jobs.js';
import type { JobOutcome } from '../telemetry/metrics.js';
import { parseTraceparent, startSpan } from '../telemetry/trace-context.js';
import { apartFromWork, runAs } from '../telemetry/work.js';
import { abortingTasksWith } from './threads.js';

export interface JobInput {
  id: string;
  accountId: string;
  verb: string;
  subject: Record<string, unknown>;
  input: Record<string, unknown>;
  /**
   * Aborted when the lease is lost or the worker shuts down (the outcome is then discarded), or
   * when the job is cancelled (it then fails with the cancel, unless its work was already done).
   */
  signal: AbortSignal;
}

export type JobHandler = (job: JobInput) => Promise<unknown>;

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Runs a job may start without recording an outcome before it fails (CATRISK_JOB_MAX_ATTEMPTS). */
  maxAttempts: number;
  log: Logger;
  /**
   * Take back, before the first claim, every job left running by another owner. Only where one
   * process runs by design (SQLite): those jobs were left by this service's previous incarnation.
   */
  takeBackOnStart?: boolean;
  /** How often a running job's row is read for a cancel (default CHECKPOINT_MS). */
  checkpointMs?: number;
  /** Told of every run's end: its verb, outcome and duration (the metrics). */
  onRunEnded?: (verb: string, outcome: JobOutcome, seconds: number) => void;
}

/** How often a running job looks for a cancel: a cancelled job stops within about this long. */
export const CHECKPOINT_MS = 500;

/** The abort reason of a job cancelled while it ran: the error body it ends with. */
class Cancelled {
  constructor(readonly error: ErrorBody) {}
}

/** The longest pause between retries while the database is failing. */
const MAX_BACKOFF_MS = 5_000;

function backoff(baseMs: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 16));
}

/** A refusal that running the job again would give again (see endsTheJob). */
function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && endsTheJob(error);
}

function tried(attempts: number): string {
  return `It was tried ${attempts} time${attempts === 1 ? '' : 's'}.`;
}

/** The error a job fails with once its runs are spent; `error` is the last run's, when known. */
export function exhaustedError(attempts: number, error?: unknown): ErrorBody {
  if (error instanceof ApiError) {
    const body = error.toBody();
    return { ...body, message: `${body.message} ${tried(attempts)}` };
  }
  return ApiError.of(refusal(500, 'internal_error', `The job failed for a reason that is not the request's fault. ${tried(attempts)}`)).toBody();
}

export class Worker {
  readonly owner = `worker_${randomUUID()}`;
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private polling = false;
  private repoll = false;
  private claimFailures = 0;
  /** When jobs with spent attempts were last looked for (see poll). */
  private lastSpentSweep = -Infinity;
  private takeBackPending: boolean;

  constructor(
    private readonly jobs: JobStore,
    private readonly handlers: ReadonlyMap<string, JobHandler>,
    private readonly options: WorkerOptions,
  ) {
    this.takeBackPending = options.takeBackOnStart ?? false;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Called when a job is queued in this process, so it starts without waiting for a poll. */
  nudge(): void {
    if (!this.stopped && this.claimFailures === 0) this.schedule(0);
  }

  /** Stops claiming, aborts what runs and puts it back in the queue for another worker. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const controller of this.running.values()) controller.abort();
    await this.jobs.release(this.owner);
  }

  get busy(): number {
    return this.running.size;
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    // Not unref'd: this timer is what keeps a worker-only process alive while it waits for work,
    // also when every database connection has just been dropped. Set apart from the request that
    // may have nudged the worker: each job runs as its own work (run).
    this.timer = apartFromWork(() => setTimeout(() => void this.poll(), ms));
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.repoll = true;
      return;
    }
    this.polling = true;
    try {
      if (this.takeBackPending) {
        const taken = await this.jobs.requeueAbandoned(this.owner);
        this.takeBackPending = false;
        if (taken > 0) this.options.log.warn({ jobs: taken }, 'jobs left running by the previous start were put back in the queue');
      }
      const verbs = [...this.handlers.keys()];
      // Jobs whose runs all ended without an outcome (a crash, a lost lease) are failed, not run again.
      // Such a job appears only when a lease lapses, so one look per lease period finds every one
      // without a query on every poll.
      const now = Date.now();
      if (!this.stopped && this.running.size < this.options.concurrency && now - this.lastSpentSweep >= this.options.leaseMs) {
        this.lastSpentSweep = now;
        const spent = await this.jobs.failExhausted(this.owner, verbs, this.options.maxAttempts, (attempts) => exhaustedError(attempts));
        for (const job of spent) this.options.log.error({ job: job.id, verb: job.verb, attempts: job.attempts, reqId: job.request_id ?? undefined }, 'job failed: its runs ended without an outcome');
        // A cancel asked for a job whose worker went away before acting on it.
        const cancelled = await this.jobs.failCancelled(this.owner, verbs);
        for (const job of cancelled) this.options.log.info({ job: job.id, verb: job.verb, reqId: job.request_id ?? undefined }, 'job cancelled: its worker had gone');
      }
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const row = await this.jobs.claim(this.owner, this.options.leaseMs, verbs, Date.now(), this.options.maxAttempts);
        this.claimFailures = 0;
        if (!row) break;
        void this.run(row);
      }
    } catch (error) {
      this.claimFailures += 1;
      this.options.log.error({ err: error, failures: this.claimFailures }, 'job claim failed; retrying');
    } finally {
      this.polling = false;
    }
    if (this.stopped) return;
    if (this.claimFailures > 0) {
      this.repoll = false;
      this.schedule(backoff(this.options.pollMs, this.claimFailures));
    } else if (this.repoll) {
      this.repoll = false;
      this.schedule(0);
    } else {
      this.schedule(this.options.pollMs);
    }
  }

  /**
   * Runs a claimed job as its own work: its log lines name the request id it was queued with, its
   * outbound calls pass on the trace it was queued in, and its span is a child of that trace.
   */
  private run(row: JobRow): Promise<void> {
    const span = startSpan(`job ${row.verb}`, SpanKind.CONSUMER, parseTraceparent(row.traceparent, row.tracestate));
    if (span.isRecording()) span.setAttributes({ 'catrisk.job.id': row.id, 'catrisk.job.verb': row.verb, 'catrisk.job.attempt': row.attempts });
    return runAs({ requestId: row.request_id ?? undefined, span }, async () => {
      const started = performance.now();
      const outcome = await this.runJob(row);
      const seconds = (performance.now() - started) / 1000;
      this.options.onRunEnded?.(row.verb, outcome, seconds);
      this.options.log.info({ job: row.id, verb: row.verb, attempt: row.attempts, outcome, duration_ms: Math.round(seconds * 1000), reqId: row.request_id ?? undefined }, 'job run ended');
      if (span.isRecording()) {
        span.setAttribute('catrisk.job.outcome', outcome);
        if (outcome !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      }
      span.end();
    });
  }

  /** One run of a job, to its recorded outcome. */
  private async runJob(row: JobRow): Promise<JobOutcome> {
    let outcome: JobOutcome = 'abandoned';
    const controller = new AbortController();
    this.running.set(row.id, controller);
    const heartbeat = setInterval(() => {
      void this.jobs.heartbeat(row.id, this.owner, this.options.leaseMs).then((held) => {
        if (!held) controller.abort();
      }, (error: unknown) => {
        // The lease may lapse while the database is away; finish then tells whether it held.
        this.options.log.warn({ err: error, job: row.id }, 'lease heartbeat failed');
      });
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    heartbeat.unref?.();
    // A cancel is stored on the row (by any process); the job's compute threads stop when it is seen.
    const checkpoint = setInterval(() => {
      void this.jobs.cancellation(row.id, this.owner).then((error) => {
        if (error && !controller.signal.aborted) controller.abort(new Cancelled(error));
      }, (error: unknown) => {
        this.options.log.warn({ err: error, job: row.id }, 'cancel check failed');
      });
    }, this.options.checkpointMs ?? CHECKPOINT_MS);
    checkpoint.unref?.();
    try {
      const handler = this.handlers.get(row.verb);
      if (!handler) throw ApiError.of(refusal(500, 'internal_error', `No handler for verb ${row.verb}`));
      // Compute tasks the handler starts get the job's signal, so a lost lease or a shutdown
      // terminates their threads instead of leaving them to run for nobody.
      const ran = await abortingTasksWith(controller.signal, () => handler({
        id: row.id,
        accountId: row.account_id,
        verb: row.verb,
        subject: JSON.parse(row.subject),
        input: JSON.parse(row.input),
        signal: controller.signal,
      })).then((result) => ({ ok: true as const, result: result ?? {} }), (error: unknown) => ({ ok: false as const, error }));
      const cancelled = controller.signal.reason instanceof Cancelled ? controller.signal.reason : undefined;
      if (controller.signal.aborted && !cancelled) return outcome;
      if (cancelled && !ran.ok) {
        // A job whose work was done before the cancel reached it keeps its result (below).
        const recorded = await this.retry(row, 'finish', () => this.jobs.finish(row.id, this.owner, { error: cancelled.error }));
        if (recorded === false) this.options.log.warn({ job: row.id }, 'job lease lost before recording its cancel');
        else outcome = 'cancelled';
        return outcome;
      }
      if (!ran.ok && isDatabaseUnavailable(ran.error)) {
        // The job did not fail, the database did: run it again (handlers write the same objects),
        // without counting the run, so a long outage never exhausts a job's attempts.
        this.options.log.warn({ err: ran.error, job: row.id }, 'job interrupted by the database; put back in the queue');
        await this.retry(row, 'requeue', () => this.jobs.requeue(row.id, this.owner, { counted: false }));
        return outcome = 'interrupted';
      }
      if (!ran.ok && !isRefusal(ran.error) && row.attempts < this.options.maxAttempts) {
        this.options.log.error({ err: ran.error, job: row.id, verb: row.verb, attempts: row.attempts }, 'job run failed; put back in the queue to try again');
        await this.retry(row, 'requeue', () => this.jobs.requeue(row.id, this.owner, { counted: true }));
        return outcome = 'retried';
      }
      const recorded = ran.ok ? { result: ran.result } : { error: this.errorBody(ran.error, row) };
      const finished = await this.retry(row, 'finish', () => this.jobs.finish(row.id, this.owner, recorded));
      if (finished === false) this.options.log.warn({ job: row.id }, 'job lease lost before finishing; outcome discarded');
      else if (finished === true) outcome = ran.ok ? 'succeeded' : 'failed';
    } catch (error) {
      this.options.log.error({ err: error, job: row.id }, 'job bookkeeping failed');
    } finally {
      clearInterval(heartbeat);
      clearInterval(checkpoint);
      this.running.delete(row.id);
      if (!this.stopped) this.schedule(0);
    }
    return outcome;
  }

  /** Retries a bookkeeping write until it answers or the worker stops (then undefined). */
  private async retry<T>(row: JobRow, what: string, write: () => Promise<T>): Promise<T | undefined> {
    for (let failures = 1; ; failures += 1) {
      try {
        return await write();
      } catch (error) {
        if (this.stopped) return undefined;
        this.options.log.warn({ err: error, job: row.id, failures }, `job ${what} failed; retrying`);
        await new Promise((resolve) => setTimeout(resolve, backoff(this.options.pollMs, failures)).unref?.());
      }
    }
  }

  private errorBody(error: unknown, row: JobRow): ErrorBody {
    if (isRefusal(error)) return error.toBody();
    this.options.log.error({ err: error, job: row.id, verb: row.verb, attempts: row.attempts }, 'job handler threw; no attempts left');
    return exhaustedError(row.attempts, error);
  }
}
