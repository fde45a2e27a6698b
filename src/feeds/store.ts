// The feed store: pinned snapshots under <dir>/<feed_id>/<version>/, each served only when every file
// listed in its MANIFEST.json has exactly the bytes (SHA-256 and length) the manifest records.
// Start-up hashes every file (streamed, a few at a time) and keeps only digests; files are read and
// parsed lazily, and each parse is cached per snapshot identity. A store opened with what another
// store verified (VerifiedFiles: a compute thread, given its process's record) hashes only the files
// whose identity on disk changed since.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, mkdir, open, readdir, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isSafeFileName, loadManifest, parseManifest, type Manifest, type ManifestFile } from './manifest.js';

/** A verified snapshot. Identity: (feed_id, version, sha256). */
export interface Snapshot {
  readonly feed_id: string;
  readonly version: string;
  /** Snapshot digest, see snapshotDigest(). */
  readonly sha256: string;
  /** Absolute path of the snapshot folder. */
  readonly dir: string;
  readonly manifest: Manifest;
}

export interface FileProblem {
  readonly file: string;
  readonly problem: 'missing' | 'mismatch' | 'unreadable';
  readonly expected_sha256: string;
  readonly actual_sha256: string | null;
  readonly expected_bytes: number;
  readonly actual_bytes: number | null;
}

/** A snapshot that is not served, and why. */
export interface Refusal {
  /** From the folder names (the manifest may be what is broken). */
  readonly feed_id: string;
  readonly version: string;
  readonly dir: string;
  readonly reason: string;
  readonly files: readonly FileProblem[];
}

/**
 * Snapshot digest rule. One file: the manifest's SHA-256 of that file. Several files: the SHA-256 of
 * the UTF-8 text made of one line "<sha256>  <name>\n" per file (two spaces, as sha256sum prints it),
 * lines sorted by name in code-unit order. So `sha256sum` over the files, sorted by name, piped into
 * `sha256sum` reproduces it for ASCII names.
 */
