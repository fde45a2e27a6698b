// What a source model of the probabilistic European and Turkish lane hands its engine: the sampled
// ruptures as columns (period and logic-tree branch of each, its plane built when its ground motion
// is computed), each branch's draws, the places it models and its account for the result. The
// ESHM20 source branches (eshm20-source-sampling.ts) and the catalog-derived demonstration model
// (demo-source-model.ts) both answer one. Pure.
import type { PlanarRupture } from '../../../hazard/gmpe/rupture.js';

export interface SampledRuptures {
  readonly count: number;
  /** The sample year (1-based over all branches) and the branch (0-based) of each rupture. */
  readonly period: Int32Array;
  readonly branch: Int32Array;
  /** Rupture r's plane (mag, rake, dip and depths included). */
  plane(r: number): PlanarRupture;
}

export interface ModeledPlace {
  readonly index: number;
  readonly lat: number;
  readonly lon: number;
  readonly value: number;
}

export interface SampledBranch {
  readonly branch: number;
  /** The index of the branch's GMPE in the ESHM20 ground-motion tree. */
  readonly gmpe: number;
  /** The annual rate of the ruptures this branch samples. */
  readonly rate: number;
  /** What else was drawn for the branch, as the result lists it. */
  readonly draws: Readonly<Record<string, unknown>>;
}

export interface RuptureSample {
  readonly ruptures: SampledRuptures;
  readonly branches: readonly SampledBranch[];
  readonly modeled: readonly ModeledPlace[];
  readonly unmodeled: readonly { index: number; reason: string }[];
  /** The result's source_model and site_model blocks. */
  readonly sourceModel: Record<string, unknown>;
  readonly siteModel: Record<string, unknown>;
  readonly assumptions: readonly string[];
  readonly warnings: readonly string[];
  /** Said on the result when the source model is the demonstration one. */
  readonly demonstration?: string;
}

/** The choice among weighted alternatives at a uniform draw u in [0, 1). */
export function weighted<T extends { weight: number }>(choices: readonly T[], u: number): T {
  let acc = 0;
  for (const c of choices) { acc += c.weight; if (u < acc) return c; }
  return choices[choices.length - 1]!;
}
