// The SQLite driver follows the Node.js major version: 12 on Node 20, 13 (Node-API) from 22 on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SQLite, sqliteDriverName } from '../../src/store/sqlite-driver.js';

test('better-sqlite3 12 on Node 20, 13 from Node 22 on (hand-made version strings)', () => {
  assert.equal(sqliteDriverName('20.18.1'), 'better-sqlite3');
  assert.equal(sqliteDriverName('20.20.2'), 'better-sqlite3');
  assert.equal(sqliteDriverName('22.0.0'), 'better-sqlite3-napi');
  assert.equal(sqliteDriverName('24.21.0'), 'better-sqlite3-napi');
});

test('the driver loaded for this Node.js prepares thousands of statements and closes cleanly', () => {
  const db = new SQLite(':memory:');
  // Statements left to the collector: the pattern that aborted Node 24 with better-sqlite3 12.
  let sum = 0;
  for (let i = 0; i < 20_000; i += 1) sum += (db.prepare('select ? as x').get(i) as { x: number }).x;
  assert.equal(sum, (20_000 * 19_999) / 2);
  db.close();
});
