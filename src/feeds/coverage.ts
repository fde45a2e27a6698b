// Whether a pinned snapshot covers a point. Checked, not approximated: a box (or a basin's box)
// holds the point, or a point feed (station, gauge, county) lies within the radius stated here and
// published with the feed in GET /feeds.
import { boxContains, haversineKm, type GeoPoint } from '../domain/geo.js';
import { coverageArea } from '../domain/hazard/coverage-area.js';
import type { Snapshot } from './store.js';

/** How far from its station, gauge or county centroid a point feed is taken to answer. */
export const POINT_COVERAGE_RADIUS_KM: Readonly<Record<string, number>> = {
  daily_series: 25,
  outage_series: 30,
};

export interface PointCoverage {
  covered: boolean;
  type: string;
  /** Point feeds: the distance from the feed's point and the radius it answers within. */
  distance_km?: number;
  radius_km?: number;
}

export function coverageRadiusKm(snapshot: Snapshot): number | undefined {
  return coverageArea(snapshot.manifest.coverage).type === 'point' ? POINT_COVERAGE_RADIUS_KM[snapshot.manifest.kind ?? ''] : undefined;
}

export function coverageOf(snapshot: Snapshot, point: GeoPoint): PointCoverage {
  const area = coverageArea(snapshot.manifest.coverage);
  const type = area.type;
  if (type === 'point') {
    if (!area.point) return { covered: false, type };
    const radius = coverageRadiusKm(snapshot);
    const distance = haversineKm(point, area.point);
    return { covered: radius !== undefined && distance <= radius, type, distance_km: distance, ...(radius !== undefined ? { radius_km: radius } : {}) };
  }
  const box = area.box;
  if (!box) return { covered: false, type };
  const range = area.longitude_range_0_360;
  if (range) {
    // Basins crossing the antimeridian state their longitudes on 0..360.
    const lon360 = point.longitude < 0 ? point.longitude + 360 : point.longitude;
    const inLat = point.latitude >= box.min_latitude && point.latitude <= box.max_latitude;
    return { covered: inLat && lon360 >= range[0] && lon360 <= range[1], type };
  }
  return { covered: boxContains(box, point), type };
}
