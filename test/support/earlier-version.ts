// A feeds folder holding an earlier version of a real pinned catalog, for tests of snapshots pinned
// while the service runs (monitoring): the later version is the real pinned snapshot itself.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addSnapshot } from '../../src/feeds/store.js';
import { FEEDS_DIR, latestVersion, manifestOf } from './feeds.js';

export const CALIFORNIA = 'usgs-comcat-m6-california';
const CSV = 'comcat_m6_california.csv';

/**
 * A feeds folder holding an earlier version of the California catalog: the real pinned file cut at
 * 1 July 2019 (rows before it kept, header and row bytes unchanged; made here, for this test only)
 * pinned as version 2019-06-30 with its period of record ending that day.
 */
export async function feedsWithEarlierVersion(root: string): Promise<string> {
  const feeds = join(root, 'feeds');
  const stage = join(root, 'stage');
  mkdirSync(feeds);
  mkdirSync(stage);
  const real = readFileSync(join(FEEDS_DIR, CALIFORNIA, latestVersion(CALIFORNIA), CSV), 'utf8');
  const [header, ...rows] = real.split('\n');
  const earlier = [header, ...rows.filter((r) => r !== '' && r.slice(0, 10) < '2019-07-01')].join('\n') + '\n';
  writeFileSync(join(stage, CSV), earlier);
  const { files: _files, ...manifest } = manifestOf(CALIFORNIA);
  writeFileSync(join(stage, 'MANIFEST.json'), JSON.stringify({
    ...manifest, version: '2019-06-30', period_of_record: { ...manifest.period_of_record, to: '2019-06-30' },
    derivation: `${manifest.derivation} Test cut: rows timed before 2019-07-01 only.`,
  }));
  await addSnapshot(feeds, stage);
  return feeds;
}

