// The exposure of the lanes that read places as points with a value (flood, wildfire): bare points
// {lat, lon, value}, or a stored object's schedule as locations (the value of a location is its
// buildings value plus its contents value; a location without coordinates is unmodeled, not refused).

/** A stored schedule's location as the lab reads it (the lanes state their own defaults for what is absent). */
export interface LabLocation {
  ref?: string | null;
  latitude: number | null;
  longitude: number | null;
  /** LocPerilsCovered text, e.g. "WTC;WSS" or "WW1". */
  perils_covered?: string | null;
  /** OED occupancy code. */
  occupancy_code?: number | null;
  buildings_value?: number | null;
  contents_value?: number | null;
  other_value?: number | null;
  bi_value?: number | null;
  /** The location's OED fields, when the object keeps them (financial/object-terms.ts reads its terms there). */
  oed?: Readonly<Record<string, string | number>> | null;
}

export interface LabPlace {
  readonly index: number;
  readonly lat: number | null;
  readonly lon: number | null;
  readonly value: number;
}

export interface LabPoint {
  readonly lat: number;
  readonly lon: number;
  readonly value: number;
}

export type PlaceExposure = { points: LabPoint[] } | { locations: LabLocation[] };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Reads {points: [{lat, lon, value}]}, naming each fault in `details`; the points when there is none. */
export function readPoints(exposure: unknown, details: string[]): LabPoint[] {
  const ex = exposure as Record<string, unknown> | undefined;
  if (typeof ex !== 'object' || ex === null || Array.isArray(ex) || !Array.isArray(ex.points) || Object.keys(ex).length !== 1) {
    details.push('exposure must be {points: [{lat, lon, value}]} or {object_id}');
    return [];
  }
  const out: LabPoint[] = [];
  (ex.points as unknown[]).forEach((p, i) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) { details.push(`exposure.points[${i}] must be an object`); return; }
    const o = p as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => !['lat', 'lon', 'value'].includes(k));
    if (extra.length > 0) details.push(`exposure.points[${i}] has unknown member ${extra.join(', ')} (a point has lat, lon, value)`);
    if (!finite(o.lat) || o.lat < -90 || o.lat > 90) details.push(`exposure.points[${i}].lat must be a latitude`);
    if (!finite(o.lon) || o.lon < -180 || o.lon > 180) details.push(`exposure.points[${i}].lon must be a longitude`);
    if (!finite(o.value) || o.value < 0) details.push(`exposure.points[${i}].value must be a non-negative number`);
    out.push({ lat: o.lat as number, lon: o.lon as number, value: o.value as number });
  });
  return out;
}

/** The places of a run's exposure, in order. */
export function placesOf(exposure: PlaceExposure): LabPlace[] {
  if ('points' in exposure) return exposure.points.map((p, index) => ({ index, lat: p.lat, lon: p.lon, value: p.value }));
  return exposure.locations.map((l, index) => ({
    index,
    lat: finite(l.latitude) ? l.latitude : null,
    lon: finite(l.longitude) ? l.longitude : null,
    value: (finite(l.buildings_value) ? l.buildings_value : 0) + (finite(l.contents_value) ? l.contents_value : 0),
  }));
}
