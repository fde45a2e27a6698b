// Fixed-window request counters. In memory for the embedded (single-process) store; in
// PostgreSQL when several API processes share one database, so the limit holds across them: each
// process leases numbers of the window's shared count in blocks (LeasedRateCounter), so a request
// costs a database round trip only when its process's block runs out.
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

/** A process's block of a window's shared count: numbers next..end are its to hand out. */
interface Lease {
  readonly start: number;
  next: number;
  end: number;
  /** The shared count when this process last leased (what it knows of every process's use). */
  seen: number;
  pending: Promise<void> | null;
}

/** The largest block a process leases at once. */
export const MAX_LEASE = 64;

/**
 * The shared fixed window, leased in blocks. Every request admitted anywhere holds its own number
 * of the window's shared count and is admitted only when that number is within the limit, so a
 * deployment never admits more than the limit in a window, however many processes share it. The
 * price is the other way: numbers a process leased and has not handed out when the window ends are
 * lost, so a deployment may refuse early by the numbers its processes still hold. A block is a
 * quarter of what the process last saw remaining (at most 64, at least 1), so near the limit
 * blocks shrink to one number and every process sees the count exactly; once a process has seen
 * the count reach the limit it refuses the rest of the window without asking the database.
 */
export class LeasedRateCounter implements RateCounter {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly db: Kysely<Tables>, private readonly maxLease = MAX_LEASE) {}

  hit(bucket: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> | RateDecision {
    const start = windowStartOf(policy, nowMs);
    let lease = this.leases.get(bucket);
    if (!lease || lease.start !== start) {
      if (this.leases.size > 100_000) this.sweep(nowMs);
      lease = { start, next: 1, end: 0, seen: 0, pending: null };
      this.leases.set(bucket, lease);
    }
    if (lease.next <= lease.end) return decide(lease.next++, start, policy, nowMs);
    if (lease.seen >= policy.limit) return decide(policy.limit + 1, start, policy, nowMs);
    return this.afterLease(bucket, lease, policy, nowMs);
  }

  /** Waits for the bucket's next block (one lease in flight per bucket, shared by every waiter), then counts. */
  private async afterLease(bucket: string, lease: Lease, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> {
    lease.pending ??= this.lease(bucket, lease, policy).finally(() => { lease.pending = null; });
    await lease.pending;
    return this.hit(bucket, policy, nowMs);
  }

  private async lease(bucket: string, lease: Lease, policy: RateLimitPolicy): Promise<void> {
    const size = Math.min(this.maxLease, Math.max(1, Math.floor((policy.limit - lease.seen) / 4)));
    const row = await this.db.insertInto('rate_counters')
      .values({ bucket, window_start: lease.start, count: size })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_counters.count + ${size}` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    const end = Number(row.count);
    lease.next = end - size + 1;
    lease.end = end;
    lease.seen = end;
    if (lease.start - this.lastSweep > 60_000) {
      this.lastSweep = lease.start;
      void this.db.deleteFrom('rate_counters').where('window_start', '<', lease.start - 3_600_000).execute().catch(() => {});
    }
  }

  private lastSweep = 0;

  private sweep(nowMs: number) {
    for (const [bucket, lease] of this.leases) if (lease.start < nowMs - 3_600_000 && lease.pending === null) this.leases.delete(bucket);
  }
}
