// The demonstration source model of the probabilistic European and Turkish earthquake lane, built
// from the pinned ComCat Turkey catalog because the ESHM20 source and site models are not pinned:
//
//   - Rate and b: the catalog's earthquakes at or above the completeness magnitude (M 6.0, the
//     query's floor) from the completeness year (1964: the manifest notes the M6 floor is weaker
//     before about then) to the end of its period of record; b by Aki (1965) maximum likelihood
//     with Utsu's binning correction (ΔM 0.1, stats/gutenberg-richter.ts), its standard error b/√N.
//   - Where: smoothed seismicity, every M >= 6 epicentre of the whole catalog (1905 on: older
//     events still say where earthquakes happen) spread by a Gaussian kernel of 50 km standard
//     deviation, cut at 3 standard deviations, over a 0.05° grid on the catalog's coverage box and
//     normalised over the grid (mass falling outside the box is given back to the nodes in it).
//   - Magnitudes: a doubly truncated Gutenberg-Richter distribution from Mmin 5.0 (extrapolated
//     below the catalog's M 6 floor) to the branch's Mmax, scaled so its rate of M >= 6 equals the
//     catalog's.
//   - The site model is the same grid: a place farther than 5 km from every node is unmodeled.
// Pure: the catalog's events and box are handed in.
import { haversineKm } from '../../../geo.js';
import { estimateBValue, type BValueEstimate } from '../../../stats/gutenberg-richter.js';

export interface Box {
  readonly min_latitude: number;
  readonly max_latitude: number;
  readonly min_longitude: number;
  readonly max_longitude: number;
}

export interface CatalogQuake {
  readonly latitude: number;
  readonly longitude: number;
  readonly magnitude: number | null;
  readonly epoch_ms: number;
  readonly type: string;
}

export const DEMO_SOURCE_MODEL = {
  completeness_magnitude: 6.0,
  completeness_from_year: 1964,
  magnitude_bin: 0.1,
  grid_spacing_deg: 0.05,
  kernel_sigma_km: 50,
  kernel_cut_sigmas: 3,
  mmin: 5.0,
  /** Mmax alternatives: the catalog's largest (M 7.8, 1939 Erzincan and 2023 Kahramanmaraş) and 0.2 either side of 8.0. */
  mmax: [{ value: 7.8, weight: 0.2 }, { value: 8.0, weight: 0.6 }, { value: 8.2, weight: 0.2 }],
  /** b alternatives: b̂ + σ_b·z, z standard normal redrawn until |z| <= 2. */
  b_sigmas_max: 2,
  hypocentral_depth_km: 10,
  /** Mechanisms of the sampled ruptures (Anatolia: strike-slip North and East Anatolian faults, Aegean extension), dip and rake by mechanism. */
  mechanisms: [{ mechanism: 'strike-slip', weight: 0.5 }, { mechanism: 'normal', weight: 0.3 }, { mechanism: 'reverse', weight: 0.2 }],
  site_reach_km: 5,
} as const;

const YEAR_MS = 365.25 * 86_400_000;

export interface CatalogFit {
  readonly estimate: BValueEstimate;
  readonly from: string;
  readonly to: string;
  readonly years: number;
  /** Earthquakes with M >= completeness per year over the complete period. */
  readonly rate_at_mc: number;
}

/** The b-value and the rate of M >= Mc over the complete period (from the completeness year to the catalog's end). */
export function fitCatalog(events: readonly CatalogQuake[], periodEnd: string): CatalogFit {
  const m = DEMO_SOURCE_MODEL;
  const fromMs = Date.UTC(m.completeness_from_year, 0, 1);
  const toMs = Date.parse(`${periodEnd}T23:59:59.999Z`);
  const mags = events.filter((e) => e.type === 'earthquake' && e.magnitude !== null && e.epoch_ms >= fromMs && e.epoch_ms <= toMs).map((e) => e.magnitude!);
  const estimate = estimateBValue(mags, m.completeness_magnitude, m.magnitude_bin);
  const years = (toMs - fromMs) / YEAR_MS;
  return { estimate, from: `${m.completeness_from_year}-01-01`, to: periodEnd, years, rate_at_mc: estimate.n / years };
}

/** A regular latitude-longitude grid with each node's share of the rate, as a cumulative sum (last = 1). */
export interface SmoothedGrid {
  readonly lat0: number;
  readonly lon0: number;
  readonly nLat: number;
  readonly nLon: number;
  readonly spacing: number;
  readonly cumulative: Float64Array;
  readonly epicentres: number;
}

const KM_PER_DEG = 111.19;

