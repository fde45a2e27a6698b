// Payout functions of a parametric structure (DOMAIN.md "Parametric structures") and the annual
// aggregate of the financial structure.
//
// - Ladder: levels at_least L_k paying fraction f_k of the limit; a value x pays limit × f_k of the
//   highest k with x >= L_k, else nothing. Levels are held in increasing order of L_k (the
//   validator refuses any other order), with fractions increasing in (0, 1].
// - Linear: limit × clamp((x − A) / (E − A), 0, 1), A < E in the index's unit.
// - Annual aggregate: a year pays min(annual cap, max(0, Σ occurrence payouts − attachment)), the
//   attachment (money) being an annual aggregate deductible on the year's sum, the cap
//   financial_structure.annual_limit or, when the terms state none, the limit.

export interface LadderLevel {
  readonly at_least: number;
  readonly fraction: number;
}

export type PayoutBasis = 'per_occurrence' | 'per_event' | 'term_maximum';

export interface LadderPayout {
  readonly function: 'ladder';
  readonly levels: readonly LadderLevel[];
  readonly basis?: PayoutBasis;
}

export interface LinearPayout {
  readonly function: 'linear';
  readonly attachment: number;
  readonly exhaustion: number;
  readonly basis?: PayoutBasis;
}

export type PayoutFunction = LadderPayout | LinearPayout;

/** Fraction of the limit a ladder pays for x: f_k of the highest level reached, else 0. */
export function ladderFraction(levels: readonly LadderLevel[], x: number): number {
  let fraction = 0;
  for (const level of levels) if (x >= level.at_least) fraction = Math.max(fraction, level.fraction);
  return fraction;
}

/** clamp((x − A) / (E − A), 0, 1). */
export function linearFraction(attachment: number, exhaustion: number, x: number): number {
  if (!(exhaustion > attachment)) throw new RangeError(`linear payout needs exhaustion > attachment, got ${attachment}..${exhaustion}`);
  if (x <= attachment) return 0;
  if (x >= exhaustion) return 1;
  return (x - attachment) / (exhaustion - attachment);
}

export function payoutFraction(payout: PayoutFunction, x: number): number {
  return payout.function === 'ladder' ? ladderFraction(payout.levels, x) : linearFraction(payout.attachment, payout.exhaustion, x);
}

/**
 * The lowest index value that can matter: the ladder's lowest at_least, or the linear attachment A.
 * Rows below it are left out before clustering (SPEC: min_magnitude takes the attachment level).
 */
export function triggerLevel(payout: PayoutFunction): number {
  return payout.function === 'ladder' ? Math.min(...payout.levels.map((l) => l.at_least)) : payout.attachment;
}

/** Rounds an amount of money to cents (half away from zero for the non-negative amounts used here). */
export function roundMoney(amount: number): number {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-7);
  return (Math.sign(amount) * cents) / 100 || 0;
}

/** A value read by a payout function, rounded to 6 decimal places (no float noise such as 150.00000000000003). */
export function roundIndex(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

/** One occurrence's payout before the annual aggregate: limit × fraction, in cents. */
export function occurrencePayout(payout: PayoutFunction, limit: number, x: number): number {
  return roundMoney(limit * payoutFraction(payout, x));
}

export interface AnnualTerms {
  /** Annual aggregate deductible on the year's sum of occurrence payouts (money). */
  readonly attachment: number;
  /** The most a year pays (financial_structure.annual_limit ?? limit). */
  readonly annual_cap: number;
}

/** A year's payout from the sum of its occurrence payouts: min(cap, max(0, gross − attachment)). */
export function annualPayout(gross: number, terms: AnnualTerms): number {
  return roundMoney(Math.min(terms.annual_cap, Math.max(0, gross - terms.attachment)));
}
