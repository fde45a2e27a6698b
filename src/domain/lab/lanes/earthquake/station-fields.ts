// The historical earthquake lane on an event's stations, where no ShakeMap grid is pinned: ground
// motion fields conditioned on the recorded peak amplitudes as OpenQuake's conditioned ground-motion
// fields are (conditioned-gmf.ts). The event's rupture (station-rupture.ts) and the logic tree of its
// tectonic region (the scenario lane's: tectonic-regions.ts, logic-tree.ts) give each GMPE branch's
// median, tau and phi at the stations (each at its own Vs30 as ShakeMap assigned it, 760 m/s where
// the list carries none) and at the places (760 m/s, the scenario lane's default: the spec takes no
// Vs30); the stations' observations (station-data.ts, OpenQuake's reading of a USGS list) condition
// them, branch by branch. Each field draws its branch by weight (its own seeded stream, as the
// scenario lane) and ln(ground motion) at the places from the branch's conditioned mean and
// covariance (within- plus between-event, plus OpenQuake's correlation_cutoff 1e-12 on the diagonal)
// through its Cholesky factor, untruncated (OpenQuake's sampler when truncation is off). Stations and
// places farther than 200 km (Rrup) from the rupture are left out, as the scenario lane's reach.
// Pure.
import { seededRandom } from '../../../stats/random.js';
import { haversineKm, type GeoPoint } from '../../../geo.js';
import { imtName, type Distances, type GmpeContext, type Gmpe, type Imt } from '../../../hazard/gmpe/types.js';
import { cholesky, normalSource } from './fields.js';
import { branchAt, logicTree, type Branch } from './logic-tree.js';
import { chooseRegion, TECTONIC_REGION_RULE } from './tectonic-regions.js';
import { weightedTree } from './ground-motion.js';
import { conditionedMean, conditioningPlan, conditioningSystem, type ConditioningPlaces, type ConditioningSystem, type NominalBias } from './conditioned-gmf.js';
import { OPENQUAKE_CONDITIONING_CORRELATION } from './imt-correlation.js';
import { OBSERVED_IMTS, OBSERVED_IMTS_NOTE, stationObservations, type ShakeMapStations, type StationObservation } from './station-data.js';
import { stationRupture, type StationRupture } from './station-rupture.js';

export const STATION_REACH_KM = 200;
export const PLACE_VS30 = 760;
/** OpenQuake's correlation_cutoff (oqvalidation.py, default 1e-12): added on the diagonal before the Cholesky factor. */
export const CORRELATION_CUTOFF = 1e-12;

export const STATION_CONDITIONING = 'OpenQuake\'s conditioned ground-motion fields (openquake/hazardlib/calc/conditioned_gmfs.py, after Engler et al. 2022, BSSA 112(2), appendix B), one measure at a time: each GMPE branch\'s median, tau and phi at the stations and the places; the stations\' residuals ln(observed) - median; the between-event residual given them (eqs. B8-B9) and the places\' conditioned mean and within- and between-event covariance (eqs. B16-B17), each covariance clipped at zero entry by entry as OpenQuake clips them; a measure the stations do not record conditioned on the recorded periods bracketing it, with cross-measure correlation. Each field draws its branch by weight and ln(ground motion) from the multivariate normal of the branch\'s conditioned mean and covariance (plus 1e-12 on the diagonal, OpenQuake\'s correlation_cutoff), untruncated.';

export interface StationPlace { readonly lat: number | null; readonly lon: number | null; readonly value: number }

export interface StationFields {
  readonly imt: Imt;
  readonly modeled: readonly { index: number; lat: number; lon: number; value: number; d: Distances }[];
  readonly unmodeled: readonly { index: number; reason: string }[];
  /** ln(ground motion), row-major fields x modeled places. */
  readonly lnIm: Float64Array;
  readonly fields: number;
  /** Per place: the weighted tree of the GMPE (unconditioned) and of the branches' conditioned distributions. */
  readonly perPlace: readonly { gmpe: { median: number; tau: number; phi: number }; conditioned: { median: number; sigma: number } }[];
  /** What the result says of the stations, rupture, tree and conditioning. */
  readonly words: Record<string, unknown>;
}

interface Motions { readonly mean: Float64Array; readonly tau: Float64Array; readonly phi: Float64Array }

