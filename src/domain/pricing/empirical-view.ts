// Poisson rate × empirical severity, the fitted view of track gates, storm reports and mapped fires
// (fitted-view.ts, view 3): the design's qualifying occurrences in the covered years arrive at a
// Poisson rate, each valued from the observed peaks.

import type { FittedSample } from '../triggers/design.js';
import {
  annualTermsOut, coveredYears, eventAnnualPayout, money, occurrenceAmount, param, poissonDispersion, publish, sampleSd, severitySurvival,
  structureLevels, unavailable, FITTED_VIEW_MINIMUMS, type FittedView, type FittedViewInput, type Severity,
} from './fitted-view.js';
import { roundMoney } from '../triggers/payout.js';

export const EMPIRICAL_DESCRIPTION =
  'Poisson-rate view (DOMAIN.md "Fitted views"): qualifying occurrences (the backtest\'s occurrence rule, value at least the ' +
  'payout\'s lowest level) arrive as a Poisson process at ν = count / T a year, T the covered term-years; each occurrence\'s ' +
  'value is drawn from the empirical distribution of the observed peak values (each observed occurrence equally likely).';

/** What a design hands the Poisson-rate view (fittedSample of src/domain/triggers/design.ts). */
export type EmpiricalSample = Extract<FittedSample, { method: 'poisson_empirical_severity' }>;

/**
 * The Poisson-rate view over a design's qualifying occurrences in the covered years (each design
 * finds its own: storm reports and mapped fires in cat-in-a-box.ts, gate crossings in track-gate.ts).
 */
export function empiricalView(input: FittedViewInput, found: EmpiricalSample): FittedView {
  const { structure: s, artifact, parameters } = input;
  const covered = coveredYears(artifact);
  const exposure = covered.reduce((a, c) => a + c.exposure, 0);
  const { occurrences: list, sample: base, unit } = found;
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
  const levels = structureLevels(s);
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
      ...(found.notes ?? []),
    ],
  };
}

