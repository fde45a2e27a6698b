// The pinned inputs of the lab's lanes, read from the verified store into the lanes' plain
// records: each reader a lane may declare (domain/lab/inputs.ts) by name, with what it lists, and
// the formats behind them: PiWind's model files, flood depth maps (CLIMADA hazard HDF5, GeoTIFF per
// return period), the JRC depth-damage tables, the MTBS mapped-fire lists, the ShakeMaps of
// historical earthquakes and the ESRM20 scenario events. Which snapshot is which comes from the
// catalog; each view is parsed once per snapshot identity by the store's cache.
import type { FeedStore, Snapshot } from './store.js';
import { feedEntry, floodMapFacts, type FloodMapKind } from './catalog.js';
import { coverageBox } from './manifest.js';
import { eventCatalog, gmpeLogicTree, structuralVulnerability, trackArchive } from './readers.js';
import { tcCalibration } from './climada.js';
import { parseClimadaHazard } from './parsers/climada-hazard.js';
import { parseGeoTiffRaster } from './parsers/geotiff-raster.js';
import { parseJrcBaseDamageValues, parseJrcDamageFunctions } from './parsers/jrc-depth-damage.js';
import { depthMapFromCentroids, depthMapFromRasters, type DepthMap, type MapIdentity, type Raster, type RasterLayer } from '../domain/lab/lanes/flood/depth-map.js';
import { burnGrid, type BurnGrid, type FireRegion } from '../domain/lab/lanes/wildfire/wildfire-lane.js';
import { parseAreaPerilGrid, parsePiwindModel, type GridExtent, type PiwindModel } from '../domain/lab/lanes/windstorm-piwind/piwind-model.js';
import type { ShakeMap, ShakeMapLayer } from '../domain/lab/lanes/earthquake/shakemap.js';
import type { DepthDamageTables, FeedPin, InputFamily, LabInputReaders, LabReader, PinnedSnapshot, QuakeCatalog } from '../domain/lab/inputs.js';
import { PGA, sa, type Imt } from '../domain/hazard/gmpe/types.js';
import { parseEsriFloatGrid } from './parsers/esri-float-grid.js';
import { parseEventXml, parseMomentTensorAxes, parseRuptureJson, parseStationlistJson, parseStationlistXml } from './parsers/shakemap-stations.js';
import type { ShakeMapStations } from '../domain/lab/lanes/earthquake/station-data.js';
import { parseShakemapGridXml } from './parsers/shakemap-grid-xml.js';
import { parseNrmlPlaneRupture, type NrmlPlaneRupture } from './parsers/nrml-rupture.js';
import { parseEsrm20Losses, type Esrm20LossRow } from './parsers/esrm20-losses.js';
import { parseNrmlSourceModel } from './parsers/nrml-source-model.js';
import { oedReference } from './oed.js';

/** A reader of feeds/ as a lane names it: the value from the input's snapshots, and what it adds to a snapshot's listed facts. */
export interface LabInputReader<R extends LabReader> {
  read(store: FeedStore, snapshots: readonly Snapshot[], pin: FeedPin | undefined): Promise<LabInputReaders[R]['value']>;
  facts(store: FeedStore | undefined, snapshot: Snapshot): Promise<LabInputReaders[R]['facts']>;
}

const NO_FACTS = async () => ({});
/** The one snapshot of a pinned input. */
const one = (snapshots: readonly Snapshot[]): Snapshot => snapshots[0]!;

