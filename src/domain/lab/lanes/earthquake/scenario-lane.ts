// The scenario earthquake lane: one rupture, a finite plane placed by OpenQuake's point-rupture rule
// (hazard/gmpe/point-rupture.ts) or, on request, by the earlier 20 km layer rule (hazard/gmpe/
// rupture.ts), the GMPE logic tree of its tectonic region, chosen by location, depth and
// mechanism (tectonic-regions.ts, logic-tree.ts), 100 seeded
// ground-motion fields with between- and within-event variability and Jayaram and Baker (2009)
// spatial correlation (fields.ts), and loss by one vulnerability curve (vulnerability.ts). One event
// carries no frequency: the result has no exceedance curve and no annual figure. Places farther than
// 200 km from the rupture (Rrup) are unmodeled and counted. Each place reports its ground motion in
// the open, PGA and the curve's measure (ground-motion.ts). Pure: the curves are handed in.
//
// Spec (the lab's model member aside):
//   rupture        {magnitude, lat, lon, depth_km, strike?, dip?, rake?, mechanism?, placement?,
//                   aspect_ratio?, upper_seismogenic_depth_km?, lower_seismogenic_depth_km?}
//   exposure       {points: [{lat, lon, value, vs30?}]} (vs30 in m/s, default 760) or {object_id}
//   vulnerability  optional curve id (VULNERABILITY_CURVES), default rc_frame_mid_rise_moderate_code
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { seededRandom } from '../../../stats/random.js';
import { distancesTo, mechanismOfRake, type Mechanism, type PlanarRupture } from '../../../hazard/gmpe/rupture.js';
import { imtName, PGA, type Distances, type GmpeContext, type Imt } from '../../../hazard/gmpe/types.js';
import { correlationFactor, sampleFields, SPATIAL_CORRELATION } from './fields.js';
import { shakingAt, WEIGHTED_TREE_RULE, type BranchMotions } from './ground-motion.js';
import { branchAt, DEEPEST_HYPOCENTRE_KM, EUROPE_LOGIC_TREE_NOTE, logicTree, type Branch, type TectonicRegion } from './logic-tree.js';
import { chooseRegion, TECTONIC_REGION_RULE } from './tectonic-regions.js';
import { fieldLosses, fieldTerms, PERCENTILES, round } from './field-losses.js';
import { PLACE_TERMS_RULE, type PlaceTerms } from '../../engine/place-terms.js';
import { placedRupture, placementWords, PLACEMENT_MEMBERS, readPlacement, type RupturePlacement } from './rupture-placement.js';
import { DEFAULT_VULNERABILITY, VULNERABILITY_CURVES, VULNERABILITY_LICENCE, type InputIdentity, type VulnerabilityCurveId, type VulnerabilityFunction } from './vulnerability.js';

export const SCENARIO_FIELDS = 100;
export const SCENARIO_SEED = 20090101;
export const SCENARIO_REACH_KM = 200;
export const SCENARIO_PLACES_MAX = 2000;
export const DEFAULT_VS30 = 760;
export const VS30_RANGE = [150, 1500] as const;
export const MAGNITUDE_RANGE = [4.5, 8.5] as const;

/** Default rake and dip by mechanism, when the spec names a mechanism and not the angle. */
export const MECHANISM_DEFAULTS: Readonly<Record<Mechanism, { rake: number; dip: number }>> = {
  'strike-slip': { rake: 0, dip: 90 },
  reverse: { rake: 90, dip: 40 },
  normal: { rake: -90, dip: 50 },
};

export interface ScenarioRupture extends RupturePlacement {
  readonly magnitude: number;
  readonly lat: number;
  readonly lon: number;
  readonly depth_km: number;
  readonly strike: number;
  readonly dip: number;
  readonly rake: number;
  readonly mechanism: Mechanism;
}

export interface ScenarioPlace {
  /** null where a stored schedule's location has no coordinates (unmodeled). */
  readonly lat: number | null;
  readonly lon: number | null;
  readonly value: number;
  /** m/s; absent means the default (760 m/s). */
  readonly vs30?: number;
}

export interface ScenarioSpec {
  readonly rupture: ScenarioRupture;
  readonly exposure: { readonly points: readonly ScenarioPlace[] } | { readonly object_id: string };
  readonly vulnerability: VulnerabilityCurveId;
}

