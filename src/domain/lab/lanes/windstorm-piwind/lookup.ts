// Keys locations into Oasis items the way the PiWind built-in lookup (lookup_config.json, OasisLMF
// "new_lookup") does, in its strategy order:
//
//   1. split_loc_perils_covered: LocPerilsCovered split on ';', each code expanded through the OED
//      peril groups (WW1 → WTC, WSS; AA1 → all...), kept only when it is a model peril (WTC, WSS).
//   2. rtree (peril step): per peril, the point (lon, lat) against that peril's area-peril polygons,
//      boundaries counting as inside (a spatial join on "intersects"); nearest_neighbor_min_distance
//      is -1, so a point in no polygon gets no area-peril (no nearest fallback).
//   3. simple_pivot: one row per coverage type of the pivot list (1 buildings, 3 contents).
//   4. merge on vulnerability_dict (peril_id, coverage_type, occupancycode) → vulnerability_id.
//
// Then, as the framework's GUL inputs do, items whose coverage value is zero are dropped (buildings
// take the building value, contents the contents value).
//
// Stated departures (edge cases only): codes in LocPerilsCovered are trimmed and upper-cased (the
// framework matches them as written); a location is keyed once per peril even when two codes name the
// same peril (the framework's explode/drop_duplicates can leave such a duplicate); a point exactly on
// an edge shared by two cells takes the lower area-peril id (a spatial join returns both, which would
// double the item). A point outside the model's grid (the extent of its area-peril cells, edges
// inclusive) is in no cell; it is reported as outside the footprint rather than as a cell miss.

import type { AreaPerilCell, GridExtent, PiwindModel } from './piwind-model.js';
import type { AreaPerilLookup, KeyedPortfolio, UnmodeledPlace } from '../../engine/model-data.js';
import type { LabLocation } from '../../engine/places.js';

/** LocPerilsCovered when a location states none: WW1, windstorm with storm surge (both model perils). */
export const DEFAULT_PERILS_COVERED = 'WW1';
/** OED occupancy default (OEDInputFields: OccupancyCode default 1000) for a location stating none. */
export const DEFAULT_OCCUPANCY_CODE = 1000;
/** Bare points: the value is the buildings value of a residential (OED 1050) location covering WW1. */
export const POINT_OCCUPANCY_CODE = 1050;

export type UnmodeledReason =
  | 'no_coordinates'
  | 'outside_demonstration_footprint'
  | 'no_model_peril_covered'
  | 'no_insured_value'
  | 'no_area_peril'
  | 'no_vulnerability';

export const UNMODELED_REASONS: Readonly<Record<UnmodeledReason, string>> = {
  no_coordinates: 'the place has no usable latitude and longitude',
  outside_demonstration_footprint: 'the place is outside the model\'s grid (the extent of its area-peril cells, edges included; GET /models caps.footprint), so no cell holds it',
  no_model_peril_covered: 'LocPerilsCovered names neither wind (WTC) nor storm surge (WSS), directly or through an OED peril group',
  no_insured_value: 'the place has no positive buildings or contents value',
  no_area_peril: 'the point falls in no area-peril cell of a covered peril (no nearest-cell fallback)',
  no_vulnerability: 'vulnerability_dict has no vulnerability for the occupancy code with a covered peril and valued coverage',
};

/** The windstorm lane's keyed portfolio: the kernel's, with its own reasons for unmodeled places. */
export type PiwindKeyedPortfolio = KeyedPortfolio<UnmodeledReason>;

function inCell(cell: AreaPerilCell, lon: number, lat: number): boolean {
  if (lon < cell.min_lon || lon > cell.max_lon || lat < cell.min_lat || lat > cell.max_lat) return false;
  if (cell.rectangle) return true;
  return inPolygon(cell.corners, lon, lat);
}

