// The flood and wildfire lanes run as a compute thread runs them (labRunTask over the verified feed
// store), their figures recomputed here independently from the raw pinned files: San Salvador depths
// from the HDF5 file's CSR rows, the Djibouti depth from the GeoTIFF, the JRC curve from the CSV's
// own columns, the trapezoid written out, and one cell's burn probability recounted from the raw MTBS
// rows. Then the specs through submitRun: defaults, members, refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import h5wasm from 'h5wasm/node';
import { fromArrayBuffer } from 'geotiff';
import { readdirSync } from 'node:fs';
import { FeedStore } from '../../src/feeds/store.js';
import { labRunTask, normalizedSpec, submitRun } from '../../src/app/lab-runs.js';
import { signup } from '../../src/app/accounts.js';
import { unwrap } from '../../src/kernel/result.js';
import { FEEDS_DIR, rawFile, rawPath } from '../support/feeds.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

const SAN_SALVADOR = 'climada-flood-san-salvador';
const DJIBOUTI = 'wri-aqueduct-inunriver-djibouti';
const JRC = 'jrc-depth-damage';
// The flood lanes read OED's peril groups too (an object's OED terms).
const OED_SPEC = 'oed-spec';
const MTBS = readdirSync(FEEDS_DIR).filter((id) => id.startsWith('usgs-mtbs-')).sort();

const store = FeedStore.open(FEEDS_DIR, { feeds: [SAN_SALVADOR, DJIBOUTI, JRC, OED_SPEC, ...MTBS] });

async function run(model: string, spec: Record<string, unknown>): Promise<any> {
  const result = await labRunTask({ model, spec: { model, version: 'test', ...spec }, feedsDir: undefined }, await store);
  assert.ok(result.ok);
  return JSON.parse(result.value);
}

/** A JRC curve read from the CSV's own row: the 0.01 m columns, linear between them, held at 10 m. */
function rawCurve(continent: string, type: string): (depth: number) => number {
  const lines = rawFile(JRC, 'JRC_damage_functions.csv').toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  const row = lines.find((l) => l.startsWith(`${continent},${type},`))!.split(',').slice(2).map(Number);
  return (depth) => {
    if (depth <= 0) return 0;
    if (depth >= 10) return row[1000]!;
    const i = Math.floor(depth * 100);
    const t = depth * 100 - i;
    return row[i]! + t * (row[i + 1]! - row[i]!);
  };
}

/** Trapezoid over exceedance probability, the largest return period's loss held beyond it. */
function aalOf(rps: number[], losses: number[]): number {
  let aal = 0;
  for (let i = 0; i + 1 < rps.length; i++) aal += (1 / rps[i]! - 1 / rps[i + 1]!) * (losses[i]! + losses[i + 1]!) / 2;
  return aal + losses.at(-1)! / rps.at(-1)!;
}

async function rawSanSalvador() {
  // Opened in place, read-only, by h5wasm's node build (which reads the real disk).
  await h5wasm.ready;
  const f = new h5wasm.File(rawPath(SAN_SALVADOR, 'Salvador_hazard_FL_2015.hdf5'), 'r');
  const v = (name: string) => (f.get(name) as any).value;
  const out = { lat: v('centroids/lat') as Float64Array, lon: v('centroids/lon') as Float64Array, indptr: Array.from(v('intensity/indptr') as Int32Array), indices: v('intensity/indices') as Int32Array, data: v('intensity/data') as Float64Array };
  f.close();
  const depthsAt = (centroid: number) => [0, 1, 2, 3, 4, 5].map((e) => {
    for (let j = out.indptr[e]!; j < out.indptr[e + 1]!; j++) if (out.indices[j] === centroid) return out.data[j]!;
    return 0;
  });
  return { ...out, depthsAt };
}