const SPEC_MEMBERS = new Set(['model', 'rupture', 'exposure', 'vulnerability']);
const RUPTURE_MEMBERS = new Set(['magnitude', 'lat', 'lon', 'depth_km', 'strike', 'dip', 'rake', 'mechanism', ...PLACEMENT_MEMBERS]);
const MECHANISMS: readonly Mechanism[] = ['strike-slip', 'reverse', 'normal'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function numberIn(v: unknown, lo: number, hi: number, name: string, faults: string[], open = false): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi || (open && v === lo)) {
    faults.push(`${name} must be a number ${open ? 'above' : 'from'} ${lo} ${open ? 'up ' : ''}to ${hi}`);
    return undefined;
  }
  return v;
}

function readRupture(v: unknown, faults: string[]): ScenarioRupture | undefined {
  if (!isObject(v)) { faults.push('rupture must be an object {magnitude, lat, lon, depth_km, strike?, dip?, rake?, mechanism?, placement?, aspect_ratio?, upper_seismogenic_depth_km?, lower_seismogenic_depth_km?}'); return undefined; }
  for (const k of Object.keys(v)) if (!RUPTURE_MEMBERS.has(k)) faults.push(`rupture.${k} is not a member of the rupture`);
  const magnitude = numberIn(v.magnitude, MAGNITUDE_RANGE[0], MAGNITUDE_RANGE[1], 'rupture.magnitude', faults);
  const lat = numberIn(v.lat, -90, 90, 'rupture.lat', faults);
  const lon = numberIn(v.lon, -180, 180, 'rupture.lon', faults);
  const depth = numberIn(v.depth_km, 0, DEEPEST_HYPOCENTRE_KM, 'rupture.depth_km', faults);
  const strike = v.strike === undefined ? 0 : numberIn(v.strike, 0, 360, 'rupture.strike', faults);
  let mechanism: Mechanism | undefined;
  if (v.mechanism !== undefined) {
    mechanism = MECHANISMS.find((m) => m === v.mechanism);
    if (!mechanism) faults.push(`rupture.mechanism must be one of ${MECHANISMS.join(', ')}`);
  }
  const rake = v.rake === undefined ? (mechanism ? MECHANISM_DEFAULTS[mechanism].rake : 0) : numberIn(v.rake, -180, 180, 'rupture.rake', faults);
  if (rake !== undefined && mechanism && v.rake !== undefined && mechanismOfRake(rake) !== mechanism) faults.push(`rupture.rake ${rake} is ${mechanismOfRake(rake)}, not ${mechanism}`);
  const mech = mechanism ?? (rake === undefined ? undefined : mechanismOfRake(rake));
  const dip = v.dip === undefined ? (mech ? MECHANISM_DEFAULTS[mech].dip : 90) : numberIn(v.dip, 0, 90, 'rupture.dip', faults, true);
  const placement = readPlacement(v, depth, numberIn, faults);
  if ([magnitude, lat, lon, depth, strike, rake, dip].some((x) => x === undefined) || !mech || !placement) return undefined;
  return { magnitude: magnitude!, lat: lat!, lon: lon!, depth_km: depth!, strike: strike! % 360, dip: dip!, rake: rake!, mechanism: mech, ...placement };
}

function readExposure(v: unknown, faults: string[]): ScenarioSpec['exposure'] | undefined {
  if (isObject(v) && 'object_id' in v) {
    if (Object.keys(v).length !== 1 || typeof v.object_id !== 'string') { faults.push('exposure {object_id} takes one member, the id of one of your objects'); return undefined; }
    return { object_id: v.object_id };
  }
  if (!isObject(v) || !Array.isArray(v.points) || Object.keys(v).length !== 1) { faults.push('exposure must be {points: [{lat, lon, value, vs30?}]} or {object_id}'); return undefined; }
  if (v.points.length === 0 || v.points.length > SCENARIO_PLACES_MAX) { faults.push(`exposure.points must hold 1 to ${SCENARIO_PLACES_MAX} places`); return undefined; }
  const points: ScenarioPlace[] = [];
  v.points.forEach((p, i) => {
    const at = `exposure.points[${i}]`;
    if (!isObject(p)) { faults.push(`${at} must be an object {lat, lon, value, vs30?}`); return; }
    for (const k of Object.keys(p)) if (!['lat', 'lon', 'value', 'vs30'].includes(k)) faults.push(`${at}.${k} is not a member of a place`);
    const lat = numberIn(p.lat, -90, 90, `${at}.lat`, faults);
    const lon = numberIn(p.lon, -180, 180, `${at}.lon`, faults);
    const value = numberIn(p.value, 0, Number.MAX_VALUE, `${at}.value`, faults);
    const vs30 = p.vs30 === undefined ? undefined : numberIn(p.vs30, VS30_RANGE[0], VS30_RANGE[1], `${at}.vs30`, faults);
    if (lat !== undefined && lon !== undefined && value !== undefined && (p.vs30 === undefined || vs30 !== undefined)) points.push({ lat, lon, value, ...(vs30 !== undefined && { vs30 }) });
  });
  return faults.length ? undefined : { points };
}

