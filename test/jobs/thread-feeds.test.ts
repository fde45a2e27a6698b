// Compute threads trust what their process verified: a file whose identity is unchanged is not
// hashed again, and a file changed since is hashed and refused.
import assert from 'node:assert/strict';
import { chmod, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Piscina } from 'piscina';
import { OED_REFERENCE_FEED } from '../../src/feeds/catalog.js';
import { FeedStore, SETTLED_MS, type VerifiedFiles } from '../../src/feeds/store.js';
import type { ComputeThreadData } from '../../src/jobs/threads.js';
import { FEEDS_DIR } from '../support/feeds.js';
import type { OpenedStore } from '../support/feed-thread.js';

/** Opens the stores of a fresh compute thread given `verifiedFeeds`, as the service's pool starts one. */
async function inThread(dir: string, verifiedFeeds: VerifiedFiles): Promise<{ reference: OpenedStore; full: OpenedStore }> {
  const workerData: ComputeThreadData = { verifiedFeeds };
  const pool = new Piscina({ filename: new URL(`../support/feed-thread.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`, import.meta.url).href, maxThreads: 1, workerData });
  try {
    return await pool.run(dir);
  } finally {
    await pool.destroy();
  }
}

test('a compute thread opens the pinned feeds without hashing what its process verified', async () => {
  const parent = await FeedStore.open(FEEDS_DIR);
  assert.equal(parent.hashedFiles, parent.list().reduce((n, s) => n + s.manifest.files.length, 0));
  const trusting = await inThread(FEEDS_DIR, parent.verified);
  assert.deepEqual(trusting.reference, { hashedFiles: 0, feeds: [OED_REFERENCE_FEED], refused: [] });
  assert.deepEqual(trusting.full, { hashedFiles: 0, feeds: parent.feeds(), refused: [] });
});

test('a file changed after its process verified it is hashed again in the thread and refused', async () => {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-feeds-'));
  try {
    for (const feed of ['usgs-comcat-m6-california', 'usgs-comcat-m6-cascadia']) {
      await cp(join(FEEDS_DIR, feed), join(root, feed), { recursive: true });
      await chmod(join(root, feed), 0o755);
      for (const version of await readdir(join(root, feed))) {
        await chmod(join(root, feed, version), 0o755);
        for (const name of await readdir(join(root, feed, version))) await chmod(join(root, feed, version, name), 0o644);
      }
    }
    await new Promise((r) => setTimeout(r, SETTLED_MS + 50)); // copies just written are not vouched for
    const parent = await FeedStore.open(root);
    const snap = parent.get('usgs-comcat-m6-cascadia')!;
    const file = snap.manifest.files[0]!;
    const bytes = await readFile(join(snap.dir, file.name));
    bytes[100] = bytes[100] === 0x35 ? 0x36 : 0x35; // one digit changed, same length
    await writeFile(join(snap.dir, file.name), bytes);

    const thread = await inThread(root, parent.verified);
    assert.deepEqual(thread.full, { hashedFiles: 1, feeds: ['usgs-comcat-m6-california'], refused: ['usgs-comcat-m6-cascadia'] });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
