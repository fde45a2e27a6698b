// An object's OED terms in the sampled-damage kernel (ground-up.ts): each event's ground-up loss per
// coverage of each location it reaches, per sample and damage-ratio factor, handed to the financial
// module (domain/financial/) as one batch of samples × factors columns over the items the event
// touches, as oasislmf's fmcalc streams gulcalc's samples through each level; the event's insured and
// net losses are the means over the samples, and each location's share of them its back-allocated
// rows. The same module every lane applies an object's terms through.
import type { TermsEvaluator } from '../../financial/object-terms.js';
import type { TermsBatch } from '../../financial/batch.js';

export interface OedTermsHook {
  readonly evaluator: TermsEvaluator;
  /** [kernel location × coverages + coverage index] → the module's item, −1 when it has none. */
  readonly item: Int32Array;
  /** The module's location index → kernel location, −1 when the kernel does not model it. */
  readonly kernelLocation: Int32Array;
}

/** One event's ground-up losses per (factor, sample, item), in one batch of factors × samples columns. */
export class OedEventLosses {
  private readonly batch: TermsBatch;
  private touched = false;
  /** The module's location of each item. */
  private readonly itemLocation: Int32Array;

  constructor(readonly hook: OedTermsHook, private readonly nF: number, private readonly K: number) {
    this.batch = hook.evaluator.batch(nF * K);
    this.itemLocation = hook.evaluator.terms.insurance.itemLocation;
  }

  /** The ground-up loss of one item in one sample at one factor. */
  add(f: number, k: number, item: number, loss: number): void {
    this.batch.add(item, f * this.K + k, loss);
    this.touched = true;
  }

  /**
   * The event's insured and net losses: the module on every sample and factor at once, means over
   * the samples into insured[f][e] and net[f][e], and (base factor) each location's share, weighted
   * by its occurrences, into placeInsured and placeNet. Clears the event's losses.
   */
  finish(e: number, w: number, insured: Float64Array[], net: Float64Array[], placeInsured: Float64Array, placeNet: Float64Array): void {
    if (!this.touched) return;
    const b = this.batch;
    const K = this.K;
    const C = this.nF * K;
    b.run();
    for (let f = 0; f < this.nF; f++) {
      let il = 0;
      let ri = 0;
      for (let k = 0; k < K; k++) {
        il += b.ilTotal[f * K + k]!;
        ri += b.riTotal[f * K + k]!;
      }
      insured[f]![e] = il / K;
      net[f]![e] = ri / K;
    }
    const kl = this.hook.kernelLocation;
    const rowItem = this.hook.evaluator.terms.insurance.rowItem;
    for (let s = 0; s < b.rowCount; s++) {
      const l = kl[this.itemLocation[rowItem[b.rows[s]!]!]!]!;
      if (l < 0) continue;
      let il = 0;
      let ri = 0;
      for (let k = 0; k < K; k++) {
        il += b.il[s * C + k]!;
        ri += b.ri[s * C + k]!;
      }
      placeInsured[l]! += (w * il) / K;
      placeNet[l]! += (w * ri) / K;
    }
    b.clear();
    this.touched = false;
  }
}
