// PostgreSQL's LISTEN/NOTIFY between the processes of a deployment, on one connection per process:
// - the job queue, as graphile-worker wakes its workers: a process that queues a job announces it,
//   and every process running workers claims at once instead of on its next poll (polling stays the
//   fallback: a notice lost while the listener reconnects costs at most one poll interval);
// - accounts: a process that changes an account announces it in the same transaction (a notice is
//   delivered on commit), and every process forgets what it remembered of that account.
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Tables } from './tables.js';

export const JOB_CHANNEL = 'catrisk_jobs';
export const ACCOUNT_CHANNEL = 'catrisk_accounts';
const CHANNELS = [JOB_CHANNEL, ACCOUNT_CHANNEL] as const;
export type NoticeChannel = (typeof CHANNELS)[number];

/** Tells every listening process that a job was queued (after its row is committed). */
export async function announceJob(db: Kysely<Tables>): Promise<void> {
  await sql`select pg_notify(${JOB_CHANNEL}, '')`.execute(db);
}

/** Tells every listening process, when `db`'s transaction commits, that an account changed. */
export async function announceAccountChange(db: Kysely<Tables>, accountId: string): Promise<void> {
  await sql`select pg_notify(${ACCOUNT_CHANNEL}, ${accountId})`.execute(db);
}

export interface NoticeHandlers {
  /** A notice on `channel` with its payload. */
  onNotice(channel: NoticeChannel, payload: string): void;
  /** Listening began (true) or stopped (false): notices may have been missed while not listening. */
  onListening(listening: boolean): void;
  onError(error: Error): void;
}

export interface Notices {
  /** Resolves once listening (or once the first attempt failed: it is retried meanwhile). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on every channel on a connection of its own (a pooled one would be handed back); a
 * connection that ends is opened again after `retryMs`.
 */
export function listenForNotices(url: string, handlers: NoticeHandlers, retryMs = 1_000): Notices {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    let ended = false;
    let listening = false;
    const reopen = (error?: Error) => {
      if (ended) return;
      ended = true;
      if (listening) handlers.onListening(false);
      if (error) handlers.onError(error);
      void current.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), retryMs).unref();
    };
    current.on('error', reopen);
    current.on('end', () => reopen());
    current.on('notification', (message) => {
      if ((CHANNELS as readonly string[]).includes(message.channel)) handlers.onNotice(message.channel as NoticeChannel, message.payload ?? '');
    });
    try {
      await current.connect();
      for (const channel of CHANNELS) await current.query(`listen ${channel}`);
      if (!ended) {
        listening = true;
        handlers.onListening(true);
      }
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
