// Where the pinned snapshots are, for tests that recount raw files independently.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FEEDS_DIR = process.env.CATRISK_FEEDS_DIR ?? resolve(process.cwd(), '../shared/feeds');

export function latestVersion(feedId: string): string {
  return readdirSync(join(FEEDS_DIR, feedId)).sort().at(-1)!;
}

export function manifestOf(feedId: string): any {
  return JSON.parse(readFileSync(join(FEEDS_DIR, feedId, latestVersion(feedId), 'MANIFEST.json'), 'utf8'));
}

export function rawFile(feedId: string, name?: string): Buffer {
  const m = manifestOf(feedId);
  return readFileSync(join(FEEDS_DIR, feedId, latestVersion(feedId), name ?? m.files[0].name));
}
