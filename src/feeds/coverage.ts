// Whether a pinned snapshot covers a point. Checked, not approximated: a box (or a basin's box)
// holds the point, or a point feed (station, gauge, county) lies within the radius stated here and
// published with the feed in GET /feeds.
import { boxContains, haversineKm, type GeoPoint } from '../domain/geo.js';
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
  return snapshot.manifest.coverage?.type === 'point' ? POINT_COVERAGE_RADIUS_KM[snapshot.manifest.kind ?? ''] : undefined;
}

export function coverageOf(snapshot: Snapshot, point: GeoPoint): PointCoverage {
  const c = snapshot.manifest.coverage?.raw as Record<string, unknown> | undefined;
  const type = String(c?.type ?? 'none');
  if (!c) return { covered: false, type };
  if (type === 'point') {
    const radius = coverageRadiusKm(snapshot);
    const distance = haversineKm(point, { latitude: Number(c.latitude), longitude: Number(c.longitude) });
    return { covered: radius !== undefined && distance <= radius, type, distance_km: distance, ...(radius !== undefined ? { radius_km: radius } : {}) };
  }
  if (typeof c.min_latitude !== 'number') return { covered: false, type };
  const range = c.longitude_range_0_360 as [number, number] | undefined;
  if (range) {
    // Basins crossing the antimeridian state their longitudes on 0..360.
    const lon360 = point.longitude < 0 ? point.longitude + 360 : point.longitude;
    const inLat = point.latitude >= (c.min_latitude as number) && point.latitude <= (c.max_latitude as number);
    return { covered: inLat && lon360 >= range[0] && lon360 <= range[1], type };
  }
  const box = { min_latitude: c.min_latitude as number, max_latitude: c.max_latitude as number, min_longitude: c.min_longitude as number, max_longitude: c.max_longitude as number };
  return { covered: boxContains(box, point), type };
}
