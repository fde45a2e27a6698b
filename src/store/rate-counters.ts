// Fixed-window request counters. In memory for the embedded (single-process) store; in
// PostgreSQL when several API processes share one database, so the limit holds across them.
import { sql, type Kysely } from 'kysely';
import type { RateLimitPolicy } from '../config.js';
import type { Tables } from './tables.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateCounter {
  hit(bucket: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> | RateDecision;
}

function decide(count: number, windowStart: number, policy: RateLimitPolicy, nowMs: number): RateDecision {
  const windowMs = policy.windowSeconds * 1000;
  return {
    allowed: count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)),
    windowSeconds: policy.windowSeconds,
  };
}

const windowStartOf = (policy: RateLimitPolicy, nowMs: number) =>
  Math.floor(nowMs / (policy.windowSeconds * 1000)) * policy.windowSeconds * 1000;

export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  hit(bucket: string, policy: RateLimitPolicy, nowMs: number): RateDecision {
    const start = windowStartOf(policy, nowMs);
    let entry = this.windows.get(bucket);
    if (!entry || entry.start !== start) {
      if (this.windows.size > 100_000) this.sweep(nowMs);
      entry = { start, count: 0 };
      this.windows.set(bucket, entry);
    }
    entry.count += 1;
    return decide(entry.count, start, policy, nowMs);
  }

  private sweep(nowMs: number) {
    for (const [bucket, entry] of this.windows) if (entry.start < nowMs - 3_600_000) this.windows.delete(bucket);
  }
}

export class DatabaseRateCounter implements RateCounter {
  private lastSweep = 0;

  constructor(private readonly db: Kysely<Tables>) {}

  async hit(bucket: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> {
    const start = windowStartOf(policy, nowMs);
    const row = await this.db.insertInto('rate_counters')
      .values({ bucket, window_start: start, count: 1 })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_counters.count + 1` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    if (nowMs - this.lastSweep > 60_000) {
      this.lastSweep = nowMs;
      void this.db.deleteFrom('rate_counters').where('window_start', '<', nowMs - 3_600_000).execute().catch(() => {});
    }
    return decide(Number(row.count), start, policy, nowMs);
  }
}
