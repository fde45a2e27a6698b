// CPU-heavy work runs in worker threads (piscina) so a long job never stalls the API.
import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { unwrap, type Result } from '../kernel/result.js';
import type { TaskInput, TaskName, TaskOutput, TaskTransfers } from '../app/deps.js';
import type { VerifiedFile, VerifiedFiles } from '../feeds/store.js';

let pool: Piscina | undefined;

/** Threads the pool may start: one core is left to the event loop. */
const MAX_THREADS = Math.max(1, availableParallelism() - 1);

/** Tasks handed to the pool and not yet answered (running or waiting for a thread). */
let inFlight = 0;

/** What every compute thread starts with (piscina's workerData). */
export interface ComputeThreadData {
  /** The files this process's feed stores verified: a thread trusts those whose identity is unchanged. */
  readonly verifiedFeeds: VerifiedFiles;
}

// Every file a feed store of this process verified, by path (see shareVerifiedFeeds).
const verifiedFeeds = new Map<string, VerifiedFile>();

/**
 * Records what a feed store of this process verified, for the compute threads (so a thread does
 * not hash those files again) and for any later store of the process. Threads started from now on
 * get it; a thread given an older record only hashes more (an identity that no longer matches is
 * never trusted).
 */
export function shareVerifiedFeeds(verified: VerifiedFiles): void {
  for (const [path, file] of verified) verifiedFeeds.set(path, file);
}

/** What the feed stores of this process verified so far. */
export function processVerifiedFeeds(): VerifiedFiles {
  return verifiedFeeds;
}

/** The one pool of compute threads; each task module exports a default function. */
export function computePool(): Piscina {
  pool ??= new Piscina({
    // Built code runs dispatch.js; sources run through tsx (tests, development) run dispatch.ts,
    // through a shim that registers tsx in the thread (dispatch-source.mjs).
    filename: new URL(`./threads/${import.meta.url.endsWith('.ts') ? 'dispatch-source.mjs' : 'dispatch.js'}`, import.meta.url).href,
    maxThreads: MAX_THREADS,
    minThreads: 0,
    idleTimeout: 30_000,
    workerData: { verifiedFeeds } satisfies ComputeThreadData,
  });
  return pool;
}

export async function closeComputePool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}


// The abort signal of the job whose handler is running. Ambient, so every compute task a job
// starts is stopped with the job without each handler threading the signal through.
const abandonment = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` so that every task it starts with compute is aborted when `signal` fires. */
export function abortingTasksWith<T>(signal: AbortSignal, work: () => T): T {
  return abandonment.run(signal, work);
}

/**
 * Runs a task in a compute thread: its value, or its refusal as plain data (an ApiError cannot
 * cross threads). When the caller's signal (or that of the job it runs for) fires, piscina
 * terminates the thread and the task rejects with an AbortError.
 */
export async function compute<K extends TaskName>(
  task: K, input: TaskInput<K>, transferList?: TaskTransfers, signal = abandonment.getStore(),
): Promise<Result<TaskOutput<K>>> {
  inFlight += 1;
  try {
    return await computePool().run({ task, input }, { ...(transferList ? { transferList } : {}), ...(signal ? { signal } : {}) }) as Result<TaskOutput<K>>;
  } finally {
    inFlight -= 1;
  }
}

/** The threads started and the tasks waiting for one (the metrics' gauges). */
export function computeState(): { threads: number; queued: number } {
  return pool ? { threads: pool.threads.length, queued: pool.queueSize } : { threads: 0, queued: 0 };
}

/**
 * Resolves once a compute thread answers a trivial task within `timeoutMs` (one is started when
 * none runs), or at once while every thread is busy with the service's tasks: busy threads are up,
 * and a readiness probe must not wait behind a long lab run. Rejects when no thread answers.
 */
export async function computeAnswers(timeoutMs: number): Promise<void> {
  if (pool && pool.threads.length > 0 && inFlight >= MAX_THREADS) return;
  const answer = await computePool().run({ task: 'ping', input: null }, { signal: AbortSignal.timeout(timeoutMs) }) as Result<unknown>;
  if (!answer.ok) throw new Error('the compute thread refused the ping');
}

/** compute, with a refusal made in the thread thrown here again as the carrier. */
export async function runTask<K extends TaskName>(
  task: K, input: TaskInput<K>, transferList?: TaskTransfers, signal = abandonment.getStore(),
): Promise<TaskOutput<K>> {
  return unwrap(await compute(task, input, transferList, signal));
}
