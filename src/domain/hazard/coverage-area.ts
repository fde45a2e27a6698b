// What area a pinned feed covers, read from its manifest's `coverage` member (feeds/README.md):
// a box, a station or county point, or a basin stating its box. The one reader of that member;
// it takes the parsed manifest's coverage (with `raw`) or the JSON object itself.
import type { Box, GeoPoint } from '../geo.js';

export interface CoverageArea {
  /** box | point | basin as the manifest says; 'none' when it states no coverage. */
  readonly type: string;
  /** The box stated (box and basin coverage), else null. */
  readonly box: Box | null;
  /** A basin crossing the antimeridian states its longitudes on 0..360. */
  readonly longitude_range_0_360: readonly [number, number] | null;
  /** The station, gauge or county centroid of point coverage, else null. */
  readonly point: GeoPoint | null;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function coverageArea(coverage: unknown): CoverageArea {
  if (typeof coverage !== 'object' || coverage === null) return { type: 'none', box: null, longitude_range_0_360: null, point: null };
  const outer = coverage as Record<string, unknown>;
  const c = (typeof outer.raw === 'object' && outer.raw !== null ? outer.raw : outer) as Record<string, unknown>;
  const type = String(c.type ?? 'none');
  const box = isNum(c.min_latitude) && isNum(c.max_latitude) && isNum(c.min_longitude) && isNum(c.max_longitude)
    ? { min_latitude: c.min_latitude, max_latitude: c.max_latitude, min_longitude: c.min_longitude, max_longitude: c.max_longitude }
    : null;
  const range = Array.isArray(c.longitude_range_0_360) && c.longitude_range_0_360.length === 2 && c.longitude_range_0_360.every(isNum)
    ? [c.longitude_range_0_360[0] as number, c.longitude_range_0_360[1] as number] as const : null;
  const point = type === 'point' && isNum(c.latitude) && isNum(c.longitude) ? { latitude: c.latitude, longitude: c.longitude } : null;
  return { type, box, longitude_range_0_360: range, point };
}
