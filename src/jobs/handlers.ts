// One handler per verb that runs as a job.
import type { Services } from '../services.js';
import type { JobHandler } from './worker.js';

export function jobHandlers(services: Services): ReadonlyMap<string, JobHandler> {
  void services;
  return new Map<string, JobHandler>();
}
