// The ShakeMap readers: the ESRI float grid (a hand-made header and bytes, then the pinned Northridge
// rasters against the raw floats read here independently and the manifest's recorded ranges), the
// ShakeMap 3.5 grid.xml (the pinned Anchorage and Loma Prieta grids against their manifests'
// checks), the lane's view (ln g means), and the lab's table of which event has which map against
// the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../src/feeds/store.js';
import { parseEsriFloatGrid, parseEsriHeader } from '../../src/feeds/parsers/esri-float-grid.js';
import { parseShakemapGridXml } from '../../src/feeds/parsers/shakemap-grid-xml.js';
import { shakeMap, shakeMapProduct } from '../../src/feeds/lab-inputs.js';
import { cellOf, imtReading, sampleShakeMap } from '../../src/domain/lab/lanes/earthquake/shakemap.js';
import { HISTORICAL_SHAKEMAPS } from '../../src/domain/lab/lanes/historical-earthquake/lane.js';
import { PGA, sa } from '../../src/domain/hazard/gmpe/types.js';
import { FEEDS_DIR, manifestOf, rawFile } from '../support/feeds.js';

const SHAKEMAPS = ['usgs-shakemap-northridge-1994', 'usgs-shakemap-loma-prieta-1989', 'usgs-shakemap-anchorage-2018', 'usgs-shakemap-ridgecrest-2019', 'usgs-shakemap-inputs-south-napa-2014', 'usgs-shakemap-stations-kahramanmaras-2023'];
let opened: Promise<FeedStore> | undefined;
const store = () => (opened ??= FeedStore.open(FEEDS_DIR, { feeds: SHAKEMAPS }));

test('an ESRI float grid, hand-made: 2 rows x 3 columns, big-endian, the corner half a cell out from ULXMAP/ULYMAP', () => {
  // Hand-made test data (not a pinned file).
  const header = 'BYTEORDER M\nLAYOUT BIL\nNROWS 2\nNCOLS 3\nNBANDS 1\nNBITS 32\nPIXELTYPE FLOAT\nULXMAP 10.5\nULYMAP 45.5\nXDIM 1\nYDIM 1\nNODATA -9999\n';
  const bytes = Buffer.alloc(24);
  [1, 2, 3, 4, 5, -9999].forEach((v, i) => bytes.writeFloatBE(v, i * 4));
  const g = parseEsriFloatGrid(header, bytes);
  assert.deepEqual({ w: g.width, h: g.height, lon: g.origin_lon, lat: g.origin_lat, dx: g.step_lon, dy: g.step_lat, nodata: g.nodata }, { w: 3, h: 2, lon: 10, lat: 46, dx: 1, dy: -1, nodata: -9999 });
  assert.deepEqual([...g.values], [1, 2, 3, 4, 5, -9999]);
  assert.equal(cellOf(g, 44.2, 12.9), 5, 'the south-east cell');
  assert.equal(cellOf(g, 46.1, 10.5), -1, 'north of the grid');
  assert.throws(() => parseEsriFloatGrid(header, bytes.subarray(0, 20)), /20 bytes, expected 24/);
  assert.throws(() => parseEsriHeader(header.replace('NBITS 32', 'NBITS 16')), /32-bit float/);
});

test('the pinned Northridge rasters: 422 x 511, the floats as read here, the ranges and peak the manifest records', () => {
  const m = manifestOf('usgs-shakemap-northridge-1994');
  const g = parseEsriFloatGrid(rawFile('usgs-shakemap-northridge-1994', 'pga_mean.hdr').toString('utf8'), rawFile('usgs-shakemap-northridge-1994', 'pga_mean.flt'));
  assert.equal(g.width, 511);
  assert.equal(g.height, 422);
  const raw = rawFile('usgs-shakemap-northridge-1994', 'pga_mean.flt');
  for (const i of [0, 1, 511, 100_000, 215_641]) assert.equal(g.values[i], raw.readFloatLE(i * 4));
  let max = -Infinity;
  let min = Infinity;
  let at = -1;
  g.values.forEach((v, i) => { if (v > max) { max = v; at = i; } if (v < min) min = v; });
  assert.deepEqual([Number(min.toFixed(4)), Number(max.toFixed(4))], m.check.value_ranges.pga_mean);
  // The manifest's peak cell (-118.55, 34.283) is the cell the reader places the maximum in.
  assert.equal(cellOf(g, 34.283, -118.55), at);
});