export function snapshotDigest(files: readonly Pick<ManifestFile, 'name' | 'sha256'>[]): string {
  if (files.length === 1) return files[0]!.sha256;
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.name}\n`)
    .join('');
  return createHash('sha256').update(lines, 'utf8').digest('hex');
}

/**
 * A file that matched its manifest entry, and the identity it had on disk just before it was hashed.
 * Any write changes the identity (ctime at least), so an unchanged identity means unchanged bytes.
 */
export interface VerifiedFile {
  readonly sha256: string;
  readonly bytes: number;
  /** Device, inode, size, mtime and ctime (nanoseconds) of a settled file, see identityOf(). */
  readonly identity: string;
}

/** Verified files by absolute path; plain data, so it crosses to a worker thread as it is. */
export type VerifiedFiles = ReadonlyMap<string, VerifiedFile>;

/**
 * How long a file must have been left alone before its identity vouches for its bytes: a write in
 * the same tick of the file system's clock as the check would leave the times unchanged (as in
 * git's "racy" index entries). Such a file is verified but not vouched for; the next store hashes it.
 */
export const SETTLED_MS = 1000;

/** Device, inode, size, mtime and ctime of an open file; undefined while it is not yet settled. */
async function identityOf(handle: FileHandle): Promise<string | undefined> {
  return identityOfStats(await handle.stat({ bigint: true }));
}

function identityOfStats(s: BigIntStats): string | undefined {
  const now = BigInt(Date.now()) * 1_000_000n;
  if (now - s.ctimeNs < BigInt(SETTLED_MS) * 1_000_000n) return undefined;
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** Streams a file through SHA-256; returns digest and byte count. */
export function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  return hashStream(createReadStream(path, { highWaterMark: 1 << 20 }));
}

function hashStream(stream: NodeJS.ReadableStream): Promise<{ sha256: string; bytes: number }> {
  return new Promise((done, failed) => {
    const hash = createHash('sha256');
    let bytes = 0;
    stream
      .on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      })
      .on('error', failed)
      .on('end', () => done({ sha256: hash.digest('hex'), bytes }));
  });
}

/** Runs tasks with at most `limit` in flight, results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

interface FileCheck {
  /** Null when the file matches its manifest entry. */
  readonly problem: FileProblem | null;
  readonly verified?: VerifiedFile;
  readonly hashed: boolean;
}

/** Checks one file against its manifest entry: trusted as it is when `known` vouches for its identity, else hashed. */
async function checkFile(dir: string, f: ManifestFile, known?: VerifiedFiles): Promise<FileCheck> {
  const path = join(dir, f.name);
  const base = { file: f.name, expected_sha256: f.sha256, expected_bytes: f.bytes };
  let handle: FileHandle | undefined;
  let identity: string | undefined;
  let got: { sha256: string; bytes: number };
  try {
    const vouched = known?.get(path);
    // One stat for a file vouched for: unchanged identity, unchanged bytes.
    if (vouched && vouched.sha256 === f.sha256 && vouched.bytes === f.bytes && vouched.identity === identityOfStats(await stat(path, { bigint: true }))) {
      return { problem: null, verified: vouched, hashed: false };
    }
    handle = await open(path);
    // Taken before reading: a write during the hash leaves an identity no later check accepts.
    identity = await identityOf(handle);
    got = await hashStream(handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
    return { problem: { ...base, problem, actual_sha256: null, actual_bytes: null }, hashed: false };
  } finally {
    await handle?.close();
  }
  if (got.sha256 === f.sha256 && got.bytes === f.bytes) {
    return { problem: null, hashed: true, ...(identity === undefined ? {} : { verified: { sha256: f.sha256, bytes: f.bytes, identity } }) };
  }
  return { problem: { ...base, problem: 'mismatch', actual_sha256: got.sha256, actual_bytes: got.bytes }, hashed: true };
}

function describe(p: FileProblem): string {
  if (p.problem !== 'mismatch') return `${p.file}: ${p.problem} (expected sha256 ${p.expected_sha256}, ${p.expected_bytes} bytes)`;
  return `${p.file}: expected sha256 ${p.expected_sha256} (${p.expected_bytes} bytes), ` +
    `actual ${p.actual_sha256} (${p.actual_bytes} bytes)`;
}

const isDir = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isDirectory() ?? false;
// Dot-folders are skipped: addSnapshot() stages its copies in them.
const visible = (name: string): boolean => !name.startsWith('.');

interface ScanResult {
  snapshots: Snapshot[];
  refused: Refusal[];
  verified: Map<string, VerifiedFile>;
  hashed: number;
}

/** Verifies every <dir>/<feed_id>/<version>/ folder (but those named in `served`, as "feed_id/version"). */
async function scan(root: string, concurrency: number, only?: ReadonlySet<string>, known?: VerifiedFiles, served?: ReadonlySet<string>): Promise<ScanResult> {
  const candidates: { feed_id: string; version: string; dir: string }[] = [];
  for (const feed of (await readdir(root)).filter(visible).sort()) {
    if (only && !only.has(feed)) continue;
    if (!(await isDir(join(root, feed)))) continue; // README.md and the like
    for (const version of (await readdir(join(root, feed))).filter(visible).sort()) {
      if (served?.has(`${feed}/${version}`)) continue;
      const dir = join(root, feed, version);
      if (await isDir(dir)) candidates.push({ feed_id: feed, version, dir });
    }
  }
  const refused: Refusal[] = [];
  const loaded: { c: (typeof candidates)[number]; manifest: Manifest }[] = [];
  await pool(candidates, concurrency, async (c) => {
    let manifest: Manifest;
    try {
      manifest = await loadManifest(join(c.dir, 'MANIFEST.json'));
    } catch (e) {
      const msg = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no MANIFEST.json' : `bad MANIFEST.json: ${(e as Error).message}`;
      refused.push({ ...c, reason: msg, files: [] });
      return;
    }
    if (manifest.feed_id !== c.feed_id || manifest.version !== c.version) {
      refused.push({ ...c, files: [],
        reason: `MANIFEST.json names ${manifest.feed_id}/${manifest.version} but sits in ${c.feed_id}/${c.version}` });
      return;
    }
    loaded.push({ c, manifest });
  });
  // One flat queue of files so a snapshot with thousands of small files does not serialise the scan.
  const jobs = loaded.flatMap(({ c, manifest }) => manifest.files.map((f) => ({ dir: c.dir, f })));
  const checks = await pool(jobs, concurrency, ({ dir, f }) => checkFile(dir, f, known));
  const byDir = new Map<string, FileProblem[]>();
  jobs.forEach((j, i) => {
    const p = checks[i]!.problem;
    if (p) byDir.set(j.dir, [...(byDir.get(j.dir) ?? []), p]);
  });
  const snapshots: Snapshot[] = [];
  for (const { c, manifest } of loaded) {
    const bad = byDir.get(c.dir);
    if (bad) refused.push({ ...c, files: bad, reason: `bytes do not match MANIFEST.json: ${bad.map(describe).join('; ')}` });
    else snapshots.push({ feed_id: c.feed_id, version: c.version, dir: c.dir, manifest, sha256: snapshotDigest(manifest.files) });
  }
  // Only the files of served snapshots are vouched for.
  const verified = new Map<string, VerifiedFile>();
  jobs.forEach((j, i) => {
    const v = checks[i]!.verified;
    if (v && !byDir.has(j.dir)) verified.set(join(j.dir, j.f.name), v);
  });
  const hashed = checks.filter((c) => c.hashed).length;
  const order = (a: { feed_id: string; version: string }, b: { feed_id: string; version: string }): number =>
    a.feed_id < b.feed_id ? -1 : a.feed_id > b.feed_id ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0;
  return { snapshots: snapshots.sort(order), refused: refused.sort(order), verified, hashed };
}

export interface OpenOptions {
  /** Files hashed at once (default 8). */
  readonly concurrency?: number;
  /** Scan and serve only these feeds (a thread that needs one reference table need not hash every map). */
  readonly feeds?: readonly string[];
  /** What another store verified (its `verified`): a file whose identity is unchanged is not hashed again. */
  readonly verified?: VerifiedFiles;
}

export class FeedStore {
  private readonly byFeed = new Map<string, Snapshot[]>();
  private readonly cache = new Map<string, Promise<unknown>>();
  private rescanning: Promise<Snapshot[]> | undefined;

  private constructor(
    readonly dir: string,
    private snapshots: Snapshot[],
    /** Snapshots not served, with the reason (file, expected and actual digest). */
    private refusedNow: readonly Refusal[],
    /** The files of the served snapshots, with the identity each had when verified: for another store's `verified`. */
    readonly verified: Map<string, VerifiedFile>,
    /** Files this store hashed when it opened (the others were vouched for by `verified`). */
    readonly hashedFiles: number,
    private readonly options: OpenOptions,
  ) {
    this.index();
  }

  private index(): void {
    this.byFeed.clear();
    for (const s of this.snapshots) this.byFeed.set(s.feed_id, [...(this.byFeed.get(s.feed_id) ?? []), s]);
  }

  /** Scans and verifies `dir`. Never throws for a bad snapshot (it lands in `refused`); throws if `dir` is unreadable. */
  static async open(dir: string, options: OpenOptions = {}): Promise<FeedStore> {
    const root = resolve(dir);
    const { snapshots, refused, verified, hashed } = await scan(root, options.concurrency ?? 8, options.feeds && new Set(options.feeds), options.verified);
    return new FeedStore(root, snapshots, refused, verified, hashed, options);
  }

  /** Snapshots not served, with the reason (file, expected and actual digest), as of the last scan. */
  get refused(): readonly Refusal[] {
    return this.refusedNow;
  }

  /**
   * Looks at the directory again and serves the versions pinned since (`catrisk feeds add`, from
   * any process), each verified as at start-up; answers them. Served versions are immutable and
   * are not read again. Concurrent calls share one scan.
   */
  rescan(): Promise<Snapshot[]> {
    this.rescanning ??= (async () => {
      try {
        const served = new Set(this.snapshots.map((s) => `${s.feed_id}/${s.version}`));
        const found = await scan(this.dir, this.options.concurrency ?? 8, this.options.feeds && new Set(this.options.feeds), this.verified, served);
        for (const [path, file] of found.verified) this.verified.set(path, file);
        this.refusedNow = found.refused;
        if (found.snapshots.length > 0) {
          const order = (a: Snapshot, b: Snapshot): number =>
            a.feed_id < b.feed_id ? -1 : a.feed_id > b.feed_id ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0;
          this.snapshots = [...this.snapshots, ...found.snapshots].sort(order);
          this.index();
        }
        return found.snapshots;
      } finally {
        this.rescanning = undefined;
      }
    })();
    return this.rescanning;
  }

  /** Every served snapshot, sorted by feed_id then version. */
  list(): Snapshot[] {
    return [...this.snapshots];
  }

  /** Served feed ids, sorted. */
  feeds(): string[] {
    return [...this.byFeed.keys()];
  }

  /** Served versions of a feed, oldest first ([] for an unknown feed). */
  versions(feedId: string): string[] {
    return (this.byFeed.get(feedId) ?? []).map((s) => s.version);
  }

  /** A snapshot; without `version`, the latest pinned vintage (greatest version string). */
  get(feedId: string, version?: string): Snapshot | undefined {
    const all = this.byFeed.get(feedId) ?? [];
    return version === undefined ? all[all.length - 1] : all.find((s) => s.version === version);
  }

  /**
   * One file of a snapshot. Its bytes are checked again against the manifest, so a file changed
   * after start-up is refused rather than served.
   */
  async readFile(snapshot: Snapshot, name: string): Promise<Buffer> {
    const entry = snapshot.manifest.files.find((f) => f.name === name);
    if (!entry) throw new Error(`${snapshot.feed_id}/${snapshot.version} has no file ${name}`);
    const buf = await readFile(join(snapshot.dir, entry.name));
    const sha = createHash('sha256').update(buf).digest('hex');
    if (sha !== entry.sha256 || buf.length !== entry.bytes) {
      throw new Error(`${snapshot.feed_id}/${snapshot.version}/${name} changed since start-up: ` +
        `expected sha256 ${entry.sha256} (${entry.bytes} bytes), actual ${sha} (${buf.length} bytes)`);
    }
    return buf;
  }

  /**
   * The result of `parse` over a snapshot's files (name -> bytes), computed once per
   * (feed_id, version, snapshot sha256, parserKey) and shared by concurrent callers. A failed parse
   * is not cached.
   */
  parsed<T>(
    snapshot: Snapshot,
    parserKey: string,
    parse: (snapshot: Snapshot, files: ReadonlyMap<string, Buffer>) => T | Promise<T>,
  ): Promise<T> {
    const key = JSON.stringify([snapshot.feed_id, snapshot.version, snapshot.sha256, parserKey]);
    let hit = this.cache.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = (async () => {
        const files = new Map<string, Buffer>();
        for (const f of snapshot.manifest.files) files.set(f.name, await this.readFile(snapshot, f.name));
        return parse(snapshot, files);
      })();
      const mine = hit;
      this.cache.set(key, mine);
      mine.catch(() => this.cache.get(key) === mine && this.cache.delete(key));
    }
    return hit;
  }
}

/** Why a process cannot serve from its feeds folder; its message is one line naming the folder and the setting. */
export class UnusableFeeds extends Error {
  override readonly name = 'UnusableFeeds';
}

/**
 * The store a serving process starts from: a folder that is missing, holds no snapshot, or holds a
 * snapshot whose bytes fail its manifest stops the start (UnusableFeeds) rather than failing the
 * first job that reads it. Snapshots pinned later and refused are listed by GET /feeds instead.
 */
export async function openServedFeeds(dir: string, setting: string, options: OpenOptions = {}): Promise<FeedStore> {
  const root = resolve(dir);
  const where = `feeds folder ${root} (${setting})`;
  if (!(await isDir(root))) throw new UnusableFeeds(`catrisk: cannot start: the ${where} does not exist`);
  const store = await FeedStore.open(root, options);
  const refused = store.refused;
  if (refused.length > 0) {
    const first = refused[0]!;
    throw new UnusableFeeds(`catrisk: cannot start: ${refused.length} snapshot(s) in the ${where} fail their manifest, first ${first.feed_id}/${first.version}: ${first.reason}; \`catrisk feeds verify\` lists them all`);
  }
  if (store.list().length === 0) throw new UnusableFeeds(`catrisk: cannot start: the ${where} holds no snapshot`);
  return store;
}

