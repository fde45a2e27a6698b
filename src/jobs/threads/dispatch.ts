// Entry point of every compute thread: runs the named task with its input.
import { ApiError } from '../../kernel/refusal.js';
import { refused, type Result } from '../../kernel/result.js';
import { accumulationTask, type AccumulationTaskInput } from '../../app/accumulation.js';
import { analyseTask, type AnalyseTaskInput } from '../../app/analyse.js';
import { backtestTask, type BacktestTaskInput } from '../../app/backtest.js';
import { labRunTask, type LabRunTaskInput } from '../../app/lab-runs.js';
import { priceTask, type PriceTaskInput } from '../../app/price.js';
import { modelValidationTask, type ModelValidationInput } from '../../app/models.js';
import { readScheduleTask, type ReadScheduleInput } from '../../app/read-schedule.js';
import { referenceStore, threadStore } from './feed-stores.js';

type Task =
  | { task: 'read-schedule'; input: ReadScheduleInput }
  | { task: 'backtest'; input: BacktestTaskInput }
  | { task: 'lab-run'; input: LabRunTaskInput }
  | { task: 'price'; input: PriceTaskInput }
  | { task: 'model-validation'; input: ModelValidationInput }
  | { task: 'analyse'; input: AnalyseTaskInput }
  | { task: 'accumulation'; input: AccumulationTaskInput };

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
    case 'model-validation': return modelValidationTask(message.input, await threadStore(message.input.feedsDir));
    case 'analyse': return analyseTask(message.input, await threadStore(message.input.feedsDir));
    case 'accumulation': return accumulationTask(message.input);
    default: throw new Error(`unknown compute task ${String((message as { task: unknown }).task)}`);
  }
}
