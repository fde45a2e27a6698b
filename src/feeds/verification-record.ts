// What a process verified of a feeds folder, kept on disk for the next process on the same machine
// (a restart, a worker process, another test file): each file's digest and byte count with the
// identity it had when hashed (device, inode, size, mtime, ctime; store.ts). A file left alone is
// then trusted on one stat instead of read whole; a file whose identity changed is hashed again.
// A job never depends on the record alone: every file it reads is checked against its manifest as
// it is read (FeedStore.readFile). One record per feeds folder, written whole under a temporary name
// and renamed, so processes starting together never read half of one.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { VerifiedFile, VerifiedFiles } from './store.js';

const FORMAT = 'catrisk feed record 1';

/** The record's file for a feeds folder: named by the folder's absolute path, so folders never share one. */
export function recordPath(recordDir: string, feedsDir: string): string {
  const id = createHash('sha256').update(resolve(feedsDir)).digest('hex').slice(0, 16);
  return join(recordDir, `feeds-verified-${id}.json`);
}

/** The files the record vouches for (absolute paths); empty when there is none or it cannot be read. */
export async function readVerificationRecord(recordDir: string, feedsDir: string): Promise<Map<string, VerifiedFile>> {
  const out = new Map<string, VerifiedFile>();
  let record: unknown;
  try {
    record = JSON.parse(await readFile(recordPath(recordDir, feedsDir), 'utf8'));
  } catch {
    return out;
  }
  const r = record as { format?: unknown; feeds_dir?: unknown; files?: unknown };
  if (r.format !== FORMAT || r.feeds_dir !== resolve(feedsDir) || typeof r.files !== 'object' || r.files === null) return out;
  for (const [path, entry] of Object.entries(r.files)) {
    if (!Array.isArray(entry) || entry.length !== 3) continue;
    const [sha256, bytes, identity] = entry as unknown[];
    if (typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256) && Number.isSafeInteger(bytes) && typeof identity === 'string') {
      out.set(path, { sha256, bytes: bytes as number, identity });
    }
  }
  return out;
}

/** Writes the record of what a store verified under `feedsDir` (its other files are left out). */
export async function writeVerificationRecord(recordDir: string, feedsDir: string, verified: VerifiedFiles): Promise<void> {
  const root = resolve(feedsDir);
  const files: Record<string, [string, number, string]> = {};
  for (const [path, v] of [...verified].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (path.startsWith(`${root}/`)) files[path] = [v.sha256, v.bytes, v.identity];
  }
  await mkdir(recordDir, { recursive: true });
  const target = recordPath(recordDir, feedsDir);
  const staging = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(staging, JSON.stringify({ format: FORMAT, feeds_dir: root, files }));
    await rename(staging, target);
  } finally {
    await rm(staging, { force: true });
  }
}
