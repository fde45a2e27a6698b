// The pinned inputs of the lab's flood and wildfire lanes, read from the verified store into the
// lanes' plain records: flood depth maps (CLIMADA hazard HDF5, GeoTIFF per return period), the JRC
// depth-damage tables, the MTBS mapped-fire lists, the ShakeMaps of historical earthquakes and the ESRM20 scenario events. Which snapshot is which comes from the catalog;
// each view is parsed once per snapshot identity by the store's cache.
import type { FeedStore, Snapshot } from './store.js';
import { feedEntry, floodMapFacts, type FloodMapKind } from './catalog.js';
import { coverageBox } from './manifest.js';
import { eventCatalog } from './readers.js';
import { parseClimadaHazard } from './parsers/climada-hazard.js';
import { parseGeoTiffRaster } from './parsers/geotiff-raster.js';
import { parseJrcBaseDamageValues, parseJrcDamageFunctions } from './parsers/jrc-depth-damage.js';
import { depthMapFromCentroids, depthMapFromRasters, type DepthMap, type MapIdentity, type Raster, type RasterLayer } from '../domain/lab/lanes/flood/depth-map.js';
import type { CountryMaxDamage, DepthDamageCurve } from '../domain/lab/lanes/flood/depth-damage.js';
import type { FireRegion } from '../domain/lab/lanes/wildfire/wildfire-lane.js';
import type { ShakeMap, ShakeMapLayer } from '../domain/lab/lanes/earthquake/shakemap.js';
import { PGA, sa, type Imt } from '../domain/hazard/gmpe/types.js';
import { parseEsriFloatGrid } from './parsers/esri-float-grid.js';
import { parseShakemapGridXml } from './parsers/shakemap-grid-xml.js';
import { parseNrmlPlaneRupture, type NrmlPlaneRupture } from './parsers/nrml-rupture.js';
import { parseEsrm20Losses, type Esrm20LossRow } from './parsers/esrm20-losses.js';

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

export function floodMaps(store: FeedStore, kind: FloodMapKind): Promise<DepthMap[]> {
  return Promise.all(floodMapSnapshots(store, kind).map((s) => depthMap(store, s)));
}

export interface JrcTables {
  readonly identity: MapIdentity;
  readonly curves: DepthDamageCurve[];
  readonly countries: CountryMaxDamage[];
}

/** The pinned JRC depth-damage tables, or undefined when none is pinned. */
export function jrcSnapshot(store: FeedStore): Snapshot | undefined {
  return latest(store, (s) => feedEntry(s.manifest)?.parser === 'depth-damage-tables')[0];
}

export function jrcTables(store: FeedStore, s: Snapshot): Promise<JrcTables> {
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

/** What a pinned ShakeMap snapshot holds, from its file names: a grid of means and deviations, or contour lines only. */
export type ShakeMapProduct = 'raster' | 'grid.xml' | 'contours';

export function shakeMapProduct(s: Snapshot): ShakeMapProduct | null {
  if (feedEntry(s.manifest)?.parser !== 'shakemap') return null;
  const names = new Set(s.manifest.files.map((f) => f.name));
  if ([...names].some((n) => /_mean\.flt$/.test(n) && names.has(n.replace(/_mean\.flt$/, '_std.flt')))) return 'raster';
  if (names.has('grid.xml')) return 'grid.xml';
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
