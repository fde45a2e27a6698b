// A level of the financial structure: nodes over items, each node with its profile, and the pass of
// one loss vector through it. Back-allocation is oasislmf's rule 2 (fmpy -a2, its default for insured
// losses; rule 3, the default for reinsurance, is the same computation there: back_allocation.py):
// each item keeps its share of its node's loss after the terms, pro rata to its loss before them.
// The running amounts (deductible, above limits, room under limits) are split back the same way, so
// a node of a later level that cuts across this level's nodes (policy coverage after site all) sums
// what its items carry.
import { applyProfile, passesThrough, type Extras, type Profile } from './profile.js';

export interface Level {
  readonly name: string;
  /** Items (indices into the vectors the level is applied to) in node order. */
  readonly order: Int32Array;
  /** Node n holds order[start[n] .. start[n + 1]). */
  readonly start: Int32Array;
  readonly profiles: readonly Profile[];
}

export interface LevelNode {
  readonly items: readonly number[];
  readonly profile: Profile;
}

/** A level from its nodes; nodes whose terms pass every loss through are left out (they change nothing). */
export function level(name: string, nodes: readonly LevelNode[]): Level | null {
  const kept = nodes.filter((n) => n.items.length > 0 && !passesThrough(n.profile));
  if (kept.length === 0) return null;
  const order: number[] = [];
  const start = [0];
  for (const n of kept) {
    order.push(...n.items);
    start.push(order.length);
  }
  return { name, order: Int32Array.from(order), start: Int32Array.from(start), profiles: kept.map((n) => n.profile) };
}

/** Loss and running amounts per item, changed in place by each level. */
export interface LossVectors {
  loss: Float64Array;
  deductible: Float64Array;
  overLimit: Float64Array;
  underLimit: Float64Array;
}

export function lossVectors(n: number): LossVectors {
  return { loss: new Float64Array(n), deductible: new Float64Array(n), overLimit: new Float64Array(n), underLimit: new Float64Array(n) };
}

const x: Extras = { deductible: 0, overLimit: 0, underLimit: 0 };

/** Applies every node of a level to the vectors, back-allocating to its items. */
export function applyLevel(lv: Level, v: LossVectors): void {
  const { order, start, profiles } = lv;
  const { loss, deductible, overLimit, underLimit } = v;
  for (let n = 0; n < profiles.length; n++) {
    const s0 = start[n]!;
    const s1 = start[n + 1]!;
    let sum = 0;
    let d = 0;
    let o = 0;
    let u = 0;
    for (let s = s0; s < s1; s++) {
      const i = order[s]!;
      sum += loss[i]!;
      d += deductible[i]!;
      o += overLimit[i]!;
      u += underLimit[i]!;
    }
    // Nothing reached the node: its terms leave nothing to change.
    if (sum === 0 && d === 0 && o === 0 && u === 0) continue;
    x.deductible = d;
    x.overLimit = o;
    x.underLimit = u;
    const out = applyProfile(profiles[n]!, sum, x);
    const f = sum > 0 ? out / sum : 0;
    const dd = x.deductible - d;
    const dO = x.overLimit - o;
    const dU = x.underLimit - u;
    const even = 1 / (s1 - s0);
    for (let s = s0; s < s1; s++) {
      const i = order[s]!;
      const w = sum > 0 ? loss[i]! / sum : even;
      loss[i] = loss[i]! * f;
      deductible[i]! += dd * w;
      overLimit[i]! += dO * w;
      underLimit[i]! += dU * w;
    }
  }
}
