// The record of verified feed files kept for the next process: over copies of real snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeedStore, SETTLED_MS } from '../../src/feeds/store.js';
import { readVerificationRecord, recordPath, writeVerificationRecord } from '../../src/feeds/verification-record.js';
import { FEEDS_DIR } from '../support/feeds.js';

async function copySnapshot(root: string, feed: string): Promise<string> {
  const [version] = await readdir(join(FEEDS_DIR, feed));
  const dir = join(root, feed, version!);
  await cp(join(FEEDS_DIR, feed, version!), dir, { recursive: true });
  await chmod(dir, 0o755);
  for (const name of await readdir(dir)) await chmod(join(dir, name), 0o644);
  return dir;
}

test('a process trusts the files an earlier one recorded while their identity is unchanged, and hashes the rest', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'catrisk-feed-record-'));
  const root = join(scratch, 'feeds');
  const records = join(scratch, 'records');
  try {
    await copySnapshot(root, 'usgs-comcat-m6-california');
    const turkey = await copySnapshot(root, 'usgs-comcat-m6-turkey');
    await new Promise((r) => setTimeout(r, SETTLED_MS + 50));
    assert.equal((await readVerificationRecord(records, root)).size, 0, 'no record yet: nothing vouched for');
    const first = await FeedStore.open(root, { verified: await readVerificationRecord(records, root) });
    const files = first.list().reduce((n, s) => n + s.manifest.files.length, 0);
    assert.equal(first.hashedFiles, files);
    await writeVerificationRecord(records, root, new Map([...first.verified, ['/elsewhere/x.csv', { sha256: 'a'.repeat(64), bytes: 1, identity: '1:2:3:4:5' }]]));

    const recorded = await readVerificationRecord(records, root);
    assert.deepEqual(new Map([...recorded].sort()), new Map([...first.verified].sort()), 'the record holds this folder\'s files and no other');
    const next = await FeedStore.open(root, { verified: recorded });
    assert.equal(next.hashedFiles, 0, 'nothing changed: nothing read');
    assert.deepEqual(next.list(), first.list());
    assert.equal((await readVerificationRecord(records, join(scratch, 'other'))).size, 0, 'another folder has a record of its own');

    // A file written again (same bytes) is hashed; one changed is hashed and refused.
    const [name] = first.get('usgs-comcat-m6-turkey')!.manifest.files.map((f) => f.name);
    const bytes = await readFile(join(turkey, name!));
    bytes[50] = bytes[50] === 0x35 ? 0x36 : 0x35;
    await writeFile(join(turkey, name!), bytes);
    const after = await FeedStore.open(root, { verified: recorded });
    assert.equal(after.hashedFiles, 1);
    assert.deepEqual(after.feeds(), ['usgs-comcat-m6-california']);

    // A record that is not one (cut short, another format) vouches for nothing.
    for (const text of ['{"format":"catrisk feed record 1","feeds_dir":', JSON.stringify({ format: 'other', feeds_dir: root, files: {} }), '[]']) {
      await writeFile(recordPath(records, root), text);
      assert.equal((await readVerificationRecord(records, root)).size, 0);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
