// A scenario's ground motion in the open, per place and intensity measure: each GMPE of the logic
// tree called at the place (its median and its total, between-event and within-event sigma), the
// weighted tree, and the sampled fields' percentiles beside them, so a place reads against
// OpenQuake's gmf_data or a ShakeMap at a glance. Pure.
//
// The weighted tree is OpenQuake's AvgGMPE (openquake/hazardlib/gsim/mgmpe/avg_gmpe.py,
// AvgGMPE.compute): ln median = the weighted mean of the branches' ln medians; sigma, tau and phi each
// the square root of the weighted mean of the branches' squares (numpy.average, so divided by the sum
// of the weights). It is the composite model's centre and variability: the spread of the branches'
// medians about it is not in its sigma, while the fields, each drawn on one branch, carry it.
import { quantileSorted } from '../../../stats/quantiles.js';
import type { GroundMotion } from '../../../hazard/gmpe/types.js';
import { percentilesOf, round } from './field-losses.js';
import type { Branch } from './logic-tree.js';

export const WEIGHTED_TREE_RULE = 'OpenQuake\'s AvgGMPE (openquake/hazardlib/gsim/mgmpe/avg_gmpe.py, AvgGMPE.compute): ln median = sum of w x ln median over the branches / sum of w; sigma, tau and phi = sqrt(sum of w x s^2 / sum of w); the spread of the branches\' medians is not in these sigmas (the fields, one branch each, carry it)';

/** One branch's prediction at every modeled place: mean ln (g) and its standard deviations (ln units). */
export interface BranchMotions {
  readonly mean: Float64Array;
  readonly sigma: Float64Array;
  readonly tau: Float64Array;
  readonly phi: Float64Array;
}

/** The weighted tree of the branches' predictions at one place, by the AvgGMPE rule. */
export function weightedTree(motions: readonly GroundMotion[], weights: readonly number[]): GroundMotion {
  let w = 0;
  let mean = 0;
  let sigma2 = 0;
  let tau2 = 0;
  let phi2 = 0;
  motions.forEach((m, i) => {
    const wi = weights[i]!;
    w += wi;
    mean += wi * m.mean;
    sigma2 += wi * m.sigma ** 2;
    tau2 += wi * m.tau ** 2;
    phi2 += wi * m.phi ** 2;
  });
  return { mean: mean / w, sigma: Math.sqrt(sigma2 / w), tau: Math.sqrt(tau2 / w), phi: Math.sqrt(phi2 / w) };
}

// Standard deviations are stated as magnitudes: ASK14's tau is negative where a soft site's nonlinear
// slope is below -1 (as OpenQuake computes it, abrahamson_2014.py _get_inter_event_std); only its
// square enters sigma and the fields' spread.
const stated = (m: GroundMotion) => ({ median: round(Math.exp(m.mean)), sigma: round(Math.abs(m.sigma)), tau: round(Math.abs(m.tau)), phi: round(Math.abs(m.phi)) });

/** What a place reports for one intensity measure. */
export interface ImtShaking {
  readonly gmpe: readonly ({ model: string; weight: number } & ReturnType<typeof stated>)[];
  readonly weighted_tree: ReturnType<typeof stated>;
  readonly fields: { median: number; percentiles: Record<string, number> };
}

/**
 * Place i's figures for one measure: each branch's and the weighted tree's median (g) and sigmas (ln
 * units), and the median and percentiles (g) of its `fields` sampled values (lnIm row-major fields x n).
 */
export function shakingAt(i: number, tree: readonly Branch[], motions: readonly BranchMotions[], lnIm: Float64Array, n: number, fields: number): ImtShaking {
  const atPlace: GroundMotion[] = motions.map((m) => ({ mean: m.mean[i]!, sigma: m.sigma[i]!, tau: m.tau[i]!, phi: m.phi[i]! }));
  const sampled = new Float64Array(fields);
  for (let f = 0; f < fields; f++) sampled[f] = Math.exp(lnIm[f * n + i]!);
  sampled.sort();
  return {
    gmpe: tree.map((b, k) => ({ model: b.gmpe.id, weight: b.weight, ...stated(atPlace[k]!) })),
    weighted_tree: stated(weightedTree(atPlace, tree.map((b) => b.weight))),
    fields: { median: round(quantileSorted(sampled, 0.5)), percentiles: percentilesOf(sampled) },
  };
}
