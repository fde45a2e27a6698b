// Probabilistic tracks from a historical one by CLIMADA's directed random walk
// (TCTracks.calc_perturbed_trajectories, its defaults): each member starts shifted by up to ±0.75° in
// latitude and longitude, then follows the historical segments with each segment's bearing turned by
// the running sum of hourly direction perturbations (up to ±π/360 rad per hour, autocorrelation 0.5
// at one hour) and its great-circle length scaled by 1 ± 0.3 (autocorrelation 0.85); a member is cut
// where it leaves ±70° latitude. The random numbers come from the seeded generator, drawn in CLIMADA's
// order (the start shifts, then the direction series, then the speed series), so a seed gives one set.
// The walk perturbs positions only; a member's intensity then decays over land (applyLandDecay, below).
import type { SeededRandom } from '../../../stats/random.js';
import type { TcTrack } from './track.js';
import { lonNormalize } from './holland-2008.js';

export const SYNTHETIC_DEFAULTS = {
  members: 9,
  max_shift_ini_deg: 0.75,
  max_dspeed_rel: 0.3,
  max_ddirection_rad_per_h: Math.PI / 360,
  autocorr_dspeed: 0.85,
  autocorr_ddirection: 0.5,
  max_abs_latitude: 70,
} as const;

const RAD = Math.PI / 180;
const SQRT3 = Math.sqrt(3);

/** A standard normal draw (Box–Muller over the open uniform). */
function normal(rng: SeededRandom): number {
  return Math.sqrt(-2 * Math.log(rng.uniformOpen())) * Math.cos(2 * Math.PI * rng.uniform());
}

/** The CDF F of the stackexchange 48086 construction (CLIMADA's _f_ac). */
function fAc(z: number, theta: number): number {
  const c = Math.cos(theta), s = Math.sin(theta);
  if (z >= SQRT3 * (c + s)) return 1;
  if (z > SQRT3 * (c - s)) return (1 / 12 / Math.sin(2 * theta)) * (-3 - z * z + 2 * SQRT3 * z * (c + s) + 9 * Math.sin(2 * theta));
  if (z > SQRT3 * (-c + s)) return (1 / 6) * (3 + (SQRT3 * z) / c);
  if (z > -SQRT3 * (c + s)) return (1 / 12 / Math.sin(2 * theta)) * (z * z + 2 * SQRT3 * z * (c + s) + 3 * (1 + Math.sin(2 * theta)));
  return 0;
}

/** The next value of the autocorrelated series (CLIMADA's _h_ac). */
function hAc(x: number, y: number, theta: number): number {
  const m = ((theta % Math.PI) + Math.PI) % Math.PI;
  const gamma = Math.abs(m - Math.floor(m / (Math.PI / 2) + 0.5) * (Math.PI / 2));
  return 2 * SQRT3 * (fAc(Math.cos(theta) * x + Math.sin(theta) * y, gamma) - 0.5);
}

/** n uniform values at stepH-hour spacing whose hourly lag-1 autocorrelation is autocorr (CLIMADA's _random_uniform_ac). */
export function randomUniformAc(n: number, autocorr: number, stepH: number, rng: SeededRandom): number[] {
  const exact = n * stepH;
  const hourly = Math.ceil(exact);
  const x = Array.from({ length: hourly }, () => normal(rng));
  const theta = Math.acos(autocorr);
  for (let i = 1; i < hourly; i++) x[i] = hAc(x[i - 1]!, x[i]!, theta);
  const u = x.map((v) => (v + SQRT3) / (2 * SQRT3));
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = k * stepH;
    const i = Math.min(Math.floor(t), hourly - 1);
    const f = t - i;
    out.push(i + 1 < hourly ? u[i]! + f * (u[i + 1]! - u[i]!) : u[i]!);
  }
  return out;
}

