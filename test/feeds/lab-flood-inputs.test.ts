// The flood lanes' pinned inputs read through the feed store: depths sampled at hand-picked cells of
// the San Salvador grid equal the values stored in the HDF5 file (read here on its own, CSR entry by
// entry), the Aqueduct rasters agree with their manifest's published checks, and the JRC curves
// interpolate to the published breakpoint table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import h5wasm from 'h5wasm/node';
import { FeedStore } from '../../src/feeds/store.js';
import { depthMap, floodMapSnapshots, jrcSnapshot, jrcTables } from '../../src/feeds/lab-inputs.js';
import { sampleDepths } from '../../src/domain/lab/lanes/flood/depth-map.js';
import { curveFor, damageFraction } from '../../src/domain/lab/lanes/flood/depth-damage.js';
import { FEEDS_DIR, manifestOf, rawFile, rawPath } from '../support/feeds.js';

const SAN_SALVADOR = 'climada-flood-san-salvador';
const DJIBOUTI = 'wri-aqueduct-inunriver-djibouti';
const JRC = 'jrc-depth-damage';

const store = FeedStore.open(FEEDS_DIR, { feeds: [SAN_SALVADOR, DJIBOUTI, JRC] });

/** The hazard file read here on its own: CSR rows, centroid coordinates, frequencies. */
async function rawHazard() {
  // Opened in place, read-only, by h5wasm's node build (which reads the real disk).
  await h5wasm.ready;
  const f = new h5wasm.File(rawPath(SAN_SALVADOR, 'Salvador_hazard_FL_2015.hdf5'), 'r');
  const v = (name: string) => (f.get(name) as any).value;
  const out = {
    frequency: Array.from(v('frequency') as Float64Array), lat: v('centroids/lat') as Float64Array, lon: v('centroids/lon') as Float64Array,
    indptr: Array.from(v('intensity/indptr') as Int32Array), indices: v('intensity/indices') as Int32Array, data: v('intensity/data') as Float64Array,
  };
  f.close();
  return out;
}

test('San Salvador: the depth sampled at hand-picked cells is the value stored there, for every return period', async () => {
  const s = await store;
  const [snapshot] = floodMapSnapshots(s, 'river').filter((x) => x.feed_id === SAN_SALVADOR);
  const map = await depthMap(s, snapshot!);
  const raw = await rawHazard();
  assert.deepEqual(map.return_periods, [2, 5, 10, 25, 50, 100]);
  assert.deepEqual(raw.frequency.map((f) => Math.round(1 / f)), map.return_periods);
  // Hand-picked stored entries: the 1st, 1,001st and 2,001st wet cells of the 2-year event and the 20,001st of the 100-year one.
  const picks = [[0, 0], [0, 1000], [0, 2000], [5, 20000]] as const;
  for (const [event, k] of picks) {
    const at = raw.indptr[event]! + k;
    const centroid = raw.indices[at]!;
    // A point a third of a cell north-east of the centroid is still in its cell.
    const sample = sampleDepths(map, raw.lat[centroid]! + map.grid.dlat / 3, raw.lon[centroid]! + map.grid.dlon / 3)!;
    assert.ok(sample, `centroid ${centroid} is on the map`);
    // Every return period's stored value at this centroid (0 where the CSR row holds none: dry).
    for (let e = 0; e < 6; e++) {
      let stored = 0;
      for (let j = raw.indptr[e]!; j < raw.indptr[e + 1]!; j++) if (raw.indices[j] === centroid) stored = raw.data[j]!;
      // Depths are kept as 32-bit floats: equal to the stored float64 within 1e-6 m.
      assert.ok(Math.abs(sample.depths[e]! - stored) < 1e-6, `centroid ${centroid}, event ${e}: ${sample.depths[e]} against ${stored}`);
    }
    assert.ok(sample.depths[event]! > 0);
  }
  // The manifest's published maxima per return period (3.64 .. 11.71 m, to 2 decimals).
  const maxima = map.depths.map((d) => d.reduce((m, v) => (v > m ? v : m), 0));
  assert.deepEqual(maxima.map((m) => Math.round(m * 100) / 100), [3.64, 4.81, 6.59, 7.93, 9.93, 11.71]);
  // Outside the grid, and inside its box but off the focus-area subset, the map holds nothing.
  assert.equal(sampleDepths(map, 13.0, -89.2), null);
  let offSubset = -1;
  for (let cell = 0; cell < map.slot.length && offSubset < 0; cell++) if (map.slot[cell]! < 0) offSubset = cell;
  const row = Math.floor(offSubset / map.grid.cols);
  const col = offSubset % map.grid.cols;
  assert.equal(sampleDepths(map, map.grid.lat0 + row * map.grid.dlat, map.grid.lon0 + col * map.grid.dlon), null);
  assert.equal(map.place.iso_a3, 'SLV');
  assert.equal(map.identity.files_read!.length, 1);
  assert.equal(map.identity.files_read![0]!.sha256, manifestOf(SAN_SALVADOR).files.find((f: any) => f.name.endsWith('.hdf5')).sha256);
});

