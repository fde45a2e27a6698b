// The wind field of a tropical-cyclone track at given places, as CLIMADA v6.1 computes it (TropCyclone
// from_tracks with its defaults: model "H08", metric "equirect"):
//
//   1. the track is put on 1-hour steps (tc_tracks.py TCTracks.equal_timestep, _one_interp_data):
//      steps at whole hours from the first fix to the last; position by a not-a-knot cubic spline in
//      time (quadratic for 3 fixes, linear for 2), the other variables linearly as numpy's interp
//      (a fix's own value at its own time, even between missing neighbours; see interpolate);
//   2. SI units; central pressure held at or below the environmental pressure; a missing radius of
//      maximum wind estimated from central pressure at each step (trop_cyclone_windfields.py
//      tctrack_to_si, track.ts estimateRmw); translational velocity between consecutive steps over the
//      equirectangular distance, capped at 30 knots;
//   3. Holland (2008) surface b-value from the pressure drop, its change over the step, latitude and
//      translational speed, clipped to [1, 2.5] × 0.9² = [0.81, 2.025] (hollandB2008); the Holland
//      (1980) profile with that b and the Coriolis term gives the angular wind at each place within
//      300 km of the eye (and more than 1 m);
//   4. translational wind: the translational speed is first taken off the angular wind, then the
//      translational vector added, both scaled by min(1, rmw / distance) (Mouton and Nordbeck 2005);
//   5. the first step carries no wind (backward differences); the intensity at a place is the largest
//      wind over the steps, set to 0 below 17.5 m/s. Places beyond 61° of latitude get none.
//
// The 0.9 gradient-to-surface factor does not scale the H08 profile (SI wind is surface wind here);
// it enters only through the interval the b-value is clipped to.

import type { TcTrack } from './track.js';
import { estimateRmw } from './track.js';

export const WINDFIELD_DEFAULTS = {
  model: 'H08',
  metric: 'equirect',
  time_step_h: 1,
  intensity_threshold_m_s: 17.5,
  max_dist_eye_km: 300,
  max_latitude: 61,
  gradient_to_surface: 0.9,
  rho_air_kg_m3: 1.15,
  translational_speed_cap_kn: 30,
  earth_angular_velocity_rad_s: 7.29e-5,
  one_degree_latitude_km: 111.12,
} as const;

/** What a run says of its wind field: the rules that are CLIMADA's (v6.1.0, file and function named) and those that are the lab's own. */
export const WIND_FIELD_ASSUMPTIONS: readonly string[] = [
  `Wind field: Holland (2008) as CLIMADA v6.1.0 computes it (TropCyclone.from_tracks, model H08, metric equirect). CLIMADA's rules: tracks put on ${WINDFIELD_DEFAULTS.time_step_h}-hour steps (tc_tracks.py TCTracks.equal_timestep), position by a not-a-knot cubic spline in time, the other variables linearly as numpy's interp does (a value reported at a whole-hour fix is kept even between fixes without one; nothing is interpolated across a missing value); when any fix of a track lacks a central pressure, every fix's is the statistical estimate from position and wind (tc_tracks.py _read_ibtracs_csv_single, _estimate_pressure); a missing radius of maximum wind is estimated from central pressure at each hourly step (trop_cyclone_windfields.py tctrack_to_si, tc_tracks.py estimate_rmw); Holland's b (_bs_holland_2008) clipped to [1, 2.5] × ${WINDFIELD_DEFAULTS.gradient_to_surface}² = [${hollandBClip().map((b) => +b.toFixed(6)).join(', ')}] (_b_holland_clip_interval); translational velocity between steps capped at ${WINDFIELD_DEFAULTS.translational_speed_cap_kn} kn and added to the rotating wind, both scaled by min(1, rmw/r); Coriolis term included; air density ${WINDFIELD_DEFAULTS.rho_air_kg_m3} kg/m³; a step whose central pressure is unknown gives no wind.`,
  'Ours: CLIMADA reads neither HURDAT2 nor JTWC best tracks; each storm is read as CLIMADA\'s processed-track reader reads a track table (fixes as published, the archive\'s missing codes as missing), not as its IBTrACS netCDF reader does (which interpolates across gaps and carries radii one fix forward and back); environmental pressure is the basin\'s default (CLIMADA\'s BASIN_ENV_PRESSURE: 1010 hPa NA/EP, 1005 WP/NI/SI, 1004 SP) at every fix; places far inland are not dropped (CLIMADA leaves out centroids more than 1,000 km from the coast).',
];

