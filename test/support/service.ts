// Starts the whole service in this process on ephemeral ports, over SQLite or a scratch
// PostgreSQL database, and gives the tests plain HTTP helpers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import pino, { type Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { createServices, startFeedWatch, startWorker, type Services } from '../../src/services.js';
import { startHosts, type RunningHost } from '../../src/http/servers.js';
import { startMetricsListener } from '../../src/http/metrics-listener.js';
import { createScratchDatabase, postgresAvailable, type ScratchDatabase } from './postgres.js';

export type DialectName = 'sqlite' | 'postgres';

export const USER_AGENT = 'catrisk-tests/1.0';

/** The sealing key a test service holds unless the test gives its own (`<key id>:<base64 of 32 bytes>`). */
export const TEST_SEALING_KEY = `tests:${Buffer.alloc(32, 3).toString('base64')}`;

export interface TestService {
  dialect: DialectName;
  services: Services;
  urls: Record<RunningHost['name'], string>;
  /** The running hosts, each with the routes it serves. */
  hosts: RunningHost[];
  api: string;
  /** The metrics listener's GET /metrics URL (an ephemeral port unless the test sets CATRISK_METRICS_PORT). */
  metrics: string | undefined;
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Host name resolution for user-named URLs (webhook receivers, exchange platforms): a table built by the test. */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
  /** The service's logger (a test that reads the log lines hands one writing to its own stream). */
  readonly log?: Logger;
}

