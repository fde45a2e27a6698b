// Fitted frequency–severity views of a parametric structure's annual payout (DOMAIN.md "Fitted
// views"), priced beside the historical burn of the backtest artifact over the same window.
//
// Three views, one per kind of record; each design says which it is fitted with and hands over
// what it reads (fittedSample of src/domain/triggers/design.ts), fit.ts fits that view, and this
// module holds what the views share:
//
// 1. Cat-in-a-box on a quake catalog: Gutenberg–Richter (gutenberg-richter-view.ts). The box's
//    earthquakes (type earthquake, a magnitude, epicentre in the box, the depth rule) are clustered
//    into occurrences by the structure's own occurrence rule (src/domain/occurrence.ts, the
//    structure's aggregation window, no magnitude floor) and the occurrence peaks falling in the
//    window's covered terms are fitted: Mc = max(maximum curvature, the catalog's stated floor),
//    Aki–Utsu b, λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc)) with T the covered term-years. Occurrences are
//    Poisson; an occurrence reaching the payout's lowest level u has magnitude u + Exp(b·ln10) (the
//    GR law above u).
// 2. Daily index (basis term_maximum; extreme-value-view.ts): the per-year term maxima of the
//    artifact's covered years (complete and partial years; a partial year's maximum is read over
//    the windows it has) fitted with selectExtremeValueFit (GEV or Gumbel by L-moments);
//    E[payout] = ∫ payout dF by expectedPayout with breakpoints at the payout's levels and kinks.
// 3. Track gates, storm reports and mapped fires (empirical-view.ts): Poisson rate of qualifying
//    occurrences per covered term-year × the empirical distribution of their peak values.
//    Qualifying = the backtest's own occurrence rule (value at least the payout's lowest level),
//    so the occurrences are exactly the ones the backtest pays from; below that level an
//    occurrence pays nothing.
//
// Annual terms (the annual cap, the annual aggregate attachment) apply to the fitted view too. The
// annual payout distribution is computed exactly wherever it can be: a term maximum has the
// closed-form distribution P(max ≥ x) = 1 − exp(−ν·S(x)); a per-occurrence payout taking finitely
// many values (a ladder, or any payout over an empirical severity) is a compound Poisson sum
// convolved exactly on a cent lattice. Only a continuous per-occurrence payout (a linear or
// step-and-linear payout over Gutenberg–Richter magnitudes) is simulated, with the stated number of
// years and seed.
//
// A step-and-linear payout is step × a one-level ladder at A paying the whole limit plus
// (1 − step) × a linear payout from A to E (stepLinearParts); its expected payout before the annual
// terms over Gutenberg–Richter magnitudes is that weighted sum of the two closed forms.

import type { BacktestArtifact, YearOut } from '../backtest/artifact.js';
import { payoutFraction, payoutLevels, roundMoney, stepLinearParts } from '../triggers/payout.js';
import type { FittedSample } from '../triggers/design.js';
import type { FeedClass, FeedFacts } from '../triggers/feed.js';
import type { TriggerData } from '../triggers/records.js';
import type { Structure } from '../triggers/terms.js';
import { expectedPayout, type GevParameters } from '../stats/extreme-value.js';
import { seededRandom, type SeededRandom } from '../stats/random.js';
import { regularizedGammaQ } from '../stats/special-functions.js';
import { compoundPoissonAnnual, poissonDraw, type AnnualMoments, type PayoutMass } from '../stats/compound-poisson.js';

// ---------------------------------------------------------------------------------------------
// When the sample supports a fit (below these the view is unavailable and the price is the burn)

export const FITTED_VIEW_MINIMUMS = {
  /** Term maxima of complete years for an extreme-value fit (the hazard summaries' minimum). */
  term_maxima: 10,
  /** Occurrences at or above Mc for a Gutenberg–Richter b-value. */
  occurrences_at_or_above_mc: 10,
  /** Qualifying occurrences for a Poisson rate × empirical severity. */
  qualifying_occurrences: 5,
} as const;

