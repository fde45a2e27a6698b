// Entry point of every compute thread: runs the named task with its input.
import { FeedStore } from '../../feeds/store.js';
import { OED_REFERENCE_FEED } from '../../feeds/catalog.js';
import { ApiError } from '../../kernel/refusal.js';
import { refused, type Result } from '../../kernel/result.js';
import { backtestTask, type BacktestTaskInput } from '../../app/backtest.js';
import { labRunTask, type LabRunTaskInput } from '../../app/lab-runs.js';
import { priceTask, type PriceTaskInput } from '../../app/price.js';
import { readScheduleTask, type ReadScheduleInput } from '../../app/read-schedule.js';

// Each thread keeps its own verified feed store and parse caches, opened on first use.
let stores: { dir: string; store: Promise<FeedStore> } | undefined;
function threadStore(dir: string | undefined): Promise<FeedStore | undefined> {
  if (!dir) return Promise.resolve(undefined);
  if (stores?.dir !== dir) stores = { dir, store: FeedStore.open(dir) };
  return stores.store;
}

// Reading a schedule needs only the OED reference tables: the thread's full store when it is open,
// else a store verifying just that snapshot, so a fresh thread does not hash every pinned feed first.
let references: { dir: string; store: Promise<FeedStore> } | undefined;
function referenceStore(dir: string | undefined): Promise<FeedStore | undefined> {
  if (!dir) return Promise.resolve(undefined);
  if (stores?.dir === dir) return stores.store;
  if (references?.dir !== dir) references = { dir, store: FeedStore.open(dir, { feeds: [OED_REFERENCE_FEED] }) };
  return references.store;
}

type Task =
  | { task: 'read-schedule'; input: ReadScheduleInput }
  | { task: 'backtest'; input: BacktestTaskInput }
  | { task: 'lab-run'; input: LabRunTaskInput }
  | { task: 'price'; input: PriceTaskInput };

/**
 * The task's Result, its refusal sent back as the body a failed job records (an ApiError, thrown or
 * answered, does not survive the crossing: a thread clones it as a bare Error).
 */
export default async function dispatch(message: Task): Promise<Result<unknown>> {
  try {
    const result = await run(message);
    return result.ok ? result : refused(ApiError.of(result.refusal).toBody());
  } catch (error) {
    if (error instanceof ApiError) return refused(error.toBody());
    throw error;
  }
}

async function run(message: Task): Promise<Result<unknown>> {
  switch (message.task) {
    case 'read-schedule': return readScheduleTask(message.input, await referenceStore(message.input.feedsDir));
    case 'backtest': return backtestTask(message.input, await threadStore(message.input.feedsDir));
    case 'lab-run': return labRunTask(message.input, await threadStore(message.input.feedsDir));
    case 'price': return priceTask(message.input, await threadStore(message.input.feedsDir));
    default: throw new Error(`unknown compute task ${String((message as { task: unknown }).task)}`);
  }
}
