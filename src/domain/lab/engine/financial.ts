// The loss engine's financial module: terms of model revision r3 (DOMAIN, Lab conventions),
// applied per event (and, with samples, per event and sample) in this order:
//
//   place (location) level, on the place's ground-up loss g (all its coverages after allocation):
//     retained by the place deductible   dP = min(g, place_deductible)
//     insured before the limit           g - dP
//     insured at the place               iP = min(g - dP, place_limit);  above the place limit: g - dP - iP
//   account level, on A = Σ iP over the places:
//     retained by the account deductible dA = min(A, account_deductible)
//     insured                            IL = min(A - dA, account_limit);  above the account limit: A - dA - IL
//   reinsurance, on IL:
//     quota share first                  Q = ceded_share × IL;  retained R = IL - Q
//     then each layer {attachment, limit}, lowest first, on the retained loss R:
//                                        X_k = min(limit_k, max(0, R - attachment_k))
//     net                                N = R - Σ X_k
//
// Layers must not overlap (attachment_{k+1} >= attachment_k + limit_k); a gap between layers stays
// net. Every field is optional: a missing deductible is 0, a missing limit is unlimited, a missing
// quota share cedes nothing. Amounts are in the unit of the values.
//
// Conservation, checked: g_total = ΣdP + Σ(above place limits) + dA + (above account limit) + Q + ΣX_k + N.
// A check that fails is the refusal loss_not_conserved, returned, never thrown. FINANCIAL_MODULE is
// this module behind the loss engine's interface (loss-engine.ts).
import { ok, refused, type Result } from '../../../kernel/result.js';
import { refusal, type Refusal } from '../../../kernel/refusal.js';
import type { FinancialModule, TermsBreakdown } from './loss-engine.js';
import { runSpecRefusal } from './spec-refusal.js';

export interface PolicyTerms {
  place_deductible?: number;
  /** null or absent: unlimited. */
  place_limit?: number | null;
  account_deductible?: number;
  account_limit?: number | null;
}

export interface Layer {
  attachment: number;
  limit: number;
}

export interface ReinsuranceTerms {
  quota_share?: { ceded_share: number };
  layers?: Layer[];
}

export interface FinancialTerms {
  policy?: PolicyTerms;
  reinsurance?: ReinsuranceTerms;
}

export interface NormalizedTerms {
  placeDeductible: number;
  placeLimit: number;
  accountDeductible: number;
  accountLimit: number;
  cededShare: number;
  layers: Layer[];
  /** True when the account or a layer acts on a sum of places (per-sample pairing then matters). */
  nonlinearAcrossPlaces: boolean;
}

export const MAX_LAYERS = 3;

function amount(details: string[], where: string, v: unknown, positive = false): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (positive && v === 0)) {
    details.push(`${where} must be a ${positive ? 'positive' : 'non-negative'} finite number`);
    return undefined;
  }
  return v;
}

function objectOrUndefined(details: string[], where: string, v: unknown): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    details.push(`${where} must be an object`);
    return undefined;
  }
  return v as Record<string, unknown>;
}

function unknownMembers(details: string[], where: string, o: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) details.push(`${where} has an unknown member "${k}"`);
}

