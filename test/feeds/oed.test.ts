// The OED reference tables are read through the verified feed store: tables whose bytes no longer
// match the pinned manifest are refused, never mapped against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEEDS_DIR, latestVersion } from '../support/feeds.js';
import { FeedStore } from '../../src/feeds/store.js';
import { oedReference } from '../../src/feeds/oed.js';
import { OED_REFERENCE_FEED } from '../../src/feeds/catalog.js';

async function withReferenceCopy(change: ((dir: string) => Promise<void>) | null, body: (store: FeedStore) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-oed-'));
  try {
    const version = latestVersion(OED_REFERENCE_FEED);
    const dir = join(root, OED_REFERENCE_FEED, version);
    await cp(join(FEEDS_DIR, OED_REFERENCE_FEED, version), dir, { recursive: true });
    if (change) await change(dir);
    await body(await FeedStore.open(root));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('the pinned OED tables are read through the store, once per store', async () => {
  await withReferenceCopy(null, async (store) => {
    const a = oedReference(store);
    assert.equal(oedReference(store), a, 'parsed once per store');
    const oed = await a;
    assert.ok(oed.currencies.size > 100, 'the currency table is read');
  });
});

test('OED tables whose bytes differ from the manifest are refused, not read', async () => {
  // A peril code added to the temporary copy (hand-made): its digest no longer matches.
  await withReferenceCopy((dir) => appendFile(join(dir, 'PerilValues.csv'), 'Made-up peril,ZZZ,1,\n'), async (store) => {
    await assert.rejects(oedReference(store), /No verified oed-spec snapshot/);
  });
});

test('no feed store: the schedule cannot be read, and the message says why', async () => {
  await assert.rejects(oedReference(undefined), /CATRISK_FEEDS_DIR/);
});

test('a store opened for the reference table alone verifies and serves only that feed', async () => {
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [OED_REFERENCE_FEED] });
  assert.deepEqual(store.feeds(), [OED_REFERENCE_FEED]);
  assert.ok((await oedReference(store)).currencies.size > 100);
  await withReferenceCopy((dir) => appendFile(join(dir, 'CurrencyValues.csv'), 'ZZZ,Made-up,\n'), async (whole) => {
    const only = await FeedStore.open(whole.dir, { feeds: [OED_REFERENCE_FEED] });
    assert.deepEqual(only.feeds(), []);
    assert.equal(only.refused[0]?.feed_id, OED_REFERENCE_FEED);
    await assert.rejects(oedReference(only), /No verified oed-spec snapshot/);
  });
});
