// A finite planar rupture and its distances to sites: the one module that sizes a rupture and
// computes Rjb, Rrup, Rx, Ry0 and Rhypo for the ground-motion models.
//
// Size: Wells and Coppersmith (1994), Bull. Seismol. Soc. Am. 84(4), 974-1002, Table 2A, by slip
// type: rupture area log10(A) = a + b M (km2) and down-dip width log10(W) = a + b M (km); the width
// is capped by the seismogenic layer (surface to 20 km) for a hypocentre in it, and the length is
// A / W. Position: the hypocentre at the centre of the plane, shifted down-dip or up-dip only as
// far as keeps the plane inside the layer (deeper hypocentres: below the surface).
//
// Geometry: a local flat projection about the hypocentre (x east, y north, km; equirectangular,
// cos of the hypocentre's latitude), good to well under 1% within the lab's 200 km reach. Strike
// and dip follow Aki and Richards: the plane dips to the right of the strike direction.
import { EARTH_MEAN_RADIUS_KM, type GeoPoint } from '../../geo.js';
import type { Distances } from './types.js';

export type Mechanism = 'strike-slip' | 'reverse' | 'normal';

/** Wells and Coppersmith (1994) Table 2A: [a, b] for area (km2) and width (km), by slip type. */
const WC94: Readonly<Record<Mechanism, { area: readonly [number, number]; width: readonly [number, number] }>> = {
  'strike-slip': { area: [-3.42, 0.9], width: [-0.76, 0.27] },
  reverse: { area: [-3.99, 0.98], width: [-1.61, 0.41] },
  normal: { area: [-2.87, 0.82], width: [-1.14, 0.35] },
};
export const MAGNITUDE_SCALING = 'Wells and Coppersmith (1994), Table 2A rupture area and down-dip width by slip type';
export const SEISMOGENIC_FLOOR_KM = 20;

/** The slip type a rake falls in: normal -150 < rake < -30, reverse 30 < rake < 150, strike-slip otherwise. */
export function mechanismOfRake(rake: number): Mechanism {
  if (rake > -150 && rake < -30) return 'normal';
  if (rake > 30 && rake < 150) return 'reverse';
  return 'strike-slip';
}

export interface PlanarRupture {
  readonly mag: number;
  readonly rake: number;
  readonly strike: number;
  readonly dip: number;
  readonly hypocentre: { readonly lat: number; readonly lon: number; readonly depth_km: number };
  readonly length_km: number;
  readonly width_km: number;
  readonly ztor_km: number;
  /** Top-edge midpoint in the local projection (km east, km north of the hypocentre). */
  readonly top_centre: { readonly x: number; readonly y: number };
}

export interface RuptureInput {
  readonly mag: number;
  readonly lat: number;
  readonly lon: number;
  readonly depth_km: number;
  readonly strike: number;
  readonly dip: number;
  readonly rake: number;
}

const RAD = Math.PI / 180;

export function planarRupture(input: RuptureInput): PlanarRupture {
  const mech = mechanismOfRake(input.rake);
  const c = WC94[mech];
  const area = 10 ** (c.area[0] + c.area[1] * input.mag);
  const sinDip = Math.sin(input.dip * RAD);
  // A crustal hypocentre (at most 20 km deep): the width is capped by the layer from the surface to
  // 20 km and the plane kept in it. A deeper one: the plane centred on it, kept below the surface.
  const crustal = input.depth_km <= SEISMOGENIC_FLOOR_KM;
  const scaled = 10 ** (c.width[0] + c.width[1] * input.mag);
  const width = crustal ? Math.min(scaled, SEISMOGENIC_FLOOR_KM / sinDip) : scaled;
  const length = area / width;
  const vertical = width * sinDip;
  const centred = Math.max(input.depth_km - vertical / 2, 0);
  const ztor = crustal ? Math.min(centred, SEISMOGENIC_FLOOR_KM - vertical) : centred;
  return placedPlane(input, length, width, ztor);
}

/** The plane of a given size and top depth through the hypocentre, dipping to the right of the strike. */
export function placedPlane(input: RuptureInput, length: number, width: number, ztor: number): PlanarRupture {
  const sinDip = Math.sin(input.dip * RAD);
  // Down-dip distance from the top edge to the hypocentre's depth, and its horizontal offset.
  const downDip = (input.depth_km - ztor) / sinDip;
  const horizontal = downDip * Math.cos(input.dip * RAD);
  const s = input.strike * RAD;
  // Dip direction (horizontal): strike + 90 degrees.
  const dx = Math.cos(s);
  const dy = -Math.sin(s);
  return {
    mag: input.mag, rake: input.rake, strike: input.strike, dip: input.dip,
    hypocentre: { lat: input.lat, lon: input.lon, depth_km: input.depth_km },
    length_km: length, width_km: width, ztor_km: ztor,
    top_centre: { x: -dx * horizontal, y: -dy * horizontal },
  };
}

/** A site in the rupture's local projection, km east and north of the hypocentre. */
export function localXY(rupture: PlanarRupture, site: GeoPoint): { x: number; y: number } {
  const lat0 = rupture.hypocentre.lat * RAD;
  let dLon = site.longitude - rupture.hypocentre.lon;
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  return { x: dLon * RAD * EARTH_MEAN_RADIUS_KM * Math.cos(lat0), y: (site.latitude - rupture.hypocentre.lat) * RAD * EARTH_MEAN_RADIUS_KM };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** Rjb, Rrup, Rx, Ry0 and Rhypo (km) of a site at the surface. */
export function distancesTo(rupture: PlanarRupture, site: GeoPoint): Distances {
  const p = localXY(rupture, site);
  const s = rupture.strike * RAD;
  const dip = rupture.dip * RAD;
  const ux = Math.sin(s);
  const uy = Math.cos(s);
  const dx = Math.cos(s);
  const dy = -Math.sin(s);
  const half = rupture.length_km / 2;
  const rx0 = p.x - rupture.top_centre.x;
  const ry0 = p.y - rupture.top_centre.y;
  const along = rx0 * ux + ry0 * uy;
  const across = rx0 * dx + ry0 * dy;
  // Joyner-Boore: to the surface projection, a rectangle half-length by W cos(dip) across.
  const projWidth = rupture.width_km * Math.cos(dip);
  const rjb = Math.hypot(along - clamp(along, -half, half), across - clamp(across, 0, projWidth));
  // Rupture distance: to the closest point of the plane. From the top-edge midpoint (depth ztor),
  // the plane runs along strike and down dip by (cos dip across, sin dip deeper); the site is at
  // (along, across) and ztor above it.
  const vh = Math.cos(dip);
  const vz = Math.sin(dip);
  const z = rupture.ztor_km;
  const b = clamp(across * vh - z * vz, 0, rupture.width_km);
  const a = clamp(along, -half, half);
  const cx = along - a;
  const cy = across - b * vh;
  const cz = -z - b * vz;
  const rrup = Math.hypot(cx, cy, cz);
  const h = rupture.hypocentre;
  const rhypo = Math.hypot(p.x, p.y, h.depth_km);
  return { rjb, rrup, rx: across, ry0: Math.max(0, Math.abs(along) - half), rhypo };
}
