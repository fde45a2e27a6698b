// Exposures assigned to hazard centroids as CLIMADA's Exposures.assign_centroids does
// (climada/entity/exposures/base.py, through climada/util/coordinates.py match_centroids and
// match_coordinates, CLIMADA 6 at bb95959):
//   - a point whose (lat, lon) equals a centroid's exactly takes that centroid;
//   - the others take their nearest centroid by the distance asked: "euclidean" (CLIMADA's default:
//     straight-line distance in degrees of latitude and longitude, _nearest_neighbor_euclidean) or
//     "haversine" (great-circle angle in degrees, _nearest_neighbor_haversine);
//   - beyond the threshold (degrees) a point takes none (-1), and so takes no impact;
//   - the default threshold is twice the centroids' resolution (estimate_matching_threshold: 2 ×
//     the larger of the smallest latitude and longitude steps between neighbouring centroids, as
//     get_resolution_1d reads them); threshold 0 assigns exact matches only;
//   - with "euclidean", points within 1.5 thresholds of the antimeridian are matched again by
//     great-circle angle against the centroids within 2.5 thresholds of it
//     (_nearest_neighbor_antimeridian), the antimeridian being 180° from the middle of the
//     longitudes seen.
// A kilometre threshold is converted as CLIMADA's km_to_degree does: rad2deg(km / 6371).
// Where two centroids are equally near, the lower index is taken (CLIMADA's k-d tree leaves it open).

export type AssignDistance = 'euclidean' | 'haversine';

/** climada.util.constants.EARTH_RADIUS_KM. */
export const EARTH_RADIUS_KM = 6371;

/** climada.util.coordinates.km_to_degree. */
export function kmToDegree(km: number): number {
  return (km / EARTH_RADIUS_KM) * (180 / Math.PI);
}

/**
 * get_resolution_1d: the smallest step between sorted distinct coordinates (above 1e-8) that is
 * also a step between two neighbours in the given order; undefined when there is none.
 */
export function resolution1d(coords: ArrayLike<number>, minResol = 1e-8): number | undefined {
  const sorted = Float64Array.from(coords).sort();
  const steps = new Set<number>();
  for (let i = 1; i < coords.length; i++) steps.add(Math.abs(coords[i]! - coords[i - 1]!));
  let best: number | undefined;
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) continue;
    let j = i - 1;
    while (j > 0 && sorted[j - 1] === sorted[j]) j--;
    const step = sorted[i]! - sorted[i - 1]!;
    if (step > minResol && steps.has(step) && (best === undefined || step < best)) best = step;
  }
  return best;
}

/** estimate_matching_threshold: twice the larger resolution of latitude and longitude; undefined when CLIMADA raises. */
export function defaultThreshold(lat: ArrayLike<number>, lon: ArrayLike<number>): number | undefined {
  if (lat.length < 2) return undefined;
  const rLat = resolution1d(lat);
  const rLon = resolution1d(lon);
  if (rLat === undefined || rLon === undefined) return undefined;
  return 2 * Math.max(Math.abs(rLat), Math.abs(rLon));
}

const RAD = Math.PI / 180;

/** Great-circle angle between two points, in degrees (BallTree's haversine metric, rad2deg). */
export function greatCircleDegrees(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const s1 = Math.sin(((lat2 - lat1) * RAD) / 2);
  const s2 = Math.sin(((lon2 - lon1) * RAD) / 2);
  const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  return (2 * Math.asin(Math.min(1, Math.sqrt(a)))) / RAD;
}

