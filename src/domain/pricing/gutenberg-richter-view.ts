// Gutenberg–Richter frequency–magnitude law, the fitted view of a cat-in-a-box on a quake catalog
// (fitted-view.ts, view 1): the design's occurrence peaks in the covered years, fitted by Aki–Utsu
// maximum likelihood above the magnitude of completeness, occurrences Poisson in time.

import type { FittedSample } from '../triggers/design.js';
import { triggerLevel } from '../triggers/payout.js';
import {
  annualExceedanceRate, fitGutenbergRichter, magnitudeBinIndex, MC_TIE_BREAK, type GutenbergRichterFit,
} from '../stats/gutenberg-richter.js';
import {
  annualTermsOut, coveredYears, eventAnnualPayout, FITTED_VIEW_MINIMUMS, money, param, poissonDispersion, publish, structureLevels,
  unavailable, type FittedView, type FittedViewInput, type Severity,
} from './fitted-view.js';

const LN10 = Math.LN10;

const GR_DESCRIPTION =
  'Gutenberg–Richter frequency–magnitude law fitted to the box\'s earthquake occurrences (DOMAIN.md "Fitted views"): ' +
  'occurrences Poisson in time at λ(m) = (N(≥Mc)/T)·10^(−b(m − Mc)) a year; Aki (1965) maximum-likelihood b with Utsu\'s ' +
  'binning correction at ΔM = 0.1; Mc = max(maximum curvature (Wiemer & Wyss 2000), the catalog\'s stated floor).';

/** What a design hands the Gutenberg–Richter view (fittedSample of src/domain/triggers/design.ts). */
export type GutenbergRichterSample = Extract<FittedSample, { method: 'gutenberg_richter_poisson' }>;

export function gutenbergRichterView(input: FittedViewInput, found: GutenbergRichterSample): FittedView {
  const { structure: s, artifact, parameters } = input;
  const covered = coveredYears(artifact);
  const exposure = covered.reduce((a, c) => a + c.exposure, 0);
  const { occurrences, magnitude_floor: floor } = found;
  const u = triggerLevel(s.payout);
  const sample = {
    ...found.sample,
    years_used: covered.length,
    exposure_years: publish(exposure),
    exposure_rule: 'T = Σ over the counted years of the share of the term the record covers (1 for a fully covered year, days covered / term days for a year lacking at most 10% of its term; partial years are not counted)',
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
  const levels = [...new Set([fit.mc, ...structureLevels(s)])].sort((a, b) => a - b);
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