/** The spec, checked and with its defaults filled in; 422 invalid_request naming every fault. */
export function readScenarioSpec(spec: unknown): Result<ScenarioSpec> {
  if (!isObject(spec)) return refused(runSpecRefusal(['the run spec must be an object {model, rupture, exposure, vulnerability?}']));
  const faults: string[] = [];
  for (const k of Object.keys(spec)) if (!SPEC_MEMBERS.has(k)) faults.push(`${k} is not a member of a scenario earthquake spec`);
  const rupture = readRupture(spec.rupture, faults);
  const exposure = readExposure(spec.exposure, faults);
  const vulnerability = spec.vulnerability === undefined ? DEFAULT_VULNERABILITY : VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)?.id;
  if (!vulnerability) faults.push(`vulnerability must be one of ${VULNERABILITY_CURVES.map((c) => c.id).join(', ')}`);
  if (faults.length || !rupture || !exposure || !vulnerability) return refused(runSpecRefusal(faults));
  return ok({ rupture, exposure, vulnerability });
}

export interface ScenarioOptions {
  /** The pinned structural vulnerability functions by GEM id, and the identity of their snapshot. */
  readonly functions: ReadonlyMap<string, VulnerabilityFunction>;
  readonly vulnerabilityData: InputIdentity;
  readonly seed?: number;
  readonly fields?: number;
  /** A stored object's OED terms (engine/place-terms.ts), applied field by field. */
  readonly terms?: PlaceTerms | null;
}

/** The rupture's plane, placed as its placement members say (rupture-placement.ts). */
export function ruptureOf(r: ScenarioRupture): PlanarRupture {
  return placedRupture({ mag: r.magnitude, lat: r.lat, lon: r.lon, depth_km: r.depth_km, strike: r.strike, dip: r.dip, rake: r.rake }, r);
}

type Modeled = { index: number; place: ScenarioPlace & { lat: number; lon: number }; d: Distances; vs30: number };

/** The places within reach of the rupture, with their distances, and the others with the reason. */
function reachOf(rupture: PlanarRupture, places: readonly ScenarioPlace[]): { modeled: Modeled[]; unmodeled: { index: number; reason: string }[] } {
  const modeled: Modeled[] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  places.forEach((place, index) => {
    if (place.lat === null || place.lon === null) { unmodeled.push({ index, reason: 'no coordinates' }); return; }
    const d = distancesTo(rupture, { latitude: place.lat, longitude: place.lon });
    if (d.rrup > SCENARIO_REACH_KM) unmodeled.push({ index, reason: `farther than ${SCENARIO_REACH_KM} km from the rupture` });
    else modeled.push({ index, place: { ...place, lat: place.lat, lon: place.lon }, d, vs30: place.vs30 ?? DEFAULT_VS30 });
  });
  return { modeled, unmodeled };
}

/** Each branch's prediction of one measure at every modeled place. */
function branchMotions(tree: readonly Branch[], rupture: PlanarRupture, modeled: readonly Modeled[], imt: Imt): BranchMotions[] {
  const n = modeled.length;
  return tree.map(({ gmpe }) => {
    const out = { mean: new Float64Array(n), sigma: new Float64Array(n), tau: new Float64Array(n), phi: new Float64Array(n) };
    modeled.forEach((m, i) => {
      const ctx: GmpeContext = {
        rupture: { mag: rupture.mag, rake: rupture.rake, dip: rupture.dip, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: rupture.hypocentre.depth_km },
        site: { vs30: m.vs30, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false },
        distances: m.d,
      };
      const gm = gmpe.predict(ctx, imt);
      out.mean[i] = gm.mean;
      out.sigma[i] = gm.sigma;
      out.tau[i] = gm.tau;
      out.phi[i] = gm.phi;
    });
    return out;
  });
}

