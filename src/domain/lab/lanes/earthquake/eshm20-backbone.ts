// The ground-motion backbone of the probabilistic European and Turkish lane: the ESHM20 logic tree
// for shallow crust as ESRM20 publishes it (pinned: Kotha et al. 2020 scaled by sigma_mu_epsilon,
// the regional-average branch, and c3_epsilon, the residual-attenuation branch; 15 weighted
// branches) and the model evaluating a branch: Kotha et al. (2020) with its ESHM20 scaling
// (hazard/gmpe/kotha20.ts, verified against OpenQuake's tables) at the branch's epsilons. The
// pinned tree names the slope-and-geology site form; no slope or geology data are pinned, so the
// ESHM20 Vs30 form is used (Vs30 taken as inferred), with the model's own c3 (the ESHM20
// residual-attenuation regions are not pinned either). Pure.
import { kotha2020, kotha2020Variant } from '../../../hazard/gmpe/kotha20.js';
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

export const BACKBONE_NOTE = 'Kotha et al. (2020) with its ESHM20 scaling at each sampled branch\'s sigma_mu_epsilon and c3_epsilon; the ESHM20 Vs30 site form stands in for the tree\'s slope-and-geology form (no slope or geology data pinned), Vs30 taken as inferred; the model\'s own c3 at every place (the ESHM20 residual-attenuation regions are not pinned)';

/** The model evaluating one branch of the ESHM20 tree: a Kotha et al. (2020) class of the tree, in its ESHM20 Vs30 form. */
export function backboneOf(branch: GmpeLogicTreeBranch): Gmpe {
  const variant = kotha2020Variant(branch.gsim, branch.args);
  if (!variant) throw new Error(`GMPE branch ${branch.branch_id}: ${branch.gsim} is not a Kotha et al. (2020) class`);
  const form = variant.form === 'eshm20-slope-geology' ? 'eshm20' : variant.form;
  return kotha2020({ ...variant, ...(form && { form }) });
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