const KN_TO_MS = 1852 / 3600;
const NM_TO_M = 1852;
const HPA_TO_PA = 100;
const H_TO_S = 3600;
const HOUR_MS = 3_600_000;
const DEG_M = WINDFIELD_DEFAULTS.one_degree_latitude_km * 1000;
const RAD = Math.PI / 180;

/** Maps longitudes so that center - 180 < lon <= center + 180 (CLIMADA's lon_normalize). */
export function lonNormalize(lon: number, center = 0): number {
  const lo = center - 180, hi = center + 180;
  let x = lon;
  if (x <= lo || x > hi) x = mod(x, 360) + (center - mod(center, 360));
  if (mod(center, 360) < 180) { if (x > hi) x -= 360; } else if (x <= lo) x += 360;
  return x;
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** The longitudinal bounds of a set of longitudes across the antimeridian (CLIMADA's lon_bounds). */
export function lonBounds(lons: readonly number[]): [number, number] {
  const u = [...new Set(lons.map((l) => lonNormalize(l)))].sort((a, b) => a - b);
  u.push(360 + u[0]!);
  let gap = 0;
  let best = -Infinity;
  for (let i = 0; i + 1 < u.length; i++) if (u[i + 1]! - u[i]! > best) { best = u[i + 1]! - u[i]!; gap = i; }
  if (best < 2) return [Math.max(u[0]!, -180), Math.min(u[u.length - 2]!, 180)];
  let min = u[gap + 1]!, max = u[gap]!;
  if (min > 180) min -= 360; else max += 360;
  if (min <= -180) { min += 360; max += 360; }
  return [min, max];
}

/**
 * Values of the interpolant through (xs, ys) at xq: linear (as numpy's interp, see linearAt),
 * quadratic (3 points) or not-a-knot cubic spline.
 */
export function interpolate(xs: readonly number[], ys: readonly number[], xq: readonly number[], order: 1 | 2 | 3): number[] {
  const n = xs.length;
  const at = (x: number) => {
    let k = 0;
    let hi = n - 1;
    while (hi - k > 1) { const mid = (k + hi) >> 1; if (xs[mid]! <= x) k = mid; else hi = mid; }
    return k;
  };
  if (order === 1 || n < 3) return xq.map((x) => linearAt(xs, ys, x));
  if (order === 2 || n === 3) {
    const [x0, x1, x2] = xs as [number, number, number];
    const [y0, y1, y2] = ys as [number, number, number];
    return xq.map((x) => y0 * ((x - x1) * (x - x2)) / ((x0 - x1) * (x0 - x2)) + y1 * ((x - x0) * (x - x2)) / ((x1 - x0) * (x1 - x2)) + y2 * ((x - x0) * (x - x1)) / ((x2 - x0) * (x2 - x1)));
  }
  const m = notAKnotMoments(xs, ys);
  return xq.map((x) => {
    const k = at(x);
    const h = xs[k + 1]! - xs[k]!;
    const a = xs[k + 1]! - x, b = x - xs[k]!;
    return (m[k]! * a * a * a + m[k + 1]! * b * b * b) / (6 * h) + (ys[k]! / h - (m[k]! * h) / 6) * a + (ys[k + 1]! / h - (m[k + 1]! * h) / 6) * b;
  });
}

/**
 * The linear interpolant at x as numpy's interp computes it (numpy/_core/src/multiarray/compiled_base.c,
 * arr_interp), which is what CLIMADA's resampling runs: xarray's Dataset.interp hands a 1-D linear
 * interpolation to scipy's interp1d, which hands it to numpy.interp. At a knot's own x the knot's
 * value, whatever its neighbours (so a value reported at a whole-hour fix survives between missing
 * ones); between knots slope·(x − x_j) + y_j, NaN when either end is NaN; outside the knots NaN
 * (interp1d's fill value: xarray calls it with bounds_error=False).
 */
function linearAt(xs: readonly number[], ys: readonly number[], x: number): number {
  const n = xs.length;
  if (!(x >= xs[0]! && x <= xs[n - 1]!)) return NaN;
  let j = 0;
  let hi = n - 1;
  if (x === xs[hi]) return ys[hi]!;
  // xs[j] <= x < xs[hi]
  while (hi - j > 1) { const mid = (j + hi) >> 1; if (xs[mid]! <= x) j = mid; else hi = mid; }
  if (xs[j] === x) return ys[j]!;
  const slope = (ys[j + 1]! - ys[j]!) / (xs[j + 1]! - xs[j]!);
  let y = slope * (x - xs[j]!) + ys[j]!;
  // numpy's own fallbacks for infinite ends: the other end, then the common value.
  if (Number.isNaN(y)) {
    y = slope * (x - xs[j + 1]!) + ys[j + 1]!;
    if (Number.isNaN(y) && ys[j] === ys[j + 1]) y = ys[j]!;
  }
  return y;
}

/** Second derivatives at the knots of the not-a-knot cubic spline (n ≥ 4). */
function notAKnotMoments(xs: readonly number[], ys: readonly number[]): Float64Array {
  const n = xs.length;
  const h = Array.from({ length: n - 1 }, (_, i) => xs[i + 1]! - xs[i]!);
  const d = h.map((hi, i) => (ys[i + 1]! - ys[i]!) / hi);
  // Unknowns M1 … M(n-2); M0 and M(n-1) follow from the not-a-knot conditions
  //   h1 M0 - (h0 + h1) M1 + h0 M2 = 0 and its mirror at the right end.
  const k = n - 2;
  const sub = new Float64Array(k), diag = new Float64Array(k), sup = new Float64Array(k), rhs = new Float64Array(k);
  for (let r = 0; r < k; r++) {
    const i = r + 1;
    sub[r] = h[i - 1]!;
    diag[r] = 2 * (h[i - 1]! + h[i]!);
    sup[r] = h[i]!;
    rhs[r] = 6 * (d[i]! - d[i - 1]!);
  }
  const h0 = h[0]!, h1 = h[1]!, hl = h[n - 2]!, hm = h[n - 3]!;
  // Row 1: h0 M0 with M0 = ((h0 + h1) M1 - h0 M2) / h1.
  diag[0]! += (h0 * (h0 + h1)) / h1;
  sup[0]! -= (h0 * h0) / h1;
  // Row n-2: h(n-2) M(n-1) with M(n-1) = ((hm + hl) M(n-2) - hl M(n-3)) / hm.
  diag[k - 1]! += (hl * (hm + hl)) / hm;
  sub[k - 1]! -= (hl * hl) / hm;
  if (k === 1) {
    // n = 3 is never solved here (quadratic above); kept for completeness.
    const M1 = rhs[0]! / diag[0]!;
    return Float64Array.of(M1, M1, M1);
  }
  // Thomas algorithm.
  for (let r = 1; r < k; r++) {
    const w = sub[r]! / diag[r - 1]!;
    diag[r]! -= w * sup[r - 1]!;
    rhs[r]! -= w * rhs[r - 1]!;
  }
  const inner = new Float64Array(k);
  inner[k - 1] = rhs[k - 1]! / diag[k - 1]!;
  for (let r = k - 2; r >= 0; r--) inner[r] = (rhs[r]! - sup[r]! * inner[r + 1]!) / diag[r]!;
  const M = new Float64Array(n);
  M.set(inner, 1);
  M[0] = ((h0 + h1) * M[1]! - h0 * M[2]!) / h1;
  M[n - 1] = ((hm + hl) * M[n - 2]! - hl * M[n - 3]!) / hm;
  return M;
}

/** The track on equal steps of stepH hours (whole multiples of the step from midnight, within the fixes). */
export function equalTimestep(track: TcTrack, stepH: number = WINDFIELD_DEFAULTS.time_step_h): TcTrack {
  const n = track.time.length;
  if (n < 2) return track;
  const stepMs = stepH * HOUR_MS;
  const t0 = track.time[0]!, tn = track.time[n - 1]!;
  const times: number[] = [];
  for (let t = Math.ceil(t0 / stepMs) * stepMs; t <= tn; t += stepMs) times.push(t);
  // The linear interpolant runs on nanoseconds from the first fix, the numbers xarray hands it
  // (_floatize_x), so that its arithmetic is numpy's to the last bit; hours from the first fix keep
  // the spline's arithmetic in small numbers (a spline does not depend on the unit).
  const ns = track.time.map((t) => (t - t0) * 1e6);
  const nq = times.map((t) => (t - t0) * 1e6);
  const linear = (ys: readonly number[]) => interpolate(ns, ys, nq, 1);
  const xs = track.time.map((t) => (t - t0) / HOUR_MS);
  const xq = times.map((t) => (t - t0) / HOUR_MS);
  const order = ([1, 2, 3] as const)[Math.min(2, n - 2)]!;
  const position = (ys: readonly number[]) => (order === 1 ? linear(ys) : interpolate(xs, ys, xq, order));
  let lon = track.lon.map((l) => lonNormalize(l, 0));
  if (lon.some((l) => l < -170) && lon.some((l) => l > 170)) lon = lon.map((l) => (l < 0 ? l + 360 : l));
  return {
    ...track,
    time: times,
    lat: position(track.lat),
    lon: position(lon).map((l) => (l > 180 ? l - 360 : l)),
    time_step_h: times.map(() => stepH),
    max_wind_kn: linear(track.max_wind_kn),
    central_pressure_hpa: linear(track.central_pressure_hpa),
    environmental_pressure_hpa: linear(track.environmental_pressure_hpa),
    rmw_nm: linear(track.rmw_nm),
  };
}

/** A track's steps in SI units with what the wind profile reads (CLIMADA's tctrack_to_si and _bs_holland_2008). */
export interface SiTrack {
  n: number;
  lat: Float64Array;
  /** Normalised around midLon. */
  lon: Float64Array;
  midLon: number;
  latsign: number;
  /** Pa. */
  env: Float64Array;
  cen: Float64Array;
  /** env − cen, at least 2^-52 Pa (CLIMADA's pdelta). */
  pdelta: Float64Array;
  /** Radius of maximum wind, m. */
  rad: Float64Array;
  /** Translational velocity (northward, eastward) and speed, m/s. */
  vtransV: Float64Array;
  vtransU: Float64Array;
  vtransNorm: Float64Array;
  holB: Float64Array;
  /** Coriolis parameter, 1/s. */
  cp: Float64Array;
}

export function siTrack(track: TcTrack): SiTrack {
  const n = track.time.length;
  const [lo, hi] = lonBounds(track.lon);
  const midLon = 0.5 * (lo + hi);
  const lat = Float64Array.from(track.lat);
  const lon = Float64Array.from(track.lon, (l) => lonNormalize(l, midLon));
  const env = Float64Array.from(track.environmental_pressure_hpa, (p) => p * HPA_TO_PA);
  const cen = Float64Array.from(track.central_pressure_hpa, (p, i) => Math.min(p * HPA_TO_PA, env[i]!));
  // NaN central pressure stays NaN (Math.min gives NaN), and so do the b-value and radius computed
  // from it: such a step gives no wind.
  for (let i = 0; i < n; i++) if (Number.isNaN(track.central_pressure_hpa[i]!)) cen[i] = NaN;
  // A missing radius is estimated at each step on its own (tctrack_to_si), after the resampling.
  const rad = Float64Array.from(track.rmw_nm, (r, i) => estimateRmw(Number.isNaN(r) ? -1 : r, cen[i]! / HPA_TO_PA) * NM_TO_M);
  const tstep = Float64Array.from(track.time_step_h, (h) => h * H_TO_S);
  let south = 0, north = 0;
  for (const l of lat) { if (l < 0) south++; else if (l > 0) north++; }
  const latsign = south > north ? -1 : 1;
  const vtransV = new Float64Array(n), vtransU = new Float64Array(n), vtransNorm = new Float64Array(n);
  const cap = WINDFIELD_DEFAULTS.translational_speed_cap_kn * KN_TO_MS;
  for (let i = 1; i < n; i++) {
    let dlon = lon[i]! - lon[i - 1]!;
    dlon -= (dlon > 180 ? 1 : 0) * 360 - (-dlon > 180 ? 1 : 0) * 360;
    const v = (lat[i]! - lat[i - 1]!) * DEG_M;
    const u = dlon * Math.cos(lat[i - 1]! * RAD) * DEG_M;
    let norm = Math.sqrt(v * v + u * u) / tstep[i]!;
    let fv = v / tstep[i]!, fu = u / tstep[i]!;
    if (norm > cap) { const f = cap / norm; fv *= f; fu *= f; norm *= f; }
    vtransV[i] = fv; vtransU[i] = fu; vtransNorm[i] = norm;
  }
  const pdelta = new Float64Array(n), holB = new Float64Array(n);
  const clip = hollandBClip();
  for (let i = 0; i < n; i++) {
    // The pressure drop, never below the spacing of 1 (numpy's fmax: also where central pressure is NaN).
    const d = env[i]! - cen[i]!;
    pdelta[i] = d > Number.EPSILON ? d : Number.EPSILON;
    holB[i] = hollandB2008(pdelta[i]!, cen[i]!, i === 0 ? 0 : cen[i - 1]!, tstep[i]!, lat[i]!, vtransNorm[i]!, clip);
  }
  const cp = Float64Array.from(lat, (l) => 2 * WINDFIELD_DEFAULTS.earth_angular_velocity_rad_s * Math.sin(Math.abs(l) * RAD));
  return { n, lat, lon, midLon, latsign, env, cen, pdelta, rad, vtransV, vtransU, vtransNorm, holB, cp };
}

/**
 * The interval the Holland b-value is clipped to, as CLIMADA's _b_holland_clip_interval
 * (trop_cyclone_windfields.py) makes it: Holland's (1980) gradient-level [1, 2.5] scaled by the
 * gradient-to-surface factor squared, [0.81, 2.025] with the default 0.9.
 */
export function hollandBClip(gradientToSurface: number = WINDFIELD_DEFAULTS.gradient_to_surface): [number, number] {
  const f = gradientToSurface * gradientToSurface;
  return [1 * f, 2.5 * f];
}

/**
 * Holland's (2008) surface b-value at one step (his eq. 11), as CLIMADA's _bs_holland_2008
 * (trop_cyclone_windfields.py) computes it: pressures in Pa, the step in s, the translational speed in
 * m/s; a previous central pressure below 850 hPa (the first step's is 0) is taken as this step's;
 * NaN stays NaN, anything else is clipped to `clip`.
 */
export function hollandB2008(pdeltaPa: number, cenPa: number, prevCenPa: number, tstepS: number, lat: number, vtransNorm: number, clip: readonly [number, number] = hollandBClip()): number {
  const prev = prevCenPa < 850 * HPA_TO_PA ? cenPa : prevCenPa;
  const pdelta = pdeltaPa / HPA_TO_PA;
  const holXx = 0.6 * (1 - pdelta / 215);
  const b = -4.4e-5 * pdelta * pdelta + 0.01 * pdelta
    + ((0.03 * (cenPa - prev)) / tstepS) * (H_TO_S / HPA_TO_PA)
    - 0.014 * Math.abs(lat)
    + 0.15 * Math.pow(vtransNorm, holXx) + 1;
  return Number.isNaN(b) ? NaN : Math.min(clip[1], Math.max(clip[0], b));
}

/** Places bucketed in 1° cells, so a step visits only the cells within reach of its eye. */
export interface PlaceIndex {
  lat: Float64Array;
  lon: Float64Array;
  /** Cell key (latitude row × 360 + longitude column) → place numbers. */
  cells: Map<number, number[]>;
}

const cellKey = (row: number, col: number) => (row + 90) * 360 + (((col + 180) % 360) + 360) % 360;

export function placeIndex(lat: ArrayLike<number>, lon: ArrayLike<number>): PlaceIndex {
  const cells = new Map<number, number[]>();
  for (let i = 0; i < lat.length; i++) {
    const k = cellKey(Math.floor(lat[i]!), Math.floor(lonNormalize(lon[i]!)));
    let c = cells.get(k);
    if (!c) { c = []; cells.set(k, c); }
    c.push(i);
  }
  return { lat: Float64Array.from(lat), lon: Float64Array.from(lon), cells };
}

export interface WindfieldOptions {
  intensityThreshold?: number;
  maxDistEyeKm?: number;
  maxLatitude?: number;
}

/**
 * The storm's intensity (largest 1-minute sustained wind at 10 m over its life, m/s; 0 below the
 * threshold) at each place: a sparse answer, the places reached and their winds, in place order.
 */
export function trackWindfield(track: TcTrack, places: PlaceIndex, options: WindfieldOptions = {}): { place: Int32Array; wind: Float64Array } {
  const threshold = options.intensityThreshold ?? WINDFIELD_DEFAULTS.intensity_threshold_m_s;
  const maxDistM = (options.maxDistEyeKm ?? WINDFIELD_DEFAULTS.max_dist_eye_km) * 1000;
  const maxLat = options.maxLatitude ?? WINDFIELD_DEFAULTS.max_latitude;
  const empty = { place: new Int32Array(0), wind: new Float64Array(0) };
  if (track.time.length < 2) return empty;
  const si = siTrack(track);
  const rho = WINDFIELD_DEFAULTS.rho_air_kg_m3;
  const bandDeg = maxDistM / DEG_M;
  const peak = new Float64Array(places.lat.length);
  const touched: number[] = [];
  // Place longitudes normalised around the track's middle longitude, computed when first reached.
  const plon = new Float64Array(places.lat.length).fill(NaN);
  for (let i = 1; i < si.n; i++) {
    const tLat = si.lat[i]!, tLon = si.lon[i]!;
    const cosT = Math.cos(tLat * RAD);
    const rad = si.rad[i]!, b = si.holB[i]!, dp = si.pdelta[i]!, cp = si.cp[i]!;
    const vtn = si.vtransNorm[i]!, vtv = si.vtransV[i]!, vtu = si.vtransU[i]!;
    const bandLon = Math.min(180, bandDeg / Math.cos(Math.min(89.999, Math.abs(tLat) + bandDeg) * RAD));
    const rowFrom = Math.max(-90, Math.floor(tLat - bandDeg)), rowTo = Math.min(89, Math.floor(tLat + bandDeg));
    const colFrom = Math.floor(tLon - bandLon), colTo = Math.min(colFrom + 359, Math.floor(tLon + bandLon));
    for (let row = rowFrom; row <= rowTo; row++) {
      for (let col = colFrom; col <= colTo; col++) {
        const cell = places.cells.get(cellKey(row, col));
        if (!cell) continue;
        for (const p of cell) {
          const pLat = places.lat[p]!;
          if (Math.abs(pLat) > maxLat) continue;
          let pLon = plon[p]!;
          if (Number.isNaN(pLon)) { pLon = lonNormalize(places.lon[p]!, si.midLon); plon[p] = pLon; }
          let dlon = pLon - tLon;
          if (dlon > 180) dlon -= 360; else if (dlon < -180) dlon += 360;
          const dv = (pLat - tLat) * DEG_M;
          const du = dlon * cosT * DEG_M;
          const d = Math.sqrt(dv * dv + du * du);
          if (!(d <= maxDistM && d > 1)) continue;
          const rNorm = Math.pow(rad / Math.max(1, d), b);
          const rc = 0.5 * d * cp;
          const sq = (b / rho) * rNorm * dp * Math.exp(-rNorm) + rc * rc;
          const corr = Math.min(1, rad / d);
          const vAng = Math.sqrt(Math.max(0, sq)) - rc - vtn * corr;
          let wv = ((si.latsign * du) / d) * vAng + vtv * corr;
          let wu = ((-si.latsign * dv) / d) * vAng + vtu * corr;
          if (Number.isNaN(wv)) wv = 0;
          if (Number.isNaN(wu)) wu = 0;
          const w = Math.sqrt(wv * wv + wu * wu);
          if (w > peak[p]!) {
            if (peak[p] === 0) touched.push(p);
            peak[p] = w;
          }
        }
      }
    }
  }
  const hits = touched.filter((p) => peak[p]! >= threshold).sort((x, y) => x - y);
  if (hits.length === 0) return empty;
  return { place: Int32Array.from(hits), wind: Float64Array.from(hits, (p) => peak[p]!) };
}