/** A branch's prediction of one measure at points, each at its Vs30. */
function motionsAt(gmpe: Gmpe, rupture: StationRupture, points: readonly { d: Distances; vs30: number }[], imt: Imt): Motions {
  const out = { mean: new Float64Array(points.length), tau: new Float64Array(points.length), phi: new Float64Array(points.length) };
  points.forEach((p, i) => {
    const ctx: GmpeContext = { rupture: rupture.terms, site: { vs30: p.vs30, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false }, distances: p.d };
    const gm = gmpe.predict(ctx, imt);
    out.mean[i] = gm.mean;
    // Magnitudes: ASK14's tau may come out negative (ground-motion.ts); only its square matters.
    out.tau[i] = Math.abs(gm.tau);
    out.phi[i] = Math.abs(gm.phi);
  });
  return out;
}

function distanceMatrices(stations: readonly GeoPoint[], targets: readonly GeoPoint[]): ConditioningPlaces {
  const S = stations.length;
  const N = targets.length;
  const DD = new Float64Array(S * S);
  const YD = new Float64Array(N * S);
  const YY = new Float64Array(N * N);
  for (let i = 0; i < S; i++) for (let j = 0; j < i; j++) DD[i * S + j] = DD[j * S + i] = haversineKm(stations[i]!, stations[j]!);
  for (let i = 0; i < N; i++) for (let j = 0; j < S; j++) YD[i * S + j] = haversineKm(targets[i]!, stations[j]!);
  for (let i = 0; i < N; i++) for (let j = 0; j < i; j++) YY[i * N + j] = YY[j * N + i] = haversineKm(targets[i]!, targets[j]!);
  return { stations: S, targets: N, DD, YD, YY };
}

const sameArray = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => v === b[i]);

interface BranchConditioning { readonly system: number; readonly mean: Float64Array; readonly bias: NominalBias; readonly gmpeAtPlaces: Motions }

/** Each branch conditioned; branches whose sigmas agree everywhere share one system (its covariances). */
function conditionBranches(tree: readonly Branch[], rupture: StationRupture, imt: Imt, stations: readonly (StationObservation & { d: Distances })[], places: readonly { d: Distances }[], geometry: ConditioningPlaces) {
  const plan = conditioningPlan(imt, OBSERVED_IMTS);
  const atStations = stations.map((s) => ({ d: s.d, vs30: s.vs30 ?? PLACE_VS30 }));
  const atPlaces = places.map((p) => ({ d: p.d, vs30: PLACE_VS30 }));
  const slot = plan.conditioning.map((c) => OBSERVED_IMTS.findIndex((o) => imtName(o) === imtName(c)));
  const variance = Float64Array.from(plan.conditioning.flatMap((_, k) => stations.map((s) => s.ln_sigma[slot[k]!]! ** 2)));
  const systems: { key: Float64Array[]; system: ConditioningSystem }[] = [];
  const branches: BranchConditioning[] = tree.map(({ gmpe }) => {
    const D = plan.conditioning.map((c) => motionsAt(gmpe, rupture, atStations, c));
    const Y = motionsAt(gmpe, rupture, atPlaces, imt);
    const key = [...D.flatMap((m) => [m.tau, m.phi]), Y.tau, Y.phi];
    let index = systems.findIndex((s) => s.key.every((a, i) => sameArray(a, key[i]!)));
    if (index < 0) {
      index = systems.length;
      systems.push({ key, system: conditioningSystem(plan, geometry, { tauD: D.map((m) => m.tau), phiD: D.map((m) => m.phi), tauY: Y.tau, phiY: Y.phi }, variance, OPENQUAKE_CONDITIONING_CORRELATION) });
    }
    const zeta = Float64Array.from(plan.conditioning.flatMap((_, k) => stations.map((s, i) => Math.log(s.values[slot[k]!]!) - D[k]!.mean[i]!)));
    const { mean, bias } = conditionedMean(systems[index]!.system, zeta, Y.mean);
    return { system: index, mean, bias, gmpeAtPlaces: Y };
  });
  return { plan, systems: systems.map((s) => s.system), branches };
}

/** `fields` fields of ln(ground motion) at the N places: branch per field from seed + 1, residuals from seed. */
function sampleConditioned(systems: readonly ConditioningSystem[], branches: readonly BranchConditioning[], tree: readonly Branch[], N: number, fields: number, seed: number): Float64Array {
  const branchRng = seededRandom(seed + 1);
  const picks = Array.from({ length: fields }, () => branchAt(tree, branchRng.uniform()));
  const factors = systems.map((s) => {
    const cov = new Float64Array(N * N);
    for (let i = 0; i < N * N; i++) cov[i] = s.covW[i]! + s.covB[i]!;
    for (let i = 0; i < N; i++) cov[i * N + i] = cov[i * N + i]! + CORRELATION_CUTOFF;
    return cholesky(cov, N);
  });
  const normal = normalSource(seededRandom(seed));
  const out = new Float64Array(fields * N);
  const z = new Float64Array(N);
  for (let f = 0; f < fields; f++) {
    const b = branches[picks[f]!]!;
    const L = factors[b.system]!;
    for (let i = 0; i < N; i++) z[i] = normal();
    for (let i = 0; i < N; i++) {
      let e = 0;
      for (let k = 0; k <= i; k++) e += L[i * N + k]! * z[k]!;
      out[f * N + i] = b.mean[i]! + e;
    }
  }
  return out;
}

