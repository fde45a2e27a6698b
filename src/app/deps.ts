// What a use case is given: the ports of the process (stores, pinned feeds, compute threads), the
// few settings it reads, a clock and a way to wake the worker. Services satisfies it; so will the
// tool server. Each use case asks only for the part it reads (Pick<AppDeps, ...>).
import type { AccountStore } from '../store/accounts.js';
import type { JobStore } from '../store/jobs.js';
import type { ObjectStore } from '../store/objects.js';
import type { StructureStore } from '../store/structures.js';
import type { LabRunStore } from '../store/lab-runs.js';
import type { LabInputStore } from '../store/lab-inputs.js';
import type { ModelStore } from '../store/models.js';
import type { IdempotencyStore } from '../store/idempotency.js';
import type { PackageStore } from '../store/packages.js';
import type { MonitoringStore } from '../store/monitoring.js';
import type { FeedStore } from '../feeds/store.js';
import type { CodingBudgetStore } from '../store/coding-budget.js';
import type { ExchangeStore } from '../store/exchange.js';
import type { ExchangeConnectors, ExposureCoder, Geocoder, UserNamedTargets } from '../providers/ports.js';
import type { SealKey } from '../domain/sealing.js';
import type { Result } from '../kernel/result.js';
import type { MessagePort } from 'node:worker_threads';

/** What GET /ready asks of the database: that it answers, and that it holds every migration of this code. */
export interface StorageCheck {
  ping(): Promise<void>;
  /** The migrations this code holds that the database has not applied; none when it is current. */
  pendingMigrations(): Promise<string[]>;
}

/**
 * The work that runs in a compute thread: task name → { input, output }. Its members are declared
 * in compute-tasks.ts, beside the task modules' types (declaration merging).
 */
export interface ComputeTasks {}
export type TaskName = keyof ComputeTasks;
export type TaskInput<K extends TaskName> = ComputeTasks[K]['input'];
export type TaskOutput<K extends TaskName> = ComputeTasks[K]['output'];
/** What a task hands over to its thread instead of copying: buffers, and ports to answer on. */
export type TaskTransfers = (ArrayBuffer | MessagePort)[];

export interface AppDeps {
  readonly config: {
    /** Where compute threads open their own verified feed store; undefined when none is configured. */
    readonly feedsDir: string | undefined;
    /** Units an account uses before any is billable. */
    readonly sandboxUnits: number;
    /** How long an Idempotency-Key's answer is kept and replayed. */
    readonly idempotencyTtlSeconds: number;
    /** The coding routes' switch, daily row budget and gates (config.ts). */
    readonly exposureCoding: { readonly enabled: boolean; readonly dailyRows: number; readonly gate: number; readonly multiBuildingGate: number };
    /** The geocoding switch. */
    readonly geocoding: { readonly enabled: boolean };
    /** Webhook deliveries: the retry waits (seconds) and one attempt's time limit. */
    readonly monitoring: { readonly retrySeconds: readonly number[]; readonly deliveryTimeoutMs: number };
    /** The keys that seal exchange credentials and webhook signing secrets at rest: the first seals, all open. */
    readonly sealing: { readonly keys: readonly SealKey[] };
    /** How long a provider's run is waited for. */
    readonly exchange: { readonly runTimeoutMs: number };
  };
  readonly accounts: AccountStore;
  readonly jobs: JobStore;
  readonly objects: ObjectStore;
  readonly structures: StructureStore;
  readonly labRuns: LabRunStore;
  /** Inputs users bring to the lab. */
  readonly labInputs: LabInputStore;
  /** The registry's composed models. */
  readonly models: ModelStore;
  readonly idempotency: IdempotencyStore;
  readonly packages: PackageStore;
  /** Monitoring records, their webhooks and delivery logs. */
  readonly monitoring: MonitoringStore;
  readonly codingBudget: CodingBudgetStore;
  /** Model-exchange listings and their grants. */
  readonly exchange: ExchangeStore;
  /** The lab's way to a listing's connector (the internal connector route). */
  readonly exchangeConnectors: ExchangeConnectors;
  /** The exposure-coding provider (embedded or chat-completions); asked only when the switch is on. */
  readonly exposureCoder: ExposureCoder;
  /** The geocoders to ask, in order; asked only when the switch is on. */
  readonly geocoders: readonly Geocoder[];
  /** Calls to URLs users name (webhook receivers, exchange platforms), under the address rule. */
  readonly targets: UserNamedTargets;
  /** The pinned snapshots; undefined when no feeds directory is configured. */
  readonly feeds: FeedStore | undefined;
  now(): Date;
  /** A job was queued: a worker in this process starts it without waiting for its next poll. */
  wakeWorker(): void;
  /** Runs a task in a compute thread; a refusal there comes back as a refused Result. */
  compute<K extends TaskName>(task: K, input: TaskInput<K>, transferList?: TaskTransfers): Promise<Result<TaskOutput<K>>>;
  /** Resolves once a compute thread answers within `timeoutMs` (at once while every thread is busy); rejects otherwise. */
  computeAnswers(timeoutMs: number): Promise<void>;
  /** The database's side of GET /ready. */
  readonly storage: StorageCheck;
}