export const LAB_INPUT_READERS: { readonly [R in LabReader]: LabInputReader<R> } = {
  'piwind-model': { read: (store, s) => piwindModel(store, one(s)), facts: async (store, s) => ({ footprint: await gridExtent(store, s.feed_id, s.version) }) },
  'structural-vulnerability': { read: (store, s) => structuralVulnerability(store, one(s)), facts: NO_FACTS },
  'quake-catalog': { read: (store, s) => quakeCatalog(store, one(s)), facts: NO_FACTS },
  'gmpe-logic-tree': { read: (store, s, pin) => gmpeLogicTree(store, one(s), pin!.file!), facts: NO_FACTS },
  'source-model': { read: async (store, s, pin) => parseNrmlSourceModel((await store.readFile(one(s), pin!.file!)).toString('utf8')), facts: NO_FACTS },
  'shakemap': { read: (store, s) => shakeMapInput(store, one(s)), facts: async (_store, s) => ({ holds: shakeMapProduct(s) }) },
  'track-archive': { read: (store, s) => trackArchive(store, one(s)), facts: NO_FACTS },
  'impact-calibration': { read: (store, s) => tcCalibration(store, one(s)), facts: NO_FACTS },
  'flood-maps': {
    read: (store, s) => Promise.all(s.map((map) => depthMap(store, map))),
    facts: async (_store, s) => ({ return_periods: s.manifest.files.map((f) => f.raw.return_period_years).filter((v): v is number => typeof v === 'number') }),
  },
  'depth-damage-tables': { read: (store, s) => jrcTables(store, one(s)), facts: NO_FACTS },
  'burn-grid': { read: (store, s) => burnMap(store, s), facts: NO_FACTS },
  'peril-groups': { read: async (store) => (await oedReference(store)).perilGroups, facts: NO_FACTS },
};

/** A family's snapshots, the newest version of each feed the catalog recognises as one of it. */
export function familySnapshots(store: FeedStore, family: InputFamily): Snapshot[] {
  switch (family) {
    case 'river_flood_maps': return floodMapSnapshots(store, 'river');
    case 'coastal_flood_maps': return floodMapSnapshots(store, 'coastal');
    case 'depth_damage_tables': return [jrcSnapshot(store)].filter((s): s is Snapshot => s !== undefined);
    case 'fire_lists': return fireListSnapshots(store);
  }
}

/** A snapshot as the plain facts a lane lists or cites. */
export function pinnedSnapshot(s: Snapshot): PinnedSnapshot {
  const m = s.manifest;
  return {
    feed_id: s.feed_id, version: s.version, sha256: s.sha256,
    ...(m.title !== undefined ? { title: m.title } : {}),
    ...(m.license !== undefined ? { license: m.license } : {}),
    ...(m.credit_line !== undefined ? { credit_line: m.credit_line } : {}),
    coverage: coverageBox(m),
    files: m.files.map((f) => ({ name: f.name, sha256: f.sha256 })),
  };
}

/** PiWind parsed once per snapshot (its files checked against their pinned digests on reading). */
function piwindModel(store: FeedStore, snapshot: Snapshot): Promise<PiwindModel> {
  return store.parsed(snapshot, 'piwind-model', (_s, files) => {
    const texts: Record<string, string> = {};
    for (const [name, bytes] of files) if (name.endsWith('.csv') || name.endsWith('.json')) texts[name] = bytes.toString('utf8');
    return parsePiwindModel(texts, { occurrenceBin: files.get('occurrence_lt.bin') });
  });
}

/**
 * The model's grid (the extent of the pinned areaperil_dict's cells, edges inclusive), read by the
 * same parser the lane keys points with; null when the model data is not pinned here.
 */
async function piwindGridExtent(store: FeedStore | undefined, feedId: string, version: string): Promise<GridExtent | null> {
  const snapshot = store?.get(feedId, version);
  if (!store || !snapshot) return null;
  const text = (await store.readFile(snapshot, 'areaperil_dict.csv')).toString('utf8');
  return parseAreaPerilGrid({ 'areaperil_dict.csv': text }).extent;
}

// The grid is read from the pinned file once per feed store and model; a failed read is not kept.
const extentsRead = new WeakMap<object, Map<string, Promise<GridExtent | null>>>();

function gridExtent(store: FeedStore | undefined, feedId: string, version: string): Promise<GridExtent | null> {
  if (!store) return piwindGridExtent(store, feedId, version);
  let byModel = extentsRead.get(store);
  if (!byModel) extentsRead.set(store, (byModel = new Map()));
  const key = `${feedId}@${version}`;
  let extent = byModel.get(key);
  if (!extent) {
    const mine = piwindGridExtent(store, feedId, version);
    extent = mine;
    byModel.set(key, mine);
    mine.catch(() => { if (byModel!.get(key) === mine) byModel!.delete(key); });
  }
  return extent;
}

/** A quake catalog with its manifest's box and the end of its period of record. */
async function quakeCatalog(store: FeedStore, s: Snapshot): Promise<QuakeCatalog> {
  return { catalog: await eventCatalog(store, s), box: coverageBox(s.manifest), period_end: (s.manifest.raw.period_of_record as { to?: unknown } | undefined)?.to };
}