export const FITTED_VIEW_RULE =
  `A fitted view is used only where the sample supports it: at least ${FITTED_VIEW_MINIMUMS.term_maxima} term maxima of complete years ` +
  `(extreme values), ${FITTED_VIEW_MINIMUMS.occurrences_at_or_above_mc} occurrences at or above Mc (Gutenberg–Richter), or ` +
  `${FITTED_VIEW_MINIMUMS.qualifying_occurrences} qualifying occurrences (Poisson rate × empirical severity); below it the expected loss is the burn alone (Z = 1).`;

// ---------------------------------------------------------------------------------------------
// Types

export interface FittedViewParameters {
  /** Simulated years, when the annual payout distribution is simulated. */
  readonly simulation_years: number;
  /** Seed of the simulation's xoshiro128** generator (src/domain/stats/random.ts). */
  readonly simulation_seed: number;
  /** Parametric-bootstrap replicates for the extreme-value fit's standard errors. */
  readonly bootstrap_replicates: number;
  readonly bootstrap_seed: number;
}

export interface FittedParameter {
  readonly name: string;
  readonly value: number | null;
  /** null where no standard error is defined (a stated constant, or a count). */
  readonly standard_error: number | null;
  readonly unit: string | null;
  readonly note: string | null;
}

/** The three views, as the designs name them (fittedSample). */
export type FittedMethod = FittedSample['method'];

export type AnnualMethod = 'closed_form' | 'exact_distribution' | 'numerical_integration' | 'simulation';

export interface SimulationFacts {
  readonly years: number;
  readonly seed: number;
  readonly generator: string;
  /** Monte Carlo standard error of the simulated mean: sd / √years. */
  readonly standard_error_of_mean: number;
}

export interface AnnualTermsOut {
  /** How the expected annual payout after the annual terms was computed. */
  readonly method: AnnualMethod;
  readonly description: string;
  readonly attachment: number;
  readonly annual_cap: number;
  readonly simulation: SimulationFacts | null;
}

export interface FittedView {
  readonly design: Structure['design'];
  readonly method: FittedMethod;
  /** False when the data cannot carry the fit (too few events, no spread); the figures are then null. */
  readonly available: boolean;
  readonly reason: string | null;
  readonly description: string;
  /** What the fit read: counts, years, exposure. */
  readonly sample: Readonly<Record<string, unknown>>;
  readonly parameters: readonly FittedParameter[];
  readonly goodness_of_fit: Readonly<Record<string, unknown>> | null;
  /**
   * Per occurrence: rate × E[occurrence payout] (Σ λ(L_k)·limit·(f_k − f_{k−1}) for a ladder), no
   * annual cap or attachment. Term maximum: E[payout(annual maximum)], no annual cap or attachment.
   */
  readonly expected_annual_payout_before_annual_terms: number | null;
  /** After the annual cap and annual aggregate attachment; in cents. */
  readonly expected_annual_payout: number | null;
  readonly standard_deviation_annual_payout: number | null;
  readonly annual_terms: AnnualTermsOut | null;
  readonly notes: readonly string[];
}

/**
 * A replay as the price reads it: the backtest of the structure over the window priced, and what
 * it read. The fitted view and the technical price both take it.
 */
export interface PricedReplay {
  /** The backtest of the structure over the window priced (runBacktest). */
  readonly artifact: BacktestArtifact;
  /** What the feed readers parsed from the artifact's snapshot (triggerData of their output). */
  readonly data: TriggerData;
  /** The snapshot's manifest: the quake catalog's magnitude_floor and the feed kind are read from it. */
  readonly manifest?: FeedFacts | null;
  /** What the feed catalog says the feed is (src/feeds/catalog.ts feedClass); without it only the manifest's kind is read. */
  readonly feed_class?: FeedClass | null;
}