/** Centroids bucketed on a square grid of degrees, for the nearest one in straight-line degrees. */
class CentroidGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly size: number;
  private readonly lat0: number;
  private readonly lon0: number;
  private readonly span: number;
  private readonly rings: number;

  constructor(private readonly lat: ArrayLike<number>, private readonly lon: ArrayLike<number>, within: number) {
    let latLo = Infinity, latHi = -Infinity, lonLo = Infinity, lonHi = -Infinity;
    for (let c = 0; c < lat.length; c++) {
      latLo = Math.min(latLo, lat[c]!); latHi = Math.max(latHi, lat[c]!);
      lonLo = Math.min(lonLo, lon[c]!); lonHi = Math.max(lonHi, lon[c]!);
    }
    // About four centroids a cell over the box they fill, or along the line they fill; never so
    // small that a search out to the threshold walks more than 16 rings.
    const n = Math.max(lat.length, 1);
    this.size = Math.max(Math.sqrt((4 * (latHi - latLo) * (lonHi - lonLo)) / n), (4 * Math.max(latHi - latLo, lonHi - lonLo)) / n, within / 16, 1e-9);
    this.lat0 = latLo;
    this.lon0 = lonLo;
    this.span = Math.ceil((lonHi - lonLo) / this.size) + 3;
    this.rings = Math.max(this.span, Math.ceil((latHi - latLo) / this.size) + 3);
    for (let c = 0; c < lat.length; c++) {
      const key = this.key(this.row(lat[c]!), this.col(lon[c]!));
      const list = this.cells.get(key);
      if (list) list.push(c); else this.cells.set(key, [c]);
    }
  }

  private row(lat: number) { return Math.floor((lat - this.lat0) / this.size); }
  private col(lon: number) { return Math.floor((lon - this.lon0) / this.size); }
  private key(r: number, c: number) { return r * this.span + c; }

  /** The nearest centroid within `within` degrees (straight line), the lower index on a tie; -1 when none. */
  nearest(lat: number, lon: number, within: number): { index: number; distance: number } {
    const r0 = this.row(lat), c0 = this.col(lon);
    let best = -1, bestD = Infinity;
    const cMin = -1, cMax = this.span - 2;
    for (let ring = 0; ; ring++) {
      for (let r = r0 - ring; r <= r0 + ring; r++) {
        // The ring's perimeter only: its first and last rows whole, the sides of the rows between.
        const edge = r === r0 - ring || r === r0 + ring;
        for (let c = edge ? c0 - ring : c0 - ring; c <= c0 + ring; c += edge || ring === 0 ? 1 : 2 * ring) {
          if (c < cMin || c > cMax) continue;
          const list = this.cells.get(this.key(r, c));
          if (!list) continue;
          for (const i of list) {
            const dLat = this.lat[i]! - lat, dLon = this.lon[i]! - lon;
            const d = Math.sqrt(dLat * dLat + dLon * dLon);
            if (d < bestD || (d === bestD && i < best)) { bestD = d; best = i; }
          }
        }
      }
      // Every cell of the next ring lies at least ring × size away.
      // Past every cell, only the query's distance from the box is left: nothing nearer remains.
      if (ring * this.size > Math.min(bestD, within) || (ring > this.rings && Math.abs(r0) + Math.abs(c0) < ring)) break;
    }
    return { index: bestD <= within ? best : -1, distance: bestD };
  }
}

/** The nearest centroid by great-circle angle among `candidates` (all when undefined), within `within` degrees. */
function nearestByAngle(lat: number, lon: number, cLat: ArrayLike<number>, cLon: ArrayLike<number>, byLat: Int32Array, within: number): number {
  let best = -1, bestD = Infinity;
  // Latitude difference is a lower bound of the angle: only centroids within it are measured.
  let lo = 0, hi = byLat.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (cLat[byLat[m]!]! < lat - within) lo = m + 1; else hi = m; }
  for (let k = lo; k < byLat.length; k++) {
    const i = byLat[k]!;
    if (cLat[i]! > lat + Math.min(bestD, within)) break;
    const d = greatCircleDegrees(lat, lon, cLat[i]!, cLon[i]!);
    if (d < bestD || (d === bestD && i < best)) { bestD = d; best = i; }
  }
  return bestD <= within ? best : -1;
}