/** Point in a polygon given by its corners (ordered round the centroid), boundary inclusive. */
function inPolygon(corners: [number, number][], x: number, y: number): boolean {
  const cx = corners.reduce((s, c) => s + c[0], 0) / corners.length;
  const cy = corners.reduce((s, c) => s + c[1], 0) / corners.length;
  const ring = [...corners].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (cross === 0 && x >= Math.min(xi, xj) && x <= Math.max(xi, xj) && y >= Math.min(yi, yj) && y <= Math.max(yi, yj)) return true;
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Perils of the model a LocPerilsCovered text covers, in the model's peril order. */
export function coveredModelPerils(model: PiwindModel, text: string | null | undefined): string[] {
  const raw = text === null || text === undefined || text.trim() === '' ? DEFAULT_PERILS_COVERED : text;
  const named = new Set<string>();
  for (const part of raw.split(';')) {
    const code = part.trim().toUpperCase();
    if (code === '') continue;
    for (const p of model.perilGroups.get(code) ?? []) named.add(p);
  }
  return model.lookup.modelPerils.filter((p) => named.has(p));
}

/** The area-peril cell a point falls in for a peril (lowest id on a shared edge), or null. */
export function findCell(model: PiwindModel, peril: string, lon: number, lat: number): { cell: AreaPerilCell; ties: number } | null {
  const list = model.cells.get(peril);
  if (!list) return null;
  let found: AreaPerilCell | null = null;
  let ties = 0;
  for (const cell of list) {
    if (!inCell(cell, lon, lat)) continue;
    if (found === null) found = cell;
    else ties++;
  }
  return found ? { cell: found, ties } : null;
}

/** Inside the grid's extent, edges inclusive (the same comparison a cell's bounds use). */
export function insideExtent(extent: GridExtent | null, lat: number, lon: number): boolean {
  return extent !== null && lat >= extent.min_lat && lat <= extent.max_lat && lon >= extent.min_lon && lon <= extent.max_lon;
}

function value(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Keys every location; unmodeled places carry the first reason that stopped them. */
export const keyLocations: AreaPerilLookup<PiwindModel, LabLocation, UnmodeledReason> = (model, locations) => {
  const perils = model.lookup.modelPerils;
  const covTypes = model.lookup.coverageTypes;
  const nC = covTypes.length;
  const locPlace: number[] = [];
  const locItemStart: number[] = [0];
  const covTiv: number[] = [];
  const itemPeril: number[] = [];
  const itemCov: number[] = [];
  const itemAp: number[] = [];
  const itemVuln: number[] = [];
  const itemVulnId: number[] = [];
  const itemTiv: number[] = [];
  const unmodeled: UnmodeledPlace<UnmodeledReason>[] = [];
  const dropped = { zero_value: 0, no_area_peril: 0, no_vulnerability: 0, boundary_ties: 0 };

  locations.forEach((loc, index) => {
    const lat = loc.latitude;
    const lon = loc.longitude;
    if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      unmodeled.push({ index, reason: 'no_coordinates' });
      return;
    }
    if (!insideExtent(model.extent, lat, lon)) {
      unmodeled.push({ index, reason: 'outside_demonstration_footprint' });
      return;
    }
    const covered = coveredModelPerils(model, loc.perils_covered);
    if (covered.length === 0) {
      unmodeled.push({ index, reason: 'no_model_peril_covered' });
      return;
    }
    const tivs = covTypes.map((ct) => (ct === 1 ? value(loc.buildings_value) : ct === 3 ? value(loc.contents_value) : 0));
    if (tivs.every((t) => t === 0)) {
      unmodeled.push({ index, reason: 'no_insured_value' });
      return;
    }
    const occupancy = typeof loc.occupancy_code === 'number' && Number.isFinite(loc.occupancy_code) ? loc.occupancy_code : DEFAULT_OCCUPANCY_CODE;
    const start = itemPeril.length;
    let anyCell = false;
    for (const peril of covered) {
      const hit = findCell(model, peril, lon, lat);
      if (!hit) {
        dropped.no_area_peril += nC;
        continue;
      }
      anyCell = true;
      if (hit.ties > 0) dropped.boundary_ties++;
      for (let c = 0; c < nC; c++) {
        const vid = model.vulnerabilityDict.get(`${peril}|${covTypes[c]}|${occupancy}`);
        if (vid === undefined) {
          dropped.no_vulnerability++;
          continue;
        }
        if (tivs[c] === 0) {
          dropped.zero_value++;
          continue;
        }
        itemPeril.push(perils.indexOf(peril));
        itemCov.push(c);
        itemAp.push(hit.cell.areaperil_id);
        itemVuln.push(model.vulnerability.index.get(vid) ?? -1);
        itemVulnId.push(vid);
        itemTiv.push(tivs[c]!);
      }
    }
    if (itemPeril.length === start) {
      // Some coverage is valued (checked above), so with a cell every valued coverage lacked a vulnerability.
      unmodeled.push({ index, reason: anyCell ? 'no_vulnerability' : 'no_area_peril' });
      return;
    }
    locPlace.push(index);
    locItemStart.push(itemPeril.length);
    for (let c = 0; c < nC; c++) covTiv.push(tivs[c]!);
  });

  return {
    placeCount: locations.length,
    perils: [...perils],
    coverageTypes: [...covTypes],
    locPlace: Int32Array.from(locPlace),
    locItemStart: Int32Array.from(locItemStart),
    covTiv: Float64Array.from(covTiv),
    itemPeril: Uint8Array.from(itemPeril),
    itemCoverage: Uint8Array.from(itemCov),
    itemAreaperil: Int32Array.from(itemAp),
    itemVulnerability: Int32Array.from(itemVuln),
    itemVulnerabilityId: Int32Array.from(itemVulnId),
    itemTiv: Float64Array.from(itemTiv),
    unmodeled,
    dropped,
  };
};
