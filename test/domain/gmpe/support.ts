// The verification harness: the pinned OpenQuake GMPE tables read through the feed store and the
// service's own reader, and one assertion that checks a model against every row of a table (every
// intensity measure, medians and standard deviations) at the tolerance OpenQuake's own test driver
// uses for that table (files[].tolerance_percent of the snapshot's manifest, which names the driver).
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { gmpeVerificationTables } from '../../../src/feeds/readers.js';
import { checkTable, type TableCheck, type VerificationRow, type VerificationTable } from '../../../src/domain/hazard/gmpe/verification.js';
import type { GmpeContext, GroundMotion, Imt } from '../../../src/domain/hazard/gmpe/types.js';
import { FEEDS_DIR } from '../../support/feeds.js';

export const VERIFICATION_FEED = 'oq-gmpe-verification';

let tables: Promise<ReadonlyMap<string, VerificationTable>> | undefined;

export function verificationTables(): Promise<ReadonlyMap<string, VerificationTable>> {
  tables ??= (async () => {
    const store = await FeedStore.open(FEEDS_DIR, { feeds: [VERIFICATION_FEED] });
    const snapshot = store.get(VERIFICATION_FEED);
    assert.ok(snapshot, `${VERIFICATION_FEED} is pinned and verified under ${FEEDS_DIR}`);
    return gmpeVerificationTables(store, snapshot);
  })();
  return tables;
}

export async function table(name: string): Promise<VerificationTable> {
  const t = (await verificationTables()).get(name);
  assert.ok(t, `table ${name} is pinned`);
  return t;
}

/** Checks every value of the table; fails listing the first discrepancies past the tolerance. */
export async function assertTable(
  name: string,
  predict: (ctx: GmpeContext, imt: Imt, row: VerificationRow) => GroundMotion,
  expect: { gsim: string; tolerance_percent: number },
): Promise<TableCheck> {
  const t = await table(name);
  assert.equal(t.gsim, expect.gsim, `${name} was made for ${expect.gsim}`);
  assert.equal(t.tolerance_percent, expect.tolerance_percent, `${name}: OpenQuake's tolerance is ${expect.tolerance_percent}%`);
  const check = checkTable(t, predict);
  assert.ok(check.rows_checked > 0 && check.values_checked >= check.rows_checked, `${name}: rows were checked`);
  assert.deepEqual(check.failures.slice(0, 5), [], `${name}: ${check.failures.length} of ${check.values_checked} values past ${check.tolerance_percent}% (max ${check.max_percent.toFixed(4)}%)`);
  return check;
}