// The burn grid is built once per feed store from the lists it holds.
const gridsBuilt = new WeakMap<object, Promise<{ regions: FireRegion[]; grid: BurnGrid }>>();

function burnMap(store: FeedStore, lists: readonly Snapshot[]): Promise<{ regions: FireRegion[]; grid: BurnGrid }> {
  let built = gridsBuilt.get(store);
  if (!built) {
    const mine = Promise.all(lists.map((s) => fireRegion(store, s))).then((regions) => ({ regions, grid: burnGrid(regions) }));
    built = mine;
    gridsBuilt.set(store, mine);
    mine.catch(() => { if (gridsBuilt.get(store) === mine) gridsBuilt.delete(store); });
  }
  return built;
}

export function identityOf(s: Snapshot, read?: (name: string) => boolean): MapIdentity {
  return {
    feed_id: s.feed_id, version: s.version, sha256: s.sha256,
    ...(s.manifest.credit_line ? { credit_line: s.manifest.credit_line } : {}),
    ...(s.manifest.license ? { license: s.manifest.license } : {}),
    files_read: s.manifest.files.filter((f) => !read || read(f.name)).map((f) => ({ name: f.name, sha256: f.sha256 })),
  };
}

/** The newest pinned snapshot of every feed the predicate accepts, by feed id. */
function latest(store: FeedStore, accept: (s: Snapshot) => boolean): Snapshot[] {
  return store.feeds().map((id) => store.get(id)!).filter(accept);
}

/** The pinned depth maps of a kind (newest version of each feed), unparsed: what GET /models lists. */
export function floodMapSnapshots(store: FeedStore, kind: FloodMapKind): Snapshot[] {
  return latest(store, (s) => feedEntry(s.manifest)?.flood_map === kind);
}

/** The return period of a GeoTIFF file: its manifest entry's return_period_years, else "rpNNNNN" in its name. */
function returnPeriodOf(s: Snapshot, name: string): number {
  const stated = s.manifest.files.find((f) => f.name === name)?.raw.return_period_years;
  if (typeof stated === 'number' && stated > 0) return stated;
  const m = /rp0*(\d+)/i.exec(name);
  if (!m) throw new Error(`${s.feed_id}/${s.version}: ${name} states no return period`);
  return Number(m[1]);
}

export function depthMap(store: FeedStore, s: Snapshot): Promise<DepthMap> {
  const entry = feedEntry(s.manifest);
  const kind = entry?.flood_map;
  if (!entry || !kind) throw new Error(`${s.feed_id} is not a flood depth map`);
  return store.parsed(s, 'flood depth map', async (snap, files) => {
    const facts = floodMapFacts(snap.manifest);
    const hdf5 = (n: string) => /\.(hdf5|h5)$/i.test(n);
    const tiff = (n: string) => /\.tiff?$/i.test(n);
    const mapFacts = { identity: identityOf(snap, entry.parser === 'hazard-hdf5' ? hdf5 : tiff), flood: kind, scenario: facts.scenario, limitations: facts.limitations, place: { iso_a3: facts.iso_a3, continent: facts.continent, basis: facts.basis } };
    if (entry.parser === 'hazard-hdf5') {
      const names = [...files.keys()].filter(hdf5);
      if (names.length !== 1) throw new Error(`${snap.feed_id}/${snap.version}: expected one hazard file, found ${names.join(', ') || 'none'}`);
      const hazard = await parseClimadaHazard(files.get(names[0]!)!);
      if (hazard.units !== null && hazard.units !== 'm') throw new Error(`${snap.feed_id}: hazard intensity is in ${hazard.units}, not metres of depth`);
      return depthMapFromCentroids(hazard, mapFacts);
    }
    const layers: RasterLayer[] = [];
    for (const [name, bytes] of files) {
      if (!tiff(name)) continue;
      layers.push({ return_period: returnPeriodOf(snap, name), ...(await parseGeoTiffRaster(bytes)) });
    }
    return depthMapFromRasters(layers, mapFacts);
  });
}