/** Initial bearing of the great circle from each point to the next, degrees clockwise from north. */
function bearings(lon: readonly number[], lat: readonly number[]): number[] {
  return lon.slice(1).map((_, i) => {
    const l1 = lat[i]! * RAD, l2 = lat[i + 1]! * RAD, dl = (lon[i + 1]! - lon[i]!) * RAD;
    return Math.atan2(Math.sin(dl) * Math.cos(l2), Math.cos(l1) * Math.sin(l2) - Math.sin(l1) * Math.cos(l2) * Math.cos(dl)) / RAD;
  });
}

/** Great-circle distance of each segment, degrees of arc (haversine). */
function arcs(lon: readonly number[], lat: readonly number[]): number[] {
  return lon.slice(1).map((_, i) => {
    const dlat = 0.5 * (lat[i + 1]! - lat[i]!) * RAD, dlon = 0.5 * (lon[i + 1]! - lon[i]!) * RAD;
    const h = Math.sin(dlat) ** 2 + Math.cos(lat[i]! * RAD) * Math.cos(lat[i + 1]! * RAD) * Math.sin(dlon) ** 2;
    return (2 * Math.asin(Math.sqrt(h))) / RAD;
  });
}

function destination(lon: number, lat: number, bearingDeg: number, arcDeg: number): [number, number] {
  const p = lat * RAD, b = bearingDeg * RAD, d = arcDeg * RAD;
  const lat2 = Math.asin(Math.sin(p) * Math.cos(d) + Math.cos(p) * Math.sin(d) * Math.cos(b));
  const lon2 = lon * RAD + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p), Math.cos(d) - Math.sin(p) * Math.sin(lat2));
  return [lon2 / RAD, lat2 / RAD];
}

/** The members of one track (put on equal steps first), each a copy with perturbed positions, sid suffixed _genN. */
export function perturbedTracks(track: TcTrack, rng: SeededRandom, members: number = SYNTHETIC_DEFAULTS.members): TcTrack[] {
  const n = track.time.length;
  const d = SYNTHETIC_DEFAULTS;
  const shifts = Array.from({ length: 2 * members }, () => rng.uniform());
  if (n < 2) {
    return Array.from({ length: members }, (_, m) => ({
      ...track, sid: `${track.sid}_gen${m + 1}`,
      lon: [lonNormalize(track.lon[0]! + d.max_shift_ini_deg * (2 * shifts[m]! - 1))],
      lat: [track.lat[0]! + d.max_shift_ini_deg * (2 * shifts[members + m]! - 1)],
    }));
  }
  const stepH = track.time_step_h[n - 1]!;
  const seg = n - 1;
  const dirs = randomUniformAc(members * seg, d.autocorr_ddirection, stepH, rng);
  const speeds = randomUniformAc(members * seg, d.autocorr_dspeed, stepH, rng);
  const bearing = bearings(track.lon, track.lat);
  const arc = arcs(track.lon, track.lat);
  return Array.from({ length: members }, (_, m) => {
    const lon = [track.lon[0]! + d.max_shift_ini_deg * (2 * shifts[m]! - 1)];
    const lat = [track.lat[0]! + d.max_shift_ini_deg * (2 * shifts[members + m]! - 1)];
    let turn = 0;
    let last = n;
    for (let i = 0; i < seg; i++) {
      turn += stepH * (d.max_ddirection_rad_per_h * (2 * dirs[m * seg + i]! - 1)) / RAD;
      const scale = 1 + d.max_dspeed_rel * (2 * speeds[m * seg + i]! - 1);
      const [lo, la] = destination(lon[i]!, lat[i]!, bearing[i]! + turn, scale * arc[i]!);
      lon.push(lo);
      lat.push(la);
      if (i + 2 < n && Math.abs(la) > d.max_abs_latitude) { last = i + 2; break; }
    }
    const cut = <T>(a: readonly T[]) => a.slice(0, last);
    return {
      ...track,
      sid: `${track.sid}_gen${m + 1}`,
      time: cut(track.time), time_step_h: cut(track.time_step_h), max_wind_kn: cut(track.max_wind_kn),
      central_pressure_hpa: cut(track.central_pressure_hpa), environmental_pressure_hpa: cut(track.environmental_pressure_hpa), rmw_nm: cut(track.rmw_nm),
      lon: cut(lon).map((l) => lonNormalize(l)), lat: cut(lat),
    };
  });
}

