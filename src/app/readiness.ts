// GET /ready: whether this process can serve now, beside GET /health's "the process is up". Ready
// means the database answers a query and holds every migration of this code, the feed store
// serves verified snapshots, and a compute thread answers. Each check is bounded, so a stalled
// database makes the probe answer 503 in time rather than hang it.
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal } from '../kernel/refusal.js';
import { READINESS_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

/** The longest a check of GET /ready waits (a probe's timeout is usually a few seconds). */
export const READINESS_CHECK_MS = 2_000;

interface Check {
  ok: boolean;
  /** How long it took (the feeds are read from memory: no time). */
  ms?: number;
  /** Why it failed, in a sentence. */
  fault?: string;
}

/** Runs a check to its end or the bound, timing it; a throw or the bound is its fault. */
async function timed<T>(run: () => Promise<T>, timeoutMs: number, faultOf: (error: unknown) => string): Promise<Check & { ms: number; value?: T }> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const value = await Promise.race([run(), late]);
    return { ok: true, ms: ms(), value };
  } catch (error) {
    return { ok: false, ms: ms(), fault: faultOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function readiness(
  deps: Pick<AppDeps, 'storage' | 'feeds' | 'computeAnswers'>,
  timeoutMs = READINESS_CHECK_MS,
): Promise<Result<Record<string, unknown>>> {
  const [database, migrations, compute] = await Promise.all([
    timed(() => deps.storage.ping(), timeoutMs, (e) => `the database did not answer a query: ${reason(e)}`),
    timed(() => deps.storage.pendingMigrations(), timeoutMs, (e) => `the applied migrations could not be read: ${reason(e)}`),
    timed(() => deps.computeAnswers(timeoutMs), timeoutMs, (e) => `no compute thread answered: ${reason(e)}`),
  ]);
  const pending = migrations.value ?? [];
  const migrationCheck: Check = migrations.ok && pending.length > 0
    ? { ok: false, ms: migrations.ms, fault: `migrations not applied: ${pending.join(', ')} (\`catrisk migrate\`, or start the service, applies them)` }
    : { ok: migrations.ok, ms: migrations.ms, ...(migrations.fault ? { fault: migrations.fault } : {}) };
  const served = deps.feeds?.list().length ?? 0;
  const refusedFeeds = deps.feeds?.refused.length ?? 0;
  const feeds: Check & { served: number; refused: number } = {
    ok: served > 0, served, refused: refusedFeeds,
    ...(served > 0 ? {} : { fault: deps.feeds ? `no verified feed snapshot is served (${refusedFeeds} refused)` : 'no feeds directory is configured' }),
  };
  const checks: Record<string, Check> = {
    database: strip(database), migrations: migrationCheck, feeds, compute_threads: strip(compute),
  };
  const failed = Object.entries(checks).filter(([, c]) => !c.ok).map(([name, c]) => `${name}: ${c.fault}`);
  if (failed.length > 0) {
    return refused(refusal(503, 'not_ready', `The service is not ready: ${failed.join('; ')}.`, failed));
  }
  return ok({ schema_version: READINESS_SCHEMA_VERSION, status: 'ready', checks });
}

function strip(check: Check & { value?: unknown }): Check {
  const { value: _value, ...rest } = check;
  return rest;
}
