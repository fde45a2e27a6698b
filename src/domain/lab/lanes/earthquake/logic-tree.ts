// The ground-motion logic tree of the earthquake lanes and the tectonic region a rupture falls in,
// by its hypocentral depth. Active shallow crust takes the four NGA-West2 models with equal weights
// (ASK14, BSSA14 without its basin term, CB14, CY14; each passes every row of its OpenQuake
// verification tables, test/domain/gmpe/), California/global coefficients, z1.0 and z2.5 unknown so
// each model takes its own mean for the Vs30. Deeper ruptures are in-slab: BC Hydro 2016, central
// branch, sites taken as forearc.
import { ask14 } from '../../../hazard/gmpe/ask14.js';
import { bssa14 } from '../../../hazard/gmpe/bssa14.js';
import { cb14 } from '../../../hazard/gmpe/cb14.js';
import { cy14 } from '../../../hazard/gmpe/cy14.js';
import { bcHydro2016 } from '../../../hazard/gmpe/bchydro16.js';
import type { Gmpe } from '../../../hazard/gmpe/types.js';

export interface Branch {
  readonly gmpe: Gmpe;
  readonly weight: number;
}

export type TectonicRegion = 'active_shallow_crust' | 'subduction_inslab';

/** Deepest hypocentre read as shallow crust, km; deeper ruptures are subduction interface or in-slab. */
export const SHALLOW_CRUST_MAX_DEPTH_KM = 35;

export const DEEPEST_HYPOCENTRE_KM = 200;

export const TECTONIC_REGION_BASIS = `by hypocentral depth: active shallow crust at most ${SHALLOW_CRUST_MAX_DEPTH_KM} km deep, subduction in-slab deeper (to ${DEEPEST_HYPOCENTRE_KM} km); subduction interface events are not told apart from crustal ones without a slab model, and are modelled by their depth`;

export function tectonicRegion(depthKm: number): TectonicRegion {
  return depthKm <= SHALLOW_CRUST_MAX_DEPTH_KM ? 'active_shallow_crust' : 'subduction_inslab';
}

const NGA_WEST2: readonly Gmpe[] = [ask14(), bssa14('global'), cb14(), cy14()];
const INSLAB: readonly Gmpe[] = [bcHydro2016('slab')];

export function logicTree(region: TectonicRegion): readonly Branch[] {
  switch (region) {
    case 'active_shallow_crust': return NGA_WEST2.map((gmpe) => ({ gmpe, weight: 1 / NGA_WEST2.length }));
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