/** The measures a place reports: PGA, then the curve's (once when they are one). */
const reportedImts = (imt: Imt): Imt[] => (imt.kind === 'PGA' ? [imt] : [PGA, imt]);

/** Seed of a measure's fields: the curve's measure keeps the run's seed, PGA its own stream. */
const seedOf = (imt: Imt, curveImt: Imt, seed: number) => (imt === curveImt ? seed : seed + 2);

export const PER_PLACE_NOTE = `places[].shaking, for PGA and the vulnerability curve's measure: gmpe[] is each branch's median (g) and total, between-event (tau) and within-event (phi) sigma (ln units) as the model gives them at the place (as magnitudes: ASK14's tau is negative where a soft site's nonlinear slope is below -1, as OpenQuake computes it); weighted_tree is ${WEIGHTED_TREE_RULE}; fields is the median and the ${PERCENTILES.map((p) => `${Math.round(p * 100)}th`).join(', ')} percentiles (g) of the place's sampled fields (linear between order statistics, as numpy's default). PGA's fields are drawn on the same branch per field as the curve's measure, from their own seeded stream, uncorrelated with it (OpenQuake's NoCrossCorrelation, openquake/hazardlib/cross_correlation.py); the losses read the curve's measure only`;

/** Which of the run's rules are OpenQuake's (file and function named) and which are this service's. */
export function scenarioRules(placement: RupturePlacement['placement']): { openquake: string[]; this_service: string[] } {
  const oqPlane = placement === 'openquake_point_source';
  return {
    openquake: [
      ...(oqPlane ? ['the rupture plane: openquake/hazardlib/source/point.py PointSource, openquake/hazardlib/geo/surface/planar.py get_rupdims and _build_corners, WC1994 of openquake/hazardlib/scalerel/wc1994.py; aspect ratio 2 as openquake/hazardlib/source/rupture.py build_planar_rupture_from_dict'] : []),
      'the weighted tree\'s median and sigmas: openquake/hazardlib/gsim/mgmpe/avg_gmpe.py AvgGMPE.compute',
      'measures sampled without cross-correlation: openquake/hazardlib/cross_correlation.py NoCrossCorrelation',
      'each GMPE checked against OpenQuake\'s verification tables at its test driver\'s tolerance',
    ],
    this_service: [
      ...(oqPlane ? [] : ['the rupture plane: Wells and Coppersmith (1994) area and width kept between the surface and 20 km (placement seismogenic_layer_20km)']),
      'the tectonic region by location, depth and mechanism, and the logic tree of each region',
      'the 200 km reach (Rrup), 100 fields and their seeds',
    ],
  };
}

