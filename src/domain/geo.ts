// Plane and sphere geometry for boxes, gates and distances. Longitudes and latitudes in degrees.

/** Mean earth radius R1 = (2a + b)/3 of the GRS 80 / WGS 84 ellipsoid (Moritz 2000), in km. */
export const EARTH_MEAN_RADIUS_KM = 6371.0088;

export interface GeoPoint {
  readonly latitude: number;
  readonly longitude: number;
}

/**
 * A latitude/longitude box, inclusive on every edge. A box whose min_longitude is greater than its
 * max_longitude crosses the antimeridian (e.g. 170 to −170 holds 175 and −175).
 */
export interface Box {
  readonly min_latitude: number;
  readonly max_latitude: number;
  readonly min_longitude: number;
  readonly max_longitude: number;
}

/** A polygon as [longitude, latitude] vertices (GeoJSON order); closing the ring is optional. */
export type Polygon = ReadonlyArray<readonly [number, number]>;

const DEG = Math.PI / 180;

/** Great-circle distance in km by the haversine formula (Sinnott 1984) on the mean-radius sphere. */
export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.latitude - a.latitude) * DEG;
  const dLon = (b.longitude - a.longitude) * DEG;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * DEG) * Math.cos(b.latitude * DEG) * Math.sin(dLon / 2) ** 2;
  // min() guards rounding just above 1 for antipodal points.
  return 2 * EARTH_MEAN_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Longitude folded into [−180, 180); 180 becomes −180 (the same meridian). */
export function normalizeLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** Whether lon lies on the eastward arc from min to max, both ends included, modulo 360. */
export function longitudeInRange(lon: number, min: number, max: number): boolean {
  // Plain comparison first: modular arithmetic shifts values by an ulp and would drop points
  // lying exactly on an edge.
  if (min <= max && lon >= min && lon <= max) return true;
  const span = max >= min ? max - min : max - min + 360;
  if (span >= 360) return true;
  // Offset of lon east of min, in [0, 360).
  const offset = (((lon - min) % 360) + 360) % 360;
  return offset <= span;
}

/** Box containment, inclusive on every edge, antimeridian-aware in longitude. */
export function boxContains(box: Box, point: GeoPoint): boolean {
  return (
    point.latitude >= box.min_latitude &&
    point.latitude <= box.max_latitude &&
    longitudeInRange(point.longitude, box.min_longitude, box.max_longitude)
  );
}

/** Tolerance, in degrees (about 0.1 mm), for deciding that a point lies on a polygon edge. */
const ON_EDGE_TOLERANCE_DEG = 1e-9;

function onSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  const cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  const length = Math.hypot(bx - ax, by - ay);
  if (length === 0) return Math.hypot(px - ax, py - ay) <= ON_EDGE_TOLERANCE_DEG;
  if (Math.abs(cross) / length > ON_EDGE_TOLERANCE_DEG) return false;
  const dot = (px - ax) * (bx - ax) + (py - ay) * (by - ay);
  return dot >= -ON_EDGE_TOLERANCE_DEG * length && dot <= length * length + ON_EDGE_TOLERANCE_DEG * length;
}

/**
 * Point in polygon by even–odd ray casting (the PNPOLY test, W. R. Franklin), in the plane of
 * longitude and latitude. A point on an edge or vertex counts as inside. Each edge runs the short
 * way in longitude (less than 180°), so a polygon may straddle the antimeridian.
 */
export function polygonContains(polygon: Polygon, point: GeoPoint): boolean {
  if (polygon.length < 3) return false;
  // Unwrap the ring so consecutive vertices never jump by more than 180° of longitude.
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [lon, lat] of polygon) {
    const previous = xs[xs.length - 1];
    xs.push(previous === undefined ? lon : previous + normalizeLongitude(lon - previous));
    ys.push(lat);
  }
  // The unwrapped ring may extend past ±180: try the point at each of its 360° copies.
  return [-360, 0, 360].some((shift) => ringContains(xs, ys, point.longitude + shift, point.latitude));
}

function ringContains(xs: readonly number[], ys: readonly number[], px: number, py: number): boolean {
  const n = xs.length;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    const xj = xs[j]!;
    const yj = ys[j]!;
    if (onSegment(px, py, xj, yj, xi, yi)) return true;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The smallest box holding every point, or null for no points. Longitudes take the shortest covering
 * arc, so points on both sides of the antimeridian give a box with min_longitude > max_longitude.
 */
export function boundingBox(points: readonly GeoPoint[]): Box | null {
  if (points.length === 0) return null;
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (const p of points) {
    minLat = Math.min(minLat, p.latitude);
    maxLat = Math.max(maxLat, p.latitude);
  }
  const lons = [...new Set(points.map((p) => normalizeLongitude(p.longitude)))].sort((a, b) => a - b);
  // The box is the circle minus its widest empty gap; the gap across ±180 wins ties (plain box).
  let gapStart = lons.length - 1;
  let widest = lons[0]! + 360 - lons[lons.length - 1]!;
  for (let i = 0; i + 1 < lons.length; i++) {
    const gap = lons[i + 1]! - lons[i]!;
    if (gap > widest) {
      widest = gap;
      gapStart = i;
    }
  }
  const minLon = lons[(gapStart + 1) % lons.length]!;
  // −180 and 180 are one meridian; as an east edge, write it 180 so a box ending there stays plain.
  const maxLon = lons[gapStart] === -180 && minLon > -180 ? 180 : lons[gapStart]!;
  return { min_latitude: minLat, max_latitude: maxLat, min_longitude: minLon, max_longitude: maxLon };
}

/** Eastward span of a longitude range in degrees (a range with min > max crosses the antimeridian). */
const lonSpan = (min: number, max: number): number => (max >= min ? max - min : max - min + 360);
const lonOffset = (lon: number, min: number): number => (lon >= min ? lon - min : lon - min + 360);

/** Whether box `inner` lies wholly inside box `outer` (edges inclusive, antimeridian-aware). */
/** Whether box `inner` lies wholly inside `outer` (edges may coincide), antimeridian-aware. */
export function boxWithin(inner: Box, outer: Box): boolean {
  if (inner.min_latitude < outer.min_latitude || inner.max_latitude > outer.max_latitude) return false;
  const outerSpan = lonSpan(outer.min_longitude, outer.max_longitude);
  if (outerSpan >= 360) return true;
  const start = lonOffset(inner.min_longitude, outer.min_longitude) % 360;
  return start + lonSpan(inner.min_longitude, inner.max_longitude) <= outerSpan + 1e-12;
}

