// The scenario earthquake lane: one rupture, a finite plane sized by Wells and Coppersmith (1994)
// (hazard/gmpe/rupture.ts), the GMPE logic tree of its tectonic region, chosen by location, depth and
// mechanism (tectonic-regions.ts, logic-tree.ts), 100 seeded
// ground-motion fields with between- and within-event variability and Jayaram and Baker (2009)
// spatial correlation (fields.ts), and loss by one vulnerability curve (vulnerability.ts). One event
// carries no frequency: the result has no exceedance curve and no annual figure. Places farther than
// 200 km from the rupture (Rrup) are unmodeled and counted. Pure: the curves are handed in.
//
// Spec (the lab's model member aside):
//   rupture        {magnitude, lat, lon, depth_km, strike?, dip?, rake?, mechanism?}
//   exposure       {points: [{lat, lon, value, vs30?}]} (vs30 in m/s, default 760) or {object_id}
//   vulnerability  optional curve id (VULNERABILITY_CURVES), default rc_frame_mid_rise_moderate_code
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { seededRandom } from '../../../stats/random.js';
import { distancesTo, MAGNITUDE_SCALING, mechanismOfRake, planarRupture, type Mechanism, type PlanarRupture } from '../../../hazard/gmpe/rupture.js';
import { imtName, type Distances, type GmpeContext, type Imt } from '../../../hazard/gmpe/types.js';
import { correlationFactor, sampleFields, SPATIAL_CORRELATION, type FieldInputs } from './fields.js';
import { branchAt, DEEPEST_HYPOCENTRE_KM, EUROPE_LOGIC_TREE_NOTE, logicTree } from './logic-tree.js';
import { chooseRegion, TECTONIC_REGION_RULE } from './tectonic-regions.js';
import { fieldLosses, round } from './field-losses.js';
import { DEFAULT_VULNERABILITY, VULNERABILITY_CURVES, VULNERABILITY_LICENCE, type VulnerabilityCurveId, type VulnerabilityFunction } from './vulnerability.js';

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

export interface ScenarioRupture {
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
const RUPTURE_MEMBERS = new Set(['magnitude', 'lat', 'lon', 'depth_km', 'strike', 'dip', 'rake', 'mechanism']);
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
  if (!isObject(v)) { faults.push('rupture must be an object {magnitude, lat, lon, depth_km, strike?, dip?, rake?, mechanism?}'); return undefined; }
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
  if ([magnitude, lat, lon, depth, strike, rake, dip].some((x) => x === undefined) || !mech) return undefined;
  return { magnitude: magnitude!, lat: lat!, lon: lon!, depth_km: depth!, strike: strike! % 360, dip: dip!, rake: rake!, mechanism: mech };
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
  readonly vulnerabilityData: { readonly feed_id: string; readonly version: string };
  readonly seed?: number;
  readonly fields?: number;
}

export function ruptureOf(r: ScenarioRupture): PlanarRupture {
  return planarRupture({ mag: r.magnitude, lat: r.lat, lon: r.lon, depth_km: r.depth_km, strike: r.strike, dip: r.dip, rake: r.rake });
}

