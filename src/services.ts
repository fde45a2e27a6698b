// Wires configuration to storage, the job queue and the shared helpers every host uses.
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { openDatabase, type Database } from './store/database.js';
import { migrate } from './store/migrations.js';
import { AccountStore } from './store/accounts.js';
import { JobStore } from './store/jobs.js';
import { DatabaseRateCounter, MemoryRateCounter, type RateCounter } from './store/rate-counters.js';
import { Worker, type JobHandler } from './jobs/worker.js';
import { jobHandlers } from './jobs/handlers.js';

export interface Services {
  readonly config: Config;
  readonly log: Logger;
  readonly database: Database;
  readonly accounts: AccountStore;
  readonly jobs: JobStore;
  readonly rate: RateCounter;
  readonly handlers: ReadonlyMap<string, JobHandler>;
  /** Present when this process runs workers. */
  worker: Worker | undefined;
  close(): Promise<void>;
}

export async function createServices(config: Config, options: { log?: Logger } = {}): Promise<Services> {
  // Logs go to standard error: standard output carries the one JSON line per host.
  const log = options.log ?? pino({ level: config.logLevel }, pino.destination(2));
  const database = openDatabase({ databaseUrl: config.databaseUrl, stateDir: config.stateDir });
  await migrate(database.db);
  const accounts = new AccountStore(database.db);
  const jobs = new JobStore(database.db, database.dialect);
  const rate = database.dialect === 'postgres' ? new DatabaseRateCounter(database.db) : new MemoryRateCounter();
  const services: Services = {
    config, log, database, accounts, jobs, rate,
    handlers: new Map(),
    worker: undefined,
    async close() {
      if (services.worker) await services.worker.stop();
      await database.close();
    },
  };
  (services as { handlers: ReadonlyMap<string, JobHandler> }).handlers = jobHandlers(services);
  return services;
}

export function startWorker(services: Services): Worker {
  const worker = new Worker(services.jobs, services.handlers, {
    concurrency: services.config.jobs.concurrency,
    leaseMs: services.config.jobs.leaseMs,
    pollMs: services.config.jobs.pollMs,
    log: services.log.child({ part: 'worker' }),
  });
  services.worker = worker;
  worker.start();
  return worker;
}
