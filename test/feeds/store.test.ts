// FeedStore over the real pinned feeds and over tampered copies of one real snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeedStore, SETTLED_MS, snapshotDigest } from '../../src/feeds/store.js';
import { FEEDS_DIR } from '../support/feeds.js';

const FEEDS = FEEDS_DIR;
const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
let opened: Promise<FeedStore> | undefined;
/** One store over the real folder, shared by the read-only tests. */
const realStore = (): Promise<FeedStore> => (opened ??= FeedStore.open(FEEDS));

/** Copies one real snapshot folder into root/<feed>/<version>/, writable. */
async function copySnapshot(root: string, feed: string): Promise<{ dir: string; version: string }> {
  const [version] = await readdir(join(FEEDS, feed));
  const dir = join(root, feed, version!);
  await cp(join(FEEDS, feed, version!), dir, { recursive: true });
  await chmod(join(root, feed), 0o755);
  await chmod(dir, 0o755);
  for (const name of await readdir(dir)) await chmod(join(dir, name), 0o644);
  return { dir, version: version! };
}

// How long opening takes is a benchmark (npm run bench, BENCHMARKS.md), not a test.
test('opens the whole pinned folder and serves every snapshot', async () => {
  const store = await realStore();
  const feeds = (await readdir(FEEDS, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  assert.deepEqual(store.refused, []);
  assert.deepEqual(store.feeds(), feeds);
  const list = store.list();
  const keys = list.map((s) => `${s.feed_id}\u0000${s.version}`);
  assert.deepEqual(keys, [...keys].sort(), 'sorted by feed_id then version');
  for (const s of list) {
    assert.equal(s.sha256, snapshotDigest(s.manifest.files));
    if (s.manifest.files.length === 1) assert.equal(s.sha256, s.manifest.files[0]!.sha256);
  }
});

test('get() defaults to the greatest version; readFile returns the verified bytes', async () => {
  const store = await realStore();
  const snap = store.get('usgs-comcat-m6-california');
  assert.ok(snap);
  assert.deepEqual(store.versions('usgs-comcat-m6-california'), [snap.version]);
  assert.equal(store.get('usgs-comcat-m6-california', snap.version), snap);
  assert.equal(store.get('usgs-comcat-m6-california', '1900-01-01'), undefined);
  assert.equal(store.get('no-such-feed'), undefined);
  const file = snap.manifest.files[0]!;
  const buf = await store.readFile(snap, file.name);
  assert.equal(sha(buf), file.sha256);
  assert.equal(buf.length, file.bytes);
  await assert.rejects(store.readFile(snap, 'nope.csv'), /has no file nope\.csv/);
});

test('nested file names (JTWC) are served, and the multi-file digest follows the documented rule', async () => {
  const store = await realStore();
  const snap = store.get('jtwc-best-track-north-indian');
  assert.ok(snap);
  const nested = snap.manifest.files.find((f) => f.name.includes('/'));
  assert.ok(nested);
  assert.equal(sha(await store.readFile(snap, nested.name)), nested.sha256);
  // Recompute the rule by hand: "<sha256>  <name>\n" lines sorted by name, then SHA-256.
  const lines = snap.manifest.files.map((f) => [f.name, f.sha256] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, h]) => `${h}  ${n}\n`).join('');
  assert.equal(snap.sha256, sha(lines));
});

test('snapshotDigest: one file = its digest; several = sorted sha256sum lines', () => {
  const a = { name: 'b.csv', sha256: 'b'.repeat(64) };
  const b = { name: 'a.csv', sha256: 'a'.repeat(64) };
  assert.equal(snapshotDigest([a]), a.sha256);
  const expected = sha(`${'a'.repeat(64)}  a.csv\n${'b'.repeat(64)}  b.csv\n`);
  assert.equal(snapshotDigest([a, b]), expected);
  assert.equal(snapshotDigest([b, a]), expected, 'order of the manifest list does not matter');
});

