// Wires configuration to storage, the job queue and the shared helpers every host uses.
import type { Logger } from 'pino';
import { FEEDS_SETTING, type Config } from './config.js';
import { isDatabaseUnavailable, openDatabase, type Database } from './store/database.js';
import { migrate, pendingMigrations } from './store/migrations.js';
import { AccountStore } from './store/accounts.js';
import { JobStore } from './store/jobs.js';
import { ObjectStore } from './store/objects.js';
import { StructureStore } from './store/structures.js';
import { LabRunStore } from './store/lab-runs.js';
import { LabInputStore } from './store/lab-inputs.js';
import { ModelStore } from './store/models.js';
import { IdempotencyStore } from './store/idempotency.js';
import { PackageStore } from './store/packages.js';
import { MonitoringStore } from './store/monitoring.js';
import { openServedFeeds } from './feeds/store.js';
import { readVerificationRecord, writeVerificationRecord } from './feeds/verification-record.js';
import { announceJob, JOB_CHANNEL, listenForNotices, type Notices } from './store/notices.js';
import { LeasedRateCounter, MemoryRateCounter, type RateCounter } from './store/rate-counters.js';
import { Worker, type JobHandler } from './jobs/worker.js';
import { jobHandlers } from './jobs/handlers.js';
import { closeComputePool, compute, computeAnswers, computeState, processVerifiedFeeds, shareVerifiedFeeds } from './jobs/threads.js';
import type { AppDeps } from './app/deps.js';
import { CodingBudgetStore } from './store/coding-budget.js';
import { oedReference } from './feeds/oed.js';
import { embeddedCoder } from './providers/embedded-coder.js';
import { chatCompletionsCoder } from './providers/chat-completions.js';
import { gazetteerGeocoder, nominatimGeocoder, photonGeocoder } from './providers/geocoders.js';
import type { ExposureCoder, Geocoder } from './providers/ports.js';
import { userNamedTargets, type OutboundPolicy } from './providers/safe-outbound.js';
import { FeedWatch } from './jobs/feed-watch.js';
import { ExchangeStore } from './store/exchange.js';
import { internalConnectors } from './providers/internal-connector.js';
import { sealingFaults } from './app/sealing.js';
import { JOB_VERBS } from './app/jobs.js';
import { serviceLogger } from './telemetry/logger.js';
import { ServiceMetrics } from './telemetry/metrics.js';
import { originOfWork } from './telemetry/work.js';

/** The deps of every use case (stores, feeds, compute threads, clock, worker), and what the hosts and the worker hold besides. */
export interface Services extends AppDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly database: Database;
  readonly rate: RateCounter;
  /** This service's Prometheus registry and the series its hosts and worker move. */
  readonly metrics: ServiceMetrics;
  readonly handlers: ReadonlyMap<string, JobHandler>;
  /** Present when this process runs workers. */
  worker: Worker | undefined;
  /** PostgreSQL: the deployment's notices (queued jobs, changed accounts) reaching this process. */
  notices: Notices | undefined;
  /** Present when this process looks for newly pinned snapshots (startFeedWatch). */
  feedWatch: FeedWatch | undefined;
  /** Where this process's API host listens on loopback (set when it starts), for the lab's internal route. */
  apiLoopbackUrl: string | undefined;
  close(): Promise<void>;
}

