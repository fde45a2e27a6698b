// A level of the financial structure: nodes over items, each node with its profile, and the pass of
// one loss vector through it. Back-allocation is oasislmf's rule 2 (fmpy -a2, its default for insured
// losses; rule 3, the default for reinsurance, is the same computation there: back_allocation.py):
// each item keeps its share of its node's loss after the terms, pro rata to its loss before them.
// The running amounts (deductible, above limits, room under limits) are split back the same way, so
// a node of a later level that cuts across this level's nodes (policy coverage after site all) sums
// what its items carry.
import { passesThrough, type Profile } from './profile.js';

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
