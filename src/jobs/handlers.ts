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
    ['lab_run', handler(labRunJob, services)],
    ['price', handler(priceJob, services)],
    ['model_run', handler(modelRunJob, services)],
    ['package', handler(packageJob, services)],
    ['analyse', handler(analyseJob, services)],
    ['webhook_delivery', handler(deliveryJob, services)],
  ]);
}
