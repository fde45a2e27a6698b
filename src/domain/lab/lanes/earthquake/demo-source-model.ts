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
//   - Each of the 20 sampled branches draws b (truncated normal), Mmax and the ESHM20 ground-motion
//     branch; each sample year a Poisson number of ruptures at the branch's rate, each at a node
//     drawn by its share (placed uniformly in the node's cell), with a truncated GR magnitude, a
//     mechanism and a uniform strike, as a finite plane (hazard/gmpe/rupture.ts).
// The lane's fallback (source_model catalog_demonstration) since it runs on ESHM20's own sources.
// Pure: the catalog's events and box are handed in.
import { haversineKm } from '../../../geo.js';
import { estimateBValue, type BValueEstimate } from '../../../stats/gutenberg-richter.js';
import { poissonDraw } from '../../../stats/compound-poisson.js';
import { seededRandom, type SeededRandom } from '../../../stats/random.js';
import { MAGNITUDE_SCALING, planarRupture, type Mechanism } from '../../../hazard/gmpe/rupture.js';
import type { LabPlace } from '../../engine/places.js';
import { normalSource } from './fields.js';
import { MECHANISM_DEFAULTS } from './scenario-lane.js';
import { gmpeBranchAt, type GmpeLogicTree } from './eshm20-backbone.js';
import { weighted, type ModeledPlace, type RuptureSample, type SampledBranch } from './eshm20-sample.js';

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

export interface DemonstrationInput {
  readonly places: readonly LabPlace[];
  /** The ComCat catalog's events, its coverage box and the end of its period of record (YYYY-MM-DD). */
  readonly catalog: readonly CatalogQuake[];
  readonly box: Box;
  readonly periodEnd: string;
  readonly gmpeTree: GmpeLogicTree;
  readonly branches: number;
  readonly years: number;
  readonly seed: number;
}

interface DemoBranch extends SampledBranch { b: number; mmax: number }

/** The epistemic draws of every branch, from one stream: b (truncated normal), Mmax, the ESHM20 GMPE branch. */
function sampleBranches(count: number, rng: SeededRandom, fit: CatalogFit, tree: GmpeLogicTree): DemoBranch[] {
  const normal = normalSource(rng);
  const { b, standardErrorAki } = fit.estimate;
  const m = DEMO_SOURCE_MODEL;
  return Array.from({ length: count }, (_, branch) => {
    let z = normal();
    while (Math.abs(z) > m.b_sigmas_max) z = normal();
    const bValue = b + standardErrorAki * z;
    const mmax = weighted(m.mmax, rng.uniform()).value;
    const gmpe = gmpeBranchAt(tree, rng.uniform());
    const rate = truncatedGrRate(fit.rate_at_mc, m.completeness_magnitude, bValue, m.mmin, mmax);
    return { branch, b: bValue, mmax, gmpe, rate, draws: { b_value: bValue, mmax } };
  });
}

const MECHANISMS: readonly Mechanism[] = DEMO_SOURCE_MODEL.mechanisms.map((m) => m.mechanism);

/** Ruptures as columns, in branch then year order, each branch from its own stream. */
function sampleRuptures(branches: readonly DemoBranch[], years: number, seed: number, grid: SmoothedGrid): RuptureSample['ruptures'] {
  const rows: number[][] = [[], [], [], [], [], [], []];
  const m = DEMO_SOURCE_MODEL;
  for (const br of branches) {
    const rng = seededRandom(BigInt(seed) * 1_000_003n + BigInt(br.branch + 1));
    for (let y = 1; y <= years; y++) {
      const n = poissonDraw(rng, br.rate);
      for (let k = 0; k < n; k++) {
        const node = nodePosition(grid, nodeAt(grid, rng.uniform()));
        const lat = node.latitude + (rng.uniform() - 0.5) * grid.spacing;
        const lon = node.longitude + (rng.uniform() - 0.5) * grid.spacing;
        const mag = truncatedGrMagnitude(rng.uniform(), br.b, m.mmin, br.mmax);
        const mech = MECHANISMS.indexOf(weighted(m.mechanisms, rng.uniform()).mechanism);
        const strike = 360 * rng.uniform();
        const cols = [br.branch * years + y, br.branch, lat, lon, mag, strike, mech];
        for (let c = 0; c < cols.length; c++) rows[c]!.push(cols[c]!);
      }
    }
  }
  const [lats, lons, mags, strikes] = [rows[2]!, rows[3]!, rows[4]!, rows[5]!].map((c) => Float64Array.from(c)) as [Float64Array, Float64Array, Float64Array, Float64Array];
  const mechanism = Uint8Array.from(rows[6]!);
  return {
    count: rows[0]!.length, period: Int32Array.from(rows[0]!), branch: Int32Array.from(rows[1]!),
    plane: (r) => {
      const { rake, dip } = MECHANISM_DEFAULTS[MECHANISMS[mechanism[r]!]!];
      return planarRupture({ mag: mags[r]!, lat: lats[r]!, lon: lons[r]!, depth_km: m.hypocentral_depth_km, strike: strikes[r]!, dip, rake });
    },
  };
}