export interface FittedViewInput extends PricedReplay {
  /** The normalised structure (validateStructure(...).structure). */
  readonly structure: Structure;
  readonly parameters: FittedViewParameters;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const LN10 = Math.LN10;

/** A published figure: 12 significant digits (no binary noise in the document), null when not finite. */
export function publish(x: number | null | undefined, digits = 12): number | null {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  return Number(x.toPrecision(digits)) || 0;
}

export function money(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : roundMoney(x);
}

export function param(name: string, value: number | null, standardError: number | null, unit: string | null, note: string | null = null): FittedParameter {
  return { name, value: publish(value), standard_error: publish(standardError), unit, note };
}

/** The annual terms as the backtest applies them: min(cap, max(0, gross − attachment)). */
export function netOf(gross: number, attachment: number, cap: number): number {
  return Math.min(cap, Math.max(0, gross - attachment));
}

/** Occurrence payout in money (unrounded): limit × payout fraction. */
export function occurrenceAmount(s: Structure, x: number): number {
  return s.financial.limit * payoutFraction(s.payout, x);
}

/** Ladder levels in increasing order with the fraction of the limit each pays (running maximum, as ladderFraction). */
export function ladderSteps(s: Structure): { level: number; fraction: number }[] {
  if (s.payout.function !== 'ladder') return [];
  const levels = [...s.payout.levels].sort((a, b) => a.at_least - b.at_least);
  let f = 0;
  return levels.map((l) => ({ level: l.at_least, fraction: (f = Math.max(f, l.fraction)) }));
}

/** Index levels where the payout (after the annual terms) jumps or bends. */
export function payoutBreakpoints(s: Structure): number[] {
  if (s.payout.function === 'ladder') return ladderSteps(s).map((l) => l.level);
  const { attachment: A, exhaustion: E } = s.payout;
  // The fraction paid at A: nothing for a linear payout, the step for a step-and-linear one.
  const step = s.payout.function === 'step_linear' ? s.payout.step : 0;
  const { limit, attachment, annual_cap: cap } = s.financial;
  const at = (money: number): number => A + ((money / limit - step) / (1 - step)) * (E - A);
  const out = [A, E];
  if (attachment > step * limit && attachment < limit) out.push(at(attachment));
  if (attachment + cap > step * limit && attachment + cap < limit) out.push(at(attachment + cap));
  return out;
}

/** The index levels a structure's payout states, in increasing order (ladder levels, or attachment and exhaustion). */
export function structureLevels(s: Structure): number[] {
  return s.payout.function === 'ladder' ? ladderSteps(s).map((l) => l.level) : payoutLevels(s.payout);
}

/** Years the burn counts (complete years: a partial year has a null payout), and the covered share of each term. */
export function coveredYears(artifact: BacktestArtifact): { year: YearOut; exposure: number }[] {
  return artifact.years.filter((y) => y.record !== 'missing' && y.payout !== null).map((year) => {
    const termDays = year.term_days as number | undefined;
    const covered = year.days_covered as number | undefined;
    const exposure = typeof termDays === 'number' && typeof covered === 'number' && termDays > 0 ? covered / termDays : 1;
    return { year, exposure };
  });
}

// ---------------------------------------------------------------------------------------------
// Statistics helpers

/**
 * Poisson dispersion test of annual counts: D = s²/x̄ (n − 1 denominator), χ² = Σ(c − x̄)²/x̄ on
 * n − 1 degrees of freedom, upper-tail p-value. D near 1 fits a Poisson count; D > 1 is clustering.
 */
export function poissonDispersion(counts: readonly number[]): Record<string, unknown> {
  const n = counts.length;
  const mean = counts.reduce((a, c) => a + c, 0) / Math.max(1, n);
  if (n < 2 || !(mean > 0)) {
    return { test: 'Poisson dispersion of annual counts', years: n, mean_count: publish(mean), dispersion_index: null, chi_square: null, degrees_of_freedom: null, p_value: null };
  }
  const ss = counts.reduce((a, c) => a + (c - mean) ** 2, 0);
  const chi = ss / mean;
  return {
    test: 'Poisson dispersion of annual counts: D = s²/mean, χ² = Σ(c − mean)²/mean on n − 1 degrees of freedom, upper-tail p-value',
    years: n,
    mean_count: publish(mean),
    dispersion_index: publish(ss / (n - 1) / mean),
    chi_square: publish(chi),
    degrees_of_freedom: n - 1,
    p_value: publish(regularizedGammaQ((n - 1) / 2, chi / 2)),
  };
}

export function sampleSd(xs: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  return Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
}

// ---------------------------------------------------------------------------------------------
// Simulated annual payouts

export interface SimulationInput {
  readonly rate: number;
  /** Draws one occurrence's value (magnitude, index value). */
  readonly draw: (rng: SeededRandom) => number;
  /** Occurrence payout in money for a value. */
  readonly payout: (x: number) => number;
  readonly basis: 'per_occurrence' | 'term_maximum';
  readonly attachment: number;
  readonly cap: number;
  readonly years: number;
  readonly seed: number;
}

/**
 * Simulated annual payouts: per year N ~ Poisson(rate) occurrences, each a value from `draw`; the
 * year's gross is the sum of the occurrence payouts (cents) or the payout of the largest value
 * (term maximum); annual = min(cap, max(0, gross − attachment)). Mean and sd by Welford's method.
 */
export function simulateAnnualPayouts(input: SimulationInput): AnnualMoments & { standard_error_of_mean: number } {
  if (!Number.isInteger(input.years) || input.years < 2) throw new RangeError(`simulation needs an integer number of years >= 2, got ${input.years}`);
  const rng = seededRandom(input.seed);
  let mean = 0;
  let m2 = 0;
  for (let y = 1; y <= input.years; y++) {
    const n = poissonDraw(rng, input.rate);
    let gross = 0;
    if (input.basis === 'per_occurrence') {
      for (let i = 0; i < n; i++) gross += roundMoney(input.payout(input.draw(rng)));
    } else if (n > 0) {
      let best = -Infinity;
      for (let i = 0; i < n; i++) best = Math.max(best, input.draw(rng));
      gross = roundMoney(input.payout(best));
    }
    const v = netOf(gross, input.attachment, input.cap);
    const d = v - mean;
    mean += d / y;
    m2 += d * (v - mean);
  }
  const sd = Math.sqrt(m2 / (input.years - 1));
  return { mean, standard_deviation: sd, standard_error_of_mean: sd / Math.sqrt(input.years) };
}

// ---------------------------------------------------------------------------------------------
// Frequency–severity over events (designs 1 and 3)

/** Severity above the threshold u (the payout's lowest level). */
export type Severity =
  | { readonly kind: 'gutenberg_richter'; readonly threshold: number; readonly b: number }
  | { readonly kind: 'empirical'; readonly values: readonly number[] };

/** P(X ≥ x) for an occurrence counted in the rate. */
export function severitySurvival(sev: Severity, x: number): number {
  if (sev.kind === 'gutenberg_richter') return x <= sev.threshold ? 1 : 10 ** (-sev.b * (x - sev.threshold));
  let count = 0;
  for (const v of sev.values) if (v >= x) count++;
  return sev.values.length === 0 ? 0 : count / sev.values.length;
}

function severityDraw(sev: Severity): (rng: SeededRandom) => number {
  if (sev.kind === 'gutenberg_richter') {
    const beta = sev.b * LN10;
    return (rng) => sev.threshold - Math.log(rng.uniformOpen()) / beta;
  }
  const values = sev.values;
  return (rng) => values[Math.min(values.length - 1, Math.floor(rng.uniform() * values.length))]!;
}

interface EventAnnual {
  readonly before: number;
  readonly mean: number;
  readonly sd: number;
  readonly method: AnnualMethod;
  readonly description: string;
  readonly simulation: SimulationFacts | null;
}

/**
 * Expected annual payout of Poisson(rate) occurrences with severity `sev`, before and after the
 * annual terms, by the exact route where there is one (see the file header).
 */
export function eventAnnualPayout(s: Structure, rate: number, sev: Severity, params: FittedViewParameters): EventAnnual {
  const { limit, attachment, annual_cap: cap } = s.financial;
  const h = (g: number): number => netOf(g, attachment, cap);
  const basis = s.payout.basis === 'term_maximum' ? 'term_maximum' : 'per_occurrence';
  const steps = ladderSteps(s);

  if (basis === 'term_maximum') {
    // P(annual maximum ≥ x) = 1 − exp(−rate·S(x)); no occurrence pays nothing.
    const pAtLeast = (x: number): number => -Math.expm1(-rate * severitySurvival(sev, x));
    if (s.payout.function === 'ladder' || sev.kind === 'empirical') {
      // The payout of the maximum takes finitely many values: sum over its jumps.
      const points = s.payout.function === 'ladder' ? steps.map((l) => ({ x: l.level, g: limit * l.fraction }))
        : [...new Set(sev.kind === 'empirical' ? sev.values : [])].sort((a, b) => a - b).map((x) => ({ x, g: roundMoney(occurrenceAmount(s, x)) }));
      let before = 0;
      let mean = 0;
      let second = 0;
      let prevG = 0;
      let prevH = 0;
      for (const { x, g } of points) {
        const p = pAtLeast(x);
        const hg = h(g);
        before += (g - prevG) * p;
        mean += (hg - prevH) * p;
        second += (hg * hg - prevH * prevH) * p;
        prevG = g;
        prevH = hg;
      }
      return {
        before, mean, sd: Math.sqrt(Math.max(0, second - mean * mean)), method: 'closed_form', simulation: null,
        description: 'Term maximum: the payout of the year\'s largest occurrence, P(max ≥ x) = 1 − exp(−ν·S(x)) (Poisson occurrences), summed over the payout\'s jumps: E = Σ_j (h_j − h_{j−1})·P(max ≥ x_j), with h the payout net of the annual attachment and at most the annual cap; exact.',
      };
    }
    // Linear payout over Gutenberg–Richter magnitudes: the annual maximum is Gumbel,
    // P(max ≤ x) = exp(−ν·10^(−b(x − u))) = exp(−exp(−(x − μ)/σ)), σ = 1/(b ln10), μ = u + σ ln ν.
    const gr = sev as Extract<Severity, { kind: 'gutenberg_richter' }>;
    const scale = 1 / (gr.b * LN10);
    const gumbel: GevParameters = { location: gr.threshold + scale * Math.log(rate), scale, shape: 0 };
    const breakpoints = payoutBreakpoints(s);
    let before: number;
    if (s.payout.function === 'step_linear') {
      // step × the one-level ladder's closed form limit·P(max ≥ A) + (1 − step) × the linear part's integral.
      const { step, linear } = stepLinearParts(s.payout);
      const linearPart = rate > 0 ? expectedPayout((x) => limit * payoutFraction(linear, x), gumbel, { breakpoints }) : 0;
      before = step * limit * pAtLeast(s.payout.attachment) + (1 - step) * linearPart;
    } else {
      before = rate > 0 ? expectedPayout((x) => occurrenceAmount(s, x), gumbel, { breakpoints }) : 0;
    }
    const mean = rate > 0 ? expectedPayout((x) => h(occurrenceAmount(s, x)), gumbel, { breakpoints }) : 0;
    const second = rate > 0 ? expectedPayout((x) => h(occurrenceAmount(s, x)) ** 2, gumbel, { breakpoints }) : 0;
    return {
      before, mean, sd: Math.sqrt(Math.max(0, second - mean * mean)), method: 'numerical_integration', simulation: null,
      description: `Term maximum over Gutenberg–Richter magnitudes: the annual maximum is Gumbel with location u + σ·ln ν = ${publish(gumbel.location)} and scale σ = 1/(b·ln10) = ${publish(scale)}; E[payout] by expectedPayout (composite Gauss–Legendre in probability, split at the payout's breakpoints).`,
    };
  }

  // Per occurrence.
  let before: number;
  if (s.payout.function === 'ladder') {
    before = ladderExpected(rate, limit, steps, sev);
  } else if (sev.kind === 'gutenberg_richter') {
    const { attachment: A, exhaustion: E } = s.payout;
    before = s.payout.function === 'step_linear'
      // step × a one-level ladder at A paying the whole limit + (1 − step) × the linear A..E.
      ? s.payout.step * ladderExpected(rate, limit, [{ level: A, fraction: 1 }], sev) + (1 - s.payout.step) * grLinearExpected(rate, limit, A, E, sev)
      : grLinearExpected(rate, limit, A, E, sev);
  } else {
    before = rate * sev.values.reduce((a, v) => a + occurrenceAmount(s, v), 0) / Math.max(1, sev.values.length);
  }

  // The annual distribution: exact on the cent lattice when the occurrence payout is discrete.
  let masses: PayoutMass[] | null = null;
  if (sev.kind === 'empirical') {
    masses = sev.values.map((v) => ({ amount: roundMoney(occurrenceAmount(s, v)), probability: 1 / sev.values.length }));
  } else if (s.payout.function === 'ladder') {
    masses = steps.map((l, i) => {
      const next = steps[i + 1];
      const p = severitySurvival(sev, l.level) - (next ? severitySurvival(sev, next.level) : 0);
      return { amount: roundMoney(limit * l.fraction), probability: p };
    });
    const reach = severitySurvival(sev, steps[0]?.level ?? Infinity);
    if (reach < 1) masses.push({ amount: 0, probability: 1 - reach });
  }
  const exact = masses === null ? null : compoundPoissonAnnual(rate, masses, attachment, cap);
  if (exact !== null) {
    return {
      before, mean: exact.mean, sd: exact.standard_deviation, method: 'exact_distribution', simulation: null,
      description: 'Per occurrence: the occurrence payout takes finitely many values, so the year\'s payout min(annual cap, max(0, Σ payouts − attachment)) has an exact compound Poisson distribution, convolved on the cent lattice until the Poisson tail is below 1e−15.',
    };
  }
  const sim = simulateAnnualPayouts({
    rate, draw: severityDraw(sev), payout: (x) => occurrenceAmount(s, x), basis: 'per_occurrence', attachment, cap,
    years: params.simulation_years, seed: params.simulation_seed,
  });
  return {
    before, mean: sim.mean, sd: sim.standard_deviation, method: 'simulation',
    simulation: { years: params.simulation_years, seed: params.simulation_seed, generator: 'xoshiro128** seeded by SplitMix64 (src/domain/stats/random.ts)', standard_error_of_mean: publish(sim.standard_error_of_mean)! },
    description: `Per occurrence with a continuous payout: ${params.simulation_years} years simulated (seed ${params.simulation_seed}); each year N ~ Poisson(ν) by inversion, each occurrence a value drawn from the severity, payouts in cents summed, net of the annual attachment, at most the annual cap.`,
  };
}

/** Per occurrence, a ladder: Σ_k ν·S(L_k)·limit·(f_k − f_{k−1}). */
function ladderExpected(rate: number, limit: number, steps: readonly { level: number; fraction: number }[], sev: Severity): number {
  let out = 0;
  let prev = 0;
  for (const l of steps) {
    out += rate * severitySurvival(sev, l.level) * limit * (l.fraction - prev);
    prev = l.fraction;
  }
  return out;
}

/** Per occurrence, linear from A to E over Gutenberg–Richter magnitudes: limit/(E − A) · ∫_A^E ν·S(x) dx. */
function grLinearExpected(rate: number, limit: number, A: number, E: number, sev: Extract<Severity, { kind: 'gutenberg_richter' }>): number {
  const beta = sev.b * LN10;
  const lo = Math.max(A, sev.threshold);
  // ∫_A^E ν·S(x) dx with S = 1 below u; limit/(E − A) per unit of x.
  const flat = Math.max(0, Math.min(E, sev.threshold) - A);
  const tail = lo < E ? (10 ** (-sev.b * (lo - sev.threshold)) - 10 ** (-sev.b * (E - sev.threshold))) / beta : 0;
  return (rate * limit * (flat + tail)) / (E - A);
}

export function unavailable(design: Structure['design'], method: FittedMethod, description: string, reason: string, sample: Record<string, unknown>, notes: string[] = []): FittedView {
  return {
    design, method, available: false, reason, description, sample, parameters: [], goodness_of_fit: null,
    expected_annual_payout_before_annual_terms: null, expected_annual_payout: null, standard_deviation_annual_payout: null,
    annual_terms: null, notes,
  };
}

export function annualTermsOut(s: Structure, a: EventAnnual | { method: AnnualMethod; description: string; simulation: SimulationFacts | null }): AnnualTermsOut {
  return { method: a.method, description: a.description, attachment: s.financial.attachment, annual_cap: s.financial.annual_cap, simulation: a.simulation };
}
