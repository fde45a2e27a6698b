// SQLite under a write lock another process holds. better-sqlite3 runs each statement on the event
// loop, so SQLite's own busy_timeout would freeze the whole service while it waits; instead the
// file's busy timeout is kept short and a statement refused SQLITE_BUSY is tried again after an
// asynchronous pause (the event loop serves everything else meanwhile), until the bound, when it
// is given up as the database being unavailable (503 with Retry-After at the edge).
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { SqliteDialect, type SqliteDialectConfig } from 'kysely';

/** How long the file itself waits for a lock, blocking the loop: a few milliseconds at most. */
export const FILE_BUSY_TIMEOUT_MS = 5;
/** How long a statement keeps trying before it is given up (within the request bound). */
export const BUSY_BOUND_MS = 2_000;

const isBusy = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED');
};

/** A lock that was not released within the bound: answered as the database being unavailable. */
export class SqliteBusyError extends Error {
  readonly code = 'SQLITE_BUSY';
  constructor(ms: number) {
    super(`The database file stayed locked by another process for ${ms} ms.`);
    this.name = 'SqliteBusyError';
  }
}

class RetryingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection, private readonly stopping: () => boolean) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const started = Date.now();
    for (let pause = 10; ; pause = Math.min(200, pause * 2)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (this.stopping() || Date.now() - started + pause > BUSY_BOUND_MS) throw new SqliteBusyError(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Kysely's SQLite driver, its connection's statements retried while the file is busy. */
class RetryingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, RetryingConnection>();
  private stopped = false;

  constructor(private readonly inner: Driver) {}

  init() { return this.inner.init(); }
  async acquireConnection() {
    const connection = await this.inner.acquireConnection();
    let retrying = this.wrapped.get(connection);
    if (!retrying) {
      retrying = new RetryingConnection(connection, () => this.stopped);
      this.wrapped.set(connection, retrying);
    }
    return retrying;
  }
  // Begin, commit and rollback go through the retrying connection too (a BEGIN can find the file locked).
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) { return this.inner.beginTransaction(connection, settings); }
  commitTransaction(connection: DatabaseConnection) { return this.inner.commitTransaction(connection); }
  rollbackTransaction(connection: DatabaseConnection) { return this.inner.rollbackTransaction(connection); }
  releaseConnection(connection: DatabaseConnection) { return this.inner.releaseConnection(connection instanceof RetryingConnection ? connection.inner : connection); }
  async destroy() {
    this.stopped = true;
    return this.inner.destroy();
  }
}

/** SqliteDialect whose statements wait for another process's lock asynchronously, up to BUSY_BOUND_MS. */
export class BusyRetryingSqliteDialect extends SqliteDialect {
  constructor(config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new RetryingDriver(super.createDriver());
  }
}
