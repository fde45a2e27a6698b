// The lab's one loss engine: the interface every lane's losses pass through, in the stages the Oasis
// LMF names (CLIMADA's Impact names the first three: exposures × hazard intensity × impact function):
//
//   exposure       the items at risk, each a value at a place (places.ts; model-data.ts's keyed portfolio)
//   hazard         an intensity per event at each item: a footprint's intensity bins, a hazard's
//                  centroid intensities, a ground-motion field, a depth map
//   vulnerability  intensity → damage ratio: a damage distribution per intensity bin, an impact
//                  function's MDD × PAA, a vulnerability function's mean loss ratio, a depth-damage curve
//   ground up      the value × the damage ratio per item and event (gulcalc)
//   financial      policy and reinsurance terms on the ground-up losses → insured and net (fmcalc)
//   outputs        the event loss table and each place's loss, which lab-metrics/1 reads (metrics.ts)
//
// Kernels behind it: SAMPLED_DAMAGE (ground-up.ts: damage distributions sampled as gulcalc does, over
// any ModelData) and MEAN_DAMAGE (impact.ts: CLIMADA's mean damage ratio at the intensity); the
// event-based lanes that make their own hazard event by event (a ground-motion field per rupture) take
// itemGroundUp and an EventLossTable. FINANCIAL_MODULE (financial.ts) is the financial module; the
// sampled kernel applies it sample by sample, as the terms need. A new kernel (an OED financial
// module, a user's hazard and exposure files, an OpenQuake model) implements one of these interfaces.
import type { Result } from '../../../kernel/result.js';
import type { EventLoss, Occurrence, PlaceLoss } from './metrics.js';

/** A ground-up kernel: exposure × hazard × vulnerability → ground-up loss per item and event. */
export interface LossKernel<Inputs, Run> {
  /** The method, as a result states it. */
  readonly method: string;
  groundUp(inputs: Inputs): Result<Run>;
}

/** Where one event's (or one sample's) ground-up loss went through the terms. */
export interface TermsBreakdown {
  ground_up: number;
  place_deductible: number;
  place_above_limit: number;
  account_deductible: number;
  account_above_limit: number;
  insured: number;
  ceded_quota_share: number;
  layers: number[];
  net: number;
}

/** The financial module: terms read from a spec, then applied to one event's place ground-up losses. */
export interface FinancialModule<Terms> {
  /** The terms, every fault named, defaults filled. */
  read(spec: unknown): Result<Terms>;
  /** Every level of the terms on the places' ground-up losses; refused when the parts do not conserve it. */
  apply(placeGroundUp: readonly number[], terms: Terms): Result<TermsBreakdown>;
}

/** The vulnerability stage of a mean-damage kernel: the damage ratio (0 to 1) at a hazard intensity. */
export type Vulnerability = (intensity: number) => number;

/** The ground-up stage of one item in one event: its value × its vulnerability's damage ratio at the intensity. */
export function itemGroundUp(value: number, vulnerability: Vulnerability, intensity: number): number {
  return value * vulnerability(intensity);
}

/** What the outputs stage reads from any kernel: the event losses and each place's loss over the occurrences. */
export interface GroundUpLosses {
  readonly eventLosses: EventLoss[];
  readonly places: PlaceLoss[];
}

/**
 * The event loss table of an event-based kernel, written event by event: an event with a loss is
 * listed with its occurrence, and each item's loss is added to its place. Items are indices of the
 * places the table was made for.
 */
export class EventLossTable {
  readonly eventLosses: EventLoss[] = [];
  readonly occurrences: Occurrence[] = [];
  private readonly placeLoss: Float64Array;

  constructor(places: number) {
    this.placeLoss = new Float64Array(places);
  }

  /** Adds one event's losses at items[0..count) (losses[c] at items[c]); returns the event's loss. */
  record(eventId: number, period: number, items: Int32Array, losses: Float64Array, count: number): number {
    let eventLoss = 0;
    for (let c = 0; c < count; c++) eventLoss += losses[c]!;
    if (eventLoss > 0) {
      for (let c = 0; c < count; c++) this.placeLoss[items[c]!]! += losses[c]!;
      this.eventLosses.push({ event_id: eventId, loss: eventLoss });
      this.occurrences.push({ event_id: eventId, period });
    }
    return eventLoss;
  }

  /** Each place's loss, summed over the events, under the index the lane reports it by. */
  places(indexOf: (item: number) => number): PlaceLoss[] {
    return Array.from(this.placeLoss, (loss, i) => ({ index: indexOf(i), loss }));
  }
}
