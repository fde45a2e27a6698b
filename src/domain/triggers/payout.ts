// Payout functions of a parametric structure (DOMAIN.md "Parametric structures") and the annual
// aggregate of the financial structure.
//
// - Ladder: levels at_least L_k paying fraction f_k of the limit; a value x pays limit × f_k of the
//   highest k with x >= L_k, else nothing. Levels are held in increasing order of L_k (the
//   validator refuses any other order), with fractions increasing in (0, 1].
// - Linear: limit × clamp((x − A) / (E − A), 0, 1), A < E in the index's unit. Pays nothing at
//   x = A itself.
// - Step-and-linear ("step_linear": attachment A, step s, exhaustion E): at A the payout jumps to
//   the step s of the limit (0 < s < 1), then rises linearly to the whole limit at E:
//   fraction(x) = 0 for x < A; s + (1 − s)(x − A)/(E − A) for A ≤ x < E; 1 for x ≥ E. The
//   attachment is inclusive, as a ladder level's at_least is: x = A pays s. It is s × a one-level
//   ladder at A paying the whole limit plus (1 − s) × a linear payout from A to E (stepLinearParts),
//   the identity the fitted views use to reuse their closed forms.
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

export interface StepLinearPayout {
  readonly function: 'step_linear';
  readonly attachment: number;
  /** The fraction of the limit paid on reaching the attachment, in (0, 1). */
  readonly step: number;
  readonly exhaustion: number;
  readonly basis?: PayoutBasis;
}

export type PayoutFunction = LadderPayout | LinearPayout | StepLinearPayout;

/** The payout functions, as trigger.payout.function names them. */
export const PAYOUT_FUNCTION_NAMES = ['ladder', 'linear', 'step_linear'] as const;

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

/** 0 below A; s + (1 − s)(x − A)/(E − A) from A (inclusive) to E; 1 from E. */
export function stepLinearFraction(attachment: number, step: number, exhaustion: number, x: number): number {
  if (!(step > 0 && step < 1)) throw new RangeError(`step-and-linear payout needs a step in (0, 1), got ${step}`);
  if (x < attachment) return 0;
  return step + (1 - step) * linearFraction(attachment, exhaustion, x);
}

/**
 * A step-and-linear payout as its two parts: fraction = step × ladder(x) + (1 − step) × linear(x),
 * the ladder one level at A paying the whole limit, the linear from A to E (same basis).
 */
export function stepLinearParts(p: StepLinearPayout): { step: number; ladder: LadderPayout; linear: LinearPayout } {
  const basis = p.basis !== undefined ? { basis: p.basis } : {};
  return {
    step: p.step,
    ladder: { function: 'ladder', levels: [{ at_least: p.attachment, fraction: 1 }], ...basis },
    linear: { function: 'linear', attachment: p.attachment, exhaustion: p.exhaustion, ...basis },
  };
}

export function payoutFraction(payout: PayoutFunction, x: number): number {
  switch (payout.function) {
    case 'ladder': return ladderFraction(payout.levels, x);
    case 'linear': return linearFraction(payout.attachment, payout.exhaustion, x);
    case 'step_linear': return stepLinearFraction(payout.attachment, payout.step, payout.exhaustion, x);
  }
}

/** The index levels a payout function states: a ladder's at_least values, or attachment and exhaustion. */
export function payoutLevels(payout: PayoutFunction): number[] {
  return payout.function === 'ladder' ? payout.levels.map((l) => l.at_least) : [payout.attachment, payout.exhaustion];
}

/**
 * The lowest index value that can matter: the ladder's lowest at_least, or the attachment A of a
 * linear or step-and-linear payout. Rows below it are left out before clustering (SPEC:
 * min_magnitude takes the attachment level).
 */
export function triggerLevel(payout: PayoutFunction): number {
  return Math.min(...payoutLevels(payout));
}

/** The payout function as the terms write it (trigger.payout), basis last. */
export function payoutTerms(payout: PayoutFunction): Record<string, unknown> {
  const basis = payout.basis !== undefined ? { basis: payout.basis } : {};
  switch (payout.function) {
    case 'ladder': return { function: 'ladder', levels: payout.levels.map((l) => ({ at_least: l.at_least, fraction: l.fraction })), ...basis };
    case 'linear': return { function: 'linear', attachment: payout.attachment, exhaustion: payout.exhaustion, ...basis };
    case 'step_linear': return { function: 'step_linear', attachment: payout.attachment, step: payout.step, exhaustion: payout.exhaustion, ...basis };
  }
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
