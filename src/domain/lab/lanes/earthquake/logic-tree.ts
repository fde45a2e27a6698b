// The ground-motion logic tree of the earthquake lanes and the tectonic region a rupture falls in,
// by its hypocentral depth and, for shallow ruptures, its place. Active shallow crust takes the four
// NGA-West2 models with equal weights (ASK14, BSSA14 without its basin term, CB14, CY14; each passes
// every row of its OpenQuake verification tables, test/domain/gmpe/), California/global
// coefficients, z1.0 and z2.5 unknown so each model takes its own mean for the Vs30. Deeper ruptures
// are in-slab: BC Hydro 2016, central branch, sites taken as forearc.
// Shallow ruptures in Europe (a stated lon/lat box) take the ESHM20 scaled backbone instead: Kotha et
// al. (2020) with its Vs30 site term and the 5 x 3 epistemic branches of regional-average scaling
// (sigma_mu) and residual attenuation (c3), weighted by Gauss-Hermite quadrature as ESHM20 does.
import { ask14 } from '../../../hazard/gmpe/ask14.js';
import { bssa14 } from '../../../hazard/gmpe/bssa14.js';
import { cb14 } from '../../../hazard/gmpe/cb14.js';
import { cy14 } from '../../../hazard/gmpe/cy14.js';
import { bcHydro2016 } from '../../../hazard/gmpe/bchydro16.js';
import { kotha2020 } from '../../../hazard/gmpe/kotha20.js';
import type { Gmpe } from '../../../hazard/gmpe/types.js';

export interface Branch {
  readonly gmpe: Gmpe;
  readonly weight: number;
}

export type TectonicRegion = 'active_shallow_crust' | 'europe_shallow_crust' | 'subduction_inslab';

/** Deepest hypocentre read as shallow crust, km; deeper ruptures are subduction interface or in-slab. */
export const SHALLOW_CRUST_MAX_DEPTH_KM = 35;

export const DEEPEST_HYPOCENTRE_KM = 200;

/**
 * Europe for the ground-motion model: the area of the 2020 European seismic hazard model (ESHM20)
 * approximated by a box, Iceland to the Caucasus and Turkey, North Cape to the southern Mediterranean
 * (it takes in the northern Maghreb coast, which ESHM20 also covers). Stable and active crust alike.
 */
export const EUROPE_BOX = { lon_min: -25, lon_max: 45, lat_min: 34, lat_max: 72 } as const;

export const TECTONIC_REGION_BASIS = `by hypocentral depth and place: shallow crust at most ${SHALLOW_CRUST_MAX_DEPTH_KM} km deep, in Europe when the epicentre is within lon ${EUROPE_BOX.lon_min} to ${EUROPE_BOX.lon_max}, lat ${EUROPE_BOX.lat_min} to ${EUROPE_BOX.lat_max} (the ESHM20 area, boxed), active shallow crust elsewhere; subduction in-slab deeper (to ${DEEPEST_HYPOCENTRE_KM} km); subduction interface events are not told apart from crustal ones without a slab model, and are modelled by their depth`;

export function tectonicRegion(depthKm: number, epicentre?: { readonly lat: number; readonly lon: number }): TectonicRegion {
  if (depthKm > SHALLOW_CRUST_MAX_DEPTH_KM) return 'subduction_inslab';
  return epicentre && inEurope(epicentre) ? 'europe_shallow_crust' : 'active_shallow_crust';
}

export function inEurope(p: { readonly lat: number; readonly lon: number }): boolean {
  return p.lon >= EUROPE_BOX.lon_min && p.lon <= EUROPE_BOX.lon_max && p.lat >= EUROPE_BOX.lat_min && p.lat <= EUROPE_BOX.lat_max;
}

/**
 * ESHM20's shallow-crust branches: regional-average scaling sigmaMuEpsilon at 5 nodes by residual
 * attenuation c3Epsilon at 3 nodes, the nodes and weights of Gauss-Hermite quadrature as ESHM20
 * rounds them (Weatherill et al. 2020; the ESRM20 shallow-default logic tree, whose branch weights
 * are these products), the pair weighted by the product. Sites take the model's own c3 (attenuation
 * region 0): the ESHM20 attenuation regions are not pinned.
 */
export const ESHM20_SIGMA_MU_BRANCHES = [
  { epsilon: -2.85697, weight: 0.01126 }, { epsilon: -1.35563, weight: 0.22208 }, { epsilon: 0, weight: 0.53332 },
  { epsilon: 1.35563, weight: 0.22208 }, { epsilon: 2.85697, weight: 0.01126 },
] as const;
export const ESHM20_C3_BRANCHES = [{ epsilon: -1.732051, weight: 0.167 }, { epsilon: 0, weight: 0.666 }, { epsilon: 1.732051, weight: 0.167 }] as const;

const EUROPE: readonly Branch[] = ESHM20_SIGMA_MU_BRANCHES.flatMap((s) => ESHM20_C3_BRANCHES.map((c) => ({
  gmpe: kotha2020({ form: 'eshm20', sigmaMuEpsilon: s.epsilon, c3Epsilon: c.epsilon }),
  weight: s.weight * c.weight,
})));

export const EUROPE_LOGIC_TREE_NOTE = 'ESHM20 scaled backbone: Kotha et al. (2020) with the ESHM20 Vs30 site term (Vs30 taken as inferred), heteroskedastic sigma, and 15 branches, 5 of regional-average scaling (sigma_mu epsilon) by 3 of residual attenuation (c3 epsilon), weighted as ESRM20 weights them; every place takes the model\'s own c3 (ESHM20 attenuation regions not pinned)';

const NGA_WEST2: readonly Gmpe[] = [ask14(), bssa14('global'), cb14(), cy14()];
const INSLAB: readonly Gmpe[] = [bcHydro2016('slab')];

export function logicTree(region: TectonicRegion): readonly Branch[] {
  switch (region) {
    case 'active_shallow_crust': return NGA_WEST2.map((gmpe) => ({ gmpe, weight: 1 / NGA_WEST2.length }));
    case 'europe_shallow_crust': return EUROPE;
    case 'subduction_inslab': return INSLAB.map((gmpe) => ({ gmpe, weight: 1 / INSLAB.length }));
  }
}

/** The branch of a field: the weights' cumulative sum read at a uniform draw u in [0, 1). */
export function branchAt(tree: readonly Branch[], u: number): number {
  let acc = 0;
  for (let i = 0; i < tree.length; i++) {
    acc += tree[i]!.weight;
    if (u < acc) return i;
  }
  return tree.length - 1;
}
