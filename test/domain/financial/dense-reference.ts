// The financial module's evaluation as it was before the batch (src/domain/financial/batch.ts):
// every item, every node and every row of the programme, one loss vector at a time. Kept here, in
// the tests only, as an independent recomputation the batch is checked against (batch.test.ts).
import { applyProfile, passesThrough, type Extras } from '../../../src/domain/financial/profile.js';
import type { Level } from '../../../src/domain/financial/levels.js';
import type { AccountNode, InsuranceProgramme } from '../../../src/domain/financial/insurance.js';
import { cede, type ReinsuranceProgramme } from '../../../src/domain/financial/reinsurance.js';

/** Loss and running amounts per item, changed in place by each level. */
interface LossVectors {
  loss: Float64Array;
  deductible: Float64Array;
  overLimit: Float64Array;
  underLimit: Float64Array;
}

function lossVectors(n: number): LossVectors {
  return { loss: new Float64Array(n), deductible: new Float64Array(n), overLimit: new Float64Array(n), underLimit: new Float64Array(n) };
}

const x: Extras = { deductible: 0, overLimit: 0, underLimit: 0 };

/** Applies every node of a level to the vectors, back-allocating to its items. */
function applyLevel(lv: Level, v: LossVectors): void {
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

/** Working vectors for computeInsured, made once per programme and reused loss after loss. */
export interface InsuranceScratch {
  readonly site: LossVectors;
  readonly chain: LossVectors;
  /** Per chain: the running amounts its layers hand up, summed over its layers (as oasislmf sums a node's layers). */
  readonly chainExtras: Float64Array;
}

export function insuranceScratch(p: InsuranceProgramme): InsuranceScratch {
  return { site: lossVectors(p.itemTiv.length), chain: lossVectors(p.maxChainItems), chainExtras: new Float64Array(3 * p.chains.length) };
}

const ex: Extras = { deductible: 0, overLimit: 0, underLimit: 0 };

/**
 * Insured loss per output row (policy layer × item) for ground-up losses per item: the site levels
 * once, then each policy's levels and layers on the site output, then the account level on its
 * policies' layers; each back-allocated to the items.
 */
export function computeInsured(p: InsuranceProgramme, groundUp: Float64Array, rowsOut: Float64Array, s: InsuranceScratch): void {
  const site = s.site;
  site.loss.set(groundUp);
  site.deductible.fill(0);
  site.overLimit.fill(0);
  site.underLimit.fill(0);
  for (const lv of p.site) applyLevel(lv, site);
  const c = s.chain;
  const ce = s.chainExtras;
  ce.fill(0);
  for (let ci = 0; ci < p.chains.length; ci++) {
    const chain = p.chains[ci]!;
    const m = chain.items.length;
    let reached = 0;
    for (let j = 0; j < m; j++) {
      const i = chain.items[j]!;
      c.loss[j] = site.loss[i]!;
      c.deductible[j] = site.deductible[i]!;
      c.overLimit[j] = site.overLimit[i]!;
      c.underLimit[j] = site.underLimit[i]!;
      reached += c.loss[j]! + c.deductible[j]! + c.overLimit[j]!;
    }
    // No loss reached the policy (an event that misses its locations): its rows are 0.
    if (reached === 0) {
      rowsOut.fill(0, chain.rowStart, chain.rowStart + m * chain.layers.length);
      continue;
    }
    for (const lv of chain.levels) applyLevel(lv, c);
    let total = 0;
    let d = 0;
    let o = 0;
    let u = 0;
    for (let j = 0; j < m; j++) {
      total += c.loss[j]!;
      d += c.deductible[j]!;
      o += c.overLimit[j]!;
      u += c.underLimit[j]!;
    }
    for (let k = 0; k < chain.layers.length; k++) {
      ex.deductible = d;
      ex.overLimit = o;
      ex.underLimit = u;
      const out = applyProfile(chain.layers[k]!.profile, total, ex);
      ce[3 * ci]! += ex.deductible;
      ce[3 * ci + 1]! += ex.overLimit;
      ce[3 * ci + 2]! += ex.underLimit;
      const f = total > 0 ? out / total : 0;
      const base = chain.rowStart + k * m;
      for (let j = 0; j < m; j++) rowsOut[base + j] = c.loss[j]! * f;
    }
  }
  for (const a of p.accounts) accountLevel(p, a, rowsOut, ce);
}

/** The account's blanket terms on the sum of its policies' layers, the layers' running amounts summed as well. */
function accountLevel(p: InsuranceProgramme, a: AccountNode, rowsOut: Float64Array, ce: Float64Array): void {
  if (a.profile === null) return;
  const pr = a.profile;
  if (passesThrough(pr)) return;
  let total = 0;
  ex.deductible = 0;
  ex.overLimit = 0;
  ex.underLimit = 0;
  for (const ci of a.chains) {
    const c = p.chains[ci]!;
    const n = c.items.length * c.layers.length;
    for (let r = c.rowStart; r < c.rowStart + n; r++) total += rowsOut[r]!;
    ex.deductible += ce[3 * ci]!;
    ex.overLimit += ce[3 * ci + 1]!;
    ex.underLimit += ce[3 * ci + 2]!;
  }
  const out = applyProfile(pr, total, ex);
  const f = total > 0 ? out / total : 0;
  for (const ci of a.chains) {
    const c = p.chains[ci]!;
    const n = c.items.length * c.layers.length;
    for (let r = c.rowStart; r < c.rowStart + n; r++) rowsOut[r] = rowsOut[r]! * f;
  }
}

export interface ReinsuranceScratch {
  readonly ceded: Float64Array;
  readonly layer: Float64Array;
}

export function reinsuranceScratch(rows: number): ReinsuranceScratch {
  return { ceded: new Float64Array(rows), layer: new Float64Array(rows) };
}

/** Net of reinsurance per output row, from the insured loss per row: every pass on the net of the one before. */
export function computeNet(ri: ReinsuranceProgramme, insured: Float64Array, netOut: Float64Array, s: ReinsuranceScratch): void {
  netOut.set(insured);
  const { ceded, layer } = s;
  for (const pass of ri.passes) {
    ceded.fill(0);
    for (const c of pass.contracts) {
      let total = 0;
      for (let k = 0; k < c.risk.length; k++) {
        const s0 = c.start[k]!;
        const s1 = c.start[k + 1]!;
        let sum = 0;
        for (let q = s0; q < s1; q++) sum += netOut[c.order[q]!]!;
        const out = cede(c.risk[k]!, sum);
        const f = sum > 0 ? out / sum : 0;
        for (let q = s0; q < s1; q++) {
          const r = c.order[q]!;
          layer[r] = netOut[r]! * f;
        }
        total += out;
      }
      const occ = cede(c.occurrence, total);
      const g = total > 0 ? occ / total : 0;
      for (let q = 0; q < c.order.length; q++) {
        const r = c.order[q]!;
        ceded[r]! += layer[r]! * g;
      }
    }
    for (let r = 0; r < netOut.length; r++) netOut[r] = netOut[r]! - ceded[r]!;
  }
}
