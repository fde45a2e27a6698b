// The work a compute thread runs, by name: each task's input and the value its Result carries.
// `AppDeps.compute` and the thread's dispatch (jobs/threads/dispatch.ts) are both typed by this
// map, so a task called with the wrong input, or read as the wrong value, does not compile.
// It is declared into deps.ts's `ComputeTasks` rather than imported there: the task modules import
// deps.ts, and deps.ts importing them back would close a circle.
import type { AccumulationTaskInput, AccumulationTaskOutput } from './accumulation.js';
import type { AnalyseTaskInput, AnalyseTaskOutput } from './analyse.js';
import type { BacktestTaskInput, BacktestTaskOutput } from './backtest.js';
import type { LabRunTaskInput } from './lab-runs.js';
import type { ReadInputTaskInput } from './lab-inputs.js';
import type { ModelValidationInput, ModelValidationOutput } from './models.js';
import type { PriceTaskInput } from './price.js';
import type { ReadScheduleInput, ReadScheduleOutput } from './read-schedule.js';

declare module './deps.js' {
  interface ComputeTasks {
    'read-schedule': { input: ReadScheduleInput; output: ReadScheduleOutput };
    backtest: { input: BacktestTaskInput; output: BacktestTaskOutput };
    /** The run's canonical JSON; with `admit`, only the lane's check of the spec against its pinned inputs. */
    'lab-run': { input: LabRunTaskInput; output: string };
    /** An input users bring, read by its kind's reader: its summary (a 422 naming what could not be read). */
    'read-input': { input: ReadInputTaskInput; output: Record<string, unknown> };
    /** The price document's canonical JSON. */
    price: { input: PriceTaskInput; output: string };
    'model-validation': { input: ModelValidationInput; output: ModelValidationOutput };
    analyse: { input: AnalyseTaskInput; output: AnalyseTaskOutput };
    accumulation: { input: AccumulationTaskInput; output: AccumulationTaskOutput };
    /** GET /ready: a thread that answers is up (no task module is loaded for it). */
    ping: { input: null; output: null };
  }
}