/** Gaussian-kernel smoothed seismicity of the epicentres over the box's grid (see the header). */
export function smoothedSeismicity(epicentres: readonly { latitude: number; longitude: number }[], box: Box): SmoothedGrid {
  const { grid_spacing_deg: spacing, kernel_sigma_km: sigma, kernel_cut_sigmas: cut } = DEMO_SOURCE_MODEL;
  const nLat = Math.round((box.max_latitude - box.min_latitude) / spacing) + 1;
  const nLon = Math.round((box.max_longitude - box.min_longitude) / spacing) + 1;
  const lat0 = box.min_latitude;
  const lon0 = box.min_longitude;
  const weight = new Float64Array(nLat * nLon);
  const reach = cut * sigma;
  for (const e of epicentres) {
    const dLat = reach / KM_PER_DEG;
    const dLon = reach / (KM_PER_DEG * Math.cos(Math.min(89, Math.abs(e.latitude) + dLat) * Math.PI / 180));
    const i0 = Math.max(0, Math.ceil((e.latitude - dLat - lat0) / spacing));
    const i1 = Math.min(nLat - 1, Math.floor((e.latitude + dLat - lat0) / spacing));
    const j0 = Math.max(0, Math.ceil((e.longitude - dLon - lon0) / spacing));
    const j1 = Math.min(nLon - 1, Math.floor((e.longitude + dLon - lon0) / spacing));
    for (let i = i0; i <= i1; i++) {
      const latitude = lat0 + i * spacing;
      for (let j = j0; j <= j1; j++) {
        const d = haversineKm(e, { latitude, longitude: lon0 + j * spacing });
        if (d <= reach) weight[i * nLon + j]! += Math.exp(-(d * d) / (2 * sigma * sigma));
      }
    }
  }
  const cumulative = new Float64Array(weight.length);
  let total = 0;
  for (let k = 0; k < weight.length; k++) { total += weight[k]!; cumulative[k] = total; }
  if (!(total > 0)) throw new Error('smoothed seismicity: no epicentre within reach of the grid');
  for (let k = 0; k < cumulative.length; k++) cumulative[k] = cumulative[k]! / total;
  cumulative[cumulative.length - 1] = 1;
  return { lat0, lon0, nLat, nLon, spacing, cumulative, epicentres: epicentres.length };
}

/** The node a uniform draw u in [0, 1) falls on (the first whose cumulative share exceeds u). */
export function nodeAt(grid: SmoothedGrid, u: number): number {
  const c = grid.cumulative;
  let lo = 0;
  let hi = c.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c[mid]! > u) hi = mid; else lo = mid + 1;
  }
  return lo;
}

export function nodePosition(grid: SmoothedGrid, k: number): { latitude: number; longitude: number } {
  return { latitude: grid.lat0 + Math.floor(k / grid.nLon) * grid.spacing, longitude: grid.lon0 + (k % grid.nLon) * grid.spacing };
}

/** The node's share of the rate (the cumulative sum's step at k). */
export function nodeShare(grid: SmoothedGrid, k: number): number {
  return grid.cumulative[k]! - (k > 0 ? grid.cumulative[k - 1]! : 0);
}

/** Distance (km) from a place to the nearest grid node: the rounded row and column, clamped to the grid. */
export function nearestNodeKm(grid: SmoothedGrid, latitude: number, longitude: number): number {
  const i = Math.min(grid.nLat - 1, Math.max(0, Math.round((latitude - grid.lat0) / grid.spacing)));
  const j = Math.min(grid.nLon - 1, Math.max(0, Math.round((longitude - grid.lon0) / grid.spacing)));
  return haversineKm({ latitude, longitude }, { latitude: grid.lat0 + i * grid.spacing, longitude: grid.lon0 + j * grid.spacing });
}

/**
 * Annual rate of M >= mmin of a Gutenberg-Richter law truncated at mmin and mmax whose rate of
 * M >= mRef is rateRef: N(>=m) = N(>=mmin)·(10^(-b(m-mmin)) - 10^(-b(mmax-mmin))) / (1 - 10^(-b(mmax-mmin))).
 */
export function truncatedGrRate(rateRef: number, mRef: number, b: number, mmin: number, mmax: number): number {
  const tail = 10 ** (-b * (mmax - mmin));
  return rateRef * (1 - tail) / (10 ** (-b * (mRef - mmin)) - tail);
}

/** The magnitude at a uniform draw u in [0, 1) of the doubly truncated Gutenberg-Richter distribution (inverse CDF). */
export function truncatedGrMagnitude(u: number, b: number, mmin: number, mmax: number): number {
  const tail = 10 ** (-b * (mmax - mmin));
  return mmin - Math.log10(1 - u * (1 - tail)) / b;
}