/** The site model: the source model's grid; a place farther than its reach from every node is unmodeled. */
function siteModel(places: readonly LabPlace[], grid: SmoothedGrid): { modeled: ModeledPlace[]; unmodeled: { index: number; reason: string }[] } {
  const reach = DEMO_SOURCE_MODEL.site_reach_km;
  const modeled: ModeledPlace[] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  for (const p of places) {
    if (p.lat === null || p.lon === null) unmodeled.push({ index: p.index, reason: 'no coordinates' });
    else if (nearestNodeKm(grid, p.lat, p.lon) > reach) unmodeled.push({ index: p.index, reason: `farther than ${reach} km from the site model's grid` });
    else modeled.push({ index: p.index, lat: p.lat, lon: p.lon, value: p.value });
  }
  return { modeled, unmodeled };
}

/** The demonstration source model's ruptures over every sampled branch and year (see the header). */
export function sampleDemonstration(input: DemonstrationInput): RuptureSample {
  const m = DEMO_SOURCE_MODEL;
  const fit = fitCatalog(input.catalog, input.periodEnd);
  const epicentres = input.catalog.filter((e) => e.type === 'earthquake' && e.magnitude !== null && e.magnitude >= m.completeness_magnitude);
  const grid = smoothedSeismicity(epicentres, input.box);
  const { modeled, unmodeled } = siteModel(input.places, grid);
  const branches = sampleBranches(input.branches, seededRandom(input.seed), fit, input.gmpeTree);
  const demonstration = `Demonstration source model, not ESHM20: smoothed seismicity and a fitted Gutenberg-Richter law from the pinned ComCat Turkey catalog (the lane's fallback to ESHM20's own source branches); places more than ${m.site_reach_km} km from its grid are unmodeled.`;
  const warnings = [demonstration];
  if (unmodeled.length > 0) warnings.push(`${unmodeled.length} place${unmodeled.length === 1 ? ' is' : 's are'} unmodeled (no coordinates, or farther than ${m.site_reach_km} km from the site model's grid).`);
  return {
    ruptures: sampleRuptures(branches, input.years, input.seed, grid),
    branches, modeled, unmodeled, demonstration, warnings,
    sourceModel: sourceModelBlock(fit, grid, input.box),
    siteModel: { grid: 'the source model\'s grid', spacing_deg: grid.spacing, reach_km: m.site_reach_km },
    assumptions: [`Ruptures: a Poisson number per year at the branch's rate of M >= ${m.mmin}, each a finite plane (${MAGNITUDE_SCALING}) at ${m.hypocentral_depth_km} km hypocentral depth.`],
  };
}

/** The result's account of the demonstration source model. */
function sourceModelBlock(fit: CatalogFit, grid: SmoothedGrid, box: Box): Record<string, unknown> {
  const m = DEMO_SOURCE_MODEL;
  return {
    kind: 'demonstration: smoothed seismicity from the pinned ComCat Turkey catalog, not ESHM20',
    b_value: {
      b: fit.estimate.b, standard_error: fit.estimate.standardErrorAki, events: fit.estimate.n, mean_magnitude: fit.estimate.meanMagnitude,
      method: `Aki (1965) maximum likelihood with Utsu's binning correction, ΔM ${m.magnitude_bin}: b = log10(e) / (mean M - (Mc - ΔM/2)); standard error b / √N`,
    },
    completeness: { magnitude: m.completeness_magnitude, from: fit.from, to: fit.to, years: fit.years, basis: 'the query\'s M 6 floor; from 1964, as the catalog\'s manifest notes completeness of the M6 floor is weaker before about then' },
    rate_at_completeness: fit.rate_at_mc,
    magnitude_frequency: `doubly truncated Gutenberg-Richter from Mmin ${m.mmin} (extrapolated below the catalog's M 6 floor) to the branch's Mmax, scaled to the catalog's rate of M >= ${m.completeness_magnitude}`,
    mmax: m.mmax,
    b_alternatives: `b + standard error × z, z standard normal redrawn until |z| <= ${m.b_sigmas_max}`,
    smoothing: {
      epicentres: grid.epicentres,
      basis: `every earthquake of M >= ${m.completeness_magnitude} in the catalog (its whole period), a Gaussian kernel of ${m.kernel_sigma_km} km standard deviation cut at ${m.kernel_cut_sigmas} standard deviations, normalised over the grid`,
    },
    grid: { box, spacing_deg: grid.spacing, nodes: grid.nLat * grid.nLon, placement: 'a rupture\'s epicentre is drawn uniformly in its node\'s cell' },
    ruptures: {
      hypocentral_depth_km: m.hypocentral_depth_km,
      mechanisms: m.mechanisms.map((x) => ({ ...x, ...MECHANISM_DEFAULTS[x.mechanism] })),
      strike: 'uniform 0 to 360 degrees',
      magnitude_scaling: MAGNITUDE_SCALING,
      tectonic_region: 'every rupture is taken as active shallow crust',
    },
  };
}
