#!/usr/bin/env node
// CLI: serve | worker | migrate | feeds verify | feeds add <folder> | exchange approve|reject | keys reseal, and the client commands of
// src/cli/ (login, ingest, backtest, ...) that talk to a running service over HTTP.
import { execFileSync } from 'node:child_process';
import { loadConfig, type Config } from './config.js';

function commitOf(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

function configFromEnv(): Config {
  const config = loadConfig();
  return config.build.commit === 'unknown' ? { ...config, build: { ...config.build, commit: commitOf() } } : config;
}

// The service's modules are loaded only by the commands that run it, so a client command starts quickly.
async function serve(withHosts: boolean) {
  const { createServices, startFeedWatch, startWorker } = await import('./services.js');
  const { closeHosts, startHosts } = await import('./http/servers.js');
  const { startMetricsListener } = await import('./http/metrics-listener.js');
  const config = configFromEnv();
  const services = await createServices(config);
  if (withHosts) (await import('./schemas.js')).compileSchemaValidators();
  const hosts = withHosts ? await startHosts(services) : [];
  // A worker-only process has its metrics too (its jobs, the queue): on its own port.
  const metrics = await startMetricsListener(services);
  if (!withHosts || config.jobs.inProcessWorkers) startWorker(services);
  // Snapshots pinned while the service runs are served, and monitoring records measured on them;
  // SIGHUP looks at once (after `catrisk feeds add`, say) instead of at the next interval.
  const watch = startFeedWatch(services);
  process.on('SIGHUP', () => void watch.rescan());
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.log.info({ signal }, 'shutting down');
    // A hung query must not hold the process past the bound; jobs not released by then are
    // taken over when their lease lapses (at once on SQLite, when the process starts again).
    setTimeout(() => {
      services.log.error({ ms: config.shutdownTimeoutMs }, 'shutdown bound reached; exiting without a clean release');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      // Stop accepting and let in-flight requests finish; those still unanswered shortly before the
      // bound (a stalled database) are answered 503 with Connection: close. Then release running
      // jobs for another worker.
      const grace = Math.min(1_000, Math.floor(config.shutdownTimeoutMs / 4));
      await Promise.all([closeHosts(hosts, config.shutdownTimeoutMs - grace), metrics?.close()]);
      await services.close();
      process.exit(0);
    } catch (error) {
      services.log.error({ err: error }, 'shutdown could not release everything');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Ready lines last: a supervisor that signals as soon as it reads one finds the handlers in place.
  for (const host of hosts) process.stdout.write(JSON.stringify({ host: host.name, url: host.url }) + '\n');
  if (!withHosts) process.stdout.write(JSON.stringify({ worker: services.worker?.owner }) + '\n');
  if (metrics) process.stdout.write(JSON.stringify({ metrics: metrics.url }) + '\n');
}

async function migrateOnly() {
  const { createServices } = await import('./services.js');
  const services = await createServices(configFromEnv());
  process.stdout.write(JSON.stringify({ migrated: true, storage: services.database.dialect }) + '\n');
  await services.close();
}

/**
 * An operator command's database, migrated, closed after `work`: the database only, as an
 * operator's decision or a reseal needs no feeds, workers or hosts.
 */
async function withOperatorDatabase(work: (database: import('./store/database.js').Database, config: Config) => Promise<number>): Promise<number> {
  const { openDatabase } = await import('./store/database.js');
  const { migrate } = await import('./store/migrations.js');
  const config = configFromEnv();
  const database = openDatabase({ databaseUrl: config.databaseUrl, stateDir: config.stateDir, limits: config.database });
  try {
    await migrate(database.db, database.dialect, undefined, { sealingKeys: config.sealing.keys });
    return await work(database, config);
  } finally {
    await database.close();
  }
}

const EXCHANGE_USAGE = 'usage: catrisk exchange approve <xm_id> | catrisk exchange reject <xm_id> --reason "<why, shown to the provider>"\n'
  + 'An operator\'s decision on a listing in review, written to the database this environment is configured with.\n';

/** `catrisk exchange approve|reject`: a person decides on a listing in review (an operator command, like migrate). */
async function exchangeDecision(args: string[]): Promise<number> {
  const [decision, id, ...rest] = args;
  if (decision === '--help' || decision === 'help' || decision === undefined) {
    (decision === undefined ? process.stderr : process.stdout).write(EXCHANGE_USAGE);
    return decision === undefined ? 2 : 0;
  }
  let reason: string | undefined;
  for (let i = 0; i < rest.length; i += 1) {
    if (rest[i] === '--reason' && rest[i + 1] !== undefined) reason = rest[++i];
    else if (rest[i]!.startsWith('--reason=')) reason = rest[i]!.slice('--reason='.length);
    else {
      process.stderr.write(`catrisk exchange: unexpected argument ${rest[i]}\n${EXCHANGE_USAGE}`);
      return 2;
    }
  }
  if ((decision !== 'approve' && decision !== 'reject') || id === undefined || (decision === 'approve' && reason !== undefined)) {
    process.stderr.write(EXCHANGE_USAGE);
    return 2;
  }
  const { ExchangeStore } = await import('./store/exchange.js');
  const { decideListing } = await import('./app/exchange.js');
  return withOperatorDatabase(async (database) => {
    const decided = await decideListing({ exchange: new ExchangeStore(database.db), now: () => new Date() }, { id, decision, ...(reason !== undefined ? { reason } : {}) });
    if (!decided.ok) {
      process.stderr.write(`catrisk exchange ${decision}: ${decided.refusal.message}\n`);
      return 1;
    }
    process.stdout.write(JSON.stringify({ id: decided.value.id, state: decided.value.state }) + '\n');
    return 0;
  });
}

const KEYS_USAGE = 'usage: catrisk keys reseal\n'
  + 'Seals every exchange credential and webhook signing secret in the database this environment is configured with\n'
  + 'again under CATRISK_SEALING_KEY, opening each with the key that sealed it (CATRISK_SEALING_KEYS_PREVIOUS).\n'
  + 'Prints what was done as JSON; exits 1 when a value cannot be opened (listed on standard error), 0 otherwise.\n';

/** `catrisk keys reseal`: everything sealed, sealed again under the key that seals now (an operator command, like migrate). */
async function keysCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === 'help') {
    process.stdout.write(KEYS_USAGE);
    return 0;
  }
  if (sub !== 'reseal' || rest.length > 0) {
    process.stderr.write(KEYS_USAGE);
    return 2;
  }
  const { ExchangeStore } = await import('./store/exchange.js');
  const { MonitoringStore } = await import('./store/monitoring.js');
  const { resealAll } = await import('./app/sealing.js');
  return withOperatorDatabase(async (database, config) => {
    const done = await resealAll({ config, exchange: new ExchangeStore(database.db), monitoring: new MonitoringStore(database.db) });
    if (!done.ok) {
      process.stderr.write(`catrisk keys reseal: ${done.refusal.message}\n`);
      return 1;
    }
    const report = done.value;
    const unopenable = [...report.exchange_credentials.unopenable, ...report.webhook_secrets.unopenable];
    const count = (c: typeof report.webhook_secrets) => ({ ...c, unopenable: c.unopenable.length });
    process.stdout.write(JSON.stringify({ sealing_key: report.sealing_key, exchange_credentials: count(report.exchange_credentials), webhook_secrets: count(report.webhook_secrets) }) + '\n');
    for (const u of unopenable) process.stderr.write(`catrisk keys reseal: ${u.id} (sealed under ${u.key_id}) left as it was: ${u.reason}\n`);
    return unopenable.length > 0 ? 1 : 0;
  });
}

async function main(argv: string[]) {
  const [command = 'serve', ...rest] = argv;
  switch (command) {
    case 'serve': return serve(true);
    case 'worker': return serve(false);
    case 'migrate': return migrateOnly();
    case 'exchange':
      process.exitCode = await exchangeDecision(rest);
      return;
    case 'keys':
      process.exitCode = await keysCommand(rest);
      return;
    case 'feeds': {
      const { feedsCommand } = await import('./feeds/cli.js');
      process.exitCode = await feedsCommand(rest, configFromEnv());
      return;
    }
    default: {
      const client = await import('./cli/index.js');
      if (command === '--version' || command === '-V' || command === 'version') {
        process.stdout.write(client.versionLine());
        return;
      }
      if (client.CLIENT_WORDS.has(command)) {
        process.exitCode = await client.runClient(argv);
        return;
      }
      const help = command === 'help' || command === '--help' || command === '-h';
      (help ? process.stdout : process.stderr).write(`usage: catrisk serve | worker | migrate | feeds verify | feeds add <folder> | exchange approve|reject <id> | keys reseal | --version\n${client.clientSummary()}Each command takes --help.\n`);
      process.exitCode = help ? 0 : 2;
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // A refusal to start (the feeds folder) is one line an operator acts on, not a stack.
  const oneLine = error instanceof Error && error.name === 'UnusableFeeds';
  process.stderr.write(`${error instanceof Error ? (oneLine ? error.message : error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
