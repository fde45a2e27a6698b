// How far a long job has got. The compute thread counts its work in a few cells of shared memory
// (no messages: it only stores three numbers every few thousand rows or events); the job that
// waits for the thread reads them and records a sentence on the job row at most every
// RECORD_EVERY_MS, and once more when the work ends.
import type { AppDeps } from './deps.js';

/** Shortest time between two progress writes of one job. */
export const RECORD_EVERY_MS = 250;

/** A job's progress member: a fraction from 0 to 1 and a sentence saying what is done. */
export interface JobProgress {
  fraction: number;
  sentence: string;
}

/** What a task counted: `done` of `total` units of work, and `items` done (rows, events). */
export interface Counted {
  done: number;
  total: number;
  items: number;
}

/** The cells a compute task counts its work in; the buffer crosses to the thread shared, not copied. */
export class ProgressCount {
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)) {
    this.cells = new Int32Array(buffer);
  }

  set(done: number, total: number, items: number): void {
    Atomics.store(this.cells, 0, done);
    Atomics.store(this.cells, 1, total);
    Atomics.store(this.cells, 2, items);
  }

  read(): Counted {
    return { done: Atomics.load(this.cells, 0), total: Atomics.load(this.cells, 1), items: Atomics.load(this.cells, 2) };
  }
}

/** done of total as a fraction, to a thousandth, reaching 1 only when all is done. */
export function fractionOf({ done, total }: Counted): number {
  if (total <= 0 || done >= total) return 1;
  return Math.floor((done / total) * 1000) / 1000;
}

/** A count as people write it (12,345). */
export function counted(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Runs a job's work while recording the progress its compute task counts in `count`, worded by
 * `describe`. Progress is a hint: a write that fails is not retried and never fails the job.
 */
export async function recordingProgress<T>(
  deps: Pick<AppDeps, 'jobs' | 'now'>,
  jobId: string,
  count: ProgressCount,
  describe: (counted: Counted) => JobProgress,
  work: () => Promise<T>,
): Promise<T> {
  let last = '';
  let writing: Promise<void> | undefined;
  const record = () => {
    const now = count.read();
    const seen = `${now.done}/${now.total}/${now.items}`;
    // Nothing counted yet, nothing new, or the last write still under way (the next tick takes it).
    if (now.total <= 0 || seen === last || writing) return;
    last = seen;
    writing = deps.jobs.setProgress(jobId, describe(now), deps.now()).catch(() => {}).finally(() => { writing = undefined; });
  };
  const timer = setInterval(record, RECORD_EVERY_MS);
  timer.unref?.();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await writing;
    record();
    await writing;
  }
}
