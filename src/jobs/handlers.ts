// One handler per verb that runs as a job, each the verb's use case in src/app/.
import type { Services } from '../services.js';
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
function handler<I>(useCase: (services: Services, job: JobInput & { input: I }) => Promise<Result<unknown>>, services: Services): JobHandler {
  return async (job) => unwrap(await useCase(services, job as JobInput & { input: I }));
}

export function jobHandlers(services: Services): ReadonlyMap<string, JobHandler> {
  return new Map<string, JobHandler>([
    ['ingest', handler(ingestJob, services)],
    ['backtest', handler(backtestJob, services)],
    ['lab_run', countingLabRuns(handler(labRunJob, services), services)],
    ['price', handler(priceJob, services)],
    ['model_run', handler(modelRunJob, services)],
    ['package', handler(packageJob, services)],
    ['analyse', handler(analyseJob, services)],
    ['webhook_delivery', countingDeliveries(handler(deliveryJob, services), services)],
  ]);
}

/** A lab model's metric label: the lab's own models by id, every exchange listing as one (their number is open). */
function modelLabel(model: unknown): string {
  if (labLane(model)) return model as string;
  return isExchangeModel(model) ? 'exchange' : 'other';
}

/** Lab runs by model and outcome: succeeded, refused (the run's refusal), error (it may be tried again). */
function countingLabRuns(run: JobHandler, services: Services): JobHandler {
  return async (job) => {
    const model = modelLabel(job.input.model);
    try {
      const result = await run(job);
      services.metrics.labRun(model, 'succeeded');
      return result;
    } catch (error) {
      services.metrics.labRun(model, error instanceof ApiError && error.status < 500 ? 'refused' : 'error');
      throw error;
    }
  };
}

/** Webhook delivery attempts by the outcome the delivery job answers (delivered, retry_queued, given_up, ...). */
function countingDeliveries(deliver: JobHandler, services: Services): JobHandler {
  return async (job) => {
    try {
      const result = await deliver(job);
      services.metrics.webhookDelivery(String((result as { outcome?: unknown } | undefined)?.outcome ?? 'error'));
      return result;
    } catch (error) {
      services.metrics.webhookDelivery('error');
      throw error;
    }
  };
}
