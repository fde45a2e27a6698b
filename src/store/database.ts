// The only place that opens a database: SQLite (embedded default) or PostgreSQL (DATABASE_URL).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQLite, type SqliteStatement } from './sqlite-driver.js';
import pg from 'pg';
import { Kysely, PostgresDialect, sql, type LogEvent, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { loadConfig, type Config } from '../config.js';
import type { Tables } from './tables.js';
import { BusyRetryingSqliteDialect, FILE_BUSY_TIMEOUT_MS, SqliteBusyError } from './sqlite-busy.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  /** Resolves once the database has run a trivial query. */
  ping(): Promise<void>;
  /**
   * The connections now: PostgreSQL's pool (idle, in use, queries waiting for one); SQLite's one
   * connection runs each statement on the event loop, so between statements it reads idle.
   */
  connections(): { idle: number; inUse: number; waiting: number };
  close(): Promise<void>;
}

// PostgreSQL returns int8 as strings; every bigint here is a millisecond time or a count.
pg.types.setTypeParser(20, (value) => Number(value));

export type DatabaseLimits = Config['database'];

/** A query given up on because the database did not answer in time (its connection is dropped). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket-level failures, and PostgreSQL's connection_exception class (08xxx), admin/crash
// shutdown, cannot-connect-now, too-many-connections and a statement cancelled by its timeout.
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNREACHABLE_SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
// pg and pg-pool raise these as plain Errors without a code.
const UNREACHABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** True when an error means the database could not be reached or did not answer, not that the query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError || error instanceof SqliteBusyError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^08[0-9A-Z]{3}$/.test(code) || UNREACHABLE_SERVER_CODES.has(code) || UNREACHABLE_SOCKET_CODES.has(code)) return true;
  }
  return UNREACHABLE_MESSAGES.test(error.message);
}

export function openDatabase(options: {
  databaseUrl?: string;
  stateDir: string;
  limits?: DatabaseLimits;
  /** Told of connection failures that no query was waiting on (logged, never fatal). */
  onConnectionError?: (error: Error) => void;
  /** Told of every query that failed (counted by the metrics). */
  onQueryFailure?: (error: unknown) => void;
}): Database {
  const onQueryFailure = options.onQueryFailure;
  // Kysely times every query once a log function is set: only when someone counts the failures.
  const log = onQueryFailure ? (event: LogEvent) => { if (event.level === 'error') onQueryFailure(event.error); } : undefined;
  const ping = async (db: Kysely<Tables>) => { await sql`select 1`.execute(db); };
  if (options.databaseUrl) {
    const limits = options.limits ?? loadConfig({}).database;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      idleTimeoutMillis: limits.idleTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: limits.keepAliveMs,
      statement_timeout: limits.statementTimeoutMs,
      idle_in_transaction_session_timeout: limits.idleTimeoutMs,
    });
    const onError = options.onConnectionError ?? (() => {});
    // pg emits 'error' on a client whose backend is terminated or whose socket dies; unhandled, it
    // kills the process. The pool listens only while a client is idle, so every client gets a
    // listener of its own for the time it is checked out; the failed queries reject on their own.
    // The pool re-emits an idle client's error, which the client's own listener already reported.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', onError));
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: new BoundedPool(pool, limits.statementTimeoutMs + 1_000) }), ...(log ? { log } : {}) });
    return {
      db, dialect: 'postgres', close: () => db.destroy(), ping: () => ping(db),
      connections: () => ({ idle: pool.idleCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  mkdirSync(options.stateDir, { recursive: true });
  const file = new SQLite(join(options.stateDir, 'catrisk.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  // Another process's lock is waited for asynchronously (sqlite-busy.ts), never for long on the loop.
  file.pragma(`busy_timeout = ${FILE_BUSY_TIMEOUT_MS}`);
  file.pragma('foreign_keys = ON');
  // Kysely prepares every query afresh; preparing is most of a small query's cost, and a
  // better-sqlite3 statement is reusable, so statements are kept by their SQL text.
  const statements = new Map<string, SqliteStatement>();
  const database = {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = file.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => file.close(),
  };
  const db = new Kysely<Tables>({ dialect: new BusyRetryingSqliteDialect({ database }), ...(log ? { log } : {}) });
  return { db, dialect: 'sqlite', close: () => db.destroy(), ping: () => ping(db), connections: () => ({ idle: 1, inUse: 0, waiting: 0 }) };
}

/**
 * Gives up on a query the server has not answered within the limit (a stalled link, where the
 * server's own statement_timeout cannot reach us) and drops its connection: a pg client cannot
 * run another query while one is outstanding, so it must never go back to the pool.
 */
class BoundedPool implements PostgresPool {
  private readonly wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(private readonly pool: pg.Pool, private readonly queryTimeoutMs: number) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let bounded = this.wrapped.get(client);
    if (!bounded) {
      bounded = this.bound(client);
      this.wrapped.set(client, bounded);
    }
    return bounded;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  private bound(client: pg.PoolClient): PostgresPoolClient {
    const limit = this.queryTimeoutMs;
    let broken = false;
    return {
      query(text: string, parameters: ReadonlyArray<unknown>) {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            broken = true;
            client.connection.stream.destroy();
            reject(new DatabaseUnavailableError(`The database did not answer within ${limit} ms.`));
          }, limit);
        });
        return Promise.race([client.query(text, [...parameters]), timedOut]).finally(() => clearTimeout(timer));
      },
      release() {
        // An error tells the pool to discard the client instead of reusing it.
        client.release(broken ? new DatabaseUnavailableError('connection dropped after a timeout') : undefined);
      },
    } as unknown as PostgresPoolClient; // no cursor: the dialect is not given one
  }
}