test('a tampered copy is refused (file, expected and actual digest named); an untouched copy is served', async () => {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-feeds-'));
  try {
    const good = await copySnapshot(root, 'usgs-comcat-m6-california');
    const bad = await copySnapshot(root, 'usgs-comcat-m6-cascadia');
    const manifest = JSON.parse(await readFile(join(bad.dir, 'MANIFEST.json'), 'utf8')) as { files: { name: string; sha256: string; bytes: number }[] };
    const file = manifest.files[0]!;
    const path = join(bad.dir, file.name);
    const bytes = await readFile(path);
    bytes[100] = bytes[100] === 0x35 ? 0x36 : 0x35; // one digit changed, same length
    await writeFile(path, bytes);

    const store = await FeedStore.open(root);
    assert.deepEqual(store.list().map((s) => s.feed_id), ['usgs-comcat-m6-california']);
    assert.equal(store.get('usgs-comcat-m6-california')?.version, good.version);
    assert.equal(store.get('usgs-comcat-m6-cascadia'), undefined);
    assert.equal(store.refused.length, 1);
    const r = store.refused[0]!;
    assert.equal(r.feed_id, 'usgs-comcat-m6-cascadia');
    assert.equal(r.version, bad.version);
    assert.deepEqual(r.files, [{
      file: file.name, problem: 'mismatch', expected_sha256: file.sha256, actual_sha256: sha(bytes),
      expected_bytes: file.bytes, actual_bytes: file.bytes,
    }]);
    assert.match(r.reason, new RegExp(`${file.name}.*${file.sha256}.*${sha(bytes)}`));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('missing file, misplaced manifest and missing manifest are refused with their reason', async () => {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-feeds-'));
  try {
    const a = await copySnapshot(root, 'usgs-comcat-m6-california');
    const manifest = JSON.parse(await readFile(join(a.dir, 'MANIFEST.json'), 'utf8')) as { files: { name: string }[] };
    await rm(join(a.dir, manifest.files[0]!.name));
    const b = await copySnapshot(root, 'usgs-comcat-m6-turkey');
    await cp(b.dir, join(root, 'usgs-comcat-m6-turkey', '2099-01-01'), { recursive: true }); // manifest says another version
    await cp(b.dir, join(root, 'empty-feed', '2020-01-01'), { recursive: true });
    await rm(join(root, 'empty-feed', '2020-01-01', 'MANIFEST.json'));

    const store = await FeedStore.open(root);
    assert.deepEqual(store.list().map((s) => `${s.feed_id}/${s.version}`), [`usgs-comcat-m6-turkey/${b.version}`]);
    const reasons = Object.fromEntries(store.refused.map((r) => [`${r.feed_id}/${r.version}`, r]));
    assert.equal(reasons[`usgs-comcat-m6-california/${a.version}`]?.files[0]?.problem, 'missing');
    assert.match(reasons[`usgs-comcat-m6-california/${a.version}`]!.reason, /missing/);
    assert.match(reasons['usgs-comcat-m6-turkey/2099-01-01']!.reason, /names usgs-comcat-m6-turkey\/\d{4}-\d\d-\d\d but sits in/);
    assert.equal(reasons['empty-feed/2020-01-01']!.reason, 'no MANIFEST.json');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('readFile refuses bytes changed after start-up', async () => {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-feeds-'));
  try {
    await copySnapshot(root, 'usgs-comcat-m6-california');
    const store = await FeedStore.open(root);
    const snap = store.get('usgs-comcat-m6-california')!;
    const name = snap.manifest.files[0]!.name;
    await writeFile(join(snap.dir, name), 'changed\n');
    await assert.rejects(store.readFile(snap, name), /changed since start-up/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('parsed() parses each snapshot once per parser key and shares concurrent calls', async () => {
  const store = await realStore();
  const snap = store.get('usgs-comcat-m6-turkey')!;
  let calls = 0;
  const parse = (_s: typeof snap, files: ReadonlyMap<string, Buffer>): number => {
    calls++;
    return files.get(snap.manifest.files[0]!.name)!.toString('utf8').split('\n').length;
  };
  const [a, b] = await Promise.all([store.parsed(snap, 'lines', parse), store.parsed(snap, 'lines', parse)]);
  assert.equal(a, b);
  assert.equal(await store.parsed(snap, 'lines', parse), a);
  assert.equal(calls, 1);
  await store.parsed(snap, 'other-key', parse);
  assert.equal(calls, 2);
  // A failed parse is not cached.
  await assert.rejects(store.parsed(snap, 'boom', () => { throw new Error('boom'); }), /boom/);
  assert.equal(await store.parsed(snap, 'boom', () => 7), 7);
});

test('a store given what another verified hashes only the files whose identity changed since', async () => {
  const root = await mkdtemp(join(tmpdir(), 'catrisk-feeds-'));
  try {
    const kept = await copySnapshot(root, 'usgs-comcat-m6-california');
    const touched = await copySnapshot(root, 'usgs-comcat-m6-turkey');
    const tampered = await copySnapshot(root, 'usgs-comcat-m6-cascadia');
    const fresh = await FeedStore.open(root);
    const files = fresh.list().reduce((n, s) => n + s.manifest.files.length, 0);
    assert.equal(fresh.hashedFiles, files);
    assert.equal(fresh.verified.size, 0, 'files written just now are verified but not vouched for');
    await new Promise((r) => setTimeout(r, SETTLED_MS + 50));
    const first = await FeedStore.open(root, { verified: fresh.verified });
    assert.equal(first.hashedFiles, files);
    assert.equal(first.verified.size, files);

    const trusting = await FeedStore.open(root, { verified: first.verified });
    assert.equal(trusting.hashedFiles, 0, 'nothing changed: nothing hashed again');
    assert.deepEqual(trusting.list(), first.list());
    assert.deepEqual(new Map([...trusting.verified].sort()), new Map([...first.verified].sort()), 'the same record, in whatever order the files were checked');

    // Same bytes written again: a new identity, so hashed, and still served.
    const touchedName = first.get('usgs-comcat-m6-turkey')!.manifest.files[0]!.name;
    await writeFile(join(touched.dir, touchedName), await readFile(join(touched.dir, touchedName)));
    // One digit changed, same length: hashed, and refused as at start-up.
    const bad = first.get('usgs-comcat-m6-cascadia')!.manifest.files[0]!;
    const bytes = await readFile(join(tampered.dir, bad.name));
    bytes[100] = bytes[100] === 0x35 ? 0x36 : 0x35;
    await writeFile(join(tampered.dir, bad.name), bytes);

    const later = await FeedStore.open(root, { verified: first.verified });
    assert.equal(later.hashedFiles, 2);
    assert.deepEqual(later.feeds(), ['usgs-comcat-m6-california', 'usgs-comcat-m6-turkey']);
    assert.equal(later.get('usgs-comcat-m6-california')?.version, kept.version);
    assert.deepEqual(later.refused.map((r) => [r.feed_id, r.files.map((f) => [f.file, f.problem, f.actual_sha256])]),
      [['usgs-comcat-m6-cascadia', [[bad.name, 'mismatch', sha(bytes)]]]]);
    assert.ok(![...later.verified.keys()].some((path) => path.startsWith(tampered.dir)), 'a refused snapshot is vouched for by no one');
    await assert.rejects(first.readFile(first.get('usgs-comcat-m6-cascadia')!, bad.name), /changed since start-up/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
