// The OED reference tables ingest maps against, read once per thread from the pinned oed-spec.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOedReference, type OedReference } from '../domain/exposure/oed-reference.js';

const OED_FEED = 'oed-spec';
let cached: { dir: string; reference: Promise<OedReference> } | undefined;

export function oedReference(feedsDir: string | undefined): Promise<OedReference> {
  if (!feedsDir) return Promise.reject(new Error('No feeds directory: the pinned oed-spec tables are needed to read schedules (set CATRISK_FEEDS_DIR).'));
  if (cached?.dir !== feedsDir) cached = { dir: feedsDir, reference: load(feedsDir) };
  return cached.reference;
}

async function load(feedsDir: string): Promise<OedReference> {
  const versions = (await readdir(join(feedsDir, OED_FEED))).sort();
  const latest = versions.at(-1);
  if (!latest) throw new Error(`No pinned ${OED_FEED} snapshot in ${feedsDir}`);
  const dir = join(feedsDir, OED_FEED, latest);
  const text = (name: string) => readFile(join(dir, name), 'utf8');
  return parseOedReference({
    locFields: await text('OEDInputFields_Loc.csv'),
    occupancy: await text('OccupancyValues.csv'),
    construction: await text('ConstructionValues.csv'),
    currency: await text('CurrencyValues.csv'),
    perils: await text('PerilValues.csv'),
  });
}
