// Noticing newly pinned snapshots while the service runs: `catrisk feeds add` (another process)
// renames a verified version into the feeds directory; this looks at the directory every
// CATRISK_FEEDS_RESCAN_SECONDS (and on SIGHUP), serves what it finds, and measures the monitoring
// records on those feeds (app/monitoring.ts sweepFeeds), queueing deliveries where the
// measurement moved. At start it compares every record with the newest snapshot once, so a
// version added while the service was down is not missed.
import type { Logger } from 'pino';
import { sweepFeeds } from '../app/monitoring.js';
import type { AppDeps } from '../app/deps.js';
import { shareVerifiedFeeds } from './threads.js';

type WatchDeps = Pick<AppDeps, 'structures' | 'monitoring' | 'feeds' | 'now' | 'jobs' | 'wakeWorker'>;

export class FeedWatch {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: WatchDeps, private readonly intervalMs: number, private readonly log: Logger) {}

  /** Compares every record with the newest snapshots, then looks again every interval. */
  start(): void {
    const feeds = this.deps.feeds;
    if (!feeds) return;
    this.running = this.guard(async () => {
      await sweepFeeds(this.deps, feeds.feeds());
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.intervalMs <= 0) return;
    this.timer = setTimeout(() => {
      void this.rescan().finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Looks at the feeds directory now; answers the versions it began to serve. */
  rescan(): Promise<string[]> {
    const feeds = this.deps.feeds;
    if (!feeds || this.stopped) return Promise.resolve([]);
    const found: string[] = [];
    // One look at a time: a rescan waits for the one (or the start-up sweep) before it.
    this.running = this.running.then(() => this.guard(async () => {
      const added = await feeds.rescan();
      if (added.length === 0) return;
      shareVerifiedFeeds(feeds.verified);
      for (const s of added) {
        found.push(`${s.feed_id}/${s.version}`);
        this.log.info({ feed: s.feed_id, version: s.version, sha256: s.sha256 }, 'feed snapshot pinned since start: now served');
      }
      const queued = await sweepFeeds(this.deps, [...new Set(added.map((s) => s.feed_id))]);
      if (queued > 0) this.log.info({ deliveries: queued }, 'monitoring deliveries queued for newly pinned snapshots');
    }));
    return this.running.then(() => found);
  }

  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // A database away or a snapshot unreadable: the next look tries again.
      this.log.error({ err: error }, 'feed rescan or monitoring sweep failed; trying again at the next look');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
