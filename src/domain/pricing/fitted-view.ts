// Fitted frequency–severity views of a parametric structure's annual payout (DOMAIN.md "Fitted
// views"), priced beside the historical burn of the backtest artifact over the same window.
//
// Three designs, one per kind of record:
//
// 1. Cat-in-a-box on a quake catalog: Gutenberg–Richter. The box's earthquakes (type earthquake, a
//    magnitude, epicentre in the box, the depth rule) are clustered into occurrences by the
//    structure's own occurrence rule (src/domain/occurrence.ts, the structure's aggregation window,
//    no magnitude floor) and the occurrence peaks falling in the window's covered terms are fitted:
//    Mc = max(maximum curvature, the catalog's stated floor), Aki–Utsu b, λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc))
//    with T the covered term-years. Occurrences are Poisson; an occurrence reaching the payout's
//    lowest level u has magnitude u + Exp(b·ln10) (the GR law above u).
// 2. Daily index (basis term_maximum): the per-year term maxima of the artifact's covered years
//    (complete and partial years; a partial year's maximum is read over the windows it has)
//    fitted with selectExtremeValueFit (GEV or Gumbel by L-moments); E[payout] = ∫ payout dF by
//    expectedPayout with breakpoints at the payout's levels and kinks.
// 3. Track gates, storm reports and mapped fires: Poisson rate of qualifying occurrences per
//    covered term-year × the empirical distribution of their peak values. Qualifying = the
//    backtest's own occurrence rule (value at least the payout's lowest level), so the occurrences
//    are exactly the ones the backtest pays from; below that level an occurrence pays nothing.
//
// Annual terms (the annual cap, the annual aggregate attachment) apply to the fitted view too. The
// annual payout distribution is computed exactly wherever it can be: a term maximum has the
// closed-form distribution P(max ≥ x) = 1 − exp(−ν·S(x)); a per-occurrence payout taking finitely
// many values (a ladder, or any payout over an empirical severity) is a compound Poisson sum
// convolved exactly on a cent lattice. Only a continuous per-occurrence payout (a linear payout
// over Gutenberg–Richter magnitudes) is simulated, with the stated number of years and seed.

import type { BacktestArtifact, BacktestData, YearOut } from '../backtest/artifact.js';
import { boxOccurrences, selectQuakes, selectReports } from '../triggers/cat-in-a-box.js';
import { payoutFraction, roundMoney, triggerLevel } from '../triggers/payout.js';
import { classifyFeed, type FeedClass, type FeedFacts, type Structure } from '../triggers/index.js';
import { termYearOf } from '../triggers/term.js';
import { gateCrossings, type GateUnit } from '../triggers/track-gate.js';
import type { Box } from '../geo.js';
import {
  annualExceedanceRate, fitGutenbergRichter, magnitudeBinIndex, MC_TIE_BREAK, type GutenbergRichterFit,
} from '../stats/gutenberg-richter.js';
import {
  andersonDarling, expectedPayout, fitGevByLMoments, fitGumbelByLMoments, gevQuantile, gevSurvival,
  probabilityPlotCorrelation, selectExtremeValueFit, type GevParameters,
} from '../stats/extreme-value.js';
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

export type FittedMethod = 'gutenberg_richter_poisson' | 'extreme_value_term_maxima' | 'poisson_empirical_severity';

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

