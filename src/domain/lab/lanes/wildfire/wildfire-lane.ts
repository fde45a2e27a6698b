// The wildfire lane: no burn-probability raster is pinned, so an empirical annual burn probability is
// derived per grid cell from the pinned MTBS mapped-fire lists: each fire's mapped burned area is
// placed in the cell holding its MTBS point of origin (the point its Event_ID encodes; the lists carry
// no perimeters), summed per cell and ignition year, each year's sum capped at the cell's area, and
// the yearly burned fractions averaged over every year of the record (years without a fire count as
// zero). Only unplanned fires count (Incid_Type Wildfire and Wildland Fire Use); prescribed fires and
// those of unknown type are left out. This is an empirical estimate from mapped fires (MTBS maps fires
// of about 1,000 acres and more in the West), not a fire-behaviour simulation.
//
// No average annual loss is given (SPEC): the only loss figure is a ceiling, burn probability × value.

import { placesOf, type PlaceExposure } from '../../engine/places.js';
import type { MapIdentity } from '../flood/depth-map.js';

export const BURN_CELL_DEG = 0.25;
export const COUNTED_FIRE_TYPES = ['Wildfire', 'Wildland Fire Use'] as const;
const KM2_PER_ACRE = 0.0040468564224;
const EARTH_RADIUS_KM = 6371.0088;

export interface MappedFire {
  readonly event_id: string;
  readonly lat: number | null;
  readonly lon: number | null;
  readonly acres: number | null;
  /** Ignition year. */
  readonly year: number;
  readonly type: string;
}

export interface FireRegion {
  readonly identity: MapIdentity;
  readonly name: string;
  readonly box: { min_latitude: number; max_latitude: number; min_longitude: number; max_longitude: number };
  /** Ignition years of the record, inclusive. */
  readonly first_year: number;
  readonly last_year: number;
  readonly fires: readonly MappedFire[];
}

export interface BurnCell {
  readonly row: number;
  readonly col: number;
  /** Burn probability per year (mean burned fraction of the cell). */
  readonly burn_probability: number;
  readonly fires: number;
  readonly burned_acres: number;
  readonly area_km2: number;
  readonly years_with_fire: number;
}

export interface BurnGrid {
  readonly cell_deg: number;
  readonly first_year: number;
  readonly last_year: number;
  readonly years: number;
  readonly cells: ReadonlyMap<string, BurnCell>;
  readonly fires_counted: number;
  readonly fires_left_out: { readonly not_unplanned: number; readonly no_point_or_area: number; readonly duplicates: number };
}

/** The cell (row, col) of a point on the lane's grid (cells of cell_deg from 0°, 0°). */
export function burnCellOf(lat: number, lon: number, cellDeg = BURN_CELL_DEG): { row: number; col: number } {
  return { row: Math.floor(lat / cellDeg), col: Math.floor(lon / cellDeg) };
}

/** A cell's area on the sphere, km². */
export function cellAreaKm2(row: number, cellDeg = BURN_CELL_DEG): number {
  const rad = Math.PI / 180;
  const lat1 = row * cellDeg * rad;
  const lat2 = (row + 1) * cellDeg * rad;
  return EARTH_RADIUS_KM * EARTH_RADIUS_KM * cellDeg * rad * Math.abs(Math.sin(lat2) - Math.sin(lat1));
}

