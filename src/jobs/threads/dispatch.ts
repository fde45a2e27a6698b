// Entry point of every compute thread: runs the named task with its input. Each task's module is
// imported when the thread first runs that task, so a thread that only reads schedules never loads
// the lab lanes, the models or the pricing (loading every task module took a fresh thread about
// 0.55 CPU seconds; the schedule reader's own modules take about 0.04 s).
import { ApiError } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';
import type { AccumulationTaskInput } from '../../app/accumulation.js';
import type { AnalyseTaskInput } from '../../app/analyse.js';
import type { BacktestTaskInput } from '../../app/backtest.js';
import type { LabRunTaskInput } from '../../app/lab-runs.js';
import type { PriceTaskInput } from '../../app/price.js';
import type { ModelValidationInput } from '../../app/models.js';
import type { ReadScheduleInput } from '../../app/read-schedule.js';
import { referenceStore, threadStore } from './feed-stores.js';

type Task =
  | { task: 'read-schedule'; input: ReadScheduleInput }
  | { task: 'backtest'; input: BacktestTaskInput }
  | { task: 'lab-run'; input: LabRunTaskInput }
  | { task: 'price'; input: PriceTaskInput }
  | { task: 'model-validation'; input: ModelValidationInput }
  | { task: 'analyse'; input: AnalyseTaskInput }
  | { task: 'accumulation'; input: AccumulationTaskInput }
  // GET /ready: a thread that answers is up (no module is loaded for it).
  | { task: 'ping'; input: null };

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
    case 'read-schedule': {
      const { readScheduleTask } = await import('../../app/read-schedule.js');
      return readScheduleTask(message.input, await referenceStore(message.input.feedsDir));
    }
    case 'backtest': {
      const { backtestTask } = await import('../../app/backtest.js');
      return backtestTask(message.input, await threadStore(message.input.feedsDir));
    }
    case 'lab-run': {
      const { labRunTask } = await import('../../app/lab-runs.js');
      return labRunTask(message.input, await threadStore(message.input.feedsDir));
    }
    case 'price': {
      const { priceTask } = await import('../../app/price.js');
      return priceTask(message.input, await threadStore(message.input.feedsDir));
    }
    case 'model-validation': {
      const { modelValidationTask } = await import('../../app/models.js');
      return modelValidationTask(message.input, await threadStore(message.input.feedsDir));
    }
    case 'analyse': {
      const { analyseTask } = await import('../../app/analyse.js');
      return analyseTask(message.input, await threadStore(message.input.feedsDir));
    }
    case 'accumulation': {
      const { accumulationTask } = await import('../../app/accumulation.js');
      return accumulationTask(message.input);
    }
    case 'ping': return ok(null);
    default: throw new Error(`unknown compute task ${String((message as { task: unknown }).task)}`);
  }
}
