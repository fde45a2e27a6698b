// Where the pinned snapshots are, for tests that recount raw files independently.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { parseManifest, type Manifest } from '../../src/feeds/manifest.js';

/** The service's own default: CATRISK_FEEDS_DIR, else the repository's feeds/. */
export const FEEDS_DIR = loadConfig().feedsDir;

export function latestVersion(feedId: string): string {
  return readdirSync(join(FEEDS_DIR, feedId)).sort().at(-1)!;
}

export function manifestOf(feedId: string): any {
  return JSON.parse(readFileSync(join(FEEDS_DIR, feedId, latestVersion(feedId), 'MANIFEST.json'), 'utf8'));
}

export function rawFile(feedId: string, name?: string): Buffer {
  return readFileSync(rawPath(feedId, name));
}

/** Where a pinned file lies on disk (for readers that open a path, never to write there). */
export function rawPath(feedId: string, name?: string): string {
  return join(FEEDS_DIR, feedId, latestVersion(feedId), name ?? manifestOf(feedId).files[0].name);
}

/** A pinned snapshot's manifest (as JSON, so every member is there) and its first file's text. */
export function pinnedText(feedId: string): { manifest: any; text: string } {
  const manifest = manifestOf(feedId);
  return { manifest, text: rawFile(feedId).toString('utf8') };
}

/** As pinnedText, with the manifest through the service's own loader. */
export function pinnedParsed(feedId: string): { manifest: Manifest; text: string } {
  const { manifest, text } = pinnedText(feedId);
  return { manifest: parseManifest(manifest), text };
}

/** Every file of a pinned snapshot, as text (a track archive of many files). */
export function pinnedFiles(feedId: string): { manifest: any; files: Array<{ name: string; text: string }> } {
  const manifest = manifestOf(feedId);
  return { manifest, files: (manifest.files as Array<{ name: string }>).map((f) => ({ name: f.name, text: rawFile(feedId, f.name).toString('utf8') })) };
}

/** Pinned feed ids starting with a prefix, sorted. */
export function pinnedFeedIds(prefix: string): string[] {
  return readdirSync(FEEDS_DIR).filter((d) => d.startsWith(prefix)).sort();
}