test('the pinned ShakeMap 3.5 grid.xml of Anchorage and Loma Prieta: every grid point, the manifest\'s ranges and peak cell', () => {
  for (const id of ['usgs-shakemap-anchorage-2018', 'usgs-shakemap-loma-prieta-1989']) {
    const m = manifestOf(id);
    const g = parseShakemapGridXml(rawFile(id, 'grid.xml').toString('utf8'));
    const pga = g.fields.PGA!;
    assert.equal(pga.width * pga.height, m.check.grid_rows, id);
    assert.deepEqual([Math.min(...pga.values), Math.max(...pga.values)].map((v) => Number(v.toFixed(2))), m.check.PGA_pctg_range, id);
    assert.deepEqual([Math.min(...g.fields.MMI!.values), Math.max(...g.fields.MMI!.values)].map((v) => Number(v.toFixed(2))), m.check.MMI_range, id);
    assert.equal(g.units.PGA, 'pctg');
    assert.equal(g.units.STDPGA, 'ln(pctg)');
  }
  const a = parseShakemapGridXml(rawFile('usgs-shakemap-anchorage-2018', 'grid.xml').toString('utf8'));
  // "max_MMI_cell": "-149.605 61.421 (MMI 8.02, PGA 36.06 %g)"
  const cell = cellOf(a.fields.MMI!, 61.421, -149.605);
  assert.equal(Number(a.fields.MMI!.values[cell]!.toFixed(2)), 8.02);
  assert.equal(Number(a.fields.PGA!.values[cell]!.toFixed(2)), 36.06);
  // The first data row, as written in the file: -152.9550 62.8460 1.92 2.81 3.71 5.24 3.59 1.12 0.6 1 347.107
  const nw = cellOf(a.fields.PGA!, 62.846, -152.955);
  assert.equal(nw, 0);
  assert.deepEqual(['PGA', 'PGV', 'MMI', 'PSA03', 'PSA10', 'PSA30', 'STDPGA', 'URAT', 'SVEL'].map((f) => Number(a.fields[f]!.values[0]!.toFixed(3))), [1.92, 2.81, 3.71, 5.24, 3.59, 1.12, 0.6, 1, 347.107]);
  assert.throws(() => parseShakemapGridXml(rawFile('usgs-shakemap-anchorage-2018', 'grid.xml').toString('utf8').replace(/\n-152\.9300 62\.8460[^\n]*/, '')), /29160 rows, expected 29161/);
});

test('the lane\'s view of the maps: ln(g) means, ln standard deviations, SA(0.6) between SA(0.3) and SA(1.0)', async () => {
  const s = await store();
  const north = await shakeMap(s, s.get('usgs-shakemap-northridge-1994')!);
  assert.deepEqual(north.layers.map((l) => l.imt), [PGA, sa(0.3), sa(1), sa(3)]);
  const at = (name: string, lat: number, lon: number) => {
    const g = parseEsriFloatGrid(rawFile('usgs-shakemap-northridge-1994', name.replace('.flt', '.hdr')).toString('utf8'), rawFile('usgs-shakemap-northridge-1994', name));
    return g.values[cellOf(g, lat, lon)]!;
  };
  // Recomputed here: w = ln(0.6/0.3) / ln(1.0/0.3).
  const w = Math.log(2) / Math.log(1 / 0.3);
  const got = sampleShakeMap(imtReading(north, sa(0.6))!, 34.2, -118.5)!;
  assert.ok(Math.abs(got.mean - ((1 - w) * at('psa0p3_mean.flt', 34.2, -118.5) + w * at('psa1p0_mean.flt', 34.2, -118.5))) < 1e-12);
  assert.ok(Math.abs(got.std - ((1 - w) * at('psa0p3_std.flt', 34.2, -118.5) + w * at('psa1p0_std.flt', 34.2, -118.5))) < 1e-12);
  assert.equal(sampleShakeMap(imtReading(north, PGA)!, 40, -118.5), null, 'north of the map');

  const anchorage = await shakeMap(s, s.get('usgs-shakemap-anchorage-2018')!);
  const pga = sampleShakeMap(imtReading(anchorage, PGA)!, 61.421, -149.605)!;
  assert.ok(Math.abs(pga.mean - Math.log(0.3606)) < 1e-6, '36.06 %g read as ln(0.3606 g)');
  assert.match(anchorage.std_basis, /STDPGA/);
});

test('the lab\'s table of ShakeMaps agrees with the store: what each pinned map holds, and no ShakeMap pinned but unlisted', async () => {
  const s = await store();
  const listed = Object.values(HISTORICAL_SHAKEMAPS);
  for (const pin of listed) {
    const snapshot = s.get(pin!.feed_id, pin!.version);
    assert.ok(snapshot, `${pin!.feed_id} ${pin!.version} is pinned`);
    const product = shakeMapProduct(snapshot);
    assert.equal(product === 'contours' || product === 'stations' ? product : 'grid', pin!.holds, pin!.feed_id);
  }
  assert.equal(shakeMapProduct(s.get('usgs-shakemap-inputs-south-napa-2014')!), 'stations');
  assert.equal(shakeMapProduct(s.get('usgs-shakemap-stations-kahramanmaras-2023')!), 'stations');
  assert.equal(shakeMapProduct(s.get('usgs-shakemap-northridge-1994')!), 'raster');
  assert.equal(shakeMapProduct(s.get('usgs-shakemap-loma-prieta-1989')!), 'grid.xml');
  assert.equal(shakeMapProduct(s.get('usgs-shakemap-ridgecrest-2019')!), 'contours');
  const all = await FeedStore.open(FEEDS_DIR);
  const pinnedMaps = all.feeds().filter((id) => shakeMapProduct(all.get(id)!) !== null).sort();
  assert.deepEqual(pinnedMaps, listed.map((p) => p!.feed_id).sort());
});
