// The probabilistic European and Turkish earthquake lane (SPEC: Model lab): an event-based engine in
// the manner of OpenQuake's event-based risk calculator. 20 logic-tree branches are sampled (seeded)
// from the epistemic alternatives (b-value, Mmax, ESHM20 ground-motion branch); each branch samples
// 500 years of ruptures (20 x 500 = 10,000 sample years): a Poisson number per year at the branch's
// rate, each at a grid node drawn by its smoothed-seismicity share (placed uniformly in the node's
// cell), with a truncated Gutenberg-Richter magnitude, a mechanism and a uniform strike, as a finite
// plane (hazard/gmpe/rupture.ts). Each rupture gets one ground-motion field at the places within
// 200 km (Rjb): the branch's model mean, a between-event residual and Jayaram and Baker (2009)
// correlated within-event residuals (fields.ts); loss by the building class's GEM vulnerability
// function (mean loss ratio), through the loss engine's item ground up into its event loss table.
// Metrics in lab-metrics/1 over the 10,000 years.
//
// The source and site models are the demonstration ones of demo-source-model.ts, not ESHM20: every
// result says so. Pure: the catalog, the GMPE tree and the vulnerability function are handed in.
import { poissonDraw } from '../../../stats/compound-poisson.js';
import { seededRandom, type SeededRandom } from '../../../stats/random.js';
import { distancesTo, MAGNITUDE_SCALING, planarRupture, type Mechanism } from '../../../hazard/gmpe/rupture.js';
import { imtName, type Gmpe, type GmpeContext, type Imt, type Site } from '../../../hazard/gmpe/types.js';
import { computeMetrics } from '../../engine/metrics.js';
import { EventLossTable, itemGroundUp, type Vulnerability } from '../../engine/loss-engine.js';
import type { LabPlace } from '../../engine/places.js';
import { correlationFactor, normalSource, SPATIAL_CORRELATION } from './fields.js';
import { MECHANISM_DEFAULTS } from './scenario-lane.js';
import { meanLossRatio, VULNERABILITY_LICENCE, type VulnerabilityFunction } from './vulnerability.js';
import { BACKBONE_NOTE, backboneOf, gmpeBranchAt, type GmpeLogicTree } from './eshm20-backbone.js';
import {
  DEMO_SOURCE_MODEL, fitCatalog, nearestNodeKm, nodeAt, nodePosition, smoothedSeismicity, truncatedGrMagnitude, truncatedGrRate,
  type Box, type CatalogQuake,
} from './demo-source-model.js';

export const ESHM20_BRANCHES = 20;
export const ESHM20_YEARS_PER_BRANCH = 500;
export const ESHM20_PLACES_MAX = 500;
export const ESHM20_SEED = 20_200_101;
/** Ruptures farther than this (Rjb, km) from a place give it no ground motion (OpenQuake's maximum_distance). */
export const ESHM20_REACH_KM = 200;
/** Every place's Vs30 (m/s): ESHM20's reference rock; no site-condition data are pinned. */
export const SITE_VS30 = 800;

/**
 * The lane's eleven building classes: spec id -> GEM taxonomy string of a pinned structural
 * vulnerability function (residential occupancy; the id ends in the number of storeys).
 */
