// nearby_history: the largest catalogued events within a radius of a point, named by the
// publisher's event ids. Pure: the caller hands in the parsed catalog's events.
import { haversineKm, type GeoPoint } from '../geo.js';
import type { QuakeEvent, ReportEvent } from '../hazard/records.js';
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