/** Runs the scenario over places (the spec's points, or an object's schedule read into points). */
export function runScenarioQuake(spec: ScenarioSpec, places: readonly ScenarioPlace[], options: ScenarioOptions): Record<string, unknown> {
  const curve = VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)!;
  const fn = options.functions.get(curve.function_id);
  if (!fn) throw new Error(`vulnerability function ${curve.function_id} is not in the pinned functions`);
  const fieldCount = options.fields ?? SCENARIO_FIELDS;
  const seed = options.seed ?? SCENARIO_SEED;
  const rupture = ruptureOf(spec.rupture);
  const choice = chooseRegion(spec.rupture);
  const region = choice.region;
  const tree = logicTree(region);
  const { modeled, unmodeled } = reachOf(rupture, places);
  const n = modeled.length;

  // Branch per field from its own stream, so the residuals do not depend on the tree's size.
  const branchRng = seededRandom(seed + 1);
  const branches = Array.from({ length: fieldCount }, () => branchAt(tree, branchRng.uniform()));
  const points = modeled.map((m) => ({ latitude: m.place.lat, longitude: m.place.lon }));
  const measures = reportedImts(fn.imt).map((imt) => {
    const motions = branchMotions(tree, rupture, modeled, imt);
    const lnIm = n ? sampleFields(correlationFactor(points, imt), n, fieldCount, (f) => motions[branches[f]!]!, seedOf(imt, fn.imt, seed)) : new Float64Array(0);
    return { imt, motions, lnIm };
  });
  const curveFields = measures.find((m) => m.imt === fn.imt)!.lnIm;

  const figures = fieldLosses(curveFields, modeled.map((m) => m.place.value), fieldCount, fn);
  const insured = options.terms ? fieldTerms(options.terms, curveFields, modeled.map((m) => m.index), modeled.map((m) => m.place.value), fieldCount, fn) : null;
  const placeRows = modeled.map((m, i) => ({
    index: m.index, lat: m.place.lat, lon: m.place.lon, value: m.place.value,
    vs30: m.vs30, vs30_source: m.place.vs30 === undefined ? 'default' : 'given',
    distances_km: { rjb: round(m.d.rjb), rrup: round(m.d.rrup), rx: round(m.d.rx), ry0: round(m.d.ry0), rhypo: round(m.d.rhypo) },
    shaking: Object.fromEntries(measures.map((x) => [imtName(x.imt), shakingAt(i, tree, x.motions, x.lnIm, n, fieldCount)])),
    ...figures.places[i]!,
    ...(insured ? insured.places[i]! : {}),
  }));
  const inputs = [{ input: 'vulnerability', ...options.vulnerabilityData }];
  return {
    lane: 'scenario_earthquake',
    inputs,
    rupture: {
      ...spec.rupture,
      length_km: round(rupture.length_km), width_km: round(rupture.width_km), ztor_km: round(rupture.ztor_km),
      ...placementWords(spec.rupture),
    },
    rules: scenarioRules(spec.rupture.placement),
    tectonic_region: { region, margin: choice.margin, reason: choice.reason, basis: TECTONIC_REGION_RULE },
    ground_motion: groundMotionWords(region, tree, fn.imt, fieldCount, seed),
    vulnerability: {
      id: curve.id, function_id: curve.function_id, label: curve.label, imt: imtName(fn.imt),
      method: 'mean loss ratio read linearly between the function\'s intensity levels, 0 below the first, held at the last; its coefficient of variation is not sampled',
      model_data: options.vulnerabilityData,
      licence: VULNERABILITY_LICENCE,
    },
    places: placeRows,
    aggregate: figures.aggregate,
    ...(options.terms && insured ? { terms: { ...options.terms.stated(), rule: PLACE_TERMS_RULE }, perspectives: insured.perspectives } : {}),
    frequency: 'one event carries no frequency: no exceedance curve and no annual figure',
    unmodeled: { count: unmodeled.length, places: unmodeled },
    licence: VULNERABILITY_LICENCE,
  };
}

/** The result's words on its ground motion: measures, tree, fields and what each place reports. */
function groundMotionWords(region: TectonicRegion, tree: readonly Branch[], imt: Imt, fields: number, seed: number) {
  return {
    imt: imtName(imt), unit: 'g',
    shaking_imts: reportedImts(imt).map(imtName),
    logic_tree: tree.map((b) => ({ model: b.gmpe.id, weight: b.weight, citation: b.gmpe.citation })),
    logic_tree_note: region === 'europe_shallow_crust' ? EUROPE_LOGIC_TREE_NOTE : region === 'active_shallow_crust'
      ? 'the four NGA-West2 models at equal weights, each passing every row of its OpenQuake verification tables: ASK14 (California, mainshock), BSSA14 (no basin term), CB14 (not Japan) and CY14 (California); z1.0 and z2.5 unknown, so each model takes its own mean depth for the Vs30 (no basin or sediment term)'
      : `BC Hydro 2016 ${region === 'subduction_interface' ? 'interface' : 'in-slab'}, central magnitude-scaling branch, every place taken as forearc (no back-arc term)`,
    fields,
    seed,
    variability: 'ln(ground motion) = model mean + tau x eta (one draw per field) + phi x epsilon (correlated between places); each field draws its logic-tree branch by weight',
    spatial_correlation: SPATIAL_CORRELATION,
    vs30: `per place when given (${VS30_RANGE[0]} to ${VS30_RANGE[1]} m/s), else ${DEFAULT_VS30} m/s`,
    per_place: PER_PLACE_NOTE,
  };
}
