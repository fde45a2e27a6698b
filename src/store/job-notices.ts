// PostgreSQL's LISTEN/NOTIFY for the job queue, as graphile-worker wakes its workers: a process that
// queues a job announces it on a channel, and every process running workers listens on its own
// connection and claims at once instead of on its next poll. Polling stays the fallback: a notice
// lost while a listener reconnects costs at most one poll interval.
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Tables } from './tables.js';

export const JOB_CHANNEL = 'catrisk_jobs';

/** Tells every listening process that a job was queued (after its row is committed). */
export async function announceJob(db: Kysely<Tables>): Promise<void> {
  await sql`select pg_notify(${JOB_CHANNEL}, '')`.execute(db);
}

export interface JobNotices {
  /** Resolves once listening (or once the first attempt failed: polling carries on meanwhile). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens for queued jobs on a connection of its own (a pooled one would be handed back), telling
 * `onNotice` of each; a connection that ends is opened again after `retryMs`.
 */
export function listenForJobs(url: string, onNotice: () => void, onError: (error: Error) => void, retryMs = 1_000): JobNotices {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    let ended = false;
    const reopen = (error?: Error) => {
      if (ended) return;
      ended = true;
      if (error) onError(error);
      void current.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), retryMs).unref();
    };
    current.on('error', reopen);
    current.on('end', () => reopen());
    current.on('notification', (message) => { if (message.channel === JOB_CHANNEL) onNotice(); });
    try {
      await current.connect();
      await current.query(`listen ${JOB_CHANNEL}`);
    } catch (error) {
      reopen(error as Error);
    }
  };
  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
