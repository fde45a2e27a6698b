// An object's OED terms over the lanes whose loss is one figure per place and event (a mean damage
// ratio × the place's value: tropical cyclone, earthquake, flood): the one way those lanes reach the
// financial module (domain/financial/object-terms.ts), one call per event (or per sampled field).
//
// Coverages: these lanes value a place as its buildings plus contents value (places.ts) and damage
// both by the same ratio, so a place's ground-up loss is split onto its building (OED coverage 1)
// and contents (3) items pro rata to their TIVs (each item then loses its TIV × the place's damage
// ratio); other structures (2) and BI (4) are not valued by these lanes and lose nothing. Perils: the
// lane's OED peril codes, so a location, policy or term names the lane's peril (LocPerilsCovered,
// PolPerilsCovered, LocPeril...) for it to apply; a location that covers none of them has no item,
// and its loss is not insured.
import { objectTerms, TermsEvaluator, type OedSetRecords } from '../../financial/object-terms.js';
import type { PerilGroups } from '../../financial/oed-fields.js';
import type { TermsBatch } from '../../financial/batch.js';
import type { LabLocation } from './places.js';
import type { Impact } from './impact.js';
import { computeMetrics, type EventLoss, type LabMetrics, type MetricsInput, type Occurrence } from './metrics.js';

/** The OED coverages these lanes value (building, contents), by the module's coverage number. */
export const VALUED_COVERAGES: readonly number[] = [1, 3];

export const PLACE_TERMS_RULE = 'The object\'s OED terms through the financial module (docs/financial-module.md), applied once per event to its places\' ground-up losses: a place\'s loss is split onto its building (OED coverage 1) and contents (3) items pro rata to their TIVs, the same damage ratio on each; other structures (2) and BI (4) are not valued by the lane and lose nothing. Terms apply only where they cover the lane\'s OED peril.';

/** One event's insured and net totals. */
export interface EventTerms {
  il: number;
  ri: number;
}

/** The object's terms as a per-place lane applies them; of() gives null when the object has no OED set. */
export class PlaceTerms {
  /** The module's items of each place (−1 padded to two: building then contents). */
  private readonly items: Int32Array;
  private readonly share: Float64Array;
  private readonly batch: TermsBatch;

  private constructor(private readonly evaluator: TermsEvaluator, readonly places: number, readonly perils: readonly string[]) {
    const p = evaluator.terms.insurance;
    this.items = new Int32Array(places * 2).fill(-1);
    this.share = new Float64Array(places * 2);
    const tivs = new Float64Array(places * 2);
    for (let i = 0; i < p.itemLocation.length; i++) {
      const slot = VALUED_COVERAGES.indexOf(p.itemCoverage[i]!);
      if (slot < 0) continue;
      const k = p.itemLocation[i]! * 2 + slot;
      this.items[k] = i;
      tivs[k] = p.itemTiv[i]!;
    }
    // Shares of the place's valued TIVs (both coverages, whether or not each has an item for the peril).
    evaluator.terms.locations.forEach((l, place) => {
      const valued = l.tiv[0] + l.tiv[2];
      for (let s = 0; s < 2; s++) if (valued > 0 && this.items[place * 2 + s]! >= 0) this.share[place * 2 + s] = tivs[place * 2 + s]! / valued;
    });
    this.batch = evaluator.batch(1);
  }

  /** The terms of an object's OED set for the lane's perils (OED codes); null without a set. */
  static of(locations: readonly LabLocation[], oed: OedSetRecords | null | undefined, perilGroups: PerilGroups, perils: readonly string[]): PlaceTerms | null {
    const terms = objectTerms(locations, oed, perilGroups, new Set(perils));
    return terms === null ? null : new PlaceTerms(new TermsEvaluator(terms), locations.length, perils);
  }

  get warnings(): readonly string[] {
    return this.evaluator.terms.warnings;
  }

  /** Whether the object has reinsurance (ri_info): without it net equals insured. */
  get reinsured(): boolean {
    return this.evaluator.terms.reinsurance !== null;
  }

