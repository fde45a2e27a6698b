// Entry point of every compute thread: runs the named task with its input. Each task's module is
// imported when the thread first runs that task, so a thread that only reads schedules never loads
// the lab lanes, the models or the pricing (loading every task module took a fresh thread about
// 0.55 CPU seconds; the schedule reader's own modules take about 0.04 s).
import { ApiError } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';
import type { TaskInput, TaskName, TaskOutput } from '../../app/deps.js';
import { referenceStore, threadStore } from './feed-stores.js';

/** One message a thread is handed: a task's name and its input. */
export type TaskMessage = { [K in TaskName]: { task: K; input: TaskInput<K> } }[TaskName];

/** How each task runs in a thread; typed by the task map, so each runner takes its task's input and answers its output. */
const RUNNERS: { [K in TaskName]: (input: TaskInput<K>) => Promise<Result<TaskOutput<K>>> } = {
  'read-schedule': async (input) => {
    const { readScheduleTask } = await import('../../app/read-schedule.js');
    return readScheduleTask(input, await referenceStore(input.feedsDir));
  },
  backtest: async (input) => {
    const { backtestTask } = await import('../../app/backtest.js');
    return backtestTask(input, await threadStore(input.feedsDir));
  },
  'lab-run': async (input) => {
    const { labRunTask } = await import('../../app/lab-runs.js');
    return labRunTask(input, await threadStore(input.feedsDir));
  },
  'read-input': async (input) => {
    const { readInputTask } = await import('../../app/lab-inputs.js');
    return readInputTask(input);
  },
  price: async (input) => {
    const { priceTask } = await import('../../app/price.js');
    return priceTask(input, await threadStore(input.feedsDir));
  },
  'model-validation': async (input) => {
    const { modelValidationTask } = await import('../../app/models.js');
    return modelValidationTask(input, await threadStore(input.feedsDir));
  },
  analyse: async (input) => {
    const { analyseTask } = await import('../../app/analyse.js');
    return analyseTask(input, await threadStore(input.feedsDir));
  },
  accumulation: async (input) => {
    const { accumulationTask } = await import('../../app/accumulation.js');
    return accumulationTask(input);
  },
  ping: async () => ok(null),
};

/**
 * The task's Result, its refusal sent back as the body a failed job records (an ApiError, thrown or
 * answered, does not survive the crossing: a thread clones it as a bare Error).
 */
export default async function dispatch(message: TaskMessage): Promise<Result<unknown>> {
  try {
    const result = await run(message);
    return result.ok ? result : refused(ApiError.of(result.refusal).toBody());
  } catch (error) {
    if (error instanceof ApiError) return refused(error.toBody());
    throw error;
  }
}

function run<K extends TaskName>(message: { task: K; input: TaskInput<K> }): Promise<Result<TaskOutput<K>>> {
  const runner = Object.hasOwn(RUNNERS, message.task) ? RUNNERS[message.task] as (input: TaskInput<K>) => Promise<Result<TaskOutput<K>>> : undefined;
  if (!runner) throw new Error(`unknown compute task ${String(message.task)}`);
  return runner(message.input);
}
