// The probabilistic European and Turkish earthquake lane (SPEC: Model lab): an event-based engine in
// the manner of OpenQuake's event-based risk calculator. 20 logic-tree branches are sampled (seeded),
// each with 500 years of ruptures (20 x 500 = 10,000 sample years) from the run's source model:
// by default ESHM20's own published area-source branch, or its fault-source branch
// (eshm20-source-sampling.ts over eshm20-sources.ts: OpenQuake's rules for truncated GR rates, area
// sources and floating fault ruptures), or the catalog-derived demonstration model kept as a
// fallback (demo-source-model.ts). Each branch draws its ESHM20 ground-motion branch by weight. Each
// rupture gets one ground-motion field at the places within 200 km (Rjb): the branch's model mean, a
// between-event residual and Jayaram and Baker (2009) correlated within-event residuals (fields.ts);
// loss by the building class's GEM vulnerability function (mean loss ratio), through the loss
// engine's item ground up into its event loss table. Metrics in lab-metrics/1 over the 10,000 years.
// Pure: the source model, the GMPE tree and the vulnerability function are handed in.
import { seededRandom } from '../../../stats/random.js';
import { distancesTo } from '../../../hazard/gmpe/rupture.js';
import { imtName, type Gmpe, type GmpeContext, type Imt, type Site } from '../../../hazard/gmpe/types.js';
import { computeMetrics } from '../../engine/metrics.js';
import { EventLossTable, itemGroundUp, type Vulnerability } from '../../engine/loss-engine.js';
import type { LabPlace } from '../../engine/places.js';
import { correlationFactor, normalSource, SPATIAL_CORRELATION } from './fields.js';
import { meanLossRatio, VULNERABILITY_LICENCE, type VulnerabilityFunction } from './vulnerability.js';
import { BACKBONE_NOTE, backboneOf, type GmpeLogicTree } from './eshm20-backbone.js';
import { sampleDemonstration, type Box, type CatalogQuake } from './demo-source-model.js';
import { sampleEshm20Sources, type Eshm20SourceKind } from './eshm20-source-sampling.js';
import type { SourceModel } from './eshm20-sources.js';
import type { ModeledPlace, RuptureSample, SampledRuptures } from './eshm20-sample.js';
import { termsPerspectives, type PlaceTerms, type TermsLosses } from '../../engine/place-terms.js';

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

/** The source models a run may take: ESHM20's area-source branch (the default), its fault-source branch, or the catalog-derived fallback. */
export const SOURCE_MODELS = ['eshm20_area_sources', 'eshm20_fault_sources', 'catalog_demonstration'] as const;
export type SourceModelId = (typeof SOURCE_MODELS)[number];
export const DEFAULT_SOURCE_MODEL: SourceModelId = 'eshm20_area_sources';

/** source_model read (optional, one of the three), every fault named in details. */
export function readSourceModel(spec: Readonly<Record<string, unknown>>, details: string[]): SourceModelId {
  if (spec.source_model === undefined) return DEFAULT_SOURCE_MODEL;
  const found = SOURCE_MODELS.find((s) => s === spec.source_model);
  if (!found) details.push(`source_model must be one of ${SOURCE_MODELS.join(', ')}`);
  return found ?? DEFAULT_SOURCE_MODEL;
}

/** Where the ruptures come from: one of ESHM20's published source branches, or the catalog-derived demonstration model. */
export type Eshm20Source =
  | { readonly kind: Eshm20SourceKind; readonly model: SourceModel; readonly file: string }
  | { readonly kind: 'catalog_demonstration'; readonly catalog: readonly CatalogQuake[]; readonly box: Box; readonly periodEnd: string };

export interface Eshm20Input {
  readonly places: readonly LabPlace[];
  readonly buildingClass: BuildingClassId;
  /** The class's pinned structural vulnerability function. */
  readonly vulnerability: VulnerabilityFunction;
  readonly source: Eshm20Source;
  readonly gmpeTree: GmpeLogicTree;
  readonly seed?: number;
  /** The engine's size (the lane always runs 20 x 500; smaller only in tests of the engine). */
  readonly branches?: number;
  readonly yearsPerBranch?: number;
  /** Told how many ruptures have their losses, of all, now and then (a job's progress). */
  readonly onRuptures?: (done: number, total: number) => void;
  /** A stored object's OED terms (engine/place-terms.ts), applied rupture by rupture. */
  readonly terms?: PlaceTerms | null;
}

const KM_PER_DEG = 111.19;

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
function ruptureReach(ruptures: SampledRuptures, r: number, gmpe: Gmpe, modeled: readonly ModeledPlace[], imt: Imt, reach: RuptureReach): void {
  const rupture = ruptures.plane(r);
  // Screen by latitude first (a place more than reach + the rupture's extent north or south is out of reach).
  const extent = ESHM20_REACH_KM + rupture.length_km / 2 + rupture.width_km;
  const ruptureCtx = { mag: rupture.mag, rake: rupture.rake, dip: rupture.dip, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: rupture.hypocentre.depth_km };
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
  /** With terms: the insured and net loss of every event the table lists, in its order. */
  insured: TermsLosses | null;
}

/**
 * Hazard × vulnerability → ground up, rupture by rupture: one ground-motion field at the places the
 * rupture reaches (a between-event draw, correlated within-event draws), each place's loss at it
 * through the class's vulnerability, and the rupture's losses into the event loss table.
 */
