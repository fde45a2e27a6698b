// The worker loop: claims jobs under a lease, runs the verb's handler, records the outcome.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError } from '../http/errors.js';
import type { JobRow, JobStore } from '../store/jobs.js';

export interface JobInput {
  id: string;
  accountId: string;
  verb: string;
  subject: Record<string, unknown>;
  input: Record<string, unknown>;
  /** Aborted when the lease is lost or the worker shuts down; the outcome is then discarded. */
  signal: AbortSignal;
}

export type JobHandler = (job: JobInput) => Promise<unknown>;

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  log: Logger;
}

export class Worker {
  readonly owner = `worker_${randomUUID()}`;
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private polling = false;
  private repoll = false;

  constructor(
    private readonly jobs: JobStore,
    private readonly handlers: ReadonlyMap<string, JobHandler>,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Called when a job is queued in this process, so it starts without waiting for a poll. */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
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
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.repoll = true;
      return;
    }
    this.polling = true;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const row = await this.jobs.claim(this.owner, this.options.leaseMs, [...this.handlers.keys()]);
        if (!row) break;
        void this.run(row);
      }
    } catch (error) {
      this.options.log.error({ err: error }, 'job claim failed');
    } finally {
      this.polling = false;
    }
    if (this.stopped) return;
    if (this.repoll) {
      this.repoll = false;
      this.schedule(0);
    } else {
      this.schedule(this.options.pollMs);
    }
  }

  private async run(row: JobRow): Promise<void> {
    const controller = new AbortController();
    this.running.set(row.id, controller);
    const heartbeat = setInterval(() => {
      void this.jobs.heartbeat(row.id, this.owner, this.options.leaseMs).then((held) => {
        if (!held) controller.abort();
      }).catch(() => {});
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    heartbeat.unref?.();
    try {
      const handler = this.handlers.get(row.verb);
      if (!handler) throw new ApiError(500, 'internal_error', `No handler for verb ${row.verb}`);
      const outcome = await handler({
        id: row.id,
        accountId: row.account_id,
        verb: row.verb,
        subject: JSON.parse(row.subject),
        input: JSON.parse(row.input),
        signal: controller.signal,
      }).then((result) => ({ result: result ?? {} }), (error: unknown) => ({ error: this.errorBody(error, row) }));
      if (controller.signal.aborted) return;
      const finished = await this.jobs.finish(row.id, this.owner, outcome);
      if (!finished) this.options.log.warn({ job: row.id }, 'job lease lost before finishing; outcome discarded');
    } catch (error) {
      this.options.log.error({ err: error, job: row.id }, 'job bookkeeping failed');
    } finally {
      clearInterval(heartbeat);
      this.running.delete(row.id);
      if (!this.stopped) this.schedule(0);
    }
  }

  private errorBody(error: unknown, row: JobRow) {
    if (error instanceof ApiError) return error.toBody();
    this.options.log.error({ err: error, job: row.id, verb: row.verb }, 'job handler threw');
    return new ApiError(500, 'internal_error', 'The job failed for a reason that is not the request\'s fault.').toBody();
  }
}
