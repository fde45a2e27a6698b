// Flood depth maps as the flood lanes read them: one depth per grid cell and return period, from a
// CLIMADA hazard's centroids (a regular grid, possibly a subset of it) or from one GeoTIFF raster per
// return period. A place samples the cell whose centre is nearest (the cell holding it): no bilinear
// blending, so a depth is always a value the publisher stored.

/** What a result names of every map read (SPEC determinism rule 2). */
export interface MapIdentity {
  readonly feed_id: string;
  readonly version: string;
  readonly sha256: string;
  readonly credit_line?: string;
  readonly license?: string;
  /** The files whose bytes were read, each with its SHA-256 (the snapshot digest covers all its files). */
  readonly files_read?: readonly { readonly name: string; readonly sha256: string }[];
}

/** Where a map lies, for the depth-damage curve (continent) and the maximum damage (country). */
export interface MapPlace {
  readonly iso_a3: string | null;
  /** A continent of the JRC curves (europe, north america, central america, ...); null: the global curve. */
  readonly continent: string | null;
  /** How this was decided, in words. */
  readonly basis: string;
}

export type FloodKind = 'river' | 'coastal';

/** A regular grid of cell centres: row r, column c at (lat0 + r·dlat, lon0 + c·dlon). */
export interface CellGrid {
  readonly lat0: number;
  readonly lon0: number;
  readonly dlat: number;
  readonly dlon: number;
  readonly rows: number;
  readonly cols: number;
}

export interface DepthMap {
  readonly identity: MapIdentity;
  readonly flood: FloodKind;
  /** The conditions the depths stand for, e.g. "2015 conditions" or "2030 projection (RCP4.5, ...)". */
  readonly scenario: string;
  readonly place: MapPlace;
  /** What the map's publisher or pinning says it is not fit for, if anything. */
  readonly limitations?: string | null;
  /** Ascending, years. */
  readonly return_periods: number[];
  readonly grid: CellGrid;
  /** Cell (r·cols + c) → slot of the depth arrays, -1 where the map holds no value (outside its area). */
  readonly slot: Int32Array;
  /** Per return period (same order), depth in metres per slot; NaN where the map says no data. */
  readonly depths: Float32Array[];
  /** Approximate cell size in metres (north-south × east-west), for the result. */
  readonly cell_m: readonly [number, number];
}

export interface CentroidHazard {
  readonly frequency: readonly number[];
  readonly lat: ArrayLike<number>;
  readonly lon: ArrayLike<number>;
  readonly indptr: ArrayLike<number>;
  readonly index: ArrayLike<number>;
  readonly value: ArrayLike<number>;
}

/** A single-band geographic grid (WGS 84 degrees), as a GeoTIFF reader hands it over. */
export interface Raster {
  readonly width: number;
  readonly height: number;
  /** Outer corner of the first cell (north-west for a north-up grid), degrees. */
  readonly origin_lon: number;
  readonly origin_lat: number;
  /** Cell size in degrees; lat step negative for a north-up grid. */
  readonly step_lon: number;
  readonly step_lat: number;
  readonly nodata: number | null;
  /** Row-major, first row at origin_lat. */
  readonly values: ArrayLike<number>;
}

export interface RasterLayer extends Raster {
  readonly return_period: number;
}

interface MapFacts {
  readonly identity: MapIdentity;
  readonly flood: FloodKind;
  readonly scenario: string;
  readonly place: MapPlace;
  readonly limitations?: string | null;
}

const M_PER_DEG_LAT = 111_195;

function cellMetres(grid: CellGrid): readonly [number, number] {
  const midLat = grid.lat0 + (grid.dlat * (grid.rows - 1)) / 2;
  return [Math.round(Math.abs(grid.dlat) * M_PER_DEG_LAT), Math.round(Math.abs(grid.dlon) * M_PER_DEG_LAT * Math.cos((midLat * Math.PI) / 180))];
}

/** The distinct values of a coordinate (to a billionth of a degree), ascending. */
function distinct(values: ArrayLike<number>): number[] {
  const seen = new Set<number>();
  for (let i = 0; i < values.length; i++) seen.add(Math.round(values[i]! * 1e9));
  return [...seen].sort((a, b) => a - b).map((v) => v / 1e9);
}

/**
 * A CLIMADA hazard whose centroids lie on a regular grid (or a subset of one). Each event is a return
 * period, 1 / frequency; a centroid with no stored intensity is dry (0 m). Throws when the centroids
 * are not on one regular grid, or an event's frequency is not a return period.
 */
