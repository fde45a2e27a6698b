// The windstorm lane over the real PiWind files pinned in the oasis-piwind feed, checked against an
// independent computation written here: a direct loop over the rows of the model files (no helper of
// the engine is used for the reference figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEEDS_DIR } from '../../support/feeds.js';
import { parsePiwindModel, readOccurrenceBinHeader } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm as windstormResult } from '../../../src/domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { unwrap as unwrapResult } from '../../../src/kernel/result.js';

// The lane's Result, its refusal thrown as the carrier, as these tests read it.
const runWindstorm = (...args: Parameters<typeof windstormResult>) => unwrapResult(windstormResult(...args));
import type { LabLocation } from '../../../src/domain/lab/engine/places.js';

const DIR = path.join(FEEDS_DIR, 'oasis-piwind', '2026-07-30');
const FILES = ['events_p.csv', 'occurrence_lt.csv', 'footprint.csv', 'vulnerability.csv', 'damage_bin_dict.csv', 'intensity_bin_dict.csv',
  'areaperil_dict.csv', 'vulnerability_dict.csv', 'lookup_config.json', 'model_settings.json', 'ModelVersion.csv'];
const texts: Record<string, string> = {};
for (const f of FILES) texts[f] = readFileSync(path.join(DIR, f), 'utf8');
const occurrenceBin = readFileSync(path.join(DIR, 'occurrence_lt.bin'));
const model = parsePiwindModel(texts, { occurrenceBin });
const identity = { feed_id: 'oasis-piwind', version: '2026-07-30', sha256: 'test' };

/** CSV rows as records of strings (lower-case header), the plain way. */
function rows(file: string): Record<string, string>[] {
  const lines = texts[file]!.trim().split(/\r?\n/);
  const head = lines[0]!.split(',').map((h) => h.trim().toLowerCase());
  return lines.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [head[i]!, v.trim()])));
}

// The exposure: one point at the centre of every third wind cell (34 cells), with the perils,
// occupancy codes (three vulnerability classes) and values cycling, plus points on every cell with
// storm-surge hazard covering both perils (the cap of allocation rule 1 can bind there), one on a
// shared cell corner, and two the lane leaves unmodeled.
const cells = rows('areaperil_dict.csv').filter((r) => r.peril_id === 'WTC' && r.coverage_type === '1');
const lonsOf = (r: Record<string, string>) => [1, 2, 3, 4].map((k) => Number(r[`lon${k}`]));
const latsOf = (r: Record<string, string>) => [1, 2, 3, 4].map((k) => Number(r[`lat${k}`]));
const centre = (r: Record<string, string>) => ({
  lat: (Math.min(...latsOf(r)) + Math.max(...latsOf(r))) / 2,
  lon: (Math.min(...lonsOf(r)) + Math.max(...lonsOf(r))) / 2,
});
const PERILS = ['WTC', 'WW1', 'WSS', 'WW2', 'AA1', 'WTC;WSS'];
const OCCUPANCY = [1000, 1050, 1051, 1100, 3031];
const locations: LabLocation[] = [];
cells.forEach((r, i) => {
  if (i % 3 !== 0) return;
  const c = centre(r);
  const n = locations.length;
  locations.push({
    ref: `cell-${r.area_peril_id}`, latitude: c.lat, longitude: c.lon,
    perils_covered: PERILS[n % PERILS.length], occupancy_code: OCCUPANCY[n % OCCUPANCY.length],
    buildings_value: 150_000 + 10_000 * n, contents_value: n % 4 === 3 ? 0 : 40_000 + 1_000 * n,
  });
});
for (const id of [1, 12, 23, 34, 45, 54, 67, 78, 89, 100]) { // WSS 101..200 with footprint sit over these
  const c = centre(cells.find((r) => Number(r.area_peril_id) === id)!);
  locations.push({ ref: `surge-${id}`, latitude: c.lat + 0.001, longitude: c.lon - 0.001, perils_covered: 'WW1', occupancy_code: OCCUPANCY[id % 3], buildings_value: 300_000, contents_value: 120_000 });
}
{
  const r = cells.find((x) => Number(x.area_peril_id) === 45)!;
  locations.push({ ref: 'corner', latitude: Math.max(...latsOf(r)), longitude: Math.max(...lonsOf(r)), perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 250_000, contents_value: 60_000 });
}
locations.push({ ref: 'north', latitude: 52.80, longitude: -0.9, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 1e6, contents_value: 0 });
locations.push({ ref: 'quake', latitude: 52.76, longitude: -0.9, perils_covered: 'QEQ', occupancy_code: 1050, buildings_value: 1e6, contents_value: 0 });