test('river-flood: depths, losses and AAL of a few places recomputed from the raw files; unmodeled places counted', async () => {
  const raw = await rawSanSalvador();
  // Hand-picked wet cells: the 11th wet cell of the 2-year event and the 5,001st and 20,001st of the 100-year one.
  const centroids = [raw.indices[raw.indptr[0]! + 10]!, raw.indices[raw.indptr[5]! + 5000]!, raw.indices[raw.indptr[5]! + 20000]!];
  // A wet Djibouti cell read from the 100-year GeoTIFF here (its centre from the file's own origin and cell size).
  const tifBytes = rawFile(DJIBOUTI, 'inunriver_rcp4p5_MIROC-ESM-CHEM_2030_rp00100.tif');
  const image = await (await fromArrayBuffer(tifBytes.buffer.slice(tifBytes.byteOffset, tifBytes.byteOffset + tifBytes.byteLength) as ArrayBuffer)).getImage();
  const values = (await image.readRasters({ interleave: true })) as unknown as Float32Array;
  const wet = values.findIndex((x) => x > 0.1);
  const [ox, oy] = image.getOrigin();
  const [rx, ry] = image.getResolution();
  const djibouti = { lat: oy! + (Math.floor(wet / image.getWidth()) + 0.5) * ry!, lon: ox! + ((wet % image.getWidth()) + 0.5) * rx! };

  const points = [
    ...centroids.map((c, i) => ({ lat: raw.lat[c]!, lon: raw.lon[c]!, value: [120_000, 45_000, 300_000][i]! })),
    { lat: djibouti.lat, lon: djibouti.lon, value: 80_000 },
    { lat: 0, lon: 0, value: 1 },
    { lat: 13.5, lon: -89.2, value: 1 },
  ];
  const result = await run('river-flood', { sector: 'residential', exposure: { points } });
  assert.equal(result.lane, 'river-flood');
  assert.deepEqual([result.exposure.places, result.exposure.modeled, result.unmodeled.count], [6, 4, 2]);
  assert.deepEqual(result.unmodeled.places, [{ index: 4, reason: 'outside_maps' }, { index: 5, reason: 'outside_maps' }]);
  assert.ok(result.method.some((m: string) => /undefended/.test(m)));
  // Every map read named with its version and digest, the curve and the sector.
  assert.deepEqual(result.maps_read.map((m: any) => m.feed_id).sort(), [SAN_SALVADOR, DJIBOUTI].sort());
  for (const m of result.maps_read) assert.match(m.sha256, /^[0-9a-f]{64}$/);
  assert.equal(result.curves.source.feed_id, JRC);
  assert.deepEqual(result.curves.used.map((c: any) => `${c.continent}/${c.sector}`).sort(), ['africa/residential', 'central america/residential']);
  assert.equal(result.sector, 'residential');
  // The Aqueduct map is labelled a 2030 projection, with its manifest's limitations.
  assert.ok(result.warnings.some((w: string) => w.startsWith(`${DJIBOUTI}: the depths are a 2030 projection`)));
  assert.match(result.maps_read.find((m: any) => m.feed_id === DJIBOUTI).limitations, /Future-climate single-GCM scenario/);

  const central = rawCurve('central america', 'residential');
  const africa = rawCurve('africa', 'residential');
  let total = 0;
  centroids.forEach((c, i) => {
    const depths = raw.depthsAt(c);
    const losses = depths.map((d) => central(d) * points[i]!.value);
    const aal = aalOf([2, 5, 10, 25, 50, 100], losses);
    const place = result.places.find((p: any) => p.index === i);
    assert.equal(place.map, SAN_SALVADOR);
    // Depths kept as 32-bit floats: within 1e-6 m; losses and AAL within 1e-5 relative.
    place.depths[0].depths_m.forEach((d: any, k: number) => assert.ok(Math.abs(d.depth_m - depths[k]!) < 1e-6));
    place.losses.forEach((l: any, k: number) => assert.ok(Math.abs(l.loss - losses[k]!) <= 1e-5 * Math.max(1, losses[k]!)));
    assert.ok(aal > 0 && Math.abs(place.aal - aal) <= 1e-5 * aal, `place ${i}: ${place.aal} against ${aal}`);
    total += place.aal;
  });
  const dj = result.places.find((p: any) => p.index === 3);
  assert.equal(dj.map, DJIBOUTI);
  assert.ok(Math.abs(dj.depths[0].depths_m.find((d: any) => d.return_period === 100).depth_m - values[wet]!) < 1e-9);
  assert.equal(dj.losses.length, 9);
  total += dj.aal;
  assert.ok(Math.abs(result.aal - total) <= 1e-9 * total);
  // The Djibouti place's 100-year loss through the Africa curve.
  assert.ok(Math.abs(dj.losses.find((l: any) => l.return_period === 100).loss - africa(values[wet]!) * 80_000) < 1e-6);
  // Portfolio losses at the return periods both maps publish (2 .. 100 years).
  assert.deepEqual(result.return_period_losses.map((r: any) => r.return_period), [2, 5, 10, 25, 50, 100]);
  const at100 = result.places.reduce((s: number, p: any) => s + p.losses.find((l: any) => l.return_period === 100).loss, 0);
  assert.ok(Math.abs(result.return_period_losses.at(-1).loss - at100) < 1e-6);
});

test('river-flood over a stored schedule: a location without coordinates is unmodeled, not refused', async () => {
  const result = await run('river-flood', { sector: 'commercial', exposure: { locations: [
    { latitude: null, longitude: null, buildings_value: 10 },
    { latitude: 10, longitude: 10, buildings_value: 10, contents_value: 5 },
  ] } });
  assert.deepEqual(result.unmodeled.places, [{ index: 0, reason: 'no_coordinates' }, { index: 1, reason: 'outside_maps' }]);
  assert.equal(result.aal, null);
  assert.match(result.no_loss_figure, /No place is modeled/);
});

test('coastal-flood: no coastal map is pinned, so every place is unmodeled with the reason', async () => {
  const result = await run('coastal-flood', { sector: 'residential', exposure: { points: [{ lat: 11.6, lon: 43.1, value: 5 }, { lat: 13.69, lon: -89.2, value: 5 }] } });
  assert.deepEqual(result.maps_read, []);
  assert.deepEqual([result.unmodeled.count, result.exposure.modeled, result.aal], [2, 0, null]);
  assert.ok(result.unmodeled.places.every((p: any) => p.reason === 'no_map_pinned'));
  assert.match(result.unmodeled.reasons.no_map_pinned, /No depth map/);
});