/** The pinned JRC depth-damage tables, or undefined when none is pinned. */
export function jrcSnapshot(store: FeedStore): Snapshot | undefined {
  return latest(store, (s) => feedEntry(s.manifest)?.parser === 'depth-damage-tables')[0];
}

export function jrcTables(store: FeedStore, s: Snapshot): Promise<DepthDamageTables> {
  return store.parsed(s, 'depth damage tables', (snap, files) => {
    const text = (name: string) => {
      const b = files.get(name);
      if (!b) throw new Error(`${snap.feed_id}/${snap.version} has no ${name}`);
      return b.toString('utf8');
    };
    const curves = parseJrcDamageFunctions(text('JRC_damage_functions.csv')).map((c) => ({ continent: c.continent, sector: c.type, depths: c.depths, fractions: c.fractions }));
    const used = ['JRC_damage_functions.csv', 'JRC_base_damage_values.csv'];
    return { identity: identityOf(snap, (n) => used.includes(n)), curves, countries: parseJrcBaseDamageValues(text('JRC_base_damage_values.csv')) };
  });
}

/** The pinned mapped-fire lists (newest version of each): what GET /models lists for the wildfire lane. */
export function fireListSnapshots(store: FeedStore): Snapshot[] {
  return latest(store, (s) => feedEntry(s.manifest)?.dataset === 'fire_perimeters');
}

const yearOf = (date: string | null | undefined): number | null => (date ? Number(date.slice(0, 4)) : null);

/** A mapped-fire list as the wildfire lane reads it: its box, its ignition years, its fires. */
export async function fireRegion(store: FeedStore, s: Snapshot): Promise<FireRegion> {
  const box = coverageBox(s.manifest);
  const first = yearOf(s.manifest.period_of_record?.from);
  const last = yearOf(s.manifest.period_of_record?.to);
  if (!box || first === null || last === null) throw new Error(`${s.feed_id}/${s.version}: a fire list needs a box and a period of record`);
  const catalog = await eventCatalog(store, s);
  if (catalog.kind !== 'report') throw new Error(`${s.feed_id} is not a fire list`);
  const coverage = s.manifest.coverage as { name?: string } | undefined;
  return {
    identity: identityOf(s),
    name: coverage?.name ?? s.manifest.title ?? s.feed_id,
    box,
    first_year: first,
    last_year: last,
    fires: catalog.events.map((e) => ({
      event_id: e.event_id, lat: e.latitude, lon: e.longitude, acres: e.value, year: Number(e.date.slice(0, 4)), type: e.fields.Incid_Type ?? '',
    })),
  };
}

// ---- ShakeMaps (the historical earthquake lane) ----

/** What a pinned ShakeMap snapshot holds, from its file names: a grid of means and deviations, the station data a grid is made from, or contour lines only. */
export type ShakeMapProduct = 'raster' | 'grid.xml' | 'stations' | 'contours';

export function shakeMapProduct(s: Snapshot): ShakeMapProduct | null {
  if (feedEntry(s.manifest)?.parser !== 'shakemap') return null;
  const names = new Set(s.manifest.files.map((f) => f.name));
  if ([...names].some((n) => /_mean\.flt$/.test(n) && names.has(n.replace(/_mean\.flt$/, '_std.flt')))) return 'raster';
  if (names.has('grid.xml')) return 'grid.xml';
  if (names.has('stationlist.json') || names.has('stationlist.xml')) return 'stations';
  return [...names].some((n) => /^cont_.*\.json$/.test(n)) ? 'contours' : null;
}

/** ShakeMap 4 raster names: pga, psa0p3 (SA 0.3 s), ...; PGV and MMI are not in g and are not read. */
function rasterImt(stem: string): Imt | null {
  if (stem === 'pga') return PGA;
  const m = /^psa(\d+)p(\d+)$/.exec(stem);
  return m ? sa(Number(`${m[1]}.${m[2]}`)) : null;
}