/** Independent reference: event losses by a direct loop over the files' rows. */
function reference(locs: LabLocation[]) {
  const interp = new Map(rows('damage_bin_dict.csv').map((r) => [Number(r.bin_index), Number(r.interpolation)]));
  const fp = new Map<string, [number, number][]>();
  for (const r of rows('footprint.csv')) {
    const k = `${r.event_id}|${r.areaperil_id}`;
    if (!fp.has(k)) fp.set(k, []);
    fp.get(k)!.push([Number(r.intensity_bin_id), Number(r.probability)]);
  }
  const vu = new Map<string, [number, number][]>();
  for (const r of rows('vulnerability.csv')) {
    const k = `${r.vulnerability_id}|${r.intensity_bin_id}`;
    if (!vu.has(k)) vu.set(k, []);
    vu.get(k)!.push([Number(r.damage_bin_id), Number(r.probability)]);
  }
  const vdict = new Map(rows('vulnerability_dict.csv').map((r) => [`${r.peril_id}|${r.coverage_type}|${r.occupancycode}`, r.vulnerability_id!]));
  const ap = rows('areaperil_dict.csv');
  const groups: Record<string, string[]> = { WTC: ['WTC'], WSS: ['WSS'], WW1: ['WTC', 'WSS'], WW2: ['WTC'], AA1: ['WTC', 'WSS'] };
  // Items: [location, coverage value, coverage key, areaperil, vulnerability].
  const items: { loc: number; tiv: number; cov: string; ap: string; vuln: string }[] = [];
  locs.forEach((l, i) => {
    const lat = l.latitude!;
    const lon = l.longitude!;
    const perils = new Set(l.perils_covered!.split(';').flatMap((c) => groups[c] ?? []));
    for (const peril of ['WTC', 'WSS']) {
      if (!perils.has(peril)) continue;
      let best: string | null = null;
      for (const r of ap) {
        if (r.peril_id !== peril) continue;
        const xs = lonsOf(r);
        const ys = latsOf(r);
        if (lon >= Math.min(...xs) && lon <= Math.max(...xs) && lat >= Math.min(...ys) && lat <= Math.max(...ys)) {
          if (best === null || Number(r.area_peril_id) < Number(best)) best = r.area_peril_id!;
        }
      }
      if (best === null) continue;
      for (const [ct, tiv] of [[1, l.buildings_value ?? 0], [3, l.contents_value ?? 0]] as const) {
        if (!(tiv > 0)) continue;
        const vuln = vdict.get(`${peril}|${ct}|${l.occupancy_code}`);
        if (vuln !== undefined) items.push({ loc: i, tiv, cov: `${i}|${ct}`, ap: best, vuln });
      }
    }
  });
  const events = rows('events_p.csv').map((r) => Number(r.event_id));
  const eventLoss = new Map<number, number>();
  for (const e of events) {
    const byCov = new Map<string, { tiv: number; damage: number }>();
    for (const it of items) {
      let mean = 0;
      for (const [ib, pi] of fp.get(`${e}|${it.ap}`) ?? []) {
        for (const [db, pd] of vu.get(`${it.vuln}|${ib}`) ?? []) mean += pi * pd * interp.get(db)!;
      }
      const c = byCov.get(it.cov) ?? { tiv: it.tiv, damage: 0 };
      c.damage += mean;
      byCov.set(it.cov, c);
    }
    let loss = 0;
    for (const c of byCov.values()) loss += c.tiv * Math.min(1, c.damage); // allocation rule 1
    eventLoss.set(e, loss);
  }
  const eventSet = new Set(events);
  const occ = rows('occurrence_lt.csv').filter((r) => eventSet.has(Number(r.event_id)));
  const periods = readOccurrenceBinHeader(occurrenceBin).periods;
  const periodLoss = new Float64Array(periods);
  for (const r of occ) periodLoss[Number(r.period_no) - 1]! += eventLoss.get(Number(r.event_id))!;
  const aal = periodLoss.reduce((s, x) => s + x, 0) / periods;
  return { items, eventLoss, periodLoss, aal, periods, occurrences: occ.length };
}