export interface ServiceOptions {
  readonly log?: Logger;
  /** Host name resolution for user-named URLs; the system resolver unless a test gives a table. */
  readonly resolve?: OutboundPolicy['resolve'];
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  // Logs go to standard error: standard output carries the one JSON line per host.
  const log = options.log ?? serviceLogger(config.logLevel);
  // The feeds first: a folder that cannot be served stops the start before the database is touched.
  // Each file is hashed once: what an earlier store of the process (tests start many) or an earlier
  // process (its record) verified is trusted while its identity on disk is unchanged.
  const recorded = config.feedRecordDir === null ? [] : await readVerificationRecord(config.feedRecordDir, config.feedsDir);
  const feeds = await openServedFeeds(config.feedsDir, FEEDS_SETTING, { verified: new Map([...recorded, ...processVerifiedFeeds()]) });
  shareVerifiedFeeds(feeds.verified);
  if (config.feedRecordDir !== null && feeds.hashedFiles > 0) {
    await writeVerificationRecord(config.feedRecordDir, config.feedsDir, feeds.verified)
      .catch((error: unknown) => log.warn({ err: error }, 'the feeds verification record was not written; the next start hashes every file again'));
  }
  let metrics: ServiceMetrics | undefined;
  const database = openDatabase({
    databaseUrl: config.databaseUrl, stateDir: config.stateDir, limits: config.database,
    // Message and code only: pg hangs the whole client (connection settings included) on the error.
    onConnectionError: (error) => log.warn({ error: error.message, code: (error as { code?: string }).code }, 'database connection lost; reconnecting on next use'),
    onQueryFailure: (error) => metrics?.queryFailed(isDatabaseUnavailable(error) ? 'unavailable' : 'error'),
  });
  try {
    await migrate(database.db, database.dialect, undefined, { sealingKeys: config.sealing.keys });
    await checkSealingKeys(config, database, log);
  } catch (error) {
    await database.close();
    throw error;
  }
  // SQLite is one process by design: its account reads can be remembered; on PostgreSQL while the
  // deployment's account notices reach this process (see AccountStore).
  const accounts = new AccountStore(database.db, { soleWriter: database.dialect === 'sqlite', notified: database.dialect === 'postgres' });
  // A job queued during a request keeps the request's id and trace.
  const jobs = new JobStore(database.db, database.dialect, originOfWork);
  const objects = new ObjectStore(database.db);
  const structures = new StructureStore(database.db);
  const labRuns = new LabRunStore(database.db);
  const labInputs = new LabInputStore(database.db);
  const models = new ModelStore(database.db);
  const idempotency = new IdempotencyStore(database.db);
  const packages = new PackageStore(database.db);
  const monitoring = new MonitoringStore(database.db);
  const exposureCoder = exposureCoderFor(config, () => oedReference(feeds));
  const geocoders = geocodersFor(config);
  const rate = database.dialect === 'postgres' ? new LeasedRateCounter(database.db) : new MemoryRateCounter();
  metrics = new ServiceMetrics({
    build: config.build,
    storage: database.dialect,
    verbs: JOB_VERBS,
    queue: (nowMs) => jobs.queueCounts(nowMs),
    feeds: () => ({ served: feeds?.list().length ?? 0, refused: feeds?.refused.length ?? 0 }),
    pool: () => database.connections(),
    compute: computeState,
  });
  const services: Services = {
    config, log, database, metrics, accounts, jobs, objects, structures, labRuns, labInputs, models, idempotency, packages, monitoring, feeds, rate,
    codingBudget: new CodingBudgetStore(database.db), exposureCoder, geocoders,
    targets: userNamedTargets({ ...config.outbound, ...(options.resolve ? { resolve: options.resolve } : {}) }, `catrisk/${config.build.version}`),
    exchange: new ExchangeStore(database.db),
    exchangeConnectors: internalConnectors({
      apiUrl: () => config.exchange.internalApiUrl ?? services.apiLoopbackUrl,
      token: config.exchange.internalToken,
      userAgent: `catrisk/${config.build.version}`,
    }),
    handlers: new Map(),
    worker: undefined,
    notices: undefined,
    feedWatch: undefined,
    apiLoopbackUrl: undefined,
    now: () => new Date(),
    // This process's worker at once; on PostgreSQL every other process's too, through the queue's
    // channel (a notice that fails to go out leaves the job to their next poll).
    wakeWorker() {
      services.worker?.nudge();
      if (database.dialect === 'postgres') void announceJob(database.db).catch((error: unknown) => log.warn({ err: error }, 'job notice not sent; workers find the job on their next poll'));
    },
    compute,
    computeAnswers,
    storage: { ping: () => database.ping(), pendingMigrations: () => pendingMigrations(database.db, database.dialect) },
    async close() {
      try {
        await services.feedWatch?.stop();
        await services.notices?.close();
        if (services.worker) await services.worker.stop();
        await closeComputePool();
      } finally {
        await database.close();
      }
    },
  };
  (services as { handlers: ReadonlyMap<string, JobHandler> }).handlers = jobHandlers(services, metrics);
  if (config.databaseUrl && database.dialect === 'postgres') {
    const noticeLog = log.child({ part: 'notices' });
    services.notices = listenForNotices(config.databaseUrl, {
      onNotice: (channel, payload) => (channel === JOB_CHANNEL ? services.worker?.nudge() : accounts.accountChanged(payload)),
      onListening: (listening) => accounts.noticesListening(listening),
      onError: (error) => noticeLog.warn({ err: error }, 'notices interrupted; listening again (workers poll, accounts are read from the database meanwhile)'),
    });
  }
  return services;
}