/** The empirical burn probability of every cell holding a counted fire (see the header for the method). */
export function burnGrid(regions: readonly FireRegion[], cellDeg = BURN_CELL_DEG): BurnGrid {
  const first = Math.min(...regions.map((r) => r.first_year));
  const last = Math.max(...regions.map((r) => r.last_year));
  const years = regions.length === 0 ? 0 : last - first + 1;
  const seen = new Set<string>();
  const byCellYear = new Map<string, Map<number, { acres: number; fires: number }>>();
  let counted = 0;
  const left = { not_unplanned: 0, no_point_or_area: 0, duplicates: 0 };
  for (const region of regions) {
    for (const f of region.fires) {
      if (seen.has(f.event_id)) { left.duplicates++; continue; }
      seen.add(f.event_id);
      if (!(COUNTED_FIRE_TYPES as readonly string[]).includes(f.type)) { left.not_unplanned++; continue; }
      if (f.lat === null || f.lon === null || f.acres === null || !(f.acres > 0)) { left.no_point_or_area++; continue; }
      const { row, col } = burnCellOf(f.lat, f.lon, cellDeg);
      const key = `${row}:${col}`;
      let yearsOf = byCellYear.get(key);
      if (!yearsOf) byCellYear.set(key, (yearsOf = new Map()));
      const y = yearsOf.get(f.year) ?? { acres: 0, fires: 0 };
      y.acres += f.acres;
      y.fires++;
      yearsOf.set(f.year, y);
      counted++;
    }
  }
  const cells = new Map<string, BurnCell>();
  for (const [key, yearsOf] of byCellYear) {
    const [row, col] = key.split(':').map(Number) as [number, number];
    const area = cellAreaKm2(row, cellDeg);
    let fractions = 0;
    let fires = 0;
    let acres = 0;
    for (const y of yearsOf.values()) {
      fractions += Math.min(1, (y.acres * KM2_PER_ACRE) / area);
      fires += y.fires;
      acres += y.acres;
    }
    cells.set(key, { row, col, burn_probability: years > 0 ? fractions / years : 0, fires, burned_acres: acres, area_km2: area, years_with_fire: yearsOf.size });
  }
  return { cell_deg: cellDeg, first_year: first, last_year: last, years, cells, fires_counted: counted, fires_left_out: left };
}

function inBox(box: FireRegion['box'], lat: number, lon: number): boolean {
  return lat >= box.min_latitude && lat <= box.max_latitude && lon >= box.min_longitude && lon <= box.max_longitude;
}

export const WILDFIRE_UNMODELED_REASONS: Readonly<Record<string, string>> = {
  outside_regions: 'The place lies outside the boxes of the pinned mapped-fire lists (five western US regions).',
  no_coordinates: 'The location has no latitude and longitude.',
  no_fire_list_pinned: 'No mapped-fire list is pinned here.',
};

export interface WildfireOptions {
  readonly model: { id: string; version: string; label: string };
  readonly regions: readonly FireRegion[];
}

