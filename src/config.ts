// Every environment variable the service reads, parsed and typed in one place.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface RateLimitPolicy {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
}

export interface Config {
  readonly host: string;
  readonly ports: {
    readonly api: number;
    readonly docs: number;
    readonly mcp: number;
    readonly data: number;
    readonly lab: number;
  };
  readonly stateDir: string;
  readonly databaseUrl: string | undefined;
  readonly feedsDir: string | undefined;
  /** Anonymous default-library agents refused at the edge (case-insensitive prefixes). */
  readonly refusedAgents: readonly string[];
  readonly rateLimit: { readonly key: RateLimitPolicy; readonly address: RateLimitPolicy };
  /** Units included in the sandbox plan before usage is billable overage. */
  readonly sandboxUnits: number;
  readonly jobs: {
    /** Run workers inside the serving process. */
    readonly inProcessWorkers: boolean;
    readonly concurrency: number;
    readonly leaseMs: number;
    readonly pollMs: number;
  };
  /** PostgreSQL link limits, so a dropped or stalled connection fails queries instead of hanging them. */
  readonly database: {
    /** Longest wait to open a connection or to get one from the pool. */
    readonly connectTimeoutMs: number;
    /** The server cancels a statement running longer; the client gives up on it a second later. */
    readonly statementTimeoutMs: number;
    /** An unused pooled connection is closed, and a transaction left idle is ended by the server, after this. */
    readonly idleTimeoutMs: number;
    /** TCP keep-alive probes start after this much silence on a connection. */
    readonly keepAliveMs: number;
  };
  /** SIGTERM ends the process within this, even when queries hang. */
  readonly shutdownTimeoutMs: number;
  readonly build: { readonly version: string; readonly commit: string };
  readonly logLevel: string;
}

export const DEFAULT_REFUSED_AGENTS = [
  'curl/', 'wget/', 'python-requests/', 'python-urllib/', 'go-http-client/', 'node-fetch/',
  'axios/', 'undici', 'okhttp/', 'java/', 'libwww-perl/',
] as const;

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function defaultFeedsDir(env: Env): string | undefined {
  if (env.CATRISK_FEEDS_DIR) return resolve(env.CATRISK_FEEDS_DIR);
  const sibling = resolve(process.cwd(), '../shared/feeds');
  return existsSync(sibling) ? sibling : undefined;
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL');
  }
  const refused = env.CATRISK_REFUSED_AGENTS;
  return {
    host: env.CATRISK_HOST || '127.0.0.1',
    ports: {
      api: integer(env, 'CATRISK_API_PORT', 8080),
      docs: integer(env, 'CATRISK_DOCS_PORT', 8081),
      mcp: integer(env, 'CATRISK_MCP_PORT', 8082),
      data: integer(env, 'CATRISK_DATA_PORT', 8083),
      lab: integer(env, 'CATRISK_LAB_PORT', 8084),
    },
    stateDir: resolve(env.CATRISK_STATE_DIR || './var'),
    databaseUrl,
    feedsDir: defaultFeedsDir(env),
    refusedAgents: refused !== undefined
      ? refused.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
      : DEFAULT_REFUSED_AGENTS,
    rateLimit: {
      key: {
        limit: integer(env, 'CATRISK_RATE_LIMIT', 600, 1),
        windowSeconds: integer(env, 'CATRISK_RATE_WINDOW_SECONDS', 60, 1),
      },
      address: {
        limit: integer(env, 'CATRISK_ADDRESS_RATE_LIMIT', 300, 1),
        windowSeconds: integer(env, 'CATRISK_RATE_WINDOW_SECONDS', 60, 1),
      },
    },
    sandboxUnits: integer(env, 'CATRISK_SANDBOX_UNITS', 1000),
    jobs: {
      inProcessWorkers: flag(env, 'CATRISK_IN_PROCESS_WORKERS', true),
      concurrency: integer(env, 'CATRISK_WORKER_CONCURRENCY', 2, 1),
      leaseMs: integer(env, 'CATRISK_JOB_LEASE_MS', 30_000, 100),
      pollMs: integer(env, 'CATRISK_JOB_POLL_MS', 250, 5),
    },
    database: {
      connectTimeoutMs: integer(env, 'CATRISK_DB_CONNECT_TIMEOUT_MS', 5_000, 100),
      statementTimeoutMs: integer(env, 'CATRISK_DB_STATEMENT_TIMEOUT_MS', 15_000, 100),
      idleTimeoutMs: integer(env, 'CATRISK_DB_IDLE_TIMEOUT_MS', 30_000, 100),
      keepAliveMs: integer(env, 'CATRISK_DB_KEEPALIVE_MS', 10_000, 1_000),
    },
    shutdownTimeoutMs: integer(env, 'CATRISK_SHUTDOWN_TIMEOUT_MS', 10_000, 100),
    build: {
      version: env.CATRISK_VERSION || readPackageVersion(),
      commit: env.CATRISK_COMMIT || 'unknown',
    },
    logLevel: env.CATRISK_LOG_LEVEL || 'info',
  };
}

function readPackageVersion(): string {
  // src/config.ts and dist/config.js both sit one level below package.json.
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
