// An event's ShakeMap as the historical earthquake lane reads it: for each intensity measure the map
// holds, a grid of the mean of ln(ground motion) (ln g for PGA and SA) and a grid of its standard
// deviation (ln units). These are ShakeMap's conditional estimates: the GMPE's prediction updated
// with the recorded stations, so the standard deviation is small near a station and the GMPE's far
// from one. A place reads the grid point of the cell it lies in, as OpenQuake assigns an asset to the
// nearest ShakeMap site; an SA period the map does not hold is read between the two periods around
// it, mean and standard deviation each linear in ln(period). Pure.
import type { Raster, MapIdentity } from '../flood/depth-map.js';
import { imtName, type Imt } from '../../../hazard/gmpe/types.js';

export interface ShakeMapLayer {
  readonly imt: Imt;
  /** ln(g). */
  readonly mean: Raster;
  /** Standard deviation of ln(ground motion). */
  readonly std: Raster;
}

export interface ShakeMap {
  readonly identity: MapIdentity;
  /** The publisher's product: ShakeMap 4 raster (.flt/.hdr) or ShakeMap 3.5 grid.xml. */
  readonly product: string;
  readonly layers: readonly ShakeMapLayer[];
  /** How the standard deviation of each layer was read (a grid.xml carries PGA's only). */
  readonly std_basis: string;
}

export interface ShakeMapSample {
  readonly mean: number;
  readonly std: number;
}

/** The grid point whose cell holds (lat, lon): its row-major index, or -1 outside the grid. */
export function cellOf(r: Raster, lat: number, lon: number): number {
  const col = Math.floor((lon - r.origin_lon) / r.step_lon);
  const row = Math.floor((lat - r.origin_lat) / r.step_lat);
  if (!(col >= 0 && col < r.width && row >= 0 && row < r.height)) return -1;
  return row * r.width + col;
}

function valueAt(r: Raster, cell: number): number | null {
  const v = r.values[cell]!;
  return Number.isFinite(v) && v !== r.nodata ? v : null;
}

function layerAt(layer: ShakeMapLayer, lat: number, lon: number): ShakeMapSample | null {
  const cell = cellOf(layer.mean, lat, lon);
  if (cell < 0 || cellOf(layer.std, lat, lon) !== cell) return null;
  const mean = valueAt(layer.mean, cell);
  const std = valueAt(layer.std, cell);
  return mean === null || std === null ? null : { mean, std };
}

const periodOf = (imt: Imt) => (imt.kind === 'SA' ? imt.period : null);
const sameImt = (a: Imt, b: Imt) => a.kind === b.kind && periodOf(a) === periodOf(b);

/** How an intensity measure is read from the map: a layer it holds, or two SA layers around it with the weight of the longer. */
export interface ImtReading {
  readonly layers: readonly [ShakeMapLayer] | readonly [ShakeMapLayer, ShakeMapLayer];
  /** The weight of the second layer (0 with one). */
  readonly weight: number;
}

/** The reading of an intensity measure, or null when the map holds neither it nor SA periods around it. */
export function imtReading(map: ShakeMap, imt: Imt): ImtReading | null {
  const held = map.layers.find((l) => sameImt(l.imt, imt));
  if (held) return { layers: [held], weight: 0 };
  const t = periodOf(imt);
  if (t === null) return null;
  const sa = map.layers.filter((l) => l.imt.kind === 'SA').sort((a, b) => periodOf(a.imt)! - periodOf(b.imt)!);
  const below = sa.filter((l) => periodOf(l.imt)! < t).at(-1);
  const above = sa.find((l) => periodOf(l.imt)! > t);
  if (!below || !above) return null;
  const t1 = periodOf(below.imt)!;
  const t2 = periodOf(above.imt)!;
  return { layers: [below, above], weight: Math.log(t / t1) / Math.log(t2 / t1) };
}

export function readingBasis(reading: ImtReading): string {
  const [a, b] = reading.layers;
  if (!b) return `the map's ${imtName(a.imt)} grids`;
  return `between the map's ${imtName(a.imt)} and ${imtName(b.imt)} grids, mean and standard deviation each linear in ln(period) (weight ${Number(reading.weight.toFixed(4))} on ${imtName(b.imt)})`;
}

/** Mean ln(ground motion) and its standard deviation at a place, or null outside the map (or at no data). */
export function sampleShakeMap(reading: ImtReading, lat: number, lon: number): ShakeMapSample | null {
  const [first, second] = reading.layers;
  if (!second) return layerAt(first, lat, lon);
  const a = layerAt(first, lat, lon);
  const b = layerAt(second, lat, lon);
  if (!a || !b) return null;
  const w = reading.weight;
  return { mean: a.mean + w * (b.mean - a.mean), std: a.std + w * (b.std - a.std) };
}

/** The map's extent: the outer edges of its cells. */
export function shakeMapExtent(map: ShakeMap): { min_lat: number; max_lat: number; min_lon: number; max_lon: number } {
  const r = map.layers[0]!.mean;
  const lats = [r.origin_lat, r.origin_lat + r.step_lat * r.height];
  const lons = [r.origin_lon, r.origin_lon + r.step_lon * r.width];
  return { min_lat: Math.min(...lats), max_lat: Math.max(...lats), min_lon: Math.min(...lons), max_lon: Math.max(...lons) };
}
