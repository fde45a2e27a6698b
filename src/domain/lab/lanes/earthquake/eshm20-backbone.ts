// The ground-motion backbone of the probabilistic European and Turkish lane: the ESHM20 logic tree
// for shallow crust (pinned with ESRM20: Kotha et al. 2020 scaled by sigma_mu_epsilon, the
// regional stress branch, and c3_epsilon, the anelastic attenuation branch, 15 weighted branches)
// and the model that evaluates a branch. Until Kotha et al. (2020) passes its OpenQuake
// verification tables here, every branch is evaluated with Akkar, Sandikkaya and Bommer (2014),
// verified, for Europe and the Middle East, as a stand-in: the branch is drawn and reported, its
// epsilons are not applied. Pure.
import { asb14 } from '../../../hazard/gmpe/asb14.js';
import type { Gmpe } from '../../../hazard/gmpe/types.js';

export interface GmpeLogicTreeBranch {
  readonly branch_id: string;
  /** The GMPE class as OpenQuake names it, e.g. KothaEtAl2020ESHM20SlopeGeology. */
  readonly gsim: string;
  /** The class's arguments (absent ones take the class's default, 0 for the ESHM20 epsilons). */
  readonly args: Readonly<Record<string, number>>;
  readonly weight: number;
}

export interface GmpeLogicTree {
  readonly tree_id: string;
  readonly tectonic_region: string;
  readonly branches: readonly GmpeLogicTreeBranch[];
}

const STAND_IN = asb14();

export const BACKBONE_NOTE = 'stand-in: every ESHM20 branch is evaluated with Akkar, Sandikkaya and Bommer (2014) (Rjb model, verified against its OpenQuake tables) until Kotha et al. (2020) with its ESHM20 scaling is verified here; the branch drawn is reported, its sigma_mu_epsilon and c3_epsilon are not applied';

/** The model evaluating one branch of the ESHM20 tree. */
export function backboneOf(_branch: GmpeLogicTreeBranch): Gmpe {
  return STAND_IN;
}

/** The branch at a uniform draw u in [0, 1) by the cumulative weights. */
export function gmpeBranchAt(tree: GmpeLogicTree, u: number): number {
  let acc = 0;
  for (let i = 0; i < tree.branches.length; i++) {
    acc += tree.branches[i]!.weight;
    if (u < acc) return i;
  }
  return tree.branches.length - 1;
}