// ---- Decay over land (CLIMADA's _apply_decay_coeffs with its global parameters) ----
//
// After each landfall of a member (a step over land following one at sea), wind and central pressure
// decay with the distance travelled over land x (km) by the landfall category's coefficients:
// wind = v_landfall · exp(-A·x); pressure = p_landfall · (S - (S - 1)·exp(-B·x)), S = environmental /
// landfall pressure (S ≤ 1: the environmental pressure throughout). Back at sea the later values are
// shifted to join the decayed ones, with CLIMADA's random offset (pressure 0.1·(|5·N| + 6) hPa lower,
// wind ten times that in knots higher). Land is decided as CLIMADA's track_land_params does
// (climada/hazard/tc_tracks.py, over coord_on_land of climada/util/coordinates.py): a step is on land
// when it lies inside Natural Earth's land at 1:10m (domain/land-mask.ts), the same rule in every basin.

/** Wind decay A per Saffir-Simpson category at landfall (-1 depression … 5), CLIMADA's LANDFALL_DECAY_V. */
export const LANDFALL_DECAY_V: Readonly<Record<number, number>> = {
  [-1]: 0.00012859077693295416, 0: 0.0017226346292718126, 1: 0.002309772914350468, 2: 0.0025968221565522698,
  3: 0.002626252944053856, 4: 0.002550639312763181, 5: 0.003788695795963695,
};
/** Pressure decay (S, B) per category, CLIMADA's LANDFALL_DECAY_P (S is recomputed per landfall; B is used). */
export const LANDFALL_DECAY_P: Readonly<Record<number, readonly [number, number]>> = {
  [-1]: [1.0088807492745373, 0.002117478217863062], 0: [1.0192813768091684, 0.003068578025845065],
  1: [1.0362982218631644, 0.003620816186262243], 2: [1.0468630800617038, 0.004067381088015585],
  3: [1.0639055205005432, 0.003708174876364079], 4: [1.0828373148889825, 0.003997492773076179],
  5: [1.1088615145002092, 0.005224331234796362],
};
const SAFFIR_SIMPSON_KN = [34, 64, 83, 96, 113, 137, 1000];
const EARTH_RADIUS_KM = 6371;

/** CLIMADA's set_category of one wind (knots): -1 below 34 kn, then 0 … 5. */
export function categoryOf(windKn: number): number {
  const i = SAFFIR_SIMPSON_KN.findIndex((t) => windKn < t);
  return i < 0 ? -1 : i - 1;
}

function haversineRad(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dlat = 0.5 * (lat2 - lat1) * RAD, dlon = 0.5 * (lon2 - lon1) * RAD;
  return 2 * Math.asin(Math.sqrt(Math.sin(dlat) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dlon) ** 2));
}

/** First land step and first sea step after it of each landfall (CLIMADA's _get_landfall_idx). */
export function landfalls(onLand: readonly boolean[], includeStart: boolean): { seaLand: number[]; landSea: number[] } {
  const seaLand: number[] = [];
  let landSea: number[] = [];
  for (let i = 1; i < onLand.length; i++) {
    if (onLand[i] && !onLand[i - 1]) seaLand.push(i);
    if (!onLand[i] && onLand[i - 1]) landSea.push(i);
  }
  if (onLand.at(-1)) landSea.push(onLand.length);
  if (onLand[0]) { if (includeStart) seaLand.unshift(0); else landSea = landSea.slice(1); }
  return { seaLand, landSea };
}