/** The event's conditioned fields at the places within reach, in the curve's measure. */
export function stationFields(data: ShakeMapStations, places: readonly StationPlace[], imt: Imt, fields: number, seed: number): StationFields {
  const rupture = stationRupture(data.event, data.rupture);
  const choice = chooseRegion({ lat: data.event.lat, lon: data.event.lon, depth_km: data.event.depth_km, mechanism: rupture.mechanism, dip: rupture.dip });
  const tree = logicTree(choice.region);
  const read = stationObservations(data.stations);
  const near = read.observations.map((s) => ({ ...s, d: rupture.distances({ latitude: s.lat, longitude: s.lon }) }));
  const stations = near.filter((s) => s.d.rrup <= STATION_REACH_KM);
  if (stations.length === 0) throw new Error(`${data.identity.feed_id}: no station within ${STATION_REACH_KM} km of the rupture`);

  const modeled: StationFields['modeled'][number][] = [];
  const unmodeled: { index: number; reason: string }[] = [];
  places.forEach((p, index) => {
    if (p.lat === null || p.lon === null) { unmodeled.push({ index, reason: 'no coordinates' }); return; }
    const d = rupture.distances({ latitude: p.lat, longitude: p.lon });
    if (d.rrup > STATION_REACH_KM) unmodeled.push({ index, reason: `farther than ${STATION_REACH_KM} km from the rupture` });
    else modeled.push({ index, lat: p.lat, lon: p.lon, value: p.value, d });
  });
  const N = modeled.length;
  const geometry = distanceMatrices(stations.map((s) => ({ latitude: s.lat, longitude: s.lon })), modeled.map((m) => ({ latitude: m.lat, longitude: m.lon })));
  const { plan, systems, branches } = N ? conditionBranches(tree, rupture, imt, stations, modeled, geometry) : { plan: conditioningPlan(imt, OBSERVED_IMTS), systems: [], branches: [] };
  const lnIm = N ? sampleConditioned(systems, branches, tree, N, fields, seed) : new Float64Array(0);
  const weights = tree.map((b) => b.weight);
  const perPlace = modeled.map((_, i) => {
    const g = weightedTree(branches.map((b) => ({ mean: b.gmpeAtPlaces.mean[i]!, tau: b.gmpeAtPlaces.tau[i]!, phi: b.gmpeAtPlaces.phi[i]!, sigma: Math.hypot(b.gmpeAtPlaces.tau[i]!, b.gmpeAtPlaces.phi[i]!) })), weights);
    const c = weightedTree(branches.map((b) => {
      const s = systems[b.system]!;
      const v = s.covW[i * N + i]! + s.covB[i * N + i]!;
      return { mean: b.mean[i]!, sigma: Math.sqrt(v), tau: Math.sqrt(s.covB[i * N + i]!), phi: Math.sqrt(s.covW[i * N + i]!) };
    }), weights);
    return { gmpe: { median: Math.exp(g.mean), tau: g.tau, phi: g.phi }, conditioned: { median: Math.exp(c.mean), sigma: c.sigma } };
  });
  const words = {
    rupture: rupture.words,
    tectonic_region: { region: choice.region, reason: choice.reason, basis: TECTONIC_REGION_RULE },
    logic_tree: tree.map((b) => ({ model: b.gmpe.id, weight: b.weight, citation: b.gmpe.citation })),
    stations: {
      list: data.file,
      listed: data.stations.length,
      read: read.observations.length,
      dropped: read.dropped,
      beyond_reach: near.length - stations.length,
      used: stations.length,
      observed_imts: OBSERVED_IMTS.map(imtName),
      observed_note: OBSERVED_IMTS_NOTE,
      conditioned_on: plan.conditioning.map(imtName),
      native: plan.native,
      vs30: `each station at the Vs30 its list gives (${stations.filter((s) => s.vs30 !== null).length} of ${stations.length}), else ${PLACE_VS30} m/s`,
    },
    nominal_bias: tree.map((b, k) => ({ model: b.gmpe.id, mean: branches[k] ? Number(branches[k]!.bias.mean.toPrecision(6)) : null, stddev: branches[k] ? Number(branches[k]!.bias.stddev.toPrecision(6)) : null })),
    covariance_systems: systems.length,
  };
  return { imt, modeled, unmodeled, lnIm, fields, perPlace, words };
}
