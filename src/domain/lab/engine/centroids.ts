// Exposure points assigned to hazard centroids, as CLIMADA's Exposures.assign_centroids does for
// scattered centroids: the nearest by great-circle distance, none (-1) beyond the threshold
// (CLIMADA's default 100 km). Ties go to the lower centroid index.
import { haversineKm } from '../../geo.js';

export const DEFAULT_ASSIGN_THRESHOLD_KM = 100;

export function nearestCentroids(
  points: readonly { lat: number; lon: number }[],
  centroids: { lat: ArrayLike<number>; lon: ArrayLike<number> },
  thresholdKm: number = DEFAULT_ASSIGN_THRESHOLD_KM,
): Int32Array {
  const out = new Int32Array(points.length).fill(-1);
  points.forEach((p, i) => {
    let best = -1;
    let bestKm = Infinity;
    for (let c = 0; c < centroids.lat.length; c++) {
      const km = haversineKm({ latitude: p.lat, longitude: p.lon }, { latitude: centroids.lat[c]!, longitude: centroids.lon[c]! });
      if (km < bestKm) { bestKm = km; best = c; }
    }
    if (bestKm <= thresholdKm) out[i] = best;
  });
  return out;
}
