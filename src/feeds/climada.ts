// The parsed views of the pinned CLIMADA tropical-cyclone snapshots, each parsed once per snapshot
// identity by the store's cache: the demo and test data (climada family) and the calibrated
// impact-function tables (tc-impact-functions family).
import type { FeedStore, Snapshot } from './store.js';
import { feedEntry } from './catalog.js';
import { parseClimadaCentroidsMat, parseClimadaHazardMat, type ClimadaCentroidsFile, type ClimadaHazardFile } from './parsers/climada-mat.js';
import { parseClimadaEntityXlsx, parseProcessedIbtracsCsv, parseTcCalibration, type ClimadaEntity, type TcCalibration } from './parsers/climada-tables.js';
import type { TcTrack } from '../domain/lab/lanes/tropical-cyclone/track.js';

export interface ClimadaDemo {
  /** The probabilistic Atlantic hazard (events × centroids) of the impact tests. */
  hazard: ClimadaHazardFile;
  /** The demo entity: 50 exposures in south-east Florida and their impact functions. */
  entity: ClimadaEntity;
  /** The processed Barbados test track and the centroids of the wind-field tests. */
  test_track: TcTrack;
  test_centroids: ClimadaCentroidsFile;
}

/** The files of the demo snapshot, by what each holds (the names CLIMADA gives them). */
export const CLIMADA_DEMO_FILES = {
  hazard: 'atl_prob_no_name.mat',
  entity: 'demo_today.xlsx',
  test_track: 'trac_brb_test.csv',
  test_centroids: 'centr_brb_test.mat',
} as const;

function need(files: ReadonlyMap<string, Buffer>, name: string, snapshot: Snapshot): Buffer {
  const b = files.get(name);
  if (!b) throw new Error(`${snapshot.feed_id}/${snapshot.version} has no file ${name}`);
  return b;
}

export function climadaDemo(store: FeedStore, snapshot: Snapshot): Promise<ClimadaDemo> {
  if (feedEntry(snapshot.manifest)?.parser !== 'climada') throw new Error(`${snapshot.feed_id} is not CLIMADA demo data`);
  return store.parsed(snapshot, 'demo files', async (s, files) => ({
    hazard: await parseClimadaHazardMat(need(files, CLIMADA_DEMO_FILES.hazard, s)),
    entity: await parseClimadaEntityXlsx(need(files, CLIMADA_DEMO_FILES.entity, s)),
    test_track: parseProcessedIbtracsCsv(need(files, CLIMADA_DEMO_FILES.test_track, s).toString('utf8')),
    test_centroids: await parseClimadaCentroidsMat(need(files, CLIMADA_DEMO_FILES.test_centroids, s)),
  }));
}

export function tcCalibration(store: FeedStore, snapshot: Snapshot): Promise<TcCalibration> {
  if (feedEntry(snapshot.manifest)?.parser !== 'tc-impact-functions') throw new Error(`${snapshot.feed_id} is not the impact-function tables`);
  return store.parsed(snapshot, 'impact-function-calibration', (_s, files) => parseTcCalibration(Object.fromEntries([...files].filter(([n]) => n.endsWith('.csv')).map(([n, b]) => [n, b.toString('utf8')]))));
}
