// Extreme values of the term maxima, the fitted view of a daily index (fitted-view.ts, view 2): the
// backtest's term maxima of its covered years fitted by L-moments (GEV or Gumbel), the expected
// payout integrated against the fitted law, standard errors by a parametric bootstrap.

import type { YearOut } from '../backtest/artifact.js';
import {
  andersonDarling, expectedPayout, fitGevByLMoments, fitGumbelByLMoments, gevQuantile, gevSurvival, probabilityPlotCorrelation,
  selectExtremeValueFit,
} from '../stats/extreme-value.js';
import { seededRandom } from '../stats/random.js';
import {
  coveredYears, FITTED_VIEW_MINIMUMS, money, netOf, occurrenceAmount, param, payoutBreakpoints, publish, sampleSd, structureLevels,
  unavailable, type FittedView, type FittedViewInput,
} from './fitted-view.js';

const EV_DESCRIPTION =
  'Extreme-value view (DOMAIN.md "Fitted views"): the term maxima of the covered years fitted by L-moments (Hosking 1990) with ' +
  'GEV or Gumbel chosen by selectExtremeValueFit; expected payout = ∫ payout(x) dF(x) by composite Gauss–Legendre in probability, ' +
  'split at the payout\'s breakpoints (attachment, exhaustion, ladder levels, and where the annual attachment and cap bend it).';

export function extremeValueView(input: FittedViewInput): FittedView {
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
  const levels = structureLevels(s);
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
