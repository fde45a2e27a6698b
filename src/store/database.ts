// The only place that opens a database: SQLite (embedded default) or PostgreSQL (DATABASE_URL).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Tables } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as strings; every bigint here is a millisecond time or a count.
pg.types.setTypeParser(20, (value) => Number(value));

export function openDatabase(options: { databaseUrl?: string; stateDir: string }): Database {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection closed by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next checkout.
    pool.on('error', () => {});
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(options.stateDir, { recursive: true });
  const file = new SQLite(join(options.stateDir, 'catrisk.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  // Kysely prepares every query afresh; preparing is most of a small query's cost, and a
  // better-sqlite3 statement is reusable, so statements are kept by their SQL text.
  const statements = new Map<string, SQLite.Statement>();
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
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
