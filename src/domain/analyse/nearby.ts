// nearby_history: the largest catalogued events within a radius of a point, named by the
// publisher's event ids. Pure: the caller hands in the parsed catalog's events.
import { haversineKm, type GeoPoint } from '../geo.js';
import type { QuakeEvent, ReportEvent, Storm } from '../hazard/records.js';
import { compareText } from '../hazard/summary-common.js';

export interface NearbyEvent {
  readonly event_id: string;
  readonly time: string | null;
  readonly date: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly distance_km: number;
  /** Quakes: the magnitude and its type; reports and fires: the value in the extract's unit. */
  readonly magnitude?: number;
  readonly mag_type?: string;
  readonly value?: number;
  readonly unit?: string;
}

/**
 * The `limit` largest events within radiusKm (inclusive) of the point: by magnitude or value, ties
 * by time then event id. Events with no position or no magnitude (value) are not ranked.
 */
export function largestNear(events: readonly (QuakeEvent | ReportEvent)[], point: GeoPoint, radiusKm: number, limit: number): { within: number; largest: NearbyEvent[] } {
  const near: Array<{ size: number; out: NearbyEvent }> = [];
  for (const e of events) {
    const size = 'magnitude' in e ? e.magnitude : e.value;
    if (e.latitude === null || e.longitude === null || size === null || !Number.isFinite(size)) continue;
    const distance = haversineKm(point, { latitude: e.latitude, longitude: e.longitude });
    if (distance > radiusKm) continue;
    const common = { event_id: e.event_id, latitude: e.latitude, longitude: e.longitude, distance_km: distance };
    near.push({
      size,
      out: 'magnitude' in e
        ? { ...common, time: e.time, date: e.time.slice(0, 10), magnitude: size, mag_type: e.mag_type }
        : { ...common, time: e.time, date: e.date, value: size, unit: e.unit },
    });
  }
  near.sort((a, b) => b.size - a.size || compareText(a.out.time ?? a.out.date, b.out.time ?? b.out.date) || compareText(a.out.event_id, b.out.event_id));
  return { within: near.length, largest: near.slice(0, limit).map((n) => n.out) };
}

const KM_PER_DEGREE_MIN = 110.5;

/** Each storm's box of fixes (min lat, max lat, min lon, max lon), four numbers a storm. */
export function stormExtents(storms: readonly Pick<Storm, 'fixes'>[]): Float64Array {
  const out = new Float64Array(storms.length * 4);
  storms.forEach((s, i) => {
    let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
    for (const f of s.fixes) {
      if (f.latitude < minLat) minLat = f.latitude;
      if (f.latitude > maxLat) maxLat = f.latitude;
      if (f.longitude < minLon) minLon = f.longitude;
      if (f.longitude > maxLon) maxLon = f.longitude;
    }
    out.set([minLat, maxLat, minLon, maxLon], i * 4);
  });
  return out;
}

/**
 * The storms that may pass within radiusKm of the point: those whose box of fixes, widened by the
 * radius, holds it (track samples lie between fixes). A screen only, never stricter than the track
 * summary's own: storms spanning more than 180 degrees of longitude are always kept.
 */
export function stormsNear<S>(storms: readonly S[], extents: Float64Array, point: GeoPoint, radiusKm: number): S[] {
  const dLat = radiusKm / KM_PER_DEGREE_MIN;
  const out: S[] = [];
  for (let i = 0; i < storms.length; i += 1) {
    const minLat = extents[i * 4]!, maxLat = extents[i * 4 + 1]!, minLon = extents[i * 4 + 2]!, maxLon = extents[i * 4 + 3]!;
    if (!(minLat <= maxLat)) continue; // no fixes
    if (maxLon - minLon > 180) { out.push(storms[i]!); continue; }
    if (point.latitude < minLat - dLat || point.latitude > maxLat + dLat) continue;
    const highest = Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat), Math.abs(point.latitude)) + dLat);
    const dLon = radiusKm / (KM_PER_DEGREE_MIN * Math.cos((highest * Math.PI) / 180));
    const west = minLon - dLon;
    const east = maxLon + dLon;
    const lon = point.longitude;
    if ((lon >= west && lon <= east) || (lon - 360 >= west && lon - 360 <= east) || (lon + 360 >= west && lon + 360 <= east)) out.push(storms[i]!);
  }
  return out;
}