export interface VerifyReport {
  /** True when no snapshot is refused. */
  readonly ok: boolean;
  readonly snapshots: readonly { feed_id: string; version: string; sha256: string; files: number }[];
  readonly refused: readonly Refusal[];
}

/** `catrisk feeds verify`: every snapshot under `dir`, checked byte for byte. */
export async function verifyFeeds(dir: string, options: OpenOptions = {}): Promise<VerifyReport> {
  const store = await FeedStore.open(dir, options);
  return {
    ok: store.refused.length === 0,
    snapshots: store.list().map((s) => ({ feed_id: s.feed_id, version: s.version, sha256: s.sha256, files: s.manifest.files.length })),
    refused: store.refused,
  };
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MEDIA_TYPES: Record<string, string> = {
  csv: 'text/csv', tsv: 'text/tab-separated-values', txt: 'text/plain', json: 'application/json',
  xml: 'application/xml', tif: 'image/tiff', zip: 'application/zip',
};

async function listFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(root, path)));
    else if (e.isFile()) out.push(relative(root, path).split(sep).join('/'));
    else throw new Error(`${path} is neither a file nor a folder`);
  }
  return out;
}

/**
 * `catrisk feeds add <folder>`: pins the files of `folder` as `<dir>/<feed_id>/<version>/`.
 * The folder's MANIFEST.json must name feed_id and version; its other members are kept as written.
 * Files: those listed in its `files` (an entry's own sha256/bytes, when given, must match), or every
 * file of the folder when it lists none. sha256 and bytes are computed and written into the copied
 * manifest. Refuses an existing version, unlisted extra files and names that leave the folder. The
 * copy is staged in a dot-folder, verified, then renamed into place.
 */
