// An event's ShakeMap station data as the historical earthquake lane reads it when no ShakeMap grid
// is pinned: the stations and their channels' peak amplitudes as the USGS publishes them
// (stationlist.json of ShakeMap 4, stationlist.xml of ShakeMap 3.5), the event's origin and its
// rupture (a finite-fault outline, or a moment tensor's principal axes), and the rule that turns a
// station's channels into one observation per measure, OpenQuake's
// (openquake/hazardlib/shakemap/parsers.py, read_usgs_stations_json and usgs_to_ecd_format): seismic
// stations only; vertical channels (a name ending in Z or U) left out; of the horizontal channels,
// the one with the largest PGA (the first amplitude when none is given) taken whole; percent of g
// read as g; a station missing any observed measure dropped. One rule is ShakeMap's, not
// OpenQuake's parser's: an amplitude ShakeMap flags (any flag but "0" or empty, e.g. "Outlier") is
// not an observation, as ShakeMap itself leaves it out. Pure.
import type { MapIdentity } from '../flood/depth-map.js';
import { PGA, sa, type Imt } from '../../../hazard/gmpe/types.js';

export interface StationAmplitude {
  /** The publisher's name, lower case: pga, pgv, sa(0.3), sa(1.0), sa(3.0). */
  readonly name: string;
  readonly value: number | null;
  /** %g, g or cm/s as the file states (ShakeMap 3.5 lists: %g and cm/s by convention). */
  readonly unit: string;
  readonly flag: string;
  readonly ln_sigma: number;
}

export interface StationChannel {
  readonly name: string;
  readonly amplitudes: readonly StationAmplitude[];
}

export interface StationRecord {
  /** NET.CODE. */
  readonly id: string;
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** m/s, as ShakeMap assigned it (null when the list carries none). */
  readonly vs30: number | null;
  /** seismic or macroseismic (DYFI). */
  readonly type: string;
  readonly channels: readonly StationChannel[];
}

/** One quadrilateral of a finite-fault outline: its top edge and bottom edge, each from the first corner to the second. */
export interface RupturePlaneOutline {
  readonly top: readonly [Corner, Corner];
  readonly bottom: readonly [Corner, Corner];
}
export interface Corner { readonly lon: number; readonly lat: number; readonly depth_km: number }

export interface PrincipalAxis { readonly azimuth: number; readonly plunge: number }

export type StationEventRupture =
  | { readonly kind: 'finite'; readonly planes: readonly RupturePlaneOutline[]; readonly rake: number; readonly reference: string; readonly file: string }
  | { readonly kind: 'moment_tensor'; readonly p: PrincipalAxis; readonly t: PrincipalAxis; readonly n: PrincipalAxis; readonly reference: string; readonly file: string };

export interface StationEvent {
  readonly id: string;
  readonly magnitude: number;
  readonly lat: number;
  readonly lon: number;
  readonly depth_km: number;
  /** Where these numbers were read. */
  readonly file: string;
}

/** A pinned snapshot of ShakeMap station data (no grid). */
export interface ShakeMapStations {
  readonly kind: 'stations';
  readonly identity: MapIdentity;
  readonly product: string;
  /** The station list read. */
  readonly file: string;
  readonly event: StationEvent;
  readonly rupture: StationEventRupture;
  readonly stations: readonly StationRecord[];
}

/** The measures OpenQuake conditions on from a USGS station list: PGA and SA(0.3), SA(1.0); SA(3.0) is left out when it reads the list, PGV and MMI in conditioning. */
export const OBSERVED_IMTS: readonly Imt[] = [PGA, sa(0.3), sa(1.0)];
export const OBSERVED_IMTS_NOTE = 'PGA, SA(0.3) and SA(1.0): OpenQuake reads a USGS station list leaving SA(3.0) out (openquake/hazardlib/shakemap/parsers.py download_station_data_file, exclude_imts) and conditions on neither PGV nor MMI (conditioned_gmfs.py); the DYFI intensities are therefore not read';

/** A station's observations: ln sigma and value (g) per observed measure, in OBSERVED_IMTS order. */
export interface StationObservation {
  readonly id: string;
  readonly lat: number;
  readonly lon: number;
  readonly vs30: number | null;
  readonly channel: string;
  readonly values: readonly number[];
  readonly ln_sigma: readonly number[];
}

const used = (a: StationAmplitude) => (a.flag === '0' || a.flag === '') && a.value !== null && Number.isFinite(a.value);
const isVertical = (channel: string) => /[ZU]$/.test(channel);
/** Whether an amplitude's name (pga, pgv, sa(1.0), ...) is the measure: SA periods compared as numbers. */
function names(a: StationAmplitude, imt: Imt): boolean {
  if (imt.kind !== 'SA') return a.name === imt.kind.toLowerCase();
  const m = /^p?sa\(([\d.]+)\)$/.exec(a.name);
  return m !== null && Number(m[1]) === imt.period;
}

function inG(a: StationAmplitude): number {
  if (a.unit === '%g') return a.value! / 100;
  if (a.unit === 'g') return a.value!;
  throw new Error(`station amplitude ${a.name} in ${a.unit}, not %g or g`);
}

/** Each seismic station's one observation per measure by OpenQuake's rule (and ShakeMap's flags); the others counted by reason. */
export function stationObservations(records: readonly StationRecord[], imts: readonly Imt[] = OBSERVED_IMTS): { observations: StationObservation[]; dropped: Record<string, number> } {
  const observations: StationObservation[] = [];
  const dropped: Record<string, number> = {};
  const drop = (why: string) => { dropped[why] = (dropped[why] ?? 0) + 1; };
  for (const r of records) {
    if (r.type !== 'seismic') { drop(`${r.type} (not a seismic station)`); continue; }
    let best: { channel: StationChannel; pga: number } | undefined;
    for (const channel of r.channels) {
      if (isVertical(channel.name)) continue;
      const amps = channel.amplitudes.filter(used);
      const pga = amps.find((a) => a.name === 'pga') ?? amps[0];
      if (!pga) continue;
      if (!best || pga.value! > best.pga) best = { channel, pga: pga.value! };
    }
    if (!best) { drop('no unflagged horizontal channel'); continue; }
    const amps = best.channel.amplitudes.filter(used);
    const picked = imts.map((imt) => amps.find((a) => names(a, imt)));
    if (picked.some((a) => !a || !(a.value! > 0))) { drop('a measure missing or flagged on its largest horizontal channel'); continue; }
    observations.push({
      id: r.id, lat: r.lat, lon: r.lon, vs30: r.vs30, channel: best.channel.name,
      values: picked.map((a) => inG(a!)), ln_sigma: picked.map((a) => a!.ln_sigma),
    });
  }
  return { observations, dropped };
}