/** Runs the scenario over places (the spec's points, or an object's schedule read into points). */
export function runScenarioQuake(spec: ScenarioSpec, places: readonly ScenarioPlace[], options: ScenarioOptions): Record<string, unknown> {
  const curve = VULNERABILITY_CURVES.find((c) => c.id === spec.vulnerability)!;
  const fn = options.functions.get(curve.function_id);
  if (!fn) throw new Error(`vulnerability function ${curve.function_id} is not in the pinned functions`);
  const imt: Imt = fn.imt;
  const fieldCount = options.fields ?? SCENARIO_FIELDS;
  const seed = options.seed ?? SCENARIO_SEED;
  const rupture = ruptureOf(spec.rupture);
  const choice = chooseRegion(spec.rupture);
  const region = choice.region;
  const tree = logicTree(region);

  const modeled: { index: number; place: ScenarioPlace & { lat: number; lon: number }; d: Distances; vs30: number }[] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  places.forEach((place, index) => {
    if (place.lat === null || place.lon === null) { unmodeled.push({ index, reason: 'no coordinates' }); return; }
    const d = distancesTo(rupture, { latitude: place.lat, longitude: place.lon });
    if (d.rrup > SCENARIO_REACH_KM) unmodeled.push({ index, reason: `farther than ${SCENARIO_REACH_KM} km from the rupture` });
    else modeled.push({ index, place: { ...place, lat: place.lat, lon: place.lon }, d, vs30: place.vs30 ?? DEFAULT_VS30 });
  });

  const n = modeled.length;
  const branchInputs: FieldInputs[] = tree.map(({ gmpe }) => {
    const mean = new Float64Array(n);
    const tau = new Float64Array(n);
    const phi = new Float64Array(n);
    modeled.forEach((m, i) => {
      const ctx: GmpeContext = {
        rupture: { mag: rupture.mag, rake: rupture.rake, dip: rupture.dip, ztor: rupture.ztor_km, width: rupture.width_km, hypo_depth: rupture.hypocentre.depth_km },
        site: { vs30: m.vs30, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false },
        distances: m.d,
      };
      const gm = gmpe.predict(ctx, imt);
      mean[i] = gm.mean;
      tau[i] = gm.tau;
      phi[i] = gm.phi;
    });
    return { mean, tau, phi };
  });
  // Branch per field from its own stream, so the residuals do not depend on the tree's size.
  const branchRng = seededRandom(seed + 1);
  const branches = Array.from({ length: fieldCount }, () => branchAt(tree, branchRng.uniform()));
  const factor = correlationFactor(modeled.map((m) => ({ latitude: m.place.lat, longitude: m.place.lon })), imt);
  const lnIm = n ? sampleFields(factor, n, fieldCount, (f) => branchInputs[branches[f]!]!, seed) : new Float64Array(0);

  const figures = fieldLosses(lnIm, modeled.map((m) => m.place.value), fieldCount, fn);
  const placeRows = modeled.map((m, i) => ({
    index: m.index, lat: m.place.lat, lon: m.place.lon, value: m.place.value,
    vs30: m.vs30, vs30_source: m.place.vs30 === undefined ? 'default' : 'given',
    distances_km: { rjb: round(m.d.rjb), rrup: round(m.d.rrup), rx: round(m.d.rx), ry0: round(m.d.ry0) },
    ...figures.places[i]!,
  }));
  return {
    lane: 'scenario_earthquake',
    rupture: {
      ...spec.rupture,
      length_km: round(rupture.length_km), width_km: round(rupture.width_km), ztor_km: round(rupture.ztor_km),
      magnitude_scaling: MAGNITUDE_SCALING,
      placement: 'hypocentre at the centre of the plane, moved only as far as keeps the plane between the surface and 20 km for a hypocentre in that layer, below the surface for a deeper one',
    },
    tectonic_region: { region, margin: choice.margin, reason: choice.reason, basis: TECTONIC_REGION_RULE },
    ground_motion: {
      imt: imtName(imt), unit: 'g',
      logic_tree: tree.map((b) => ({ model: b.gmpe.id, weight: b.weight, citation: b.gmpe.citation })),
      logic_tree_note: region === 'europe_shallow_crust' ? EUROPE_LOGIC_TREE_NOTE : region === 'active_shallow_crust'
        ? 'the four NGA-West2 models at equal weights, each passing every row of its OpenQuake verification tables: ASK14 (California, mainshock), BSSA14 (no basin term), CB14 (not Japan) and CY14 (California); z1.0 and z2.5 unknown, so each model takes its own mean depth for the Vs30 (no basin or sediment term)'
        : `BC Hydro 2016 ${region === 'subduction_interface' ? 'interface' : 'in-slab'}, central magnitude-scaling branch, every place taken as forearc (no back-arc term)`,
      fields: fieldCount,
      seed,
      variability: 'ln(ground motion) = model mean + tau x eta (one draw per field) + phi x epsilon (correlated between places); each field draws its logic-tree branch by weight',
      spatial_correlation: SPATIAL_CORRELATION,
      vs30: `per place when given (${VS30_RANGE[0]} to ${VS30_RANGE[1]} m/s), else ${DEFAULT_VS30} m/s`,
    },
    vulnerability: {
      id: curve.id, function_id: curve.function_id, label: curve.label, imt: imtName(imt),
      method: 'mean loss ratio read linearly between the function\'s intensity levels, 0 below the first, held at the last; its coefficient of variation is not sampled',
      model_data: options.vulnerabilityData,
      licence: VULNERABILITY_LICENCE,
    },
    places: placeRows,
    aggregate: figures.aggregate,
    frequency: 'one event carries no frequency: no exceedance curve and no annual figure',
    unmodeled: { count: unmodeled.length, places: unmodeled },
    licence: VULNERABILITY_LICENCE,
  };
}
