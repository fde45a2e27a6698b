// A tropical-cyclone track as the wind field reads it (CLIMADA's TCTracks variables), and the
// estimates CLIMADA v6.1 fills missing values with (climada/hazard/tc_tracks.py). Units as the
// archives publish them: knots, hPa, nautical miles, hours.
//
// CLIMADA reads neither HURDAT2 nor JTWC b-decks; a best-track storm is read here as its reader of
// one track table reads a track (TCTracks.from_processed_ibtracs_csv, _read_ibtracs_csv_single):
// fixes as published, central pressure estimated over the whole track when any fix lacks one, a
// missing radius of maximum wind left missing (the wind field estimates it at each hourly step).
// Its IBTrACS netCDF reader (from_ibtracs_netcdf) fills gaps differently (it interpolates between
// reported values and carries radii one fix forward and back); it is not what the lab follows.
import type { Storm } from '../../../hazard/records.js';

export interface TcTrack {
  /** Publisher's id (ATCF id, or the IBTrACS serial id of a processed track). */
  sid: string;
  name: string | null;
  /** Genesis basin (NA, EP, WP, NI, SI, SP, SA or the archive's two letters). */
  basin: string;
  /** Fix times, epoch milliseconds, ascending. */
  time: number[];
  lat: number[];
  lon: number[];
  /** Hours from the previous fix (CLIMADA's time_step; the first is the file's own value). */
  time_step_h: number[];
  /** 1-minute sustained wind, knots; NaN when missing. */
  max_wind_kn: number[];
  /** Central pressure, hPa; NaN when missing. */
  central_pressure_hpa: number[];
  /** Environmental pressure, hPa. */
  environmental_pressure_hpa: number[];
  /** Radius of maximum wind, nautical miles; 0 or NaN when missing. */
  rmw_nm: number[];
}

/** CLIMADA's default environmental pressure by basin (hPa; TCTracks BASIN_ENV_PRESSURE). */
export const BASIN_ENV_PRESSURE_HPA: Readonly<Record<string, number>> = {
  EP: 1010, NA: 1010, SA: 1010, NI: 1005, SI: 1005, WP: 1005, SP: 1004,
};
export const DEFAULT_ENV_PRESSURE_HPA = 1010;

/**
 * Central pressure estimated from position and wind where it is missing (not above 0, or NaN), as
 * CLIMADA's _estimate_pressure (tc_tracks.py; a statistical fit, r² 0.87): NaN where the wind is
 * missing or not above 0, or the position missing (NaN, or -999 and below, which CLIMADA reads as
 * missing).
 */
export function estimatePressure(pressure: number, lat: number, lon: number, windKn: number): number {
  if (pressure > 0) return pressure;
  if (!(windKn > 0) || !(lat > -999) || !(lon > -999)) return NaN;
  const p = 1026.3401 - 0.05504 * lat - 0.03536 * lon - 0.7357 * windKn;
  return p > 0 ? p : NaN;
}

/**
 * A track's central pressures as CLIMADA's processed-track reader leaves them
 * (_read_ibtracs_csv_single, tc_tracks.py): when any fix lacks one, every fix's is replaced by the
 * statistical estimate (estimatePressure), so that a track never mixes reported and estimated
 * pressures; otherwise all are kept as reported.
 */
export function trackPressures(pressure: readonly number[], lat: readonly number[], lon: readonly number[], windKn: readonly number[]): number[] {
  if (pressure.every((p) => p > 0)) return [...pressure];
  return pressure.map((_, i) => estimatePressure(NaN, lat[i]!, lon[i]!, windKn[i]!));
}

/**
 * Radius of maximum wind (nm) estimated from central pressure where it is missing (not above 0, or
 * NaN), as CLIMADA's estimate_rmw (tc_tracks.py; a piecewise-linear fit, r² 0.79). Value by value:
 * tctrack_to_si (trop_cyclone_windfields.py) applies it to each hourly step lacking a radius, with
 * that step's pressure; no rule over the whole track, unlike central pressure.
 */
export function estimateRmw(rmwNm: number, pressureHpa: number): number {
  if (rmwNm > 0) return rmwNm;
  if (!(pressureHpa > 0)) return NaN;
  const pres = [872, 940, 980, 1021];
  const rmw = [14.907318, 15.726927, 25.742142, 56.856522];
  let out = 0;
  for (let i = 0; i < pres.length; i++) {
    const s0 = i > 0 ? 1 / (pres[i]! - pres[i - 1]!) : 0;
    const s1 = i + 1 < pres.length ? 1 / (pres[i + 1]! - pres[i]!) : 0;
    out += rmw[i]! * Math.max(0, 1 - s0 * Math.max(0, pres[i]! - pressureHpa) - s1 * Math.max(0, pressureHpa - pres[i]!));
  }
  return out > 0 ? out : NaN;
}

/** The genesis basin of an archive's two-letter basin (HURDAT2 AL/EP/CP, JTWC WP/IO/SH). */
export function genesisBasin(storm: Storm): string {
  switch (storm.basin) {
    case 'AL': return 'NA';
    case 'EP': case 'CP': return 'EP';
    case 'WP': return 'WP';
    case 'IO': return 'NI';
    case 'SH': {
      const lon = storm.fixes[0]?.longitude ?? 0;
      return lon >= 135 || lon < -60 ? 'SP' : 'SI';
    }
    default: return storm.basin;
  }
}

/**
 * A best-track storm as a track, as CLIMADA's processed-track reader reads one (see the top): every
 * central pressure estimated from position and wind when any fix lacks one (trackPressures); the
 * radius of maximum wind kept where the archive gives one, NaN elsewhere (estimated from pressure
 * after the track is put on its hourly steps); environmental pressure the basin's default.
 */
export function trackOfStorm(storm: Storm): TcTrack {
  const fixes = storm.fixes;
  const basin = genesisBasin(storm);
  const env = BASIN_ENV_PRESSURE_HPA[basin] ?? DEFAULT_ENV_PRESSURE_HPA;
  const lat = fixes.map((f) => f.latitude);
  const lon = fixes.map((f) => f.longitude);
  const wind = fixes.map((f) => f.max_wind_kt ?? NaN);
  return {
    sid: storm.storm_id,
    name: storm.name,
    basin,
    time: fixes.map((f) => f.epoch_ms),
    lat,
    lon,
    time_step_h: fixes.map((f, i) => (i === 0 ? 0 : (f.epoch_ms - fixes[i - 1]!.epoch_ms) / 3_600_000)),
    max_wind_kn: wind,
    central_pressure_hpa: trackPressures(fixes.map((f) => f.min_pressure_mb ?? NaN), lat, lon, wind),
    environmental_pressure_hpa: fixes.map(() => env),
    rmw_nm: fixes.map((f) => f.rmw_nm ?? NaN),
  };
}