export interface FittedViewInput {
  /** The normalised structure (validateStructure(...).structure). */
  readonly structure: Structure;
  /** The backtest of that structure over the window priced. */
  readonly artifact: BacktestArtifact;
  /** What the feed readers parsed from the artifact's snapshot. */
  readonly data: BacktestData;
  /** The snapshot's manifest: the quake catalog's magnitude_floor and the feed kind are read from it. */
  readonly manifest?: FeedFacts | null;
  /** What the feed catalog says the feed is; without it only the manifest's kind is read. */
  readonly feed_class?: FeedClass | null;
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

function money(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : roundMoney(x);
}

function param(name: string, value: number | null, standardError: number | null, unit: string | null, note: string | null = null): FittedParameter {
  return { name, value: publish(value), standard_error: publish(standardError), unit, note };
}

/** The annual terms as the backtest applies them: min(cap, max(0, gross − attachment)). */
function netOf(gross: number, attachment: number, cap: number): number {
  return Math.min(cap, Math.max(0, gross - attachment));
}

/** Occurrence payout in money (unrounded): limit × payout fraction. */
function occurrenceAmount(s: Structure, x: number): number {
  return s.financial.limit * payoutFraction(s.payout, x);
}

/** Ladder levels in increasing order with the fraction of the limit each pays (running maximum, as ladderFraction). */
function ladderSteps(s: Structure): { level: number; fraction: number }[] {
  if (s.payout.function !== 'ladder') return [];
  const levels = [...s.payout.levels].sort((a, b) => a.at_least - b.at_least);
  let f = 0;
  return levels.map((l) => ({ level: l.at_least, fraction: (f = Math.max(f, l.fraction)) }));
}

/** Index levels where the payout (after the annual terms) jumps or bends. */
function payoutBreakpoints(s: Structure): number[] {
  if (s.payout.function === 'ladder') return ladderSteps(s).map((l) => l.level);
  const { attachment: A, exhaustion: E } = s.payout;
  const { limit, attachment, annual_cap: cap } = s.financial;
  const at = (money: number): number => A + (money / limit) * (E - A);
  const out = [A, E];
  if (attachment > 0 && attachment < limit) out.push(at(attachment));
  if (attachment + cap < limit) out.push(at(attachment + cap));
  return out;
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

function sampleSd(xs: readonly number[]): number | null {
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
    const before = rate > 0 ? expectedPayout((x) => occurrenceAmount(s, x), gumbel, { breakpoints }) : 0;
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
    before = 0;
    let prev = 0;
    for (const l of steps) {
      before += rate * severitySurvival(sev, l.level) * limit * (l.fraction - prev);
      prev = l.fraction;
    }
  } else if (sev.kind === 'gutenberg_richter') {
    const { attachment: A, exhaustion: E } = s.payout;
    const beta = sev.b * LN10;
    const lo = Math.max(A, sev.threshold);
    // ∫_A^E ν·S(x) dx with S = 1 below u; limit/(E − A) per unit of x.
    const flat = Math.max(0, Math.min(E, sev.threshold) - A);
    const tail = lo < E ? (10 ** (-sev.b * (lo - sev.threshold)) - 10 ** (-sev.b * (E - sev.threshold))) / beta : 0;
    before = (rate * limit * (flat + tail)) / (E - A);
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
    simulation: { years: params.simulation_years, seed: params.simulation_seed, generator: 'xoshiro128** seeded by SplitMix64 (src/domain/random.ts)', standard_error_of_mean: publish(sim.standard_error_of_mean)! },
    description: `Per occurrence with a continuous payout: ${params.simulation_years} years simulated (seed ${params.simulation_seed}); each year N ~ Poisson(ν) by inversion, each occurrence a value drawn from the severity, payouts in cents summed, net of the annual attachment, at most the annual cap.`,
  };
}

function unavailable(design: Structure['design'], method: FittedMethod, description: string, reason: string, sample: Record<string, unknown>, notes: string[] = []): FittedView {
  return {
    design, method, available: false, reason, description, sample, parameters: [], goodness_of_fit: null,
    expected_annual_payout_before_annual_terms: null, expected_annual_payout: null, standard_deviation_annual_payout: null,
    annual_terms: null, notes,
  };
}

function annualTermsOut(s: Structure, a: EventAnnual | { method: AnnualMethod; description: string; simulation: SimulationFacts | null }): AnnualTermsOut {
  return { method: a.method, description: a.description, attachment: s.financial.attachment, annual_cap: s.financial.annual_cap, simulation: a.simulation };
}

// ---------------------------------------------------------------------------------------------
// 1. Gutenberg–Richter for quake boxes

const GR_DESCRIPTION =
  'Gutenberg–Richter frequency–magnitude law fitted to the box\'s earthquake occurrences (DOMAIN.md "Fitted views"): ' +
  'occurrences Poisson in time at λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc)) a year; Aki (1965) maximum-likelihood b with Utsu\'s ' +
  'binning correction at ΔM = 0.1; Mc = max(maximum curvature (Wiemer & Wyss 2000), the catalog\'s stated floor).';

function quakeView(input: FittedViewInput): FittedView {
  const { structure: s, artifact, data, manifest, parameters } = input;
  if (data.kind !== 'quakes') throw new Error('a quake view reads quake data');
  const covered = coveredYears(artifact);
  const used = new Map(covered.map((c) => [c.year.year, c.exposure]));
  const exposure = covered.reduce((a, c) => a + c.exposure, 0);
  const sel = selectQuakes(data.events, { box: s.gate as Box, max_depth_km: s.measurement.max_depth_km, floor: -Infinity });
  const occurrences = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), magnitude: o.peak.value, event_id: o.peak.event_id }))
    .filter((o): o is { year: number; magnitude: number; event_id: string } => o.year !== null && used.has(o.year));
  const floorRaw = (manifest?.raw?.magnitude_floor as { value?: unknown } | undefined)?.value;
  const floor = typeof floorRaw === 'number' && Number.isFinite(floorRaw) ? floorRaw : null;
  const u = triggerLevel(s.payout);
  const sample = {
    earthquakes_selected: sel.rows.length,
    excluded: sel.excluded,
    occurrences_in_covered_terms: occurrences.length,
    years_used: covered.length,
    exposure_years: publish(exposure),
    exposure_rule: 'T = Σ over the counted years of the share of the term the record covers (1 for a fully covered year, days covered / term days for a year lacking at most 10% of its term; partial years are not counted)',
    declustering: `the structure's own occurrence rule over every selected earthquake (no magnitude floor): clustered by time within ${s.aggregation_window!.duration} of each cluster's first event; the fit reads each occurrence's peak magnitude, dated by its first event`,
    magnitude_floor: floor,
  };
  let fit: GutenbergRichterFit;
  try {
    fit = fitGutenbergRichter(occurrences.map((o) => o.magnitude), { years: exposure, ...(floor !== null ? { floorMagnitude: floor } : {}) });
  } catch (error) {
    return unavailable(s.design, 'gutenberg_richter_poisson', GR_DESCRIPTION, `no Gutenberg–Richter fit: ${(error as Error).message}`, sample);
  }
  if (fit.n < FITTED_VIEW_MINIMUMS.occurrences_at_or_above_mc) {
    return unavailable(s.design, 'gutenberg_richter_poisson', GR_DESCRIPTION,
      `${fit.n} occurrence(s) at or above Mc ${fit.mc}; a Gutenberg–Richter view needs at least ${FITTED_VIEW_MINIMUMS.occurrences_at_or_above_mc}`, sample);
  }
  const rate = annualExceedanceRate(fit, u);
  const sev: Severity = { kind: 'gutenberg_richter', threshold: u, b: fit.b };
  const annual = eventAnnualPayout(s, rate, sev, parameters);

  // Uncertainty: b (Shi & Bolt; Aki beside it), the rate at Mc (Poisson √N/T), a by the delta method.
  const rateSe = Math.sqrt(fit.n) / fit.years;
  const aSe = Math.sqrt(1 / (fit.n * LN10 * LN10) + (fit.mc * fit.standardErrorShiBolt) ** 2);
  const levels = [...new Set([fit.mc, ...(s.payout.function === 'ladder' ? ladderSteps(s).map((l) => l.level) : [s.payout.attachment, s.payout.exhaustion])])].sort((a, b) => a - b);
  const observedVsFitted = levels.map((m) => {
    const observed = occurrences.filter((o) => magnitudeBinIndex(o.magnitude, fit.binWidth) >= magnitudeBinIndex(m, fit.binWidth)).length;
    return { magnitude: m, observed_count: observed, observed_annual_rate: publish(observed / exposure), fitted_annual_rate: publish(annualExceedanceRate(fit, m)), fitted_count: publish(annualExceedanceRate(fit, m) * exposure) };
  });
  // Kolmogorov–Smirnov distance on the binned magnitudes at or above Mc: P(bin ≥ Mc + jΔM) = 10^(−b·jΔM).
  const mcBin = magnitudeBinIndex(fit.mc, fit.binWidth);
  const bins = occurrences.map((o) => magnitudeBinIndex(o.magnitude, fit.binWidth)).filter((k) => k >= mcBin);
  let ks = 0;
  const top = Math.max(...bins);
  for (let k = mcBin; k <= top + 1; k++) {
    const empirical = bins.filter((x) => x >= k).length / bins.length;
    ks = Math.max(ks, Math.abs(empirical - 10 ** (-fit.b * (k - mcBin) * fit.binWidth)));
  }
  const countsAtMc = covered.map((c) => occurrences.filter((o) => o.year === c.year.year && magnitudeBinIndex(o.magnitude, fit.binWidth) >= mcBin).length);

  const notes: string[] = [
    'Magnitudes are the catalog\'s preferred magnitudes, of mixed type (magType), read as published.',
    'The law is unbounded above (no maximum magnitude); the largest ladder level\'s rate is the fit\'s extrapolation where the record is thin.',
    `The payout's lowest level u = ${u}; occurrences reaching it arrive at ν = λ(u) = ${publish(rate)} a year with magnitude u + Exp(b·ln10).`,
  ];
  if (u < fit.mc) notes.push(`u = ${u} lies below Mc = ${fit.mc}: λ(u) extrapolates the law below the magnitude the catalog is complete to.`);
  return {
    design: s.design,
    method: 'gutenberg_richter_poisson',
    available: true,
    reason: null,
    description: GR_DESCRIPTION,
    sample,
    parameters: [
      param('b', fit.b, fit.standardErrorShiBolt, null, `maximum likelihood (Aki–Utsu); standard error Shi & Bolt (1982); Aki (1965) b/√N = ${publish(fit.standardErrorAki)}`),
      param('a_annual', fit.aAnnual, aSe, null, 'log10 of the annual rate at M = 0: log10(N(≥Mc)/T) + b·Mc; standard error by the delta method from √N and the b error'),
      param('mc', fit.mc, null, 'magnitude', `completeness: max(maximum curvature ${fit.mcMaxCurvature}, stated floor ${floor ?? 'none'} on the 0.1 grid); tie-break: ${MC_TIE_BREAK}`),
      param('n_at_or_above_mc', fit.n, null, 'occurrences', null),
      param('mean_magnitude_at_or_above_mc', fit.meanMagnitude, null, 'magnitude', null),
      param('exposure_years', fit.years, null, 'years', null),
      param('annual_rate_at_mc', fit.annualRateAtMc, rateSe, 'per year', 'N(≥Mc)/T; standard error √N/T (Poisson)'),
      param('lowest_level', u, null, 'magnitude', 'the payout\'s lowest level u'),
      param('annual_rate_at_lowest_level', rate, null, 'per year', 'λ(u)'),
    ],
    goodness_of_fit: {
      observed_vs_fitted: observedVsFitted,
      kolmogorov_smirnov_binned: publish(ks),
      kolmogorov_smirnov_note: 'largest distance between the empirical and the fitted survival of the binned magnitudes at or above Mc (Mc + jΔM, j = 0, 1, ...); the fit\'s own parameters are used, so textbook critical values do not apply',
      poisson_dispersion: poissonDispersion(countsAtMc),
    },
    expected_annual_payout_before_annual_terms: money(annual.before),
    expected_annual_payout: money(annual.mean),
    standard_deviation_annual_payout: money(annual.sd),
    annual_terms: annualTermsOut(s, annual),
    notes,
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Poisson rate × empirical severity (track gates, storm reports, mapped fires)

const EMPIRICAL_DESCRIPTION =
  'Poisson-rate view (DOMAIN.md "Fitted views"): qualifying occurrences (the backtest\'s occurrence rule, value at least the ' +
  'payout\'s lowest level) arrive as a Poisson process at ν = count / T a year, T the covered term-years; each occurrence\'s ' +
  'value is drawn from the empirical distribution of the observed peak values (each observed occurrence equally likely).';

interface EmpiricalOccurrence { readonly year: number; readonly value: number; readonly id: string }

function empiricalOccurrences(input: FittedViewInput): { list: EmpiricalOccurrence[]; sample: Record<string, unknown>; unit: string } {
  const { structure: s, artifact, data, manifest, feed_class } = input;
  const used = new Set(coveredYears(artifact).map((c) => c.year.year));
  const floor = triggerLevel(s.payout);
  if (data.kind === 'tracks') {
    const unit = (s.measurement.unit ?? 'kt') as GateUnit;
    const crossings = gateCrossings(data.storms, s.gate!, s.term, unit);
    const list = crossings.filter((c) => used.has(c.year) && c.value >= floor).map((c) => ({ year: c.year, value: c.value, id: c.storm_id }));
    return {
      list, unit,
      sample: { storm_years_crossing_gate_in_covered_years: crossings.filter((c) => used.has(c.year)).length, qualifying_occurrences: list.length, minimum_value: floor, unit },
    };
  }
  if (data.kind !== 'reports') throw new Error('an empirical view reads reports or tracks');
  const cls = feed_class ?? classifyFeed(manifest?.kind);
  const sel = selectReports(data.events, { box: s.gate as Box, floor, wildfire_only: cls.kind === 'fire_extract' });
  const list = boxOccurrences(sel.rows, s.aggregation_window!.ms)
    .map((o) => ({ year: termYearOf(s.term, o.first.epoch_ms), value: o.peak.value, id: o.peak.event_id }))
    .filter((o): o is EmpiricalOccurrence => o.year !== null && used.has(o.year));
  const unit = data.unit ?? data.events[0]?.unit ?? '';
  return { list, unit, sample: { rows_selected: sel.rows.length, excluded: sel.excluded, qualifying_occurrences: list.length, minimum_value: floor, unit } };
}

function empiricalView(input: FittedViewInput): FittedView {
  const { structure: s, artifact, parameters } = input;
  const covered = coveredYears(artifact);
  const exposure = covered.reduce((a, c) => a + c.exposure, 0);
  const { list, sample: base, unit } = empiricalOccurrences(input);
  const sample = {
    ...base,
    years_used: covered.length,
    exposure_years: publish(exposure),
    exposure_rule: 'T = Σ over the counted years of the share of the term the record covers (1 for a fully covered year, days covered / term days for a year lacking at most 10% of its term; partial years are not counted)',
  };
  if (list.length === 0) {
    return unavailable(s.design, 'poisson_empirical_severity', EMPIRICAL_DESCRIPTION, 'no qualifying occurrence in the covered years: the empirical severity is empty', sample);
  }
  if (list.length < FITTED_VIEW_MINIMUMS.qualifying_occurrences) {
    return unavailable(s.design, 'poisson_empirical_severity', EMPIRICAL_DESCRIPTION,
      `${list.length} qualifying occurrence(s) in the covered years; a Poisson-rate view needs at least ${FITTED_VIEW_MINIMUMS.qualifying_occurrences}`, sample);
  }
  const values = list.map((o) => o.value).sort((a, b) => a - b);
  const rate = list.length / exposure;
  const sev: Severity = { kind: 'empirical', values };
  const annual = eventAnnualPayout(s, rate, sev, parameters);
  const payouts = values.map((v) => roundMoney(occurrenceAmount(s, v)));
  // Standard error of ν·E[payout] = Σ payouts / T under Poisson: √(Σ payout²) / T.
  const elSe = s.payout.basis === 'term_maximum' ? null : Math.sqrt(payouts.reduce((a, p) => a + p * p, 0)) / exposure;
  const levels = s.payout.function === 'ladder' ? ladderSteps(s).map((l) => l.level) : [s.payout.attachment, s.payout.exhaustion];
  const counts = covered.map((c) => list.filter((o) => o.year === c.year.year).length);
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  return {
    design: s.design,
    method: 'poisson_empirical_severity',
    available: true,
    reason: null,
    description: EMPIRICAL_DESCRIPTION,
    sample,
    parameters: [
      param('annual_rate', rate, Math.sqrt(list.length) / exposure, 'per year', 'qualifying occurrences / T; standard error √count / T (Poisson)'),
      param('occurrences', list.length, null, 'occurrences', null),
      param('exposure_years', exposure, null, 'years', null),
      param('severity_mean', mean, (sampleSd(values) ?? NaN) / Math.sqrt(values.length), unit, 'mean peak value of the qualifying occurrences; standard error s/√count'),
      param('severity_minimum', values[0]!, null, unit, null),
      param('severity_maximum', values[values.length - 1]!, null, unit, null),
      param('expected_annual_payout_before_annual_terms', annual.before, elSe, 'money', s.payout.basis === 'term_maximum' ? 'E[payout of the annual maximum occurrence], before the annual terms' : 'ν·E[occurrence payout] = Σ payouts / T; standard error √(Σ payout²)/T (Poisson)'),
    ],
    goodness_of_fit: {
      severity: 'empirical (no parametric severity is fitted: the observed peak values are the distribution)',
      observed_values: values.map((v) => publish(v)),
      observed_vs_fitted: levels.map((l) => {
        const observed = values.filter((v) => v >= l).length;
        return { level: l, observed_count: observed, observed_annual_rate: publish(observed / exposure), fitted_annual_rate: publish(rate * severitySurvival(sev, l)) };
      }),
      poisson_dispersion: poissonDispersion(counts),
    },
    expected_annual_payout_before_annual_terms: money(annual.before),
    expected_annual_payout: money(annual.mean),
    standard_deviation_annual_payout: money(annual.sd),
    annual_terms: annualTermsOut(s, annual),
    notes: [
      'The severity is the record\'s own: no value beyond the largest observed is ever drawn, so the view adds no tail the record has not shown.',
      'Below the payout\'s lowest level an occurrence pays nothing, so the rate counts only occurrences reaching it; occurrences are clustered exactly as the backtest clusters them.',
      ...(s.design === 'track_gate' ? ['Each storm crossing the gate in a term is one occurrence, valued at its strongest wind inside the gate during the term.'] : []),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Extreme-value view of a daily index's term maxima

const EV_DESCRIPTION =
  'Extreme-value view (DOMAIN.md "Fitted views"): the term maxima of the covered years fitted by L-moments (Hosking 1990) with ' +
  'GEV or Gumbel chosen by selectExtremeValueFit; expected payout = ∫ payout(x) dF(x) by composite Gauss–Legendre in probability, ' +
  'split at the payout\'s breakpoints (attachment, exhaustion, ladder levels, and where the annual attachment and cap bend it).';

function indexView(input: FittedViewInput): FittedView {
  const { structure: s, artifact, parameters } = input;
  const covered = coveredYears(artifact);
  const maxima = covered
    .map((c) => ({ year: c.year.year, record: c.year.record, tm: c.year.term_maximum as { value: number } | null | undefined }))
    .filter((m): m is { year: number; record: YearOut['record']; tm: { value: number } } => m.tm !== null && m.tm !== undefined && Number.isFinite(m.tm.value));
  const xs = maxima.map((m) => m.tm.value);
  const unit = ((artifact.structure.trigger as { measurement?: { unit?: string } } | undefined)?.measurement?.unit) ?? s.measurement.unit ?? '';
  const sample = {
    term_maxima: xs.length,
    years_used: covered.length,
    complete_years: maxima.filter((m) => m.record === 'complete').length,
    partial_years: maxima.filter((m) => m.record === 'partial').map((m) => m.year),
    rule: 'one term maximum per complete year of the window (partial years, lacking more than 10% of the term, are left out as in the burn), in the index unit',
    unit,
  };
  if (xs.length < FITTED_VIEW_MINIMUMS.term_maxima) {
    return unavailable(s.design, 'extreme_value_term_maxima', EV_DESCRIPTION,
      `${xs.length} term maxima of complete years; an extreme-value view needs at least ${FITTED_VIEW_MINIMUMS.term_maxima}`, sample);
  }
  let selection: ReturnType<typeof selectExtremeValueFit>;
  try {
    selection = selectExtremeValueFit(xs);
  } catch (error) {
    return unavailable(s.design, 'extreme_value_term_maxima', EV_DESCRIPTION, `no extreme-value fit: ${(error as Error).message}`, sample);
  }
  const fit = selection.chosen;
  const { limit, attachment, annual_cap: cap } = s.financial;
  const breakpoints = payoutBreakpoints(s);
  const g = (x: number): number => occurrenceAmount(s, x);
  const h = (x: number): number => netOf(g(x), attachment, cap);
  const before = expectedPayout(g, fit, { breakpoints });
  const mean = expectedPayout(h, fit, { breakpoints });
  const second = expectedPayout((x) => h(x) ** 2, fit, { breakpoints });
  const sd = Math.sqrt(Math.max(0, second - mean * mean));

  // Parametric bootstrap: B samples of n maxima from the fitted law, refitted with the same family.
  const rng = seededRandom(parameters.bootstrap_seed);
  const refit = fit.distribution === 'gumbel' ? fitGumbelByLMoments : fitGevByLMoments;
  const boot = { location: [] as number[], scale: [] as number[], shape: [] as number[], el: [] as number[] };
  let failed = 0;
  for (let r = 0; r < parameters.bootstrap_replicates; r++) {
    const sampleR = xs.map(() => gevQuantile(rng.uniformOpen(), fit));
    try {
      const f = refit(sampleR);
      const el = expectedPayout(h, f, { breakpoints });
      if (![f.location, f.scale, f.shape, el].every(Number.isFinite)) { failed++; continue; }
      boot.location.push(f.location);
      boot.scale.push(f.scale);
      boot.shape.push(f.shape);
      boot.el.push(el);
    } catch {
      failed++;
    }
  }
  const bootNote = `parametric bootstrap: ${parameters.bootstrap_replicates} samples of ${xs.length} from the fitted ${fit.distribution} (seed ${parameters.bootstrap_seed}), refitted by L-moments${failed > 0 ? `; ${failed} replicates without a usable fit left out` : ''}`;
  const ad = andersonDarling(xs, fit);
  const levels = s.payout.function === 'ladder' ? ladderSteps(s).map((l) => l.level) : [s.payout.attachment, s.payout.exhaustion];
  return {
    design: s.design,
    method: 'extreme_value_term_maxima',
    available: true,
    reason: null,
    description: EV_DESCRIPTION,
    sample,
    parameters: [
      param('distribution_gev', fit.distribution === 'gev' ? 1 : 0, null, null, `1 = GEV, 0 = Gumbel (ξ = 0); chosen: ${fit.distribution}; rule: ${selection.rule}`),
      param('location', fit.location, sampleSd(boot.location), unit, bootNote),
      param('scale', fit.scale, sampleSd(boot.scale), unit, bootNote),
      param('shape', fit.shape, fit.distribution === 'gev' ? sampleSd(boot.shape) : null, null,
        fit.distribution === 'gev' ? `ξ (DOMAIN.md sign); ${bootNote}` : `ξ = 0 (Gumbel); the GEV fit's ξ̂ = ${publish(selection.gev.shape)} with asymptotic standard error √(0.5633/n) = ${publish(selection.shapeStandardError)}, z = ${publish(selection.z)}`),
      param('l1', fit.lMoments.l1, null, unit, 'sample L-moments'),
      param('l2', fit.lMoments.l2, null, unit, null),
      param('t3', fit.lMoments.t3, null, null, 'L-skewness'),
      param('expected_annual_payout', mean, sampleSd(boot.el), 'money', `standard error by the ${bootNote}`),
    ],
    goodness_of_fit: {
      probability_plot_correlation: publish(probabilityPlotCorrelation(xs, fit)),
      probability_plot_note: 'Filliben (1975) r between the ordered maxima and the fitted quantiles at Gringorten positions',
      anderson_darling: publish(ad),
      anderson_darling_note: Number.isFinite(ad) ? 'A² (Stephens 1974 form) with fitted parameters; textbook critical values do not apply' : 'A² is infinite: a maximum lies outside the fitted support',
      gev_alternative: { location: publish(selection.gev.location), scale: publish(selection.gev.scale), shape: publish(selection.gev.shape) },
      gumbel_alternative: { location: publish(selection.gumbel.location), scale: publish(selection.gumbel.scale), shape: 0 },
      observed_vs_fitted: levels.map((l) => ({
        level: l,
        observed_share_of_years_at_or_above: publish(xs.filter((x) => x >= l).length / xs.length),
        fitted_annual_exceedance_probability: publish(gevSurvival(l, fit)),
      })),
    },
    expected_annual_payout_before_annual_terms: money(before),
    expected_annual_payout: money(mean),
    standard_deviation_annual_payout: money(sd),
    annual_terms: {
      method: 'numerical_integration',
      description: `One payout a year from the term maximum: h(x) = min(annual cap ${cap}, max(0, limit ${limit} × fraction(x) − attachment ${attachment})) integrated against the fitted law (exact to quadrature; no simulation).`,
      attachment, annual_cap: cap, simulation: null,
    },
    notes: [
      'The fit assumes the term maxima are independent and identically distributed from year to year (no trend).',
      ...(fit.distribution === 'gev' && fit.shape > 0 ? ['ξ > 0: a heavy upper tail; an unbounded payout would lean on it, a capped payout less so.'] : []),
    ],
  };
}

// ---------------------------------------------------------------------------------------------

/** The fitted view of a structure's annual payout, by design (see the file header). */
export function fittedView(input: FittedViewInput): FittedView {
  const s = input.structure;
  if (s.design === 'index_series') return indexView(input);
  if (s.design === 'cat_in_a_box' && input.data.kind === 'quakes') return quakeView(input);
  return empiricalView(input);
}