export async function addSnapshot(dir: string, folder: string): Promise<Snapshot> {
  const src = resolve(folder);
  const manifestPath = join(src, 'MANIFEST.json');
  const json: unknown = JSON.parse(await readFile(manifestPath, 'utf8'));
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${manifestPath}: not a JSON object`);
  const m = json as Record<string, unknown>;
  for (const key of ['feed_id', 'version'] as const) {
    if (typeof m[key] !== 'string' || !SEGMENT.test(m[key] as string)) {
      throw new Error(`${manifestPath}: ${key} is required (letters, digits, '.', '_', '-')`);
    }
  }
  const feedId = m.feed_id as string;
  const version = m.version as string;
  const target = join(resolve(dir), feedId, version);
  if (await stat(target).catch(() => null)) throw new Error(`${feedId}/${version} already exists in ${resolve(dir)}: versions are immutable`);

  const present = (await listFiles(src)).filter((n) => n !== 'MANIFEST.json');
  const listed: Record<string, unknown>[] | undefined = Array.isArray(m.files) ? (m.files as Record<string, unknown>[]) : undefined;
  const entries: Record<string, unknown>[] = listed ?? present.sort().map((name) => ({ name }));
  if (entries.length === 0) throw new Error(`${src} holds no files besides MANIFEST.json`);
  const names = entries.map((e) => e.name);
  for (const n of names) {
    if (typeof n !== 'string' || !isSafeFileName(n)) throw new Error(`${manifestPath}: file name ${JSON.stringify(n)} is not a plain relative path`);
  }
  const extra = present.filter((n) => !names.includes(n));
  if (extra.length > 0) throw new Error(`${src} holds files its MANIFEST.json does not list: ${extra.join(', ')}`);

  const files = await pool(entries, 8, async (e) => {
    const name = e.name as string;
    const got = await hashFile(join(src, name)).catch(() => {
      throw new Error(`${manifestPath} lists ${name}, which is missing from ${src}`);
    });
    if ((e.sha256 !== undefined && e.sha256 !== got.sha256) || (e.bytes !== undefined && e.bytes !== got.bytes)) {
      throw new Error(`${name}: MANIFEST.json says sha256 ${String(e.sha256)} (${String(e.bytes)} bytes), ` +
        `the file has ${got.sha256} (${got.bytes} bytes)`);
    }
    const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    return { ...e, name, sha256: got.sha256, bytes: got.bytes, media_type: e.media_type ?? MEDIA_TYPES[ext] ?? 'application/octet-stream' };
  });
  const manifestOut = { ...m, files };
  parseManifest(manifestOut, manifestPath); // what the store would refuse is refused here

  const staging = join(resolve(dir), feedId, `.adding-${version}-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { recursive: true });
  try {
    for (const f of files) {
      await mkdir(join(staging, f.name, '..'), { recursive: true });
      await cp(join(src, f.name), join(staging, f.name));
    }
    await writeFile(join(staging, 'MANIFEST.json'), JSON.stringify(manifestOut, null, 2) + '\n');
    const copied = await pool(parseManifest(manifestOut).files, 8, (f) => checkFile(staging, f));
    const bad = copied.map((c) => c.problem).filter((p): p is FileProblem => p !== null);
    if (bad.length > 0) throw new Error(`copy does not match the source: ${bad.map(describe).join('; ')}`);
    if (await stat(target).catch(() => null)) throw new Error(`${feedId}/${version} appeared while adding: versions are immutable`);
    await rename(staging, target);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  const manifest = await loadManifest(join(target, 'MANIFEST.json'));
  return { feed_id: feedId, version, dir: target, manifest, sha256: snapshotDigest(manifest.files) };
}