function latOrder(lat: ArrayLike<number>, members?: readonly number[]): Int32Array {
  const idx = members ? Int32Array.from(members) : Int32Array.from({ length: lat.length }, (_, i) => i);
  return idx.sort((a, b) => lat[a]! - lat[b]! || a - b);
}

export interface Assignment {
  centroid: Int32Array;
  /** Points matched exactly, by nearest neighbour, and left without a centroid. */
  exact: number;
  nearest: number;
  unassigned: number;
}

/** match_coordinates over exposure points and hazard centroids (see the header). */
export function assignCentroids(
  points: { lat: ArrayLike<number>; lon: ArrayLike<number> },
  centroids: { lat: ArrayLike<number>; lon: ArrayLike<number> },
  distance: AssignDistance,
  threshold: number,
): Assignment {
  const n = points.lat.length;
  const out = new Int32Array(n).fill(-1);
  if (centroids.lat.length === 0) return { centroid: out, exact: 0, nearest: 0, unassigned: n };
  // The same coordinates in the same order: each point is its own centroid (np.array_equal).
  if (n === centroids.lat.length && Array.from({ length: n }, (_, i) => i).every((i) => points.lat[i] === centroids.lat[i] && points.lon[i] === centroids.lon[i])) {
    return { centroid: Int32Array.from({ length: n }, (_, i) => i), exact: n, nearest: 0, unassigned: 0 };
  }
  const exactAt = new Map<string, number>();
  for (let c = centroids.lat.length - 1; c >= 0; c--) exactAt.set(`${centroids.lat[c]},${centroids.lon[c]}`, c);
  const rest: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = exactAt.get(`${points.lat[i]},${points.lon[i]}`);
    if (c !== undefined) out[i] = c; else rest.push(i);
  }
  const exact = n - rest.length;
  if (threshold > 0 && rest.length > 0) {
    if (distance === 'haversine') {
      const byLat = latOrder(centroids.lat);
      for (const i of rest) out[i] = nearestByAngle(points.lat[i]!, points.lon[i]!, centroids.lat, centroids.lon, byLat, threshold);
    } else {
      const grid = new CentroidGrid(centroids.lat, centroids.lon, threshold);
      for (const i of rest) out[i] = grid.nearest(points.lat[i]!, points.lon[i]!, threshold).index;
      antimeridian(points, centroids, rest, threshold, out);
    }
  }
  let unassigned = 0;
  for (let i = 0; i < n; i++) if (out[i] === -1) unassigned++;
  return { centroid: out, exact, nearest: n - exact - unassigned, unassigned };
}

/** _nearest_neighbor_antimeridian: the strips on either side of the antimeridian matched again by great-circle angle. */
function antimeridian(points: { lat: ArrayLike<number>; lon: ArrayLike<number> }, centroids: { lat: ArrayLike<number>; lon: ArrayLike<number> }, rest: readonly number[], threshold: number, out: Int32Array): void {
  let lo = Infinity, hi = -Infinity;
  for (let c = 0; c < centroids.lon.length; c++) { lo = Math.min(lo, centroids.lon[c]!); hi = Math.max(hi, centroids.lon[c]!); }
  for (const i of rest) { lo = Math.min(lo, points.lon[i]!); hi = Math.max(hi, points.lon[i]!); }
  const meridian = 0.5 * (hi + lo) + 180;
  const inStrip = (lon: number, width: number) => lon + meridian < width * threshold || lon - meridian > -width * threshold;
  const strip = rest.filter((i) => inStrip(points.lon[i]!, 1.5));
  if (strip.length === 0) return;
  const near: number[] = [];
  for (let c = 0; c < centroids.lon.length; c++) if (inStrip(centroids.lon[c]!, 2.5)) near.push(c);
  if (near.length === 0) return;
  const byLat = latOrder(centroids.lat, near);
  for (const i of strip) out[i] = nearestByAngle(points.lat[i]!, points.lon[i]!, centroids.lat, centroids.lon, byLat, threshold);
}
