// Entry point of every compute thread: runs the named task with its input.
import { ApiError } from '../../kernel/refusal.js';
import type { TaskOutcome } from '../threads.js';
import { backtestTask, type BacktestTaskInput } from '../backtest.js';
import { labRunTask, type LabRunTaskInput } from '../lab-run.js';
import { priceTask, type PriceTaskInput } from '../price.js';
import { readScheduleTask, type ReadScheduleInput } from './read-schedule.js';
import { referenceStore, threadStore } from './feed-stores.js';

type Task =
  | { task: 'read-schedule'; input: ReadScheduleInput }
  | { task: 'backtest'; input: BacktestTaskInput }
  | { task: 'lab-run'; input: LabRunTaskInput }
  | { task: 'price'; input: PriceTaskInput };

export default async function dispatch(message: Task): Promise<TaskOutcome> {
  try {
    return { ok: true, value: await run(message) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.toBody() };
    throw error;
  }
}

async function run(message: Task): Promise<unknown> {
  switch (message.task) {
    case 'read-schedule': return readScheduleTask(message.input, await referenceStore(message.input.feedsDir));
    case 'backtest': return backtestTask(message.input, await threadStore(message.input.feedsDir));
    case 'lab-run': return labRunTask(message.input, await threadStore(message.input.feedsDir));
    case 'price': return priceTask(message.input, await threadStore(message.input.feedsDir));
    default: throw new Error(`unknown compute task ${String((message as { task: unknown }).task)}`);
  }
}
