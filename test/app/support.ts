// Use cases called directly, as the tool server will call them: AppDeps over a migrated scratch
// database (SQLite file or PostgreSQL), no HTTP, no feeds, compute threads stood in for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { migrate, pendingMigrations } from '../../src/store/migrations.js';
import { AccountStore } from '../../src/store/accounts.js';
import { JobStore } from '../../src/store/jobs.js';
import { ObjectStore } from '../../src/store/objects.js';
import { StructureStore } from '../../src/store/structures.js';
import { LabRunStore } from '../../src/store/lab-runs.js';
import { LabInputStore } from '../../src/store/lab-inputs.js';
import { ModelStore } from '../../src/store/models.js';
import { IdempotencyStore } from '../../src/store/idempotency.js';
import { PackageStore } from '../../src/store/packages.js';
import { MonitoringStore } from '../../src/store/monitoring.js';
import { CodingBudgetStore } from '../../src/store/coding-budget.js';
import { ExchangeStore } from '../../src/store/exchange.js';
import { embeddedCoder } from '../../src/providers/embedded-coder.js';
import { oedReference } from '../../src/feeds/oed.js';
import { refused, type Result } from '../../src/kernel/result.js';
import { refusal } from '../../src/kernel/refusal.js';
import type { AppDeps } from '../../src/app/deps.js';
import { userNamedTargets } from '../../src/providers/safe-outbound.js';
import type { DialectName } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';

export interface TestDeps extends AppDeps {
  /** How many times a use case woke the worker. */
  readonly woken: number;
}

export const AT = new Date('2026-03-01T12:00:00Z');

export async function withDeps(dialect: DialectName, body: (deps: TestDeps) => Promise<void>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-app-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : undefined;
  const database = openDatabase({ stateDir, databaseUrl: scratch?.url });
  try {
    await migrate(database.db, database.dialect);
    let woken = 0;
    const deps: TestDeps = {
      config: {
        feedsDir: undefined, sandboxUnits: 1000, idempotencyTtlSeconds: 86_400,
        exposureCoding: { enabled: false, dailyRows: 2000, gate: 0.7, multiBuildingGate: 0.7 },
        geocoding: { enabled: false },
        monitoring: { retrySeconds: [5, 300, 1800, 7200, 18000, 36000, 86400], deliveryTimeoutMs: 10_000 },
        // A key of this file's making: webhook secrets are sealed under it (exchange tests give their own).
        sealing: { keys: [{ id: 'app-tests', key: Buffer.alloc(32, 7) }] },
        exchange: { runTimeoutMs: 60_000 },
      },
      accounts: new AccountStore(database.db),
      jobs: new JobStore(database.db, database.dialect),
      objects: new ObjectStore(database.db),
      structures: new StructureStore(database.db),
      labRuns: new LabRunStore(database.db),
      labInputs: new LabInputStore(database.db),
      models: new ModelStore(database.db),
      idempotency: new IdempotencyStore(database.db),
      packages: new PackageStore(database.db),
      monitoring: new MonitoringStore(database.db),
      codingBudget: new CodingBudgetStore(database.db),
      // The embedded coder; a test that codes rows hands it feeds (there are none here).
      exposureCoder: embeddedCoder(() => oedReference(undefined)),
      geocoders: [],
      // The production address rule: no target here may be reached.
      targets: userNamedTargets({ allowHttp: false, allowLoopback: false, extraCa: undefined }, 'catrisk-tests/1.0'),
      exchange: new ExchangeStore(database.db),
      // No API host here: the lab's connector route is not reachable.
      exchangeConnectors: { connector: async () => refused(refusal(503, 'server_error', 'no internal connector route in this test')) },
      feeds: undefined,
      now: () => AT,
      wakeWorker: () => { woken += 1; },
      // No compute threads here: a task is refused as a pool without model data would be.
      compute: async <T>(): Promise<Result<T>> => refused(refusal(503, 'server_error', 'no compute threads in this test')),
      computeAnswers: async () => { throw new Error('no compute threads in this test'); },
      storage: { ping: () => database.ping(), pendingMigrations: () => pendingMigrations(database.db, database.dialect) },
      get woken() { return woken; },
    };
    await body(deps);
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