/** Validates terms, naming every fault, and fills the defaults. */
export function readTerms(terms: unknown): Result<NormalizedTerms> {
  const details: string[] = [];
  const t = objectOrUndefined(details, 'terms', terms) ?? {};
  unknownMembers(details, 'terms', t, ['policy', 'reinsurance']);
  const policy = objectOrUndefined(details, 'terms.policy', t.policy) ?? {};
  unknownMembers(details, 'terms.policy', policy, ['place_deductible', 'place_limit', 'account_deductible', 'account_limit']);
  const ri = objectOrUndefined(details, 'terms.reinsurance', t.reinsurance) ?? {};
  unknownMembers(details, 'terms.reinsurance', ri, ['quota_share', 'layers']);
  const qs = objectOrUndefined(details, 'terms.reinsurance.quota_share', ri.quota_share);
  let cededShare = 0;
  if (qs) {
    unknownMembers(details, 'terms.reinsurance.quota_share', qs, ['ceded_share']);
    const c = qs.ceded_share;
    if (typeof c !== 'number' || !Number.isFinite(c) || c < 0 || c > 1) details.push('terms.reinsurance.quota_share.ceded_share must be a number from 0 to 1');
    else cededShare = c;
  }
  const layers: Layer[] = [];
  if (ri.layers !== undefined && ri.layers !== null) {
    if (!Array.isArray(ri.layers)) details.push('terms.reinsurance.layers must be an array');
    else {
      if (ri.layers.length > MAX_LAYERS) details.push(`terms.reinsurance.layers holds ${ri.layers.length} layers; at most ${MAX_LAYERS}`);
      ri.layers.forEach((l: unknown, i: number) => {
        const where = `terms.reinsurance.layers[${i}]`;
        const o = objectOrUndefined(details, where, l);
        if (!o) {
          if (l === undefined || l === null) details.push(`${where} must be an object`);
          return;
        }
        unknownMembers(details, where, o, ['attachment', 'limit']);
        const attachment = amount(details, `${where}.attachment`, o.attachment);
        const limit = amount(details, `${where}.limit`, o.limit, true);
        if (o.attachment === undefined) details.push(`${where}.attachment is required`);
        if (o.limit === undefined) details.push(`${where}.limit is required`);
        if (attachment !== undefined && limit !== undefined) layers.push({ attachment, limit });
      });
      for (let i = 1; i < layers.length; i++) {
        const below = layers[i - 1]!;
        if (layers[i]!.attachment < below.attachment + below.limit) {
          details.push(`terms.reinsurance.layers[${i}] must attach at or above ${below.attachment + below.limit}, the top of the layer below (layers are stacked from the lowest)`);
        }
      }
    }
  }
  const placeDeductible = amount(details, 'terms.policy.place_deductible', policy.place_deductible) ?? 0;
  const placeLimit = amount(details, 'terms.policy.place_limit', policy.place_limit) ?? Infinity;
  const accountDeductible = amount(details, 'terms.policy.account_deductible', policy.account_deductible) ?? 0;
  const accountLimit = amount(details, 'terms.policy.account_limit', policy.account_limit) ?? Infinity;
  if (details.length > 0) return refused(runSpecRefusal(details));
  return ok({
    placeDeductible,
    placeLimit,
    accountDeductible,
    accountLimit,
    cededShare,
    layers,
    nonlinearAcrossPlaces: accountDeductible > 0 || accountLimit !== Infinity || layers.length > 0,
  });
}

/** Insured loss of one place: min(max(g - deductible, 0), limit). */
export function placeInsured(g: number, t: NormalizedTerms): number {
  const after = g > t.placeDeductible ? g - t.placeDeductible : 0;
  return after < t.placeLimit ? after : t.placeLimit;
}

/**
 * Account terms and reinsurance on the sum of the places' insured losses. Writes into out:
 * [account deductible, above account limit, insured, quota share, net, layer 1, layer 2, ...].
 */
export function accountAndReinsurance(placeInsuredSum: number, t: NormalizedTerms, out: Float64Array): void {
  const a = placeInsuredSum;
  const dA = a < t.accountDeductible ? a : t.accountDeductible;
  const after = a - dA;
  const il = after < t.accountLimit ? after : t.accountLimit;
  const q = t.cededShare * il;
  const r = il - q;
  let ceded = 0;
  for (let k = 0; k < t.layers.length; k++) {
    const l = t.layers[k]!;
    const x = r > l.attachment ? Math.min(l.limit, r - l.attachment) : 0;
    out[5 + k] = x;
    ceded += x;
  }
  out[0] = dA;
  out[1] = after - il;
  out[2] = il;
  out[3] = q;
  out[4] = r - ceded;
}

