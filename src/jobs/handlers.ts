// One handler per verb that runs as a job, each the verb's use case in src/app/.
import type { AppDeps } from '../app/deps.js';
import type { ServiceMetrics } from '../telemetry/metrics.js';
import type { Result } from '../kernel/result.js';
import { unwrap } from '../kernel/result.js';
import { analyseJob } from '../app/analyse.js';
import { backtestJob } from '../app/backtest.js';
import { ingestJob } from '../app/ingest.js';
import { labRunJob } from '../app/lab-runs.js';
import { priceJob } from '../app/price.js';
import { modelRunJob } from '../app/models.js';
import { packageJob } from '../app/packages.js';
import { deliveryJob } from '../app/monitoring.js';
import { isExchangeModel } from '../app/exchange-runs.js';
import { labLane } from '../app/lab-lanes.js';
import { ApiError } from '../kernel/refusal.js';
import type { JobHandler, JobInput } from './worker.js';

/**
 * A use case as a job handler. Its refusal unwinds as the carrier, which the worker records on the
 * job as the error envelope's body (and does not retry); this is the one place a job's Result is read.
 */
function handler<I>(useCase: (deps: AppDeps, job: JobInput & { input: I }) => Promise<Result<unknown>>, deps: AppDeps): JobHandler {
  return async (job) => unwrap(await useCase(deps, job as JobInput & { input: I }));
}

/** The series the handlers move: lab runs and webhook deliveries by outcome. */
type JobMetrics = Pick<ServiceMetrics, 'labRun' | 'webhookDelivery'>;

/** Every verb's handler over the use cases' deps (the process's services satisfy them). */
export function jobHandlers(deps: AppDeps, metrics: JobMetrics): ReadonlyMap<string, JobHandler> {
  return new Map<string, JobHandler>([
    ['ingest', handler(ingestJob, deps)],
    ['backtest', handler(backtestJob, deps)],
    ['lab_run', countingLabRuns(handler(labRunJob, deps), metrics)],
    ['price', handler(priceJob, deps)],
    ['model_run', handler(modelRunJob, deps)],
    ['package', handler(packageJob, deps)],
    ['analyse', handler(analyseJob, deps)],
    ['webhook_delivery', countingDeliveries(handler(deliveryJob, deps), metrics)],
  ]);
}

/** A lab model's metric label: the lab's own models by id, every exchange listing as one (their number is open). */
function modelLabel(model: unknown): string {
  if (labLane(model)) return model as string;
  return isExchangeModel(model) ? 'exchange' : 'other';
}

/** Lab runs by model and outcome: succeeded, refused (the run's refusal), error (it may be tried again). */
function countingLabRuns(run: JobHandler, metrics: JobMetrics): JobHandler {
  return async (job) => {
    const model = modelLabel(job.input.model);
    try {
      const result = await run(job);
      metrics.labRun(model, 'succeeded');
      return result;
    } catch (error) {
      metrics.labRun(model, error instanceof ApiError && error.status < 500 ? 'refused' : 'error');
      throw error;
    }
  };
}

/** Webhook delivery attempts by the outcome the delivery job answers (delivered, retry_queued, given_up, ...). */
function countingDeliveries(deliver: JobHandler, metrics: JobMetrics): JobHandler {
  return async (job) => {
    try {
      const result = await deliver(job);
      metrics.webhookDelivery(String((result as { outcome?: unknown } | undefined)?.outcome ?? 'error'));
      return result;
    } catch (error) {
      metrics.webhookDelivery('error');
      throw error;
    }
  };
}