  /**
   * One event: the ground-up loss of place places[k] is losses[k], k in [from, to). Returns the
   * event's insured and net totals; with placeIl and placeRi, adds weight × each place's insured
   * and net loss into them.
   */
  event(places: ArrayLike<number>, losses: ArrayLike<number>, from: number, to: number, placeIl?: Float64Array, placeRi?: Float64Array, weight = 1): EventTerms {
    // One column of the module's batch, over the items the event reaches only (an event of a
    // cyclone or a flood touches a few places of many).
    const b = this.batch;
    let touched = false;
    for (let k = from; k < to; k++) {
      const place = places[k]!;
      const loss = losses[k]!;
      if (!(loss > 0)) continue;
      for (let s = 0; s < 2; s++) {
        const item = this.items[place * 2 + s]!;
        if (item < 0) continue;
        b.add(item, 0, loss * this.share[place * 2 + s]!);
        touched = true;
      }
    }
    if (!touched) return { il: 0, ri: 0 };
    b.run();
    const il = b.ilTotal[0]!;
    const ri = b.riTotal[0]!;
    if (placeIl && placeRi) {
      const p = this.evaluator.terms.insurance;
      for (let r = 0; r < b.rowCount; r++) {
        const l = p.itemLocation[p.rowItem[b.rows[r]!]!]!;
        placeIl[l]! += weight * b.il[r]!;
        placeRi[l]! += weight * b.ri[r]!;
      }
    }
    b.clear();
    return { il, ri };
  }

  /** The result's words on the terms applied. */
  stated(): { source: string; perils: readonly string[]; coverages: string; reinsurance: boolean; warnings: string[] } {
    return {
      source: 'the object\'s OED terms (docs/financial-module.md)',
      perils: this.perils,
      coverages: 'the place\'s loss split onto its building (1) and contents (3) items pro rata to their TIVs; other (2) and BI (4) lose nothing',
      reinsurance: this.reinsured,
      warnings: [...this.warnings],
    };
  }
}

/** Insured and net event losses, and each place's insured and net losses weighted by its events' occurrences. */
export interface TermsLosses {
  readonly il: EventLoss[];
  readonly ri: EventLoss[];
  readonly placeIl: Float64Array;
  readonly placeRi: Float64Array;
}

/**
 * The terms on a mean-damage impact (impact.ts), event by event: each event's places' losses through
 * the module; a place's figures summed over every occurrence of every event (as impactLosses sums
 * the ground up), or once per event when no occurrence table is given (a replay).
 */
export function impactTerms(terms: PlaceTerms, impact: Impact, occurrences?: readonly Occurrence[]): TermsLosses {
  const count = new Map<number, number>();
  for (const o of occurrences ?? []) count.set(o.event_id, (count.get(o.event_id) ?? 0) + 1);
  const m = impact.imp_mat;
  const out: TermsLosses = { il: [], ri: [], placeIl: new Float64Array(terms.places), placeRi: new Float64Array(terms.places) };
  for (let e = 0; e < impact.event_ids.length; e++) {
    const id = impact.event_ids[e]!;
    const w = occurrences ? (count.get(id) ?? 0) : 1;
    const t = terms.event(m.place, m.loss, m.rowStart[e]!, m.rowStart[e + 1]!, out.placeIl, out.placeRi, w);
    out.il.push({ event_id: id, loss: t.il });
    out.ri.push({ event_id: id, loss: t.ri });
  }
  return out;
}

/** The insured (il) and net (ri) lab-metrics/1 blocks, built as the lane builds its ground-up block. */
export function termsPerspectives(
  losses: TermsLosses,
  base: Omit<MetricsInput, 'perspective' | 'eventLosses' | 'places'>,
  placeIndex: (place: number) => number = (p) => p,
  keep: (place: number) => boolean = () => true,
): { il: LabMetrics; ri: LabMetrics } {
  const places = (values: Float64Array) => Array.from(values, (loss, p) => ({ index: placeIndex(p), loss })).filter((_, p) => keep(p));
  const assumptions = [...(base.assumptions ?? []), PLACE_TERMS_RULE];
  return {
    il: computeMetrics({ ...base, assumptions, perspective: 'insured', eventLosses: losses.il, places: places(losses.placeIl) }),
    ri: computeMetrics({ ...base, assumptions, perspective: 'net', eventLosses: losses.ri, places: places(losses.placeRi) }),
  };
}

/** The terms of a run's exposure: a stored object's locations with its OED set; null for points or an object without one. */
export function exposureTerms(exposure: unknown, perilGroups: PerilGroups | undefined, perils: readonly string[]): PlaceTerms | null {
  const ex = exposure as { locations?: LabLocation[]; oed?: OedSetRecords } | null;
  if (!ex || !Array.isArray(ex.locations) || !ex.oed || !perilGroups) return null;
  return PlaceTerms.of(ex.locations, ex.oed, perilGroups, perils);
}