const ref = reference(locations);
const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));

test('the real PiWind files load with the checks the manifest states', () => {
  assert.equal(model.events.length, 1447);
  assert.equal(model.occurrence.periods, 1000);
  assert.equal(model.occurrence.periodsSource, 'occurrence_lt.bin header');
  assert.equal(model.footprint.eventId.length, 491);
  assert.equal(model.damageBins.count, 12);
  assert.equal(model.vulnerability.ids.length, 12);
  assert.equal(model.vulnerabilityDict.size, 684);
  assert.equal(model.cells.get('WTC')!.length, 100);
  assert.equal(model.cells.get('WSS')!.length, 100);
  assert.ok(model.cells.get('WTC')!.every((c) => c.rectangle));
  assert.deepEqual(model.lookup.strategy, ['split_loc_perils_covered', 'peril', 'create_coverage_type', 'vulnerability']);
  assert.deepEqual(model.lookup.unusedSteps, ['amplification']);
  assert.equal(ref.periods, 1000);
});

test('ground-up AAL at samples 0 equals the independent row-by-row computation (1e-9 relative)', () => {
  const r = runWindstorm(model, { samples: 0, exposure: { locations } }, { modelData: identity });
  assert.equal(r.exposure.places, locations.length);
  assert.deepEqual(r.unmodeled.places, [
    { index: locations.length - 2, reason: 'outside_demonstration_footprint' },
    { index: locations.length - 1, reason: 'no_model_peril_covered' },
  ]);
  assert.equal(r.exposure.items, ref.items.length);
  assert.ok(ref.aal > 0);
  const m = r.metrics!;
  assert.ok(rel(m.average_annual_loss.mean, ref.aal) < 1e-9, `${m.average_annual_loss.mean} vs ${ref.aal}`);
  assert.ok(rel(r.mean_damage!.aal, ref.aal) < 1e-9);
  // Every event of the event loss table, and no event missing.
  const withLoss = [...ref.eventLoss].filter(([, l]) => l > 0);
  assert.equal(m.elt.length, withLoss.length);
  for (const row of m.elt) assert.ok(rel(row.loss, ref.eventLoss.get(row.event_id)!) < 1e-9, `event ${row.event_id}`);
  // The 1-in-100 occurrence and aggregate losses (1,000 periods: rank 10 from the largest).
  const aggSorted = Array.from(ref.periodLoss).sort((a, b) => b - a);
  const oep100 = m.exceedance.oep.find((x) => x.return_period === 100)!;
  const aep100 = m.exceedance.aep.find((x) => x.return_period === 100)!;
  assert.ok(rel(aep100.loss, aggSorted[9]!) < 1e-9);
  assert.ok(rel(aep100.tvar, aggSorted.slice(0, 10).reduce((s, x) => s + x, 0) / 10) < 1e-9);
  assert.ok(oep100.loss <= aep100.loss);
  assert.deepEqual(m.exceedance.withheld.map((w) => w.return_period), [200, 250, 500, 1000]);
  // Places' shares sum to one; the places' AALs sum to the AAL.
  assert.ok(Math.abs(m.places.reduce((s, p) => s + p.share, 0) - 1) < 1e-12);
  assert.ok(rel(m.places.reduce((s, p) => s + p.aal, 0), ref.aal) < 1e-9);
  // The peril/coverage breakdown adds up to the AAL as well.
  assert.ok(rel(r.ground_up_by_peril_coverage!.reduce((s, x) => s + x.aal, 0), ref.aal) < 1e-9);
  assert.ok(r.ground_up_by_peril_coverage!.some((x) => x.peril === 'WSS' && x.aal > 0));
});