/** Applies the terms to one event's (or sample's) place ground-up losses; refuses when they do not conserve it. */
export function applyTerms(placeGroundUp: readonly number[], t: NormalizedTerms): Result<TermsBreakdown> {
  let g = 0;
  let dP = 0;
  let aboveP = 0;
  let iSum = 0;
  for (const x of placeGroundUp) {
    if (!(x >= 0) || !Number.isFinite(x)) return refused(lossNotConserved(`A place's ground-up loss ${x} is not a non-negative finite number.`));
    const ded = x < t.placeDeductible ? x : t.placeDeductible;
    const i = placeInsured(x, t);
    g += x;
    dP += ded;
    aboveP += x - ded - i;
    iSum += i;
  }
  const out = new Float64Array(5 + t.layers.length);
  accountAndReinsurance(iSum, t, out);
  return conserved({
    ground_up: g,
    place_deductible: dP,
    place_above_limit: aboveP,
    account_deductible: out[0]!,
    account_above_limit: out[1]!,
    insured: out[2]!,
    ceded_quota_share: out[3]!,
    layers: Array.from(out.subarray(5)),
    net: out[4]!,
  });
}

/** Sum of the parts of a breakdown: deductibles, amounts above limits, cessions and net. */
export function partsTotal(b: TermsBreakdown): number {
  return b.place_deductible + b.place_above_limit + b.account_deductible + b.account_above_limit
    + b.ceded_quota_share + b.layers.reduce((s, x) => s + x, 0) + b.net;
}

/** Relative tolerance of the conservation check (floating-point sums of many places). */
export const CONSERVATION_TOLERANCE = 1e-9;

export function conservationGap(groundUp: number, parts: number): number {
  return Math.abs(groundUp - parts);
}

/**
 * The refusal of a run whose losses fail a conservation check: the model data and the kernel
 * disagree, so running it again would fail again; the job carries the code, not a bare 500.
 */
export function lossNotConserved(message: string): Refusal {
  return refusal(500, 'loss_not_conserved', message);
}

/** The breakdown when its parts add up to its ground-up loss and its insured loss to ground up less retentions (NaN fails). */
export function conserved(b: TermsBreakdown): Result<TermsBreakdown> {
  const parts = partsTotal(b);
  const gap = conservationGap(b.ground_up, parts);
  if (!(gap <= CONSERVATION_TOLERANCE * Math.max(1, Math.abs(b.ground_up)))) {
    return refused(lossNotConserved(`The terms do not conserve the ground-up loss: ${b.ground_up} vs parts ${parts}.`));
  }
  const ilCheck = b.ground_up - b.place_deductible - b.place_above_limit - b.account_deductible - b.account_above_limit;
  if (!(Math.abs(ilCheck - b.insured) <= CONSERVATION_TOLERANCE * Math.max(1, Math.abs(b.ground_up)))) {
    return refused(lossNotConserved(`The insured loss ${b.insured} does not equal ground up less retentions, ${ilCheck}.`));
  }
  return ok(b);
}

/** The financial module of the loss engine: revision r3's policy and reinsurance terms. */
export const FINANCIAL_MODULE: FinancialModule<NormalizedTerms> = { read: readTerms, apply: applyTerms };

/**
 * The terms in the input shape with every default spelled out (limits null when unlimited): what a
 * run's spec stores and its content address covers. readTerms reads it back to the same terms,
 * so the service's normalised spec and the lane's validation agree by construction.
 */
export function termsSpec(t: NormalizedTerms): FinancialTerms {
  const lim = (x: number) => (x === Infinity ? null : x);
  return {
    policy: {
      place_deductible: t.placeDeductible,
      place_limit: lim(t.placeLimit),
      account_deductible: t.accountDeductible,
      account_limit: lim(t.accountLimit),
    },
    reinsurance: { quota_share: { ceded_share: t.cededShare }, layers: t.layers.map((l) => ({ attachment: l.attachment, limit: l.limit })) },
  };
}

/** The terms as stated back in a result: the spec's shape plus the order they act in. */
export function describeTerms(t: NormalizedTerms): Record<string, unknown> {
  return {
    ...termsSpec(t),
    order: 'place deductible, place limit, account deductible, account limit; quota share on the insured loss; layers (lowest first) on the loss retained after the quota share',
  };
}
