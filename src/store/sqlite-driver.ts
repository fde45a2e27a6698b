// The SQLite driver for the Node.js running: better-sqlite3 13 (Node-API, prebuilt in the package)
// from Node 22 on, since 12 aborts the process on Node 24 when a collected statement unregisters its
// cleanup hook (Node 24 changed node::ObjectWrap); 12 on Node 20, where 13 crashes on its first
// statement. Both are installed (13 under the alias better-sqlite3-napi); one API.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** Node.js's major version decides the driver (see the header). */
export function sqliteDriverName(nodeVersion: string = process.versions.node): 'better-sqlite3' | 'better-sqlite3-napi' {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
}

export const SQLite: typeof BetterSqlite3 = require(sqliteDriverName());
export type SqliteStatement = BetterSqlite3.Statement;