export const BUILDING_CLASSES = [
  { id: 'rc_infilled_frame_low_code_2', taxonomy: 'CR/LFINF+CDL+DUL/H2/RES', label: 'reinforced-concrete infilled frame, low code, low ductility, 2 storeys' },
  { id: 'rc_infilled_frame_moderate_code_4', taxonomy: 'CR/LFINF+CDM+DUM/H4/RES', label: 'reinforced-concrete infilled frame, moderate code, medium ductility, 4 storeys' },
  { id: 'rc_infilled_frame_moderate_code_7', taxonomy: 'CR/LFINF+CDM+DUM/H7/RES', label: 'reinforced-concrete infilled frame, moderate code, medium ductility, 7 storeys' },
  { id: 'rc_infilled_frame_high_code_4', taxonomy: 'CR/LFINF+CDH+DUH/H4/RES', label: 'reinforced-concrete infilled frame, high code, high ductility, 4 storeys' },
  { id: 'rc_wall_moderate_code_6', taxonomy: 'CR/LWAL+CDM+DUM/H6/RES', label: 'reinforced-concrete wall, moderate code, medium ductility, 6 storeys' },
  { id: 'rc_dual_high_code_8', taxonomy: 'CR/LDUAL+CDH+DUH/H8/RES', label: 'reinforced-concrete dual frame-wall, high code, high ductility, 8 storeys' },
  { id: 'brick_masonry_unreinforced_2', taxonomy: 'MUR+CLBRH/LWAL+DNO/H2/RES', label: 'unreinforced hollow clay-brick masonry walls, non-ductile, 2 storeys' },
  { id: 'dressed_stone_masonry_unreinforced_2', taxonomy: 'MUR+STDRE/LWAL+DNO/H2/RES', label: 'unreinforced dressed-stone masonry walls, non-ductile, 2 storeys' },
  { id: 'rubble_stone_masonry_unreinforced_1', taxonomy: 'MUR+STRUB/LWAL+DNO/H1/RES', label: 'unreinforced rubble-stone masonry walls, non-ductile, 1 storey' },
  { id: 'steel_moment_frame_moderate_code_4', taxonomy: 'S/LFM+CDM+DUM/H4/RES', label: 'steel moment frame, moderate code, medium ductility, 4 storeys' },
  { id: 'wood_frame_moderate_code_2', taxonomy: 'W/LFM+CDM+DUM/H2/RES', label: 'wood moment frame, moderate code, medium ductility, 2 storeys' },
] as const;

export type BuildingClassId = (typeof BUILDING_CLASSES)[number]['id'];

/** building_class read (required, one of the eleven), every fault named in details. */
export function readBuildingClass(spec: Readonly<Record<string, unknown>>, details: string[]): BuildingClassId {
  const found = BUILDING_CLASSES.find((c) => c.id === spec.building_class);
  if (!found) {
    details.push(`building_class must be one of ${BUILDING_CLASSES.map((c) => c.id).join(', ')} (GET /models lists them with their GEM taxonomy strings)`);
    return BUILDING_CLASSES[0].id;
  }
  return found.id;
}

export interface Eshm20Input {
  readonly places: readonly LabPlace[];
  readonly buildingClass: BuildingClassId;
  /** The class's pinned structural vulnerability function. */
  readonly vulnerability: VulnerabilityFunction;
  /** The ComCat catalog's events, its coverage box and the end of its period of record (YYYY-MM-DD). */
  readonly catalog: readonly CatalogQuake[];
  readonly box: Box;
  readonly periodEnd: string;
  readonly gmpeTree: GmpeLogicTree;
  readonly seed?: number;
  /** The engine's size (the lane always runs 20 x 500; smaller only in tests of the engine). */
  readonly branches?: number;
  readonly yearsPerBranch?: number;
  /** Told how many ruptures have their losses, of all, now and then (a job's progress). */
  readonly onRuptures?: (done: number, total: number) => void;
}

interface SampledBranch {
  branch: number;
  b: number;
  mmax: number;
  gmpe: number;
  rate_mmin: number;
}

function weighted<T extends { weight: number }>(choices: readonly T[], u: number): T {
  let acc = 0;
  for (const c of choices) { acc += c.weight; if (u < acc) return c; }
  return choices[choices.length - 1]!;
}

/** The epistemic draws of every branch, from one stream: b (truncated normal), Mmax, the ESHM20 GMPE branch. */
function sampleBranches(count: number, rng: SeededRandom, fit: ReturnType<typeof fitCatalog>, tree: GmpeLogicTree): SampledBranch[] {
  const normal = normalSource(rng);
  const { b, standardErrorAki } = fit.estimate;
  const m = DEMO_SOURCE_MODEL;
  return Array.from({ length: count }, (_, branch) => {
    let z = normal();
    while (Math.abs(z) > m.b_sigmas_max) z = normal();
    const bValue = b + standardErrorAki * z;
    const mmax = weighted(m.mmax, rng.uniform()).value;
    const gmpe = gmpeBranchAt(tree, rng.uniform());
    return { branch, b: bValue, mmax, gmpe, rate_mmin: truncatedGrRate(fit.rate_at_mc, m.completeness_magnitude, bValue, m.mmin, mmax) };
  });
}

