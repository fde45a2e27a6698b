// `feeds add` (addSnapshot) and `feeds verify` (verifyFeeds) over temporary folders with hand-made files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addSnapshot, FeedStore, verifyFeeds } from '../../src/feeds/store.js';

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

async function withTmp(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-add-'));
  try {
    await fn(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** A source folder with a manifest naming only identity and a few descriptive members. */
async function makeFolder(root: string, manifest: Record<string, unknown>, files: Record<string, string>): Promise<string> {
  const src = join(root, 'incoming', String(Math.random()).slice(2));
  await mkdir(src, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(src, name, '..'), { recursive: true });
    await writeFile(join(src, name), text);
  }
  await writeFile(join(src, 'MANIFEST.json'), JSON.stringify(manifest));
  return src;
}

const A = 'id,value\n1,2\n';
const B = 'nested file\n';

test('addSnapshot copies the files and writes their sha256/bytes into the manifest', async () => {
  await withTmp(async (root) => {
    const feeds = join(root, 'feeds');
    const src = await makeFolder(root, { feed_id: 'test-feed', version: '2024-01-02', title: 'Test', notes: 'hand-made' },
      { 'a.csv': A, 'sub/b.txt': B });
    const snap = await addSnapshot(feeds, src);
    assert.equal(snap.feed_id, 'test-feed');
    assert.equal(snap.version, '2024-01-02');
    const written = JSON.parse(await readFile(join(feeds, 'test-feed', '2024-01-02', 'MANIFEST.json'), 'utf8'));
    assert.equal(written.title, 'Test', 'other members kept');
    assert.deepEqual(written.files, [
      { name: 'a.csv', sha256: sha(A), bytes: Buffer.byteLength(A), media_type: 'text/csv' },
      { name: 'sub/b.txt', sha256: sha(B), bytes: Buffer.byteLength(B), media_type: 'text/plain' },
    ]);
    assert.equal(await readFile(join(feeds, 'test-feed', '2024-01-02', 'sub', 'b.txt'), 'utf8'), B);
    assert.deepEqual(await readdir(join(feeds, 'test-feed')), ['2024-01-02'], 'no staging folder left behind');

    const store = await FeedStore.open(feeds);
    assert.equal(store.get('test-feed')?.sha256, snap.sha256);
    assert.equal((await store.readFile(store.get('test-feed')!, 'sub/b.txt')).toString(), B);
  });
});

test('addSnapshot refuses an existing version, leaving it untouched', async () => {
  await withTmp(async (root) => {
    const feeds = join(root, 'feeds');
    await addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1' }, { 'a.csv': A }));
    const again = await makeFolder(root, { feed_id: 'f', version: '1' }, { 'a.csv': 'other\n' });
    await assert.rejects(addSnapshot(feeds, again), /f\/1 already exists/);
    assert.equal(await readFile(join(feeds, 'f', '1', 'a.csv'), 'utf8'), A);
    // A new version of the same feed is fine, and becomes the default.
    await addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '2' }, { 'a.csv': 'other\n' }));
    const store = await FeedStore.open(feeds);
    assert.deepEqual(store.versions('f'), ['1', '2']);
    assert.equal(store.get('f')?.version, '2');
  });
});

test('addSnapshot refuses bad input with a clear error', async () => {
  await withTmp(async (root) => {
    const feeds = join(root, 'feeds');
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { version: '1' }, { 'a.csv': A })), /feed_id is required/);
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: '../x', version: '1' }, { 'a.csv': A })), /feed_id is required/);
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f' }, { 'a.csv': A })), /version is required/);
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1' }, {})), /no files/);
    // Listed files: a missing one, an unlisted extra, a claimed digest that does not match, a name leaving the folder.
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1', files: [{ name: 'gone.csv' }] }, { 'gone2.csv': A })),
      /does not list: gone2\.csv/);
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1', files: [{ name: 'a.csv' }, { name: 'gone.csv' }] }, { 'a.csv': A })),
      /lists gone\.csv, which is missing/);
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1', files: [{ name: 'a.csv', sha256: '0'.repeat(64) }] }, { 'a.csv': A })),
      new RegExp(`a\\.csv: MANIFEST\\.json says sha256 0{64}.*the file has ${sha(A)}`));
    await assert.rejects(addSnapshot(feeds, await makeFolder(root, { feed_id: 'f', version: '1', files: [{ name: '../a.csv' }] }, {})),
      /not a plain relative path/);
    assert.deepEqual(await readdir(feeds).catch(() => []), []);
  });
});

test('verifyFeeds reports ok, then names the tampered file after one byte changes', async () => {
  await withTmp(async (root) => {
    const feeds = join(root, 'feeds');
    await addSnapshot(feeds, await makeFolder(root, { feed_id: 'g', version: '2020-01-01' }, { 'a.csv': A }));
    await addSnapshot(feeds, await makeFolder(root, { feed_id: 'h', version: '2020-01-01' }, { 'b.txt': B }));
    const ok = await verifyFeeds(feeds);
    assert.equal(ok.ok, true);
    assert.deepEqual(ok.snapshots.map((s) => [s.feed_id, s.sha256, s.files]), [['g', sha(A), 1], ['h', sha(B), 1]]);

    const tampered = A.replace('2', '3');
    await writeFile(join(feeds, 'g', '2020-01-01', 'a.csv'), tampered);
    const bad = await verifyFeeds(feeds);
    assert.equal(bad.ok, false);
    assert.deepEqual(bad.snapshots.map((s) => s.feed_id), ['h']);
    assert.equal(bad.refused.length, 1);
    assert.deepEqual(bad.refused[0]!.files, [{
      file: 'a.csv', problem: 'mismatch', expected_sha256: sha(A), actual_sha256: sha(tampered), expected_bytes: 13, actual_bytes: 13,
    }]);
  });
});