/** Distance travelled over land since landfall at each step, km (NaN at sea; CLIMADA's _dist_since_lf). */
export function distanceSinceLandfall(lat: readonly number[], lon: readonly number[], onLand: readonly boolean[]): number[] {
  const n = lat.length;
  const { seaLand, landSea } = landfalls(onLand, true);
  if (seaLand.length === 0) return lat.map(() => NaN);
  const d = new Array<number>(n).fill(0);
  for (let i = 1; i < n; i++) d[i] = onLand[i] ? haversineRad(lat[i]!, lon[i]!, lat[i - 1]!, lon[i - 1]!) : 0;
  for (const s of seaLand) {
    const [oLat, oLon] = s > 0 ? [lat[s - 1]! + (lat[s]! - lat[s - 1]!) / 2, lon[s - 1]! + (lon[s]! - lon[s - 1]!) / 2] : [lat[s]!, lon[s]!];
    d[s] = haversineRad(lat[s]!, lon[s]!, oLat, oLon);
  }
  seaLand.forEach((s, k) => { for (let i = s + 1; i < landSea[k]!; i++) d[i]! += d[i - 1]!; });
  return d.map((v, i) => (onLand[i] ? v * EARTH_RADIUS_KM : NaN));
}

/** Decay coefficients per landfall category: wind A, pressure (S, B). */
export interface LandDecayCoefficients {
  readonly v: Readonly<Record<number, number>>;
  readonly p: Readonly<Record<number, readonly [number, number]>>;
}

/** CLIMADA's global coefficients (use_global_decay_params, the default of calc_perturbed_trajectories). */
export const GLOBAL_LAND_DECAY: LandDecayCoefficients = { v: LANDFALL_DECAY_V, p: LANDFALL_DECAY_P };

/** A member's wind and pressure decayed over land (CLIMADA's _apply_decay_coeffs); isLand says where land is. */
export function applyLandDecay(
  track: TcTrack,
  isLand: (lat: number, lon: number) => boolean,
  rng: SeededRandom,
  coefficients: LandDecayCoefficients = GLOBAL_LAND_DECAY,
): TcTrack {
  const onLand = track.lat.map((la, i) => isLand(la, track.lon[i]!));
  const { seaLand, landSea } = landfalls(onLand, false);
  if (seaLand.length === 0) return track;
  const dist = distanceSinceLandfall(track.lat, track.lon, onLand);
  const wind = [...track.max_wind_kn];
  const cen = [...track.central_pressure_hpa];
  const env = track.environmental_pressure_hpa;
  const n = wind.length;
  seaLand.forEach((sl, k) => {
    const ls = landSea[k]!;
    const vLf = wind[sl - 1]!;
    const pLf = cen[sl - 1]!;
    if (ls - sl === 1) return;
    const cat = categoryOf(vLf);
    const s = env[ls - 1]! / pLf;
    for (let i = sl; i < ls; i++) {
      if (s <= 1) cen[i] = env[i]!;
      else {
        const pDecay = s - (s - 1) * Math.exp(-coefficients.p[cat]![1] * dist[i]!);
        cen[i] = pDecay < 1 ? cen[i]! : pLf * pDecay;
      }
      const vDecay = Math.exp(-coefficients.v[cat]! * dist[i]!);
      wind[i] = vDecay > 1 ? wind[i]! : vLf * vDecay;
    }
    if (ls < n) {
      const end = k + 1 < seaLand.length ? seaLand[k + 1]! : n;
      let rndn = 0.1 * (Math.abs(normal(rng) * 5) + 6);
      const pDiff = cen[ls]! - cen[ls - 1]! + rndn;
      for (let i = ls; i < end; i++) cen[i]! -= pDiff;
      rndn *= 10;
      const vDiff = wind[ls]! - wind[ls - 1]! - rndn;
      for (let i = ls; i < end; i++) wind[i]! -= vDiff;
    }
    for (let i = 0; i < n; i++) {
      if (cen[i]! > env[i]!) cen[i] = env[i]!;
      if (wind[i]! < 0) wind[i] = 0;
    }
  });
  return { ...track, max_wind_kn: wind, central_pressure_hpa: cen };
}
