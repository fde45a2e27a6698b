// One node's financial terms (an Oasis "profile") and what they do to the loss that reaches the node,
// with the Oasis financial module's semantics (OasisLMF/OasisLMF oasislmf/pytools/fm/policy_extras.py,
// calcrule_1 .. calcrule_39; ids from its calcrule table). Learnt from, not copied: one general rule
// whose cases are the calcrules, in this order:
//
//   deductible   franchise (DedCode 2): a loss at or under it is retained whole, above it passes whole
//                (calcrules 3, 39); otherwise the deductible is an amount or a fraction of the loss
//                (DedType 1; % of TIV is resolved to an amount when the structure is built, as oasislmf
//                redirects calcrules 4, 6, 18, 21); with a minimum or maximum deductible the deductible
//                retained at this node and below is brought up to the minimum, taken first from the loss
//                held above sub-limits, then from the loss (deductible_under_min), or down to the maximum,
//                giving loss back up to the room left under sub-limits (deductible_over_max) (calcrules
//                7, 8, 10, 11, 13, 19, 26, 35, 36);
//   limit        an amount or a fraction of the loss (LimitType 1) (calcrules 1, 5, 14, 15, 33);
//   a layer      (an attachment or a share) takes what the deductible and attachment leave, limited,
//                times its participation (calcrules 2, 17, 34), leaving the running amounts as they were.
//
// Every node keeps three running amounts for the nodes above it (Oasis's "extras"): the deductible
// retained at and below it, the loss above limits at and below it, and the room left under its limits.

/** A node's terms, resolved: % of TIV already turned into amounts. */
export interface Profile {
  /** The deductible: an amount, or a fraction of the loss when deductibleOfLoss. */
  readonly deductible: number;
  readonly deductibleOfLoss: boolean;
  /** DedCode 2: a franchise deductible. */
  readonly franchise: boolean;
  /** 0: none. */
  readonly minDeductible: number;
  /** 0: none. */
  readonly maxDeductible: number;
  /** An amount, or a fraction of the loss when limitOfLoss; Infinity: unlimited. */
  readonly limit: number;
  readonly limitOfLoss: boolean;
  /** A layer's attachment point (0 below layers). */
  readonly attachment: number;
  /** A layer's participation, or the account's (AccParticipation): a share of what the terms leave. */
  readonly share: number;
  /** A policy layer (oasislmf calcrules 2, 17, 34): running amounts left as they were. */
  readonly layer: boolean;
}

/** The running amounts a node hands to the node above it. */
export interface Extras {
  deductible: number;
  overLimit: number;
  underLimit: number;
}

export const PASS_THROUGH: Profile = {
  deductible: 0, deductibleOfLoss: false, franchise: false, minDeductible: 0, maxDeductible: 0,
  limit: Infinity, limitOfLoss: false, attachment: 0, share: 1, layer: false,
};

export function profile(p: Partial<Profile>): Profile {
  return { ...PASS_THROUGH, ...p };
}

/** True when the profile leaves every loss as it is. */
export function passesThrough(p: Profile): boolean {
  return p.deductible === 0 && !p.franchise && p.minDeductible === 0 && p.maxDeductible === 0
    && p.limit === Infinity && p.attachment === 0 && p.share === 1;
}

/** The Oasis calcrule a profile corresponds to (what oasislmf would write in fm_profile.csv). */
export function calcruleOf(p: Profile): number {
  const limited = p.limit !== Infinity;
  if (p.layer || p.attachment > 0) return p.deductibleOfLoss ? 17 : limited ? 2 : 34;
  const base = calcruleWithoutShare(p, limited);
  return p.share !== 1 && base !== 100 ? 100 + base : p.share !== 1 ? 200 : base;
}

function calcruleWithoutShare(p: Profile, limited: boolean): number {
  if (p.franchise) return limited ? 3 : 39;
  const min = p.minDeductible > 0;
  const max = p.maxDeductible > 0;
  if (min || max) {
    if (p.deductibleOfLoss) return limited ? (p.limitOfLoss ? 35 : 26) : 19;
    if (limited) return p.limitOfLoss ? 36 : min && !max ? 8 : 7;
    return min && max ? 13 : min ? 11 : 10;
  }
  if (p.deductibleOfLoss) return limited ? (p.limitOfLoss ? 5 : 33) : 16;
  if (p.deductible > 0) return limited ? (p.limitOfLoss ? 15 : 1) : 12;
  return limited ? (p.limitOfLoss ? 5 : 14) : 100;
}

/** The deductible retained at and below the node cut to the maximum: loss given back within the room under sub-limits. */
function overMaximum(loss: number, x: Extras, max: number): number {
  const back = x.deductible - max; // negative: part of this node's deductible still applies
  if (back > x.underLimit) {
    const out = loss + x.underLimit;
    x.overLimit += back - x.underLimit;
    x.deductible = max;
    x.underLimit = 0;
    return out;
  }
  if (loss >= -back) {
    x.underLimit -= back;
    x.deductible = max;
    return loss + back;
  }
  x.deductible += loss;
  x.underLimit += loss;
  return 0;
}

/** The deductible retained at and below the node raised to the minimum: first from the loss above sub-limits, then from the loss. */
function underMinimum(loss: number, x: Extras, min: number): number {
  const need = min - x.deductible;
  const fromOver = need < x.overLimit ? need : x.overLimit;
  x.overLimit -= fromOver;
  const rest = need - fromOver;
  if (loss > rest) {
    x.deductible = min;
    x.underLimit += rest;
    return loss - rest;
  }
  x.deductible += fromOver + loss;
  x.underLimit += loss;
  return 0;
}

function afterDeductible(p: Profile, loss: number, x: Extras): number {
  if (p.franchise) {
    if (loss > p.deductible) return loss;
    x.deductible += loss;
    x.underLimit += loss;
    return 0;
  }
  const own = p.deductibleOfLoss ? loss * p.deductible : p.deductible;
  const reached = x.deductible + own;
  if (p.maxDeductible > 0 && reached > p.maxDeductible) return overMaximum(loss, x, p.maxDeductible);
  if (p.minDeductible > 0 && reached < p.minDeductible) return underMinimum(loss, x, p.minDeductible);
  const taken = loss < own ? loss : own;
  x.deductible += taken;
  x.underLimit += taken;
  return loss - taken;
}

/**
 * The loss a node passes up, for the loss that reaches it; x holds the running amounts of the nodes
 * below it on entry (their sums) and the node's own on return.
 */
export function applyProfile(p: Profile, loss: number, x: Extras): number {
  if (p.layer || p.attachment > 0) return layerLoss(p, loss);
  let out = afterDeductible(p, loss, x);
  const limit = p.limitOfLoss ? loss * p.limit : p.limit;
  if (out > limit) {
    x.overLimit += out - limit;
    x.underLimit = 0;
    out = limit;
  } else if (limit !== Infinity) {
    const room = limit - out;
    if (room < x.underLimit) x.underLimit = room;
  }
  return p.share === 1 ? out : out * p.share;
}

/**
 * A layer (attachment or share): what the deductible and attachment leave, limited, times the share.
 * Like oasislmf's calcrules 2, 17 and 34 it leaves the running amounts as they were: nothing above
 * the layer counts as a deductible or as loss above a limit for the account level.
 */
function layerLoss(p: Profile, loss: number): number {
  const ded = p.deductibleOfLoss ? loss * p.deductible : p.deductible;
  const above = loss - ded - p.attachment;
  if (!(above > 0)) return 0;
  const limit = p.limitOfLoss ? loss * p.limit : p.limit;
  return (above < limit ? above : limit) * p.share;
}