test('ground-up AAL with samples agrees with the analytical one within the Monte-Carlo tolerance', () => {
  // Single-peril places only (one item per coverage), where the expected sampled loss equals the
  // analytical mean. Each place-event loss L lies in [0, TIV], so Var L <= TIV·E[L]; sample means of
  // S draws, Latin-hypercube or independent, have variance at most Var L / S; places draw
  // independently. Hence Var(AAL estimate) <= Σ_e occ_e² Σ_l TIV_l·E[L_le] / (S·N²); tolerance
  // 4 standard deviations.
  const single = locations.filter((l) => ['WTC', 'WSS', 'WW2'].includes(l.perils_covered!));
  const exact = reference(single);
  const S = 100;
  const r = runWindstorm(model, { samples: S, exposure: { locations: single } }, { modelData: identity, seed: 424242 });
  let v = 0;
  const tivOf = new Map<number, number>();
  for (const it of exact.items) tivOf.set(it.loc, (tivOf.get(it.loc) ?? 0) + it.tiv);
  const tivMax = Math.max(...tivOf.values());
  // Σ_l TIV_l·E[L_le] <= max_l TIV_l · E[event loss]; every PiWind event occurs at most once.
  for (const [, loss] of exact.eventLoss) v += tivMax * loss;
  const sd = Math.sqrt(v / S) / exact.periods;
  const got = r.metrics!.average_annual_loss.mean;
  assert.ok(Math.abs(got - exact.aal) <= 4 * sd, `${got} vs ${exact.aal} ± ${4 * sd}`);
  assert.ok(rel(r.mean_damage!.aal, exact.aal) < 1e-9);
  assert.equal(r.run.seed, '424242');
  assert.match(r.metrics!.loss_basis, /mean over 100 Latin-hypercube samples/);
});

// The model's grid, read here from the rows of areaperil_dict: the extent of every cell's corners.
const allCells = rows('areaperil_dict.csv');
const GRID = {
  min_lat: Math.min(...allCells.flatMap(latsOf)), max_lat: Math.max(...allCells.flatMap(latsOf)),
  min_lon: Math.min(...allCells.flatMap(lonsOf)), max_lon: Math.max(...allCells.flatMap(lonsOf)),
};

test('the footprint is the model\'s grid, edges inclusive: points exactly on each edge are modeled with their loss', () => {
  assert.deepEqual(model.extent, GRID);
  const midLat = (GRID.min_lat + GRID.max_lat) / 2;
  const midLon = (GRID.min_lon + GRID.max_lon) / 2;
  const edges: Array<[string, number, number]> = [
    ['south', GRID.min_lat, midLon], ['north', GRID.max_lat, midLon], ['west', midLat, GRID.min_lon], ['east', midLat, GRID.max_lon],
    ['south-west corner', GRID.min_lat, GRID.min_lon], ['north-east corner', GRID.max_lat, GRID.max_lon],
  ];
  for (const [name, lat, lon] of edges) {
    const place: LabLocation = { ref: name, latitude: lat, longitude: lon, perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 1_000_000, contents_value: 100_000 };
    const r = runWindstorm(model, { samples: 0, exposure: { locations: [place] } }, { modelData: identity });
    const exact = reference([place]);
    assert.equal(r.unmodeled.count, 0, `${name}: ${JSON.stringify(r.unmodeled.places)}`);
    assert.equal(r.exposure.items, exact.items.length, name);
    assert.ok(exact.items.length > 0, name);
    assert.ok(rel(r.metrics!.average_annual_loss.mean, exact.aal) < 1e-9, `${name}: ${r.metrics!.average_annual_loss.mean} vs ${exact.aal}`);
  }
  // The southern edge carries loss (the cells along it are hit by the model's events).
  const south = runWindstorm(model, { samples: 0, exposure: { points: [{ lat: GRID.min_lat, lon: midLon, value: 1_000_000 }] } }, { modelData: identity });
  assert.ok(south.metrics!.average_annual_loss.mean > 0);
  assert.deepEqual(south.model_data.footprint, GRID);
  // Just outside each edge: no cell, so unmodeled (outside the grid) and no loss figure.
  const eps = 1e-9;
  const outside = [
    { lat: GRID.min_lat - eps, lon: midLon }, { lat: GRID.max_lat + eps, lon: midLon },
    { lat: midLat, lon: GRID.min_lon - eps }, { lat: midLat, lon: GRID.max_lon + eps },
  ];
  const o = runWindstorm(model, { samples: 0, exposure: { points: outside.map((p) => ({ ...p, value: 1 })) } }, { modelData: identity });
  assert.deepEqual(o.unmodeled.places.map((p) => p.reason), ['outside_demonstration_footprint', 'outside_demonstration_footprint', 'outside_demonstration_footprint', 'outside_demonstration_footprint']);
  assert.equal(o.metrics, null);
});