/**
 * The sealing keys against what is sealed in the database. Webhook signing secrets the keys cannot
 * open stop the process, naming the key ids and the settings (never a key): deliveries would
 * otherwise fail one by one in the background. Exchange credentials that cannot be opened are
 * logged: their listings answer 503 exchange_credentials_unavailable, as SPEC says.
 */
async function checkSealingKeys(config: Config, database: Database, log: Logger): Promise<void> {
  const faults = await sealingFaults({ config, exchange: new ExchangeStore(database.db), monitoring: new MonitoringStore(database.db) });
  for (const f of faults.filter((f) => f.kind === 'exchange_credentials')) {
    log.warn({ key_id: f.keyId, listings: f.count, reason: f.reason }, 'exchange credentials sealed under a key this environment cannot open them with: those listings answer 503');
  }
  const fatal = faults.filter((f) => f.kind === 'webhook_secrets');
  if (fatal.length === 0) return;
  throw new Error(`The sealing keys do not open the webhook signing secrets stored: ${fatal.map((f) => `${f.count} sealed under ${f.keyId}: ${f.reason}`).join('; ')}. `
    + 'Give every key that sealed them: CATRISK_SEALING_KEY=<key id>:<base64 of 32 bytes> seals, CATRISK_SEALING_KEYS_PREVIOUS=<key id>:<key>[,...] opens older ones (`catrisk keys reseal` seals them again under the first); see docs/monitoring.md.');
}

/** The configured exposure coder: the embedded one, or the chat-completions API. */
function exposureCoderFor(config: Config, oed: Parameters<typeof embeddedCoder>[0]): ExposureCoder {
  const coding = config.exposureCoding;
  if (coding.provider === 'chat-completions' && coding.chat.baseUrl && coding.chat.model) {
    return chatCompletionsCoder({
      baseUrl: coding.chat.baseUrl, model: coding.chat.model, apiKey: coding.chat.apiKey,
      timeoutMs: coding.chat.timeoutMs, userAgent: `catrisk/${config.build.version}`,
    }, oed);
  }
  return embeddedCoder(oed);
}

/** The configured geocoders, in the order they are asked. */
function geocodersFor(config: Config): Geocoder[] {
  const { userAgent, minIntervalMs } = config.geocoding;
  return config.geocoding.geocoders.map((g) => {
    if (g.kind === 'gazetteer') return gazetteerGeocoder();
    const settings = { baseUrl: g.baseUrl!, timeoutMs: g.timeoutMs, userAgent, minIntervalMs };
    return g.kind === 'nominatim' ? nominatimGeocoder(settings) : photonGeocoder(settings);
  });
}

/**
 * Looks for snapshots pinned while the process runs (every CATRISK_FEEDS_RESCAN_SECONDS) and
 * measures the monitoring records on them; at start, compares every record with the newest snapshot.
 */
export function startFeedWatch(services: Services): FeedWatch {
  const watch = new FeedWatch(services, services.config.monitoring.rescanSeconds * 1000, services.log.child({ part: 'feed-watch' }));
  services.feedWatch = watch;
  watch.start();
  return watch;
}

export function startWorker(services: Services): Worker {
  const worker = new Worker(services.jobs, services.handlers, {
    concurrency: services.config.jobs.concurrency,
    leaseMs: services.config.jobs.leaseMs,
    pollMs: services.config.jobs.pollMs,
    maxAttempts: services.config.jobs.maxAttempts,
    log: services.log.child({ part: 'worker' }),
    // SQLite is one process by design: whatever is still running at start-up was left by the
    // previous incarnation. On PostgreSQL another live process may hold it: leases decide there.
    takeBackOnStart: services.database.dialect === 'sqlite',
    onRunEnded: (verb, outcome, seconds) => services.metrics.jobRun(verb, outcome, seconds),
  });
  services.worker = worker;
  worker.start();
  return worker;
}