export async function startService(dialect: DialectName, env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestService> {
  // A caller that passes its own state directory or database keeps it (restart tests).
  const ownState = env.CATRISK_STATE_DIR === undefined;
  const stateDir = env.CATRISK_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'catrisk-test-'));
  let scratch: ScratchDatabase | undefined;
  if (dialect === 'postgres' && env.DATABASE_URL === undefined) scratch = await createScratchDatabase({ migrated: true });
  const fullEnv: Record<string, string> = {
    CATRISK_API_PORT: '0', CATRISK_DOCS_PORT: '0', CATRISK_MCP_PORT: '0', CATRISK_DATA_PORT: '0', CATRISK_LAB_PORT: '0',
    CATRISK_METRICS_PORT: '0',
    CATRISK_STATE_DIR: stateDir,
    CATRISK_RATE_LIMIT: '100000',
    CATRISK_ADDRESS_RATE_LIMIT: '100000',
    CATRISK_JOB_POLL_MS: '20',
    // A sealing key of the tests' own, so webhooks can be registered; a test that passes either
    // setting (an empty one: no key at all) keeps its own.
    ...(env.CATRISK_SEALING_KEY === undefined && env.CATRISK_EXCHANGE_KEY === undefined ? { CATRISK_SEALING_KEY: TEST_SEALING_KEY } : {}),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  };
  const config: Config = loadConfig({ ...process.env, DATABASE_URL: '', ...fullEnv });
  const services = await createServices(config, { log: options.log ?? pino({ level: process.env.CATRISK_TEST_LOG ?? 'silent' }), ...(options.resolve ? { resolve: options.resolve } : {}) });
  const hosts = await startHosts(services);
  const metrics = await startMetricsListener(services);
  if (config.jobs.inProcessWorkers) startWorker(services);
  startFeedWatch(services);
  const urls = Object.fromEntries(hosts.map((h) => [h.name, h.url])) as TestService['urls'];
  return {
    dialect, services, urls, hosts, api: urls.api, metrics: metrics?.url, env: fullEnv,
    async close() {
      await Promise.all([...hosts.map((h) => h.app.close()), metrics?.close()]);
      await services.close();
      if (scratch) await scratch.drop();
      if (ownState) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

// One service per dialect for the whole test file, closed after its last test.
const shared = new Map<DialectName, Promise<TestService>>();
after(async () => {
  const running = [...shared.values()];
  shared.clear();
  await Promise.all(running.map(async (svc) => (await svc).close()));
});

/**
 * The service every test of this file shares on `dialect`, started on first use with the default
 * configuration. For tests that need only their own accounts: each signup is its own tenant, so
 * tests do not see each other's data. A test that needs its own configuration, a restart or a
 * stopped database starts its own with startService.
 */
export function sharedService(dialect: DialectName): Promise<TestService> {
  let svc = shared.get(dialect);
  if (!svc) {
    svc = startService(dialect);
    shared.set(dialect, svc);
    svc.catch(() => shared.get(dialect) === svc && shared.delete(dialect));
  }
  return svc;
}

/** Runs a suite once per storage dialect, like Kysely's own tests; PostgreSQL is skipped loudly when absent. */
export function eachDialect(name: string, suite: (dialect: DialectName, t: TestContext) => Promise<void>) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const skip = dialect === 'postgres' && !postgresAvailable
      ? 'PostgreSQL not available (set CATRISK_TEST_PG or start a server on 127.0.0.1:5432)'
      : false;
    test(`${name} [${dialect}]`, { skip }, (t) => suite(dialect, t));
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function call(base: string, method: string, path: string, options: {
  key?: string; body?: unknown; raw?: string | Uint8Array | FormData; headers?: Record<string, string>;
} = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | FormData | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export async function signup(base: string, body: unknown = {}): Promise<{ key: string; accountId: string; body: any }> {
  const answer = await call(base, 'POST', '/signup', { body });
  if (answer.status !== 201) throw new Error(`signup failed: ${answer.status} ${answer.text}`);
  return { key: answer.body.api_key.secret, accountId: answer.body.id, body: answer.body };
}

/**
 * Polls a job until it is terminal: quickly at first, then less often (a loaded machine runs jobs
 * slowly, and many callers polling every few milliseconds would meet the key's rate limit).
 */
export async function waitForJob(base: string, key: string, jobPath: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (let pause = 25; ; pause = Math.min(500, pause * 1.5)) {
    const answer = await call(base, 'GET', jobPath, { key });
    if (answer.status !== 200) throw new Error(`job read failed: ${answer.status} ${answer.text}`);
    if (answer.body.status === 'succeeded' || answer.body.status === 'failed') return answer.body;
    if (Date.now() > until) throw new Error(`job ${jobPath} still ${answer.body.status}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Reads a lab run until it has succeeded or failed, backing off as waitForJob does. */
export async function finishedRun(svc: TestService, key: string, path: string, timeoutMs = 120_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (let pause = 50; ; pause = Math.min(500, pause * 1.5)) {
    const run = await call(svc.urls.lab, 'GET', path, { key });
    if (run.status !== 200) throw new Error(`run read failed: ${run.status} ${run.text}`);
    if (run.body.status === 'succeeded' || run.body.status === 'failed') return run.body;
    if (Date.now() > until) throw new Error(`run ${path} did not finish: still ${run.body.status}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Asserts the SPEC error envelope exactly: two members, three or four in error, code pattern. */
export function envelopeFaults(answer: Answer): string[] {
  const faults: string[] = [];
  const b = answer.body;
  if (!b || typeof b !== 'object') return ['body is not JSON'];
  const top = Object.keys(b).sort().join(',');
  if (top !== 'error,schema_version') faults.push(`top-level members ${top}`);
  if (b.schema_version !== '0.1.0') faults.push('schema_version');
  const e = b.error ?? {};
  for (const k of Object.keys(e)) if (!['status', 'code', 'message', 'details'].includes(k)) faults.push(`error member ${k}`);
  if (e.status !== answer.status) faults.push(`status ${e.status} vs ${answer.status}`);
  if (typeof e.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(e.code)) faults.push(`code ${e.code}`);
  if (typeof e.message !== 'string' || e.message.length === 0) faults.push('message');
  if (e.details !== undefined && (!Array.isArray(e.details) || e.details.some((d: unknown) => typeof d !== 'string' || d === ''))) faults.push('details');
  if (/\bat .*\.(ts|js):\d+/.test(answer.text)) faults.push('stack trace in body');
  return faults;
}

/** GETs each path and asserts its exact status, code and a valid envelope. */
export async function expectRefusals(base: string, key: string, cases: ReadonlyArray<readonly [string, number, string]>): Promise<void> {
  for (const [path, status, code] of cases) {
    const answer = await call(base, 'GET', path, { key });
    assert.equal(answer.status, status, `${path}: ${answer.text}`);
    assert.equal(answer.body?.error?.code, code, path);
    assert.deepEqual(envelopeFaults(answer), [], path);
  }
}

/**
 * Waits, when the rate limiter's fixed window (aligned to the clock: src/store/rate-counters.ts)
 * has less than `needMs` left, until the next one opens: a test that reads exact remaining counts
 * must not straddle a window's reset.
 */
export async function clearOfRateWindowReset(windowSeconds = 60, needMs = 20_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