test('Djibouti (Aqueduct 2030 RCP4.5): nine return periods, no-data cells outside the map, the manifest\'s published checks', async () => {
  const s = await store;
  const [snapshot] = floodMapSnapshots(s, 'river').filter((x) => x.feed_id === DJIBOUTI);
  const map = await depthMap(s, snapshot!);
  const check = manifestOf(DJIBOUTI).check.per_return_period;
  assert.deepEqual(map.return_periods, [2, 5, 10, 25, 50, 100, 250, 500, 1000]);
  assert.match(map.scenario, /2030 projection/);
  map.return_periods.forEach((rp, i) => {
    const d = map.depths[i]!;
    let max = 0;
    let wet = 0;
    let valid = 0;
    for (let k = 0; k < d.length; k++) if (map.slot[k]! >= 0) { valid++; if (d[k]! > 0) wet++; if (d[k]! > max) max = d[k]!; }
    // Published to 4 decimals (max depth) and exactly (cell counts).
    assert.ok(Math.abs(max - check[String(rp)].max_depth_m) < 5e-5, `rp ${rp}: max ${max}`);
    assert.equal(wet, check[String(rp)].wet_cells_gt0);
    assert.equal(valid, check[String(rp)].valid_cells);
  });
  // The cell holding the deepest 100-year depth, sampled from a point inside it.
  const i100 = map.return_periods.indexOf(100);
  let best = 0;
  for (let k = 1; k < map.depths[i100]!.length; k++) if (map.slot[k]! >= 0 && map.depths[i100]![k]! > map.depths[i100]![best]!) best = k;
  const row = Math.floor(best / map.grid.cols);
  const col = best % map.grid.cols;
  const sample = sampleDepths(map, map.grid.lat0 + (row + 0.4) * map.grid.dlat, map.grid.lon0 + (col - 0.4) * map.grid.dlon)!;
  assert.equal(sample.depths[i100], map.depths[i100]![best]);
  assert.ok(Math.abs(sample.depths[i100]! - check['100'].max_depth_m) < 5e-5);
});

test('JRC curves: the interpolated curves equal the published breakpoint table and CLIMADA\'s JRC values', async () => {
  const s = await store;
  const tables = await jrcTables(s, jrcSnapshot(s)!);
  assert.equal(tables.curves.length, 35);
  // The CLIMAAX table of the JRC Europe curves at the published depths (0, 0.5, 1, 1.5, 2, 3, 4, 5, 6 m).
  const lines = rawFile(JRC, 'JRC_damage_curves_europe_CLIMAAX.csv').toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  const head = lines[0]!.split(',').map((h) => h.trim());
  for (const sector of ['residential', 'commercial']) {
    const col = head.indexOf(sector);
    const curve = curveFor(tables.curves, 'europe', sector)!;
    assert.equal(curve.fallback, false);
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      // Published to 2 decimals.
      assert.ok(Math.abs(damageFraction(curve.curve, Number(cells[0])) - Number(cells[col])) < 0.005 + 1e-12, `${sector} at ${cells[0]} m`);
    }
  }
  // CLIMADA's hard-coded JRC residential values (per the manifest): Africa 0.2199 at 0.5 m and 0.3782 at 1 m; South America 0.4908, 0.7112.
  const africa = curveFor(tables.curves, 'africa', 'residential')!.curve;
  assert.ok(Math.abs(damageFraction(africa, 0.5) - 0.2199) < 0.005 && Math.abs(damageFraction(africa, 1) - 0.3782) < 0.005);
  const southAmerica = curveFor(tables.curves, 'south america', 'residential')!.curve;
  assert.ok(Math.abs(damageFraction(southAmerica, 0.5) - 0.4908) < 0.005 && Math.abs(damageFraction(southAmerica, 1) - 0.7112) < 0.005);
  // Between two tabulated depths: linear (midway between the 0.50 m and 0.51 m columns, to 1e-12).
  const ca = curveFor(tables.curves, 'central america', 'residential')!.curve;
  const i = ca.depths.indexOf(0.5);
  assert.ok(Math.abs(damageFraction(ca, 0.505) - (ca.fractions[i]! + ca.fractions[i + 1]!) / 2) < 1e-12);
  // 0 at and below 0 m; held at the 10 m value deeper.
  assert.equal(damageFraction(ca, 0), 0);
  assert.equal(damageFraction(ca, -1), 0);
  assert.equal(damageFraction(ca, 25), ca.fractions.at(-1));
  // A continent without curves takes the global one, and says so.
  assert.equal(curveFor(tables.curves, null, 'industrial')!.fallback, true);
  // The maximum damage values per country.
  assert.equal(tables.countries.find((c) => c.iso_a3 === 'SLV')!.residential, 554.7780738);
});