/** Runs the wildfire lane: each modeled place's cell burn probability and its loss ceiling. */
export function runWildfire(exposure: PlaceExposure, options: WildfireOptions, grid: BurnGrid = burnGrid(options.regions)): Record<string, unknown> {
  const places = placesOf(exposure);
  const unmodeled: { index: number; reason: string }[] = [];
  const rows: Record<string, unknown>[] = [];
  let ceiling = 0;
  let value = 0;
  for (const p of places) {
    if (p.lat === null || p.lon === null) { unmodeled.push({ index: p.index, reason: 'no_coordinates' }); continue; }
    if (options.regions.length === 0) { unmodeled.push({ index: p.index, reason: 'no_fire_list_pinned' }); continue; }
    const regions = options.regions.filter((r) => inBox(r.box, p.lat!, p.lon!));
    if (regions.length === 0) { unmodeled.push({ index: p.index, reason: 'outside_regions' }); continue; }
    const { row, col } = burnCellOf(p.lat, p.lon, grid.cell_deg);
    const cell = grid.cells.get(`${row}:${col}`);
    const bp = cell?.burn_probability ?? 0;
    ceiling += bp * p.value;
    value += p.value;
    rows.push({
      index: p.index, lat: p.lat, lon: p.lon, value: p.value,
      regions: regions.map((r) => r.identity.feed_id),
      cell: { row, col, min_lat: row * grid.cell_deg, min_lon: col * grid.cell_deg, area_km2: cell?.area_km2 ?? cellAreaKm2(row, grid.cell_deg) },
      fires_in_cell: cell?.fires ?? 0,
      burned_acres_in_cell: cell?.burned_acres ?? 0,
      years_with_fire: cell?.years_with_fire ?? 0,
      burn_probability: bp,
      loss_ceiling: bp * p.value,
    });
  }
  const reasons: Record<string, string> = {};
  for (const u of unmodeled) reasons[u.reason] = WILDFIRE_UNMODELED_REASONS[u.reason]!;
  const edge = rows.some((r) => {
    const c = r.cell as { min_lat: number; min_lon: number };
    const box = (lat: number, lon: number) => options.regions.some((g) => inBox(g.box, lat, lon));
    return !(box(c.min_lat, c.min_lon) && box(c.min_lat + grid.cell_deg, c.min_lon) && box(c.min_lat, c.min_lon + grid.cell_deg) && box(c.min_lat + grid.cell_deg, c.min_lon + grid.cell_deg));
  });
  const warnings = [
    'An empirical estimate from mapped fires (MTBS maps fires of about 1,000 acres and more in the western US), not a fire-behaviour simulation: small fires, fire spread across cells and the burn probability inside a cell are not resolved.',
  ];
  if (edge) warnings.push('Some places lie in a cell that reaches outside the pinned regions\' boxes: fires starting outside the boxes are not in the lists, so those cells\' probabilities are understated.');
  const years = new Set(options.regions.map((r) => `${r.first_year}-${r.last_year}`));
  if (years.size > 1) warnings.push(`The pinned lists cover different years (${[...years].join(', ')}); every cell is averaged over ${grid.first_year}-${grid.last_year}.`);
  return {
    lane: 'wildfire',
    model: { ...options.model, engine: 'this service (empirical burn probability from MTBS mapped fires)' },
    maps_read: options.regions.map((r) => ({
      feed_id: r.identity.feed_id, version: r.identity.version, sha256: r.identity.sha256, files_read: r.identity.files_read ?? [],
      ...(r.identity.credit_line ? { credit_line: r.identity.credit_line } : {}),
      region: r.name, box: r.box, years: { from: r.first_year, to: r.last_year }, fires: r.fires.length,
    })),
    burn_probability: {
      basis: 'empirical: mapped burned area per cell-year over the record',
      cell_deg: grid.cell_deg,
      record_years: { from: grid.first_year, to: grid.last_year, years: grid.years },
      fire_types_counted: [...COUNTED_FIRE_TYPES],
      fires_counted: grid.fires_counted,
      fires_left_out: grid.fires_left_out,
    },
    exposure: { places: places.length, modeled: rows.length, value_modeled: value },
    unmodeled: { count: unmodeled.length, places: unmodeled, reasons },
    aal: null,
    no_aal: 'No average annual loss is given: burning is not damage, and no fire-behaviour or vulnerability model is run. The only loss figure is a ceiling, burn probability × value.',
    loss_ceiling: rows.length > 0 ? ceiling : null,
    places: rows,
    method: [
      `Grid: cells of ${grid.cell_deg}° latitude × ${grid.cell_deg}° longitude from 0°, 0° (about ${Math.round(grid.cell_deg * 111.2)} km north-south); a cell's area on the sphere.`,
      'Each fire\'s mapped burned area (BurnBndAc) is placed whole in the cell holding its MTBS point of origin (decoded from Event_ID; the lists carry no perimeters), so a large fire\'s area lands in one cell.',
      `Burn probability of a cell = the mean over the ${grid.years} ignition years ${grid.first_year}-${grid.last_year} of min(1, burned area that year / cell area); years without a fire are zeros.`,
      `Counted: Incid_Type ${COUNTED_FIRE_TYPES.join(' and ')}; left out: Prescribed Fire and Unknown. A fire listed in two regions is counted once (by Event_ID).`,
      'A place is modeled when it lies inside the box of a pinned list; it takes its cell\'s probability (0 when no counted fire started in the cell).',
      'Loss ceiling = burn probability × value: the expected yearly value exposed to burning, an upper bound on the expected loss.',
    ],
    warnings,
  };
}