/** Ruptures as columns (one entry per sampled rupture, in branch then year order). */
interface Ruptures {
  count: number;
  period: Int32Array;
  branch: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  mag: Float64Array;
  strike: Float64Array;
  mechanism: Uint8Array;
}

const MECHANISMS: readonly Mechanism[] = DEMO_SOURCE_MODEL.mechanisms.map((m) => m.mechanism);

function sampleRuptures(branches: readonly SampledBranch[], years: number, seed: number, grid: ReturnType<typeof smoothedSeismicity>): Ruptures {
  const rows: number[][] = [[], [], [], [], [], [], []];
  const m = DEMO_SOURCE_MODEL;
  for (const br of branches) {
    // Each branch its own stream, so a branch's ruptures do not depend on the others'.
    const rng = seededRandom(BigInt(seed) * 1_000_003n + BigInt(br.branch + 1));
    for (let y = 1; y <= years; y++) {
      const n = poissonDraw(rng, br.rate_mmin);
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
  return {
    count: rows[0]!.length,
    period: Int32Array.from(rows[0]!), branch: Int32Array.from(rows[1]!),
    lat: Float64Array.from(rows[2]!), lon: Float64Array.from(rows[3]!), mag: Float64Array.from(rows[4]!),
    strike: Float64Array.from(rows[5]!), mechanism: Uint8Array.from(rows[6]!),
  };
}

const KM_PER_DEG = 111.19;

interface ModeledPlace {
  index: number;
  lat: number;
  lon: number;
  value: number;
}

/** The site model: the source model's grid; a place farther than its reach from every node is unmodeled. */
function siteModel(places: readonly LabPlace[], grid: ReturnType<typeof smoothedSeismicity>): { modeled: ModeledPlace[]; unmodeled: { index: number; reason: string }[] } {
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

/** The ground motion's median and variability at the places one rupture reaches. */
interface RuptureReach {
  /** near[0..count): the places within reach. */
  count: number;
  near: Int32Array;
  mean: Float64Array;
  tau: Float64Array;
  phi: Float64Array;
}

/** The hazard stage of one rupture: its plane, then its branch's model at each place within reach (Rjb). */
function ruptureReach(ruptures: Ruptures, r: number, gmpe: Gmpe, modeled: readonly ModeledPlace[], imt: Imt, reach: RuptureReach): void {
  const m = DEMO_SOURCE_MODEL;
  const mech = MECHANISMS[ruptures.mechanism[r]!]!;
  const { rake, dip } = MECHANISM_DEFAULTS[mech];
  const rupture = planarRupture({ mag: ruptures.mag[r]!, lat: ruptures.lat[r]!, lon: ruptures.lon[r]!, depth_km: m.hypocentral_depth_km, strike: ruptures.strike[r]!, dip, rake });
  // Screen by latitude first (a place more than reach + the rupture's extent north or south is out of reach).
  const extent = ESHM20_REACH_KM + rupture.length_km / 2 + rupture.width_km;
  const ruptureCtx = { mag: rupture.mag, rake, dip, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: m.hypocentral_depth_km };
  let count = 0;
  for (let i = 0; i < modeled.length; i++) {
    const p = modeled[i]!;
    if (Math.abs(p.lat - rupture.hypocentre.lat) * KM_PER_DEG > extent) continue;
    const d = distancesTo(rupture, { latitude: p.lat, longitude: p.lon });
    if (d.rjb > ESHM20_REACH_KM) continue;
    const ctx: GmpeContext = { rupture: ruptureCtx, site: SITE, distances: d };
    const gm = gmpe.predict(ctx, imt);
    reach.near[count++] = i;
    reach.mean[i] = gm.mean;
    reach.tau[i] = gm.tau;
    reach.phi[i] = gm.phi;
  }
  reach.count = count;
}

const SITE: Site = { vs30: SITE_VS30, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false };

interface RuptureLosses {
  table: EventLossTable;
  branchLoss: Float64Array;
  branchRuptures: Int32Array;
  reaching: number;
}

/**
 * Hazard × vulnerability → ground up, rupture by rupture: one ground-motion field at the places the
 * rupture reaches (a between-event draw, correlated within-event draws), each place's loss at it
 * through the class's vulnerability, and the rupture's losses into the event loss table.
 */
function ruptureLosses(input: Eshm20Input, ruptures: Ruptures, gmpes: readonly Gmpe[], modeled: readonly ModeledPlace[], branchCount: number, seed: number): RuptureLosses {
  const fn = input.vulnerability;
  const imt = fn.imt;
  const n = modeled.length;
  const factor = n > 0 ? correlationFactor(modeled.map((p) => ({ latitude: p.lat, longitude: p.lon })), imt) : new Float64Array(0);
  // Residuals from their own stream, drawn only for ruptures reaching a place (which ones is fixed by the spec).
  const normal = normalSource(seededRandom(BigInt(seed) * 1_000_003n));
  const vulnerability: Vulnerability = (im) => meanLossRatio(fn, im);
  const out: RuptureLosses = { table: new EventLossTable(n), branchLoss: new Float64Array(branchCount), branchRuptures: new Int32Array(branchCount), reaching: 0 };
  const reach: RuptureReach = { count: 0, near: new Int32Array(n), mean: new Float64Array(n), tau: new Float64Array(n), phi: new Float64Array(n) };
  const z = new Float64Array(n);
  const lossAt = new Float64Array(n);
  for (let r = 0; r < ruptures.count; r++) {
    const br = ruptures.branch[r]!;
    out.branchRuptures[br]!++;
    if ((r + 1) % 2000 === 0) input.onRuptures?.(r + 1, ruptures.count);
    if (n === 0) continue;
    ruptureReach(ruptures, r, gmpes[br]!, modeled, imt, reach);
    const count = reach.count;
    if (count === 0) continue;
    out.reaching++;
    const eta = normal();
    for (let k = 0; k < n; k++) z[k] = normal();
    for (let c = 0; c < count; c++) {
      const i = reach.near[c]!;
      let eps = 0;
      const row = i * n;
      for (let k = 0; k <= i; k++) eps += factor[row + k]! * z[k]!;
      lossAt[c] = itemGroundUp(modeled[i]!.value, vulnerability, Math.exp(reach.mean[i]! + reach.tau[i]! * eta + reach.phi[i]! * eps));
    }
    const eventLoss = out.table.record(r + 1, ruptures.period[r]!, reach.near, lossAt, count);
    if (eventLoss > 0) out.branchLoss[br]! += eventLoss;
  }
  input.onRuptures?.(ruptures.count, ruptures.count);
  return out;
}

export function runEshm20(input: Eshm20Input): Record<string, unknown> {
  const seed = input.seed ?? ESHM20_SEED;
  const branchCount = input.branches ?? ESHM20_BRANCHES;
  const years = input.yearsPerBranch ?? ESHM20_YEARS_PER_BRANCH;
  const periods = branchCount * years;
  const m = DEMO_SOURCE_MODEL;

  const fit = fitCatalog(input.catalog, input.periodEnd);
  const epicentres = input.catalog.filter((e) => e.type === 'earthquake' && e.magnitude !== null && e.magnitude >= m.completeness_magnitude);
  const grid = smoothedSeismicity(epicentres, input.box);
  const { modeled, unmodeled } = siteModel(input.places, grid);

  const branches = sampleBranches(branchCount, seededRandom(seed), fit, input.gmpeTree);
  const ruptures = sampleRuptures(branches, years, seed, grid);
  const gmpes = branches.map((b) => backboneOf(input.gmpeTree.branches[b.gmpe]!));
  const losses = ruptureLosses(input, ruptures, gmpes, modeled, branchCount, seed);
  const table = losses.table;

  const demonstration = `Demonstration source model, not ESHM20: smoothed seismicity and a fitted Gutenberg-Richter law from the pinned ComCat Turkey catalog (the ESHM20 source and site models are not pinned); places more than ${m.site_reach_km} km from its grid are unmodeled.`;
  const warnings = [demonstration, `Ground motion: ${BACKBONE_NOTE}.`];
  if (unmodeled.length > 0) warnings.push(`${unmodeled.length} place${unmodeled.length === 1 ? ' is' : 's are'} unmodeled (no coordinates, or farther than ${m.site_reach_km} km from the site model's grid).`);
  if (years < 1000 && periods >= 1000) warnings.push(`Each ${1000}-year block spans ${1000 / years} logic-tree branches of ${years} years: the block spread mixes epistemic and sampling variation.`);
  const metrics = computeMetrics({
    perspective: 'gul',
    lossBasis: 'ground-up structural loss: value × mean loss ratio of the building class\'s vulnerability function at the place\'s sampled ground motion, one field per rupture',
    periods,
    eventLosses: table.eventLosses,
    occurrences: table.occurrences,
    places: table.places((i) => modeled[i]!.index),
    assumptions: [
      `Sample years: ${branchCount} logic-tree branches sampled by weight (seed ${seed}), each with ${years} years; period p belongs to branch ⌈p / ${years}⌉.`,
      `Ruptures: a Poisson number per year at the branch's rate of M >= ${m.mmin}, each a finite plane (${MAGNITUDE_SCALING}) at ${m.hypocentral_depth_km} km hypocentral depth.`,
      'Each rupture is one event with one ground-motion field; events are numbered by their order of sampling.',
    ],
    warnings,
  });

  return {
    lane: 'probabilistic_earthquake_europe',
    demonstration,
    source_model: sourceModelBlock(fit, grid, input.box),
    site_model: { grid: 'the source model\'s grid', spacing_deg: grid.spacing, reach_km: m.site_reach_km, vs30: SITE_VS30, vs30_basis: 'ESHM20\'s reference rock for every place: no site-condition data are pinned' },
    ground_motion: groundMotionBlock(input, gmpes),
    sample: { branches: branchCount, years_per_branch: years, sample_years: periods, ruptures: ruptures.count, ruptures_reaching_places: losses.reaching, events_with_loss: table.eventLosses.length, seed },
    branches: branches.map((b) => ({
      branch: b.branch + 1, first_period: b.branch * years + 1, last_period: (b.branch + 1) * years,
      b_value: b.b, mmax: b.mmax, gmpe_branch: input.gmpeTree.branches[b.gmpe]!.branch_id,
      rate_m_min: b.rate_mmin, ruptures: losses.branchRuptures[b.branch]!, aal: losses.branchLoss[b.branch]! / years,
    })),
    vulnerability: vulnerabilityBlock(input),
    exposure: { places: input.places.length, modeled: modeled.length, unmodeled: unmodeled.length },
    unmodeled: { count: unmodeled.length, places: unmodeled },
    metrics,
    licence: VULNERABILITY_LICENCE,
  };
}

/** The result's account of the demonstration source model. */
function sourceModelBlock(fit: ReturnType<typeof fitCatalog>, grid: ReturnType<typeof smoothedSeismicity>, box: Box): Record<string, unknown> {
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

/** The result's account of the ground-motion model: the ESHM20 tree, its backbone and the field's variability. */
function groundMotionBlock(input: Eshm20Input, gmpes: readonly Gmpe[]): Record<string, unknown> {
  return {
    imt: imtName(input.vulnerability.imt), unit: 'g',
    logic_tree: { tree_id: input.gmpeTree.tree_id, tectonic_region: input.gmpeTree.tectonic_region, branches: input.gmpeTree.branches.map((b) => ({ branch_id: b.branch_id, gsim: b.gsim, args: b.args, weight: b.weight })) },
    evaluated_with: gmpes[0]?.citation ?? null,
    backbone: BACKBONE_NOTE,
    variability: 'ln(ground motion) = model mean + tau × eta (one draw per rupture) + phi × epsilon (correlated between places)',
    spatial_correlation: SPATIAL_CORRELATION,
    reach_km: ESHM20_REACH_KM,
    reach_basis: 'a place farther than this from a rupture (Joyner-Boore distance) gets no ground motion from it',
  };
}

/** The result's account of the building class's vulnerability function. */
function vulnerabilityBlock(input: Eshm20Input): Record<string, unknown> {
  const cls = BUILDING_CLASSES.find((c) => c.id === input.buildingClass)!;
  const fn = input.vulnerability;
  return {
    building_class: cls.id, taxonomy: cls.taxonomy, label: cls.label, function_id: fn.id, imt: imtName(fn.imt),
    method: 'mean loss ratio read linearly between the function\'s intensity levels, 0 below the first, held at the last; its coefficient of variation is not sampled',
    licence: VULNERABILITY_LICENCE,
  };
}