export function depthMapFromCentroids(hazard: CentroidHazard, facts: MapFacts): DepthMap {
  const lats = distinct(hazard.lat);
  const lons = distinct(hazard.lon);
  if (lats.length < 2 || lons.length < 2) throw new Error('hazard centroids do not span a grid');
  const grid: CellGrid = {
    lat0: lats[0]!, lon0: lons[0]!,
    dlat: (lats[lats.length - 1]! - lats[0]!) / (lats.length - 1),
    dlon: (lons[lons.length - 1]! - lons[0]!) / (lons.length - 1),
    rows: lats.length, cols: lons.length,
  };
  const n = hazard.lat.length;
  const slot = new Int32Array(grid.rows * grid.cols).fill(-1);
  for (let k = 0; k < n; k++) {
    const r = (hazard.lat[k]! - grid.lat0) / grid.dlat;
    const c = (hazard.lon[k]! - grid.lon0) / grid.dlon;
    if (Math.abs(r - Math.round(r)) > 1e-3 || Math.abs(c - Math.round(c)) > 1e-3) throw new Error(`centroid ${k} is off the regular grid`);
    slot[Math.round(r) * grid.cols + Math.round(c)] = k;
  }
  const events = hazard.frequency.map((f, e) => {
    if (!(f > 0)) throw new Error(`event ${e} has frequency ${f}, not a return period`);
    return { e, rp: 1 / f };
  }).sort((a, b) => a.rp - b.rp);
  const depths = events.map(({ e }) => {
    const d = new Float32Array(n);
    for (let k = hazard.indptr[e]!; k < hazard.indptr[e + 1]!; k++) d[hazard.index[k]!] = Math.max(0, hazard.value[k]!);
    return d;
  });
  // Return periods from frequencies such as 0.04 are read back to the whole years they stand for.
  const rps = events.map(({ rp }) => (Math.abs(rp - Math.round(rp)) < 1e-6 ? Math.round(rp) : rp));
  return { ...facts, return_periods: rps, grid, slot, depths, cell_m: cellMetres(grid) };
}

/** One raster per return period, on one georeference; cells holding the no-data value are outside the map. */
export function depthMapFromRasters(layers: readonly RasterLayer[], facts: MapFacts): DepthMap {
  if (layers.length === 0) throw new Error('a raster depth map needs at least one return period');
  const sorted = [...layers].sort((a, b) => a.return_period - b.return_period);
  const first = sorted[0]!;
  for (const l of sorted) {
    if (l.width !== first.width || l.height !== first.height || l.origin_lat !== first.origin_lat || l.origin_lon !== first.origin_lon
      || l.step_lat !== first.step_lat || l.step_lon !== first.step_lon) {
      throw new Error(`the ${l.return_period}-year raster is not on the same grid as the ${first.return_period}-year one`);
    }
    if (l.values.length !== l.width * l.height) throw new Error(`the ${l.return_period}-year raster holds ${l.values.length} values, not ${l.width} × ${l.height}`);
  }
  const grid: CellGrid = {
    lat0: first.origin_lat + first.step_lat / 2, lon0: first.origin_lon + first.step_lon / 2,
    dlat: first.step_lat, dlon: first.step_lon, rows: first.height, cols: first.width,
  };
  const cells = grid.rows * grid.cols;
  const slot = new Int32Array(cells);
  const depths = sorted.map(() => new Float32Array(cells));
  for (let k = 0; k < cells; k++) {
    let missing = false;
    sorted.forEach((l, i) => {
      const v = l.values[k]!;
      if (!Number.isFinite(v) || (l.nodata !== null && v === l.nodata)) { missing = true; depths[i]![k] = Number.NaN; } else depths[i]![k] = Math.max(0, v);
    });
    slot[k] = missing ? -1 : k;
  }
  return { ...facts, return_periods: sorted.map((l) => l.return_period), grid, slot, depths, cell_m: cellMetres(grid) };
}

export interface DepthSample {
  readonly row: number;
  readonly col: number;
  /** Depth in metres per return period of the map (same order). */
  readonly depths: number[];
}

/** The depths of the cell holding (lat, lon); null when the map has no value there. */
export function sampleDepths(map: DepthMap, lat: number, lon: number): DepthSample | null {
  const { grid } = map;
  const row = Math.round((lat - grid.lat0) / grid.dlat);
  const col = Math.round((lon - grid.lon0) / grid.dlon);
  if (row < 0 || row >= grid.rows || col < 0 || col >= grid.cols) return null;
  const s = map.slot[row * grid.cols + col]!;
  if (s < 0) return null;
  return { row, col, depths: map.depths.map((d) => d[s]!) };
}

/** The map's extent: the outer edges of its cells. */
export function mapExtent(map: DepthMap): { min_lat: number; max_lat: number; min_lon: number; max_lon: number } {
  const { grid: g } = map;
  const lats = [g.lat0 - g.dlat / 2, g.lat0 + g.dlat * (g.rows - 0.5)];
  const lons = [g.lon0 - g.dlon / 2, g.lon0 + g.dlon * (g.cols - 0.5)];
  return { min_lat: Math.min(...lats), max_lat: Math.max(...lats), min_lon: Math.min(...lons), max_lon: Math.max(...lons) };
}
