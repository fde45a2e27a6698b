// The synthetic set against the historical replay of the same reference seasons, basin by basin,
// through the lanes' own run functions over the pinned best tracks: the synthetic lane's average
// annual loss over coastal places (a million at each, made up for this test) against the history
// lane's loss over the 45 seasons 1980-2024 divided by their number.
//
// Ratios measured (synthetic / historical, the lane's default 10,000 sample years and seed):
// NA 0.75 (Miami 0.53, Tampa 1.44, New Orleans 1.17, Houston 0.57, Charleston 0.64), EP 0.88, WP 1.06,
// NI 0.45, SH 1.64; with the country lookup as land they were NA 0.22 (Miami 0.08), EP 0.17, WP 0.15,
// NI 0.11, SH 1.01. They differ from 1 because each historical landfall is spread over the
// neighbouring coast (start shifted up to 0.75°, path turned and stretched): the places history hit
// hardest lose (Miami, Acapulco 0.43, Manila 0.35, Chittagong 0.34) and the places it spared gain
// (Darwin, Cairns and Townsville, with no direct hit in 1980-2024, Hong Kong); members that cross land
// before a place (Luzon before Manila, the Ganges delta, Cuba) decay with CLIMADA's global
// coefficients, not as the record did; and 45 seasons are one draw, a place's figure dominated by a
// few storms. The test holds each basin within a factor of 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../../src/feeds/store.js';
import { trackArchive } from '../../../src/feeds/readers.js';
import { tcCalibration } from '../../../src/feeds/climada.js';
import { TC_IMPACT_FUNCTION_TABLES, TC_TRACK_ARCHIVES } from '../../../src/domain/lab/lanes/tropical-cyclone/inputs.js';
import { runTcHistory, seasonOf, type TcBasin } from '../../../src/domain/lab/lanes/tropical-cyclone/history-lane.js';
import { MAX_SAMPLE_YEARS, REFERENCE_FROM_SEASON, runTcSynthetic } from '../../../src/domain/lab/lanes/tropical-cyclone/synthetic-lane.js';
import { naturalEarthLand } from '../../../src/land.js';
import { FEEDS_DIR } from '../../support/feeds.js';

const PLACES: Record<TcBasin, [string, number, number][]> = {
  NA: [['Miami', 25.77, -80.19], ['Tampa', 27.95, -82.46], ['New Orleans', 29.95, -90.07], ['Houston', 29.76, -95.37], ['Charleston', 32.78, -79.93]],
  EP: [['Acapulco', 16.86, -99.88], ['Manzanillo', 19.05, -104.32], ['Mazatlán', 23.24, -106.42], ['Cabo San Lucas', 22.89, -109.92]],
  WP: [['Manila', 14.6, 120.98], ['Hong Kong', 22.32, 114.17], ['Kaohsiung', 22.63, 120.3], ['Naha', 26.21, 127.68]],
  NI: [['Chennai', 13.08, 80.27], ['Visakhapatnam', 17.69, 83.22], ['Kolkata', 22.57, 88.36], ['Chittagong', 22.36, 91.78], ['Mumbai', 19.08, 72.88]],
  SH: [['Darwin', -12.46, 130.84], ['Broome', -17.96, 122.24], ['Port Hedland', -20.31, 118.6], ['Cairns', -16.92, 145.77], ['Townsville', -19.26, 146.82]],
};

const store = await FeedStore.open(FEEDS_DIR, { feeds: [...Object.values(TC_TRACK_ARCHIVES).map((p) => p.feed_id), TC_IMPACT_FUNCTION_TABLES.feed_id] });
const calibration = await tcCalibration(store, store.get(TC_IMPACT_FUNCTION_TABLES.feed_id, TC_IMPACT_FUNCTION_TABLES.version)!);
const land = naturalEarthLand();
const identity = { feed_id: 'test', version: 'test', sha256: 'test' };

/** Historical and synthetic average annual loss over the basin's places, and each place's. */
async function compare(basin: TcBasin) {
  const pin = TC_TRACK_ARCHIVES[basin];
  const { storms } = await trackArchive(store, store.get(pin.feed_id, pin.version)!);
  const points = PLACES[basin].map(([, lat, lon]) => ({ lat, lon, value: 1_000_000 }));
  const seasons = [...new Set(storms.map(seasonOf).filter((y) => y >= REFERENCE_FROM_SEASON))].sort((a, b) => a - b);
  // The history lane replays up to 1,000 storms a run: the seasons go in runs of 20.
  const historical = new Array<number>(points.length).fill(0);
  for (let k = 0; k < seasons.length; k += 20) {
    const r = runTcHistory({
      spec: { impact_function: 'auto', hazard: { basin, years: seasons.slice(k, k + 20), storms: [] }, exposure: { points } },
      storms, calibration, identities: { tracks: identity, impact_functions: identity }, model: { id: 'test', version: 'test', label: 'test' },
    });
    assert.ok(r.ok);
    (r.value as any).places.forEach((p: any) => { historical[p.index]! += p.loss / seasons.length; });
  }
  const s = runTcSynthetic({ spec: { impact_function: 'auto', hazard: { basin, years: MAX_SAMPLE_YEARS }, exposure: { points } }, storms, calibration, land, nearTracks: 50_000 });
  assert.ok(s.ok);
  const result = s.value as any;
  assert.equal(result.hazard.reference_seasons, seasons.length);
  const synthetic = points.map((_, i) => result.metrics.places.find((p: any) => p.index === i)?.aal ?? 0);
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  return { historical, synthetic, ratio: sum(synthetic) / sum(historical), seasons: seasons.length };
}

for (const basin of Object.keys(PLACES) as TcBasin[]) {
  test(`${basin}: the synthetic set's average annual loss over its coastal places is of the same order as the historical replay (ratio within 1/3 to 3)`, async () => {
    const { historical, synthetic, ratio, seasons } = await compare(basin);
    const table = PLACES[basin].map(([name], i) => `${name} ${synthetic[i]!.toFixed(0)} / ${historical[i]!.toFixed(0)}`).join('; ');
    assert.ok(historical.reduce((a, b) => a + b, 0) > 0, `historical losses over ${seasons} seasons`);
    assert.ok(ratio > 1 / 3 && ratio < 3, `${basin} synthetic / historical ${ratio.toFixed(3)} (${table})`);
  });
}
