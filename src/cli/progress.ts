// --wait: a job is read again after the Retry-After its last answer gave, until it ends. How far
// it has got is shown on stderr: a bar redrawn in place on a terminal, a plain line per change
// otherwise (a log keeps every step and no control characters).
import { CliFailure, EXIT, request, type Answer } from './client.js';

/** When an answer carries no Retry-After (an older service): read again after this. */
const DEFAULT_WAIT_S = 1;

interface Progress { fraction?: number; sentence?: string }

/** Where progress is written: a terminal gets a bar, anything else plain lines. */
export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function isEnded(status: unknown): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** The seconds an answer asks the client to wait before reading again. */
export function retryAfterOf(answer: Pick<Answer, 'headers'>): number {
  const value = answer.headers.get('retry-after');
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_WAIT_S;
}

/** Where a job is: its status, and its progress when it has any. */
function stateOf(job: { status?: unknown; progress?: Progress }): string {
  const p = job.progress;
  const percent = typeof p?.fraction === 'number' ? ` ${Math.floor(p.fraction * 100)}%` : '';
  const sentence = p?.sentence ? `: ${p.sentence}` : '';
  return `${String(job.status)}${percent}${sentence}`;
}

/** One line saying which job it is and where it is. */
export function progressLine(job: { id?: unknown; status?: unknown; progress?: Progress }): string {
  return `job ${String(job.id)} ${stateOf(job)}`;
}

/** A bar of `width` cells for a fraction from 0 to 1. */
export function bar(fraction: number, width: number): string {
  const filled = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export class ProgressView {
  private last = '';
  private drawn = false;

  constructor(private readonly sink: ProgressSink) {}

  show(job: { id?: unknown; status?: unknown; progress?: Progress }): void {
    const line = progressLine(job);
    if (!this.sink.isTTY) {
      if (line !== this.last) this.sink.write(line + '\n');
      this.last = line;
      return;
    }
    // The bar leaves the job's id out to keep to one line; the first line names the job.
    if (!this.drawn) this.sink.write(`job ${String(job.id)}\n`);
    const columns = Math.max(40, this.sink.columns || 80);
    const fraction = typeof job.progress?.fraction === 'number' ? job.progress.fraction : job.status === 'succeeded' ? 1 : 0;
    const text = `${bar(fraction, 24)} ${stateOf(job)}`.slice(0, columns - 1);
    this.sink.write(`\r${text}\x1b[K`);
    this.drawn = true;
  }

  /** Ends the bar's line so what follows starts on its own. */
  done(): void {
    if (this.drawn) this.sink.write('\n');
    this.drawn = false;
  }
}

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

/**
 * Reads a job (or a lab run) at `url` until it has ended, waiting as each answer's Retry-After
 * asks, and answers its last document. `first` is an answer already in hand (the 202 of the verb).
 * After `timeoutS` seconds it stops waiting (exit 4), the job still running.
 */
export async function waitFor(url: string, key: string, sink: ProgressSink, first?: Answer, timeoutS?: number): Promise<any> {
  const deadline = timeoutS === undefined ? Infinity : Date.now() + timeoutS * 1000;
  const view = new ProgressView(sink);
  let answer = first ?? await request('GET', url, { key });
  // Ctrl-C stops the waiting, not the job: say how to pick it up again.
  const interrupted = () => {
    view.done();
    sink.write(`stopped waiting; the job goes on: catrisk job ${String(answer.json?.id)} --wait\n`);
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    for (;;) {
      view.show(answer.json);
      if (isEnded(answer.json?.status)) return answer.json;
      const left = (deadline - Date.now()) / 1000;
      if (left <= 0) {
        view.done();
        throw new CliFailure(EXIT.stillRunning, [`job ${String(answer.json?.id)} is still ${String(answer.json?.status)} after ${timeoutS} s; it goes on: catrisk job ${String(answer.json?.id)} --wait`]);
      }
      await sleep(Math.min(retryAfterOf(answer), left));
      answer = await request('GET', url, { key });
    }
  } finally {
    process.removeListener('SIGINT', interrupted);
    view.done();
  }
}
