// An object's OED terms in the sampled-damage kernel (ground-up.ts): each event's ground-up loss per
// coverage of each location it reaches, per sample and damage-ratio factor, handed to the financial
// module (domain/financial/) sample by sample, as oasislmf's fmcalc takes gulcalc's samples; the
// event's insured and net losses are the means over the samples, and each location's share of them
// its back-allocated rows. The same module every lane applies an object's terms through.
import type { TermsEvaluator } from '../../financial/object-terms.js';

export interface OedTermsHook {
  readonly evaluator: TermsEvaluator;
  /** [kernel location × coverages + coverage index] → the module's item, −1 when it has none. */
  readonly item: Int32Array;
  /** The module's location index → kernel location, −1 when the kernel does not model it. */
  readonly kernelLocation: Int32Array;
}

/** One event's ground-up losses per (factor, sample, item), gathered location by location. */
export class OedEventLosses {
  private readonly gu: Float64Array[];
  private readonly touched: Int32Array;
  private readonly seen: Uint8Array;
  private nTouched = 0;
  private readonly byLoc: Float64Array;
  private readonly byLocNet: Float64Array;

  constructor(readonly hook: OedTermsHook, private readonly nF: number, private readonly K: number) {
    const nItems = hook.evaluator.terms.insurance.itemTiv.length;
    this.gu = Array.from({ length: nF * K }, () => new Float64Array(nItems));
    this.touched = new Int32Array(nItems);
    this.seen = new Uint8Array(nItems);
    this.byLoc = new Float64Array(hook.kernelLocation.length);
    this.byLocNet = new Float64Array(hook.kernelLocation.length);
  }

  /** The ground-up loss of one item in one sample at one factor. */
  add(f: number, k: number, item: number, loss: number): void {
    this.gu[f * this.K + k]![item]! += loss;
    if (this.seen[item] === 0) {
      this.seen[item] = 1;
      this.touched[this.nTouched++] = item;
    }
  }

  /**
   * The event's insured and net losses: the module on each sample's items, means over the samples
   * into insured[f][e] and net[f][e], and (base factor) each location's share, weighted by its
   * occurrences, into placeInsured and placeNet. Clears the event's losses.
   */
  finish(e: number, w: number, insured: Float64Array[], net: Float64Array[], placeInsured: Float64Array, placeNet: Float64Array): void {
    if (this.nTouched === 0) return;
    const ev = this.hook.evaluator;
    const K = this.K;
    for (let f = 0; f < this.nF; f++) {
      let il = 0;
      let ri = 0;
      for (let k = 0; k < K; k++) {
        const gu = this.gu[f * K + k]!;
        ev.apply(gu);
        for (let r = 0; r < ev.il.length; r++) {
          il += ev.il[r]!;
          ri += ev.ri[r]!;
        }
        if (f === 0) {
          ev.byLocation(ev.il, this.byLoc);
          ev.byLocation(ev.ri, this.byLocNet);
          const kl = this.hook.kernelLocation;
          for (let i = 0; i < kl.length; i++) {
            const l = kl[i]!;
            if (l < 0) continue;
            placeInsured[l]! += (w * this.byLoc[i]!) / K;
            placeNet[l]! += (w * this.byLocNet[i]!) / K;
          }
        }
        for (let t = 0; t < this.nTouched; t++) gu[this.touched[t]!] = 0;
      }
      insured[f]![e] = il / K;
      net[f]![e] = ri / K;
    }
    for (let t = 0; t < this.nTouched; t++) this.seen[this.touched[t]!] = 0;
    this.nTouched = 0;
  }
}