/** The manifest's unit of a raster (its units keys name files, several to a key, `*` standing for any text). */
function rasterUnit(s: Snapshot, name: string): string {
  const units = (s.manifest.raw.units ?? {}) as Record<string, unknown>;
  for (const [key, unit] of Object.entries(units)) {
    const names = key.split(',').map((k) => new RegExp(`^${k.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
    if (names.some((re) => re.test(name)) && typeof unit === 'string') return unit;
  }
  throw new Error(`${s.feed_id}/${s.version}: the manifest states no unit for ${name}`);
}

/** A grid.xml field's values as ln(g): the file states percent of g. */
function lnG(values: Float32Array, unit: string, field: string): Float32Array {
  const scale = unit === 'pctg' ? 0.01 : unit === 'g' ? 1 : Number.NaN;
  if (Number.isNaN(scale)) throw new Error(`ShakeMap grid.xml: ${field} is in ${unit}, not pctg or g`);
  return values.map((v) => Math.log(v * scale));
}

/** A pinned ShakeMap as the lane reads it: a grid (raster or grid.xml) of ln(g) means and ln standard deviations, or its station data. */
export function shakeMapInput(store: FeedStore, s: Snapshot): Promise<ShakeMap | ShakeMapStations> {
  return shakeMapProduct(s) === 'stations' ? shakeMapStations(store, s) : shakeMap(store, s);
}

/** A pinned ShakeMap grid (raster or grid.xml) as the lane reads it: ln(g) means and ln standard deviations. */
export function shakeMap(store: FeedStore, s: Snapshot): Promise<ShakeMap> {
  const product = shakeMapProduct(s);
  if (product !== 'raster' && product !== 'grid.xml') throw new Error(`${s.feed_id}/${s.version} holds no ShakeMap grid`);
  return store.parsed(s, 'shakemap grids', (snap, files) => {
    const layers: ShakeMapLayer[] = [];
    if (product === 'raster') {
      const read: string[] = [];
      for (const name of files.keys()) {
        const m = /^(.+)_mean\.flt$/.exec(name);
        const imt = m ? rasterImt(m[1]!) : null;
        if (!m || !imt) continue;
        const grid = (which: 'mean' | 'std', unit: RegExp) => {
          const flt = `${m[1]}_${which}.flt`;
          const hdr = `${m[1]}_${which}.hdr`;
          if (!unit.test(rasterUnit(snap, `${m[1]}_${which}`))) throw new Error(`${snap.feed_id}: ${m[1]}_${which} is in ${rasterUnit(snap, `${m[1]}_${which}`)}, not ${unit.source}`);
          const h = files.get(hdr);
          const b = files.get(flt);
          if (!h || !b) throw new Error(`${snap.feed_id}/${snap.version}: ${flt} needs ${hdr}`);
          read.push(flt, hdr);
          return parseEsriFloatGrid(h.toString('utf8'), b);
        };
        layers.push({ imt, mean: grid('mean', /^ln\(g\)/), std: grid('std', /^ln units/) });
      }
      return {
        identity: identityOf(snap, (n) => read.includes(n)),
        product: 'USGS ShakeMap 4 raster product (ESRI .flt/.hdr grids of the mean of ln(g) and its standard deviation)',
        layers: layers.sort((a, b) => (a.imt.kind === 'SA' ? a.imt.period : 0) - (b.imt.kind === 'SA' ? b.imt.period : 0)),
        std_basis: 'each intensity measure\'s own standard-deviation grid',
      };
    }
    const grid = parseShakemapGridXml(files.get('grid.xml')!.toString('utf8'));
    const periods: Readonly<Record<string, Imt>> = { PGA, PSA03: sa(0.3), PSA10: sa(1.0), PSA30: sa(3.0) };
    const stdPga = grid.fields.STDPGA;
    if (!stdPga || !/^ln\(/.test(grid.units.STDPGA ?? '')) throw new Error(`${snap.feed_id}: grid.xml carries no STDPGA in ln units`);
    let own = 0;
    for (const [field, imt] of Object.entries(periods)) {
      const mean = grid.fields[field];
      if (!mean) continue;
      const stdField = field === 'PGA' ? 'STDPGA' : `STD${field}`;
      const std: Raster = grid.fields[stdField] && /^ln\(/.test(grid.units[stdField] ?? '') ? grid.fields[stdField]! : stdPga;
      if (std !== stdPga || field === 'PGA') own++;
      layers.push({ imt, mean: { ...mean, values: lnG(mean.values, grid.units[field]!, field) }, std });
    }
    return {
      identity: identityOf(snap),
      product: `USGS ShakeMap ${grid.shakemap.code_version ?? '3.5'} grid.xml (mean of each intensity measure in percent of g, read as ln(g))`,
      layers,
      std_basis: own === layers.length
        ? 'each intensity measure\'s own standard-deviation field'
        : 'the grid.xml carries the standard deviation of ln(PGA) only (STDPGA; the other fields\' are in the unpinned uncertainty.xml): it is taken for ln(SA) too, an approximation stated here',
    };
  });
}

/**
 * A pinned snapshot of ShakeMap station data: the station list (stationlist.json of ShakeMap 4, else
 * the ShakeMap 3.5 stationlist.xml, the list ShakeMap used), the origin (rupture.json's metadata, else
 * event.xml) and the rupture (rupture.json's finite-fault outline, else moment.xml's principal axes).
 */
export function shakeMapStations(store: FeedStore, s: Snapshot): Promise<ShakeMapStations> {
  return store.parsed(s, 'shakemap stations', (snap, files) => {
    const text = (name: string) => files.get(name)?.toString('utf8');
    const json = text('stationlist.json');
    const list = json !== undefined ? 'stationlist.json' : 'stationlist.xml';
    const stations = json !== undefined ? parseStationlistJson(json) : parseStationlistXml(text('stationlist.xml')!);
    const ruptureText = text('rupture.json');
    const read = [list];
    let event: ShakeMapStations['event'];
    let rupture: ShakeMapStations['rupture'];
    if (ruptureText !== undefined) {
      const r = parseRuptureJson(ruptureText);
      const m = r.metadata;
      const number = (k: string) => { const v = Number(m[k]); if (!Number.isFinite(v)) throw new Error(`${snap.feed_id}: rupture.json metadata has no ${k}`); return v; };
      event = { id: String(m.id ?? ''), magnitude: number('mag'), lat: number('lat'), lon: number('lon'), depth_km: number('depth'), file: 'rupture.json' };
      rupture = { kind: 'finite', planes: r.planes, rake: number('rake'), reference: String(m.reference ?? ''), file: 'rupture.json' };
      read.push('rupture.json');
    } else {
      const e = text('event.xml');
      const mt = text('moment.xml');
      if (e === undefined || mt === undefined) throw new Error(`${snap.feed_id}/${snap.version}: station data needs rupture.json, or event.xml and moment.xml`);
      event = { ...parseEventXml(e), file: 'event.xml' };
      rupture = { kind: 'moment_tensor', ...parseMomentTensorAxes(mt), reference: 'the moment tensor\'s principal axes (ANSS QuakeML)', file: 'moment.xml' };
      read.push('event.xml', 'moment.xml');
    }
    return {
      kind: 'stations' as const,
      identity: identityOf(snap, (n) => read.includes(n)),
      product: list === 'stationlist.json' ? 'USGS ShakeMap 4 station list (stationlist.json): station peak amplitudes, no grid' : 'USGS ShakeMap 3.5 station list (stationlist.xml): station peak amplitudes, no grid',
      file: list,
      event,
      rupture,
      stations,
    };
  });
}

// ---- ESRM20 scenario events (the earthquake lanes' report against reported losses) ----

export interface Esrm20Scenario {
  readonly scenario_id: string;
  readonly rupture: NrmlPlaneRupture;
  readonly losses: Esrm20LossRow | null;
}

/** The pinned ESRM20 scenario events: each rupture_<id>.xml with its row of the losses workbook. */
export function esrm20Scenarios(store: FeedStore, s: Snapshot): Promise<Esrm20Scenario[]> {
  return store.parsed(s, 'esrm20 scenarios', async (snap, files) => {
    const workbook = files.get('losses_selected_damaging_events.xlsx');
    if (!workbook) throw new Error(`${snap.feed_id}/${snap.version}: no losses workbook`);
    const losses = new Map((await parseEsrm20Losses(workbook)).map((r) => [r.scenario_id, r]));
    const out: Esrm20Scenario[] = [];
    for (const [name, bytes] of files) {
      const m = /^rupture_(.+)\.xml$/.exec(name);
      if (!m) continue;
      out.push({ scenario_id: m[1]!, rupture: parseNrmlPlaneRupture(bytes.toString('utf8')), losses: losses.get(m[1]!) ?? null });
    }
    return out.sort((a, b) => a.scenario_id.localeCompare(b.scenario_id));
  });
}
