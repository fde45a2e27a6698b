// The tectonic region of a rupture, by location, depth and mechanism. Five subduction margins, one
// for each pinned ComCat regional catalog over a subduction zone (Alaska, Cascadia, Chile, Kanto,
// Mexico), are drawn as polygons over the forearc, from the trench to about where the slab lies
// 50 km deep, each with the depth range of its interface. The polygons are approximate, drawn for
// this service from the margins' trench and coast lines; no slab model (such as USGS Slab2) is
// pinned, so the slab's own geometry is not read. The rule:
//   - inside a margin, a low-angle thrust (reverse, dip at most 35 degrees) whose hypocentre lies in
//     the interface's depth range is a subduction interface event (BC Hydro 2016 interface);
//   - otherwise, anywhere, by hypocentral depth: active shallow crust at most 35 km deep, subduction
//     in-slab deeper (logic-tree.ts).
// Pure.
import { polygonContains, type Polygon } from '../../../geo.js';
import type { Mechanism } from '../../../hazard/gmpe/rupture.js';
import { EUROPE_BOX, SHALLOW_CRUST_MAX_DEPTH_KM, tectonicRegion, type TectonicRegion } from './logic-tree.js';

export interface SubductionMargin {
  readonly id: string;
  readonly name: string;
  /** The pinned ComCat regional catalog whose region the margin lies in (its coverage name). */
  readonly comcat_region: string;
  /** [lon, lat] vertices, trench side then arc side. */
  readonly forearc: Polygon;
  /** Hypocentral depths of interface events, km. */
  readonly interface_depth_km: readonly [number, number];
}

/** A thrust this shallow-dipping or shallower is read as on the megathrust, degrees. */
export const INTERFACE_MAX_DIP = 35;

export const SUBDUCTION_MARGINS: readonly SubductionMargin[] = [
  {
    id: 'alaska-aleutian', name: 'Alaska-Aleutian megathrust (east of 180 degrees)', comcat_region: 'Alaska',
    forearc: [[-180, 50.0], [-170, 50.8], [-162, 52.5], [-157, 54.3], [-152, 56.0], [-148, 58.3], [-144, 59.3],
      [-143, 61.0], [-147, 62.3], [-151, 62.3], [-155, 59.5], [-160, 56.5], [-166, 54.8], [-172, 53.3], [-180, 52.5]],
    interface_depth_km: [0, 50],
  },
  {
    id: 'cascadia', name: 'Cascadia subduction zone', comcat_region: 'Cascadia (Pacific Northwest)',
    forearc: [[-125.5, 40.2], [-125.3, 43.0], [-125.8, 46.0], [-127.0, 48.5], [-128.5, 50.0],
      [-125.0, 50.0], [-122.2, 48.5], [-122.2, 47.0], [-122.6, 45.0], [-123.0, 42.5], [-123.3, 40.2]],
    interface_depth_km: [0, 30],
  },
  {
    id: 'chile', name: 'Chile (Nazca plate under South America, 17 to 46.5 degrees south)', comcat_region: 'Chile',
    forearc: [[-72.5, -17.0], [-72.0, -24.0], [-73.0, -30.0], [-74.6, -36.0], [-75.5, -40.0], [-77.0, -46.5],
      [-74.0, -46.5], [-72.5, -40.0], [-71.8, -36.0], [-70.5, -30.0], [-69.6, -24.0], [-69.8, -17.0]],
    interface_depth_km: [0, 50],
  },
  {
    id: 'kanto', name: 'Kanto (Sagami trough and Japan trench)', comcat_region: 'Kanto (Japan)',
    forearc: [[138.0, 34.0], [142.0, 34.0], [142.0, 37.5], [138.0, 37.5]],
    interface_depth_km: [0, 50],
  },
  {
    id: 'mexico', name: 'Middle America trench, Mexico (Rivera and Cocos plates)', comcat_region: 'Mexico',
    forearc: [[-106.5, 20.5], [-104.5, 18.3], [-102.0, 17.3], [-99.5, 16.0], [-97.0, 15.2], [-94.5, 14.3], [-92.5, 14.0],
      [-92.0, 15.0], [-94.0, 16.0], [-96.5, 16.8], [-99.0, 17.8], [-101.0, 18.6], [-103.0, 19.5], [-105.0, 21.0]],
    interface_depth_km: [0, 40],
  },
];

export const TECTONIC_REGION_RULE = `by location, depth and mechanism: inside one of ${SUBDUCTION_MARGINS.length} subduction margins (${SUBDUCTION_MARGINS.map((m) => m.id).join(', ')}; approximate forearc polygons drawn for this service, no slab model pinned), a reverse rupture dipping at most ${INTERFACE_MAX_DIP} degrees with its hypocentre in the margin's interface depth range is subduction interface; otherwise by hypocentral depth and epicentre: shallow crust at most ${SHALLOW_CRUST_MAX_DEPTH_KM} km deep, European when the epicentre is within lon ${EUROPE_BOX.lon_min} to ${EUROPE_BOX.lon_max}, lat ${EUROPE_BOX.lat_min} to ${EUROPE_BOX.lat_max} (the ESHM20 area, boxed), active elsewhere; subduction in-slab deeper`;

export interface RegionChoice {
  readonly region: TectonicRegion;
  /** The subduction margin the epicentre lies in, if any. */
  readonly margin: { readonly id: string; readonly name: string; readonly interface_depth_km: readonly [number, number] } | null;
  readonly reason: string;
}

export function marginAt(lat: number, lon: number): SubductionMargin | undefined {
  return SUBDUCTION_MARGINS.find((m) => polygonContains(m.forearc, { latitude: lat, longitude: lon }));
}

export function chooseRegion(r: { readonly lat: number; readonly lon: number; readonly depth_km: number; readonly mechanism: Mechanism; readonly dip: number }): RegionChoice {
  const margin = marginAt(r.lat, r.lon);
  const byDepth = tectonicRegion(r.depth_km, r);
  const depthReason = `hypocentre ${r.depth_km} km deep: ${byDepth === 'subduction_inslab' ? `deeper than ${SHALLOW_CRUST_MAX_DEPTH_KM} km, in-slab` : `at most ${SHALLOW_CRUST_MAX_DEPTH_KM} km, ${byDepth === 'europe_shallow_crust' ? 'shallow crust in Europe (epicentre in the ESHM20 box)' : 'active shallow crust'}`}`;
  if (!margin) return { region: byDepth, margin: null, reason: `outside the subduction margins; ${depthReason}` };
  const listed = { id: margin.id, name: margin.name, interface_depth_km: margin.interface_depth_km };
  const [top, bottom] = margin.interface_depth_km;
  const inRange = r.depth_km >= top && r.depth_km <= bottom;
  const thrust = r.mechanism === 'reverse' && r.dip <= INTERFACE_MAX_DIP;
  if (inRange && thrust) return { region: 'subduction_interface', margin: listed, reason: `in the ${margin.id} margin, a reverse rupture dipping ${r.dip} degrees (at most ${INTERFACE_MAX_DIP}) with its hypocentre in the interface depth range ${top} to ${bottom} km: subduction interface` };
  const why = !inRange ? `the hypocentre lies outside the interface depth range ${top} to ${bottom} km` : `a ${r.mechanism} rupture dipping ${r.dip} degrees is not a low-angle thrust`;
  return { region: byDepth, margin: listed, reason: `in the ${margin.id} margin but not on its interface (${why}); ${depthReason}` };
}
