// The ground-motion logic tree of the earthquake lanes and the tectonic region a rupture falls in.
// Active shallow crust takes the NGA-West2 models with equal weights; a model joins the tree only
// once it passes every row of its OpenQuake verification tables (test/domain/gmpe/). Today that is
// BSSA14 and CB14: CY14 and ASK14 join at equal weights as they land.
import { bssa14 } from '../../../hazard/gmpe/bssa14.js';
import { cb14 } from '../../../hazard/gmpe/cb14.js';
import type { Gmpe } from '../../../hazard/gmpe/types.js';

export interface Branch {
  readonly gmpe: Gmpe;
  readonly weight: number;
}

export type TectonicRegion = 'active_shallow_crust';

/** Deepest hypocentre read as shallow crust, km; deeper ruptures are subduction interface or in-slab. */
export const SHALLOW_CRUST_MAX_DEPTH_KM = 35;

export const TECTONIC_REGION_BASIS = `active shallow crust for hypocentres at most ${SHALLOW_CRUST_MAX_DEPTH_KM} km deep (deeper ruptures are subduction interface or in-slab, whose model, BC Hydro 2016, this lane does not yet run)`;

const NGA_WEST2: readonly Gmpe[] = [bssa14('global'), cb14()];

export function logicTree(region: TectonicRegion): readonly Branch[] {
  switch (region) {
    case 'active_shallow_crust': return NGA_WEST2.map((gmpe) => ({ gmpe, weight: 1 / NGA_WEST2.length }));
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