test('wildfire: one cell\'s burn probability recounted from the raw MTBS rows; a ceiling and no AAL', async () => {
  // The cell holding the Cameron Peak fire's point of origin (40.609 N, 105.879 W): 0.25° cells from 0°, 0°.
  const place = { lat: 40.6, lon: -105.9, value: 2_000_000 };
  const row = Math.floor(place.lat / 0.25);
  const col = Math.floor(place.lon / 0.25);
  const byYear = new Map<number, number>();
  const seen = new Set<string>();
  for (const id of MTBS) {
    const lines = rawFile(id).toString('utf8').trim().split(/\r?\n/);
    for (const line of lines.slice(1)) {
      // Incid_Name may hold commas (quoted by R): read the columns after it from the end of the row.
      const cells = line.split(',');
      const eventId = cells[0]!;
      const [type, acres, year] = [cells.at(-6)!, Number(cells.at(-5)), Number(cells.at(-3))];
      if (seen.has(eventId)) continue;
      seen.add(eventId);
      if (type !== 'Wildfire' && type !== 'Wildland Fire Use') continue;
      const lat = Number(eventId.slice(2, 7)) / 1000;
      const lon = -Number(eventId.slice(7, 13)) / 1000;
      if (Math.floor(lat / 0.25) !== row || Math.floor(lon / 0.25) !== col) continue;
      byYear.set(year, (byYear.get(year) ?? 0) + acres);
    }
  }
  assert.ok(byYear.size > 0, 'the cell holds fires');
  // Cell area on the sphere (R = 6371.0088 km), acres → km² (0.0040468564224).
  const R = 6371.0088;
  const rad = Math.PI / 180;
  const area = R * R * 0.25 * rad * (Math.sin((row + 1) * 0.25 * rad) - Math.sin(row * 0.25 * rad));
  let sum = 0;
  for (const acres of byYear.values()) sum += Math.min(1, (acres * 0.0040468564224) / area);
  const expected = sum / 22; // ignition years 1999-2020
  const result = await run('wildfire', { exposure: { points: [place, { lat: 45, lon: -100, value: 7 }] } });
  const p = result.places[0];
  assert.deepEqual([p.cell.row, p.cell.col], [row, col]);
  assert.ok(Math.abs(p.burn_probability - expected) < 1e-12, `${p.burn_probability} against ${expected}`);
  assert.ok(Math.abs(p.loss_ceiling - expected * place.value) < 1e-6);
  assert.equal(result.burn_probability.record_years.years, 22);
  assert.equal(result.aal, null);
  assert.deepEqual(result.unmodeled.places, [{ index: 1, reason: 'outside_regions' }]);
  assert.equal(result.maps_read.length, MTBS.length);
  assert.match(result.warnings[0], /not a fire-behaviour simulation/);
});

eachDialect('flood and wildfire specs: defaults share a run; each lane\'s members; faults refused 422 on the request', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const jobLink = (id: string) => `https://api.example/jobs/${id}`;
    const points = [{ lat: 13.69, lon: -89.2, value: 100 }];
    const a = unwrap(await submitRun(deps, { accountId, body: { model: 'river-flood', exposure: { points } }, jobLink }));
    const b = unwrap(await submitRun(deps, { accountId, body: { exposure: { points }, sector: 'residential', model: 'river-flood' }, jobLink }));
    assert.equal(a.id, b.id);
    assert.equal((a.spec as any).sector, 'residential');
    const c = unwrap(await submitRun(deps, { accountId, body: { model: 'river-flood', sector: 'industrial', exposure: { points } }, jobLink }));
    assert.notEqual(c.id, a.id);
    for (const body of [
      { model: 'river-flood', sector: 'agricultural', exposure: { points } },
      { model: 'river-flood', samples: 10, exposure: { points } },
      { model: 'wildfire', sector: 'residential', exposure: { points } },
      { model: 'coastal-flood', exposure: { points: [{ lat: 91, lon: 0, value: 1 }] } },
      { model: 'wildfire', exposure: { points: [{ lat: 40, lon: -105, value: -1 }] } },
    ]) {
      const refusedRun = await submitRun(deps, { accountId, body, jobLink });
      assert.deepEqual(!refusedRun.ok && [refusedRun.refusal.status, refusedRun.refusal.code], [422, 'invalid_request'], JSON.stringify(body));
    }
    assert.equal(deps.woken, 2, 'two runs queued');
  });
});

test('the windstorm spec normalises as before: the lane table leaves its content address alone', () => {
  const spec = unwrap(normalizedSpec({ model: 'oasislmf-windstorm', exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1 }] } }));
  assert.deepEqual(Object.keys(spec).sort(), ['correlation', 'exposure', 'model', 'samples', 'terms', 'version']);
});
