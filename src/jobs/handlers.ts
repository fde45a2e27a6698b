// One handler per verb that runs as a job.
import type { Services } from '../services.js';
import { backtestHandler } from '../app/backtest.js';
import { ingestHandler } from '../app/ingest.js';
import { labRunHandler } from '../app/lab-runs.js';
import { priceHandler } from '../app/price.js';
import type { JobHandler } from './worker.js';

export function jobHandlers(services: Services): ReadonlyMap<string, JobHandler> {
  return new Map<string, JobHandler>([
    ['ingest', ingestHandler(services)],
    ['backtest', backtestHandler(services)],
    ['lab_run', labRunHandler(services)],
    ['price', priceHandler(services)],
  ]);
}
