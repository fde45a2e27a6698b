// The ground-motion logic tree of the earthquake lanes and the tectonic region by hypocentral depth
// alone (tectonic-regions.ts chooses by location, depth and mechanism, and falls back on it). Active shallow crust takes the NGA-West2 models with equal weights; a
// model joins the tree only once it passes every row of its OpenQuake verification tables
// (test/domain/gmpe/). Today that is BSSA14 and CB14: CY14 and ASK14 join at equal weights as they
// land. Subduction interface and in-slab ruptures: BC Hydro 2016, central branch, sites taken as forearc.
import { bssa14 } from '../../../hazard/gmpe/bssa14.js';
import { cb14 } from '../../../hazard/gmpe/cb14.js';
import { bcHydro2016 } from '../../../hazard/gmpe/bchydro16.js';
import type { Gmpe } from '../../../hazard/gmpe/types.js';

export interface Branch {
  readonly gmpe: Gmpe;
  readonly weight: number;
}

export type TectonicRegion = 'active_shallow_crust' | 'subduction_interface' | 'subduction_inslab';

/** Deepest hypocentre read as shallow crust, km, outside a subduction interface (tectonic-regions.ts). */
export const SHALLOW_CRUST_MAX_DEPTH_KM = 35;

export const DEEPEST_HYPOCENTRE_KM = 200;

/** The region by hypocentral depth alone, where tectonic-regions.ts finds no subduction interface. */
export function tectonicRegion(depthKm: number): TectonicRegion {
  return depthKm <= SHALLOW_CRUST_MAX_DEPTH_KM ? 'active_shallow_crust' : 'subduction_inslab';
}

const NGA_WEST2: readonly Gmpe[] = [bssa14('global'), cb14()];
const INSLAB: readonly Gmpe[] = [bcHydro2016('slab')];
const INTERFACE: readonly Gmpe[] = [bcHydro2016('interface')];

export function logicTree(region: TectonicRegion): readonly Branch[] {
  switch (region) {
    case 'active_shallow_crust': return NGA_WEST2.map((gmpe) => ({ gmpe, weight: 1 / NGA_WEST2.length }));
    case 'subduction_interface': return INTERFACE.map((gmpe) => ({ gmpe, weight: 1 / INTERFACE.length }));
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
