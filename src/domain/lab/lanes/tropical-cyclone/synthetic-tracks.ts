// Probabilistic tracks from a historical one by CLIMADA's directed random walk
// (TCTracks.calc_perturbed_trajectories, its defaults): each member starts shifted by up to ±0.75° in
// latitude and longitude, then follows the historical segments with each segment's bearing turned by
// the running sum of hourly direction perturbations (up to ±π/360 rad per hour, autocorrelation 0.5
// at one hour) and its great-circle length scaled by 1 ± 0.3 (autocorrelation 0.85); a member is cut
// where it leaves ±70° latitude. The random numbers come from the seeded generator, drawn in CLIMADA's
// order (the start shifts, then the direction series, then the speed series), so a seed gives one set.
// Only the positions are perturbed here; intensity and its decay over land are not (yet) applied.
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