function ruptureLosses(input: Eshm20Input, ruptures: SampledRuptures, gmpes: readonly Gmpe[], modeled: readonly ModeledPlace[], branchCount: number, seed: number): RuptureLosses {
  const fn = input.vulnerability;
  const imt = fn.imt;
  const n = modeled.length;
  const factor = n > 0 ? correlationFactor(modeled.map((p) => ({ latitude: p.lat, longitude: p.lon })), imt) : new Float64Array(0);
  // Residuals from their own stream, drawn only for ruptures reaching a place (which ones is fixed by the spec).
  const normal = normalSource(seededRandom(BigInt(seed) * 1_000_003n));
  const vulnerability: Vulnerability = (im) => meanLossRatio(fn, im);
  const terms = input.terms ?? null;
  const insured: TermsLosses | null = terms ? { il: [], ri: [], placeIl: new Float64Array(terms.places), placeRi: new Float64Array(terms.places) } : null;
  const out: RuptureLosses = { table: new EventLossTable(n), branchLoss: new Float64Array(branchCount), branchRuptures: new Int32Array(branchCount), reaching: 0, insured };
  const objectIndex = new Int32Array(n);
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
    if (eventLoss > 0 && terms && insured) {
      // Each rupture occurs once, in its period: its places' insured and net losses count once.
      for (let c = 0; c < count; c++) objectIndex[c] = modeled[reach.near[c]!]!.index;
      const t = terms.event(objectIndex, lossAt, 0, count, insured.placeIl, insured.placeRi);
      insured.il.push({ event_id: r + 1, loss: t.il });
      insured.ri.push({ event_id: r + 1, loss: t.ri });
    }
  }
  input.onRuptures?.(ruptures.count, ruptures.count);
  return out;
}

/** The ruptures of the run's source model, its branches' draws and the places it models. */
function sampleOf(input: Eshm20Input, branches: number, years: number, seed: number): RuptureSample {
  const common = { places: input.places, gmpeTree: input.gmpeTree, branches, years, seed };
  const src = input.source;
  return src.kind === 'catalog_demonstration'
    ? sampleDemonstration({ ...common, catalog: src.catalog, box: src.box, periodEnd: src.periodEnd })
    : sampleEshm20Sources({ ...common, model: src.model, kind: src.kind, file: src.file, reachKm: ESHM20_REACH_KM });
}

export function runEshm20(input: Eshm20Input): Record<string, unknown> {
  const seed = input.seed ?? ESHM20_SEED;
  const branchCount = input.branches ?? ESHM20_BRANCHES;
  const years = input.yearsPerBranch ?? ESHM20_YEARS_PER_BRANCH;
  const periods = branchCount * years;

  const sample = sampleOf(input, branchCount, years, seed);
  const { modeled, unmodeled, branches } = sample;
  const gmpes = branches.map((b) => backboneOf(input.gmpeTree.branches[b.gmpe]!));
  const losses = ruptureLosses(input, sample.ruptures, gmpes, modeled, branchCount, seed);
  const table = losses.table;

  const warnings = [...sample.warnings, `Ground motion: ${BACKBONE_NOTE}.`];
  if (unmodeled.length > 0 && sample.demonstration === undefined) warnings.push(`${unmodeled.length} place${unmodeled.length === 1 ? ' is' : 's are'} unmodeled (no coordinates, or beyond reach of every source).`);
  if (years < 1000 && periods >= 1000) warnings.push(`Each ${1000}-year block spans ${1000 / years} logic-tree branches of ${years} years: the block spread mixes epistemic and sampling variation.`);
  const lossBasis = 'ground-up structural loss: value × mean loss ratio of the building class\'s vulnerability function at the place\'s sampled ground motion, one field per rupture';
  const assumptions = [
    `Sample years: ${branchCount} logic-tree branches sampled by weight (seed ${seed}), each with ${years} years; period p belongs to branch ⌈p / ${years}⌉.`,
    ...sample.assumptions,
    'Each rupture is one event with one ground-motion field; events are numbered by their order of sampling.',
  ];
  const metrics = computeMetrics({
    perspective: 'gul', lossBasis, periods,
    eventLosses: table.eventLosses,
    occurrences: table.occurrences,
    places: table.places((i) => modeled[i]!.index),
    assumptions,
    warnings,
  });
  // The object's places that are modeled, as the ground up lists them.
  const modeledIndex = new Set(modeled.map((m) => m.index));
  const perspectives = input.terms && losses.insured
    ? termsPerspectives(losses.insured, { lossBasis, periods, occurrences: table.occurrences, assumptions, warnings }, (p) => p, (p) => modeledIndex.has(p))
    : null;

  return {
    lane: 'probabilistic_earthquake_europe',
    ...(sample.demonstration !== undefined && { demonstration: sample.demonstration }),
    source_model: sample.sourceModel,
    site_model: { ...sample.siteModel, vs30: SITE_VS30, vs30_basis: 'ESHM20\'s reference rock for every place: no site-condition data are pinned' },
    ground_motion: groundMotionBlock(input, gmpes),
    sample: { branches: branchCount, years_per_branch: years, sample_years: periods, ruptures: sample.ruptures.count, ruptures_reaching_places: losses.reaching, events_with_loss: table.eventLosses.length, seed },
    branches: branches.map((b) => ({
      branch: b.branch + 1, first_period: b.branch * years + 1, last_period: (b.branch + 1) * years,
      ...b.draws, gmpe_branch: input.gmpeTree.branches[b.gmpe]!.branch_id,
      rate_m_min: b.rate, ruptures: losses.branchRuptures[b.branch]!, aal: losses.branchLoss[b.branch]! / years,
    })),
    vulnerability: vulnerabilityBlock(input),
    exposure: { places: input.places.length, modeled: modeled.length, unmodeled: unmodeled.length },
    unmodeled: { count: unmodeled.length, places: unmodeled },
    metrics,
    ...(input.terms && perspectives ? { terms: input.terms.stated(), perspectives } : {}),
    licence: VULNERABILITY_LICENCE,
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
