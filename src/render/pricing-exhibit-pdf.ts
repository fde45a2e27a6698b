// The pricing exhibit as a broker reads it: the premium and how it is built, step by step, in the
// currency; the parameters with what each means; the burn, the fitted view (its parameters and its
// observed-against-fitted table as tables) and the blend; partial and excluded years as sentences;
// the terms priced in words, then member by member. Every figure is the price run's own, copied.
import { money, triggerWords, type PricingExhibit, type Trigger } from '../domain/packages/pack.js';
import { PAGE, WIDTH, figure, said, share, words, type Writer } from './pdf-writer.js';

/** What each pricing parameter is, and how its value reads. */
const PARAMETERS: Record<string, { readonly name: string; readonly value: (x: number) => string; readonly meaning: string }> = {
  credibility_k: { name: 'credibility k', value: (x) => `${figure(x)} years`, meaning: 'a record of k years gets half weight: Z = n/(n + k)' },
  risk_load_lambda: { name: 'risk load λ', value: figure, meaning: 'risk load = λ × the annual payout standard deviation' },
  expense_share: { name: 'expense share e', value: share, meaning: 'the share of the gross premium kept for expenses' },
  minimum_rate_on_line: { name: 'minimum rate on line', value: share, meaning: 'the premium is at least this share of the limit' },
  simulation_years: { name: 'simulation years', value: figure, meaning: 'years simulated where the annual payout is simulated' },
  simulation_seed: { name: 'simulation seed', value: String, meaning: 'the simulation\'s random seed, so a price can be repeated' },
  bootstrap_replicates: { name: 'bootstrap replicates', value: figure, meaning: 'replicates for the standard errors of an extreme-value fit' },
  bootstrap_seed: { name: 'bootstrap seed', value: String, meaning: 'the bootstrap\'s random seed' },
};

/** The fit's and the annual terms' methods in a broker's words (the exhibit's description says more). */
const METHODS: Record<string, string> = {
  gutenberg_richter_poisson: 'Gutenberg–Richter law, occurrences Poisson in time',
  extreme_value_term_maxima: 'extreme-value fit to the term maxima',
  poisson_empirical_severity: 'Poisson occurrences, empirical severity',
  closed_form: 'closed form',
  exact_distribution: 'exact distribution',
  numerical_integration: 'numerical integration',
  simulation: 'simulation',
};
const method = (m: string): string => METHODS[m] ?? words(m);

const LOADS: Record<string, string> = { risk_load: 'Risk load', expense_load: 'Expense load', minimum_rate_on_line: 'Minimum rate on line top-up' };

interface PartialYear { year: number; term_days?: number; days_covered?: number; missing_share?: number; payout_on_partial_record?: number | null }

/** A partial year in a sentence: how much of its term the record covers, and what it would have paid. */
export function partialYearWords(p: PartialYear, currency: string): string {
  const covered = p.days_covered !== undefined && p.term_days !== undefined
    ? `the record covers ${p.days_covered} of the term's ${p.term_days} days${p.missing_share !== undefined ? ` (${share(p.missing_share)} lacking)` : ''}`
    : 'the record covers only part of the term';
  const paid = p.payout_on_partial_record === undefined ? ''
    : p.payout_on_partial_record === null ? '; what it would have paid is not computable' : `; on its partial record it would have paid ${money(p.payout_on_partial_record, currency)}`;
  return `${p.year}: ${covered}, so it is shown and not counted${paid}.`;
}

export function pricingExhibitPdf(w: Writer, d: PricingExhibit): void {
  const cur = d.technical_premium.currency;
  const terms = d.terms_priced as { financial_structure?: { limit?: number; currency?: string }; trigger?: Trigger; peril?: Record<string, unknown>; period?: { start: string; end: string } };
  const limit = terms.financial_structure?.limit;
  const blend = d.credibility;
  const burn = d.historical_burn;
  // A price stored by an earlier release may lack a member read here: it is left out, never guessed.
  const fitted = { ...d.fitted_view, parameters: d.fitted_view.parameters ?? [], notes: d.fitted_view.notes ?? [], sample: d.fitted_view.sample ?? {} };
  w.heading(d.title);

  w.section('Technical premium');
  w.style('bold', 13).doc.text(`${money(d.technical_premium.amount, cur)}`, PAGE.margin, w.doc.y, { width: WIDTH });
  w.para(`A rate on line of ${share(d.technical_premium.rate_on_line)}${limit !== undefined ? ` of the ${money(limit, cur)} limit` : ''}, ` +
    `${figure(d.multiple_of_expected_loss)} times the expected loss of ${money(blend.expected_loss, cur)}.`, 10);
  w.doc.moveDown(0.3);
  w.para(d.statement, 8);

  w.section('How the premium is built');
  const loads = new Map(d.loads.map((l) => [l.name, l]));
  const rows: string[][] = [
    ['Historical burn: mean annual payout', `${burn.years_used} years with a record`, money(blend.burn_expected_loss, cur)],
    ['Fitted view: expected annual payout', method(fitted.method), blend.fitted_expected_loss == null ? 'not available' : money(blend.fitted_expected_loss, cur)],
    ['Expected loss, credibility-weighted', `Z = ${share(blend.z)} on the burn`, money(blend.expected_loss, cur)],
    ['Annual payout standard deviation σ', 'weighted the same way', money(blend.sigma, cur)],
    ...d.loads.map((l) => [LOADS[l.name] ?? words(l.name), `${l.parameter_name === 'lambda' ? 'λ' : words(l.parameter_name)} = ${l.name === 'risk_load' ? figure(l.parameter) : share(l.parameter)}`, money(l.amount, cur)]),
    ['Technical premium', `rate on line ${share(d.technical_premium.rate_on_line)}`, money(d.technical_premium.amount, cur)],
  ];
  w.table([{ header: 'step', width: 215 }, { header: 'how', width: 150 }, { header: `amount (${cur})`, width: 130, align: 'right' }], rows, 8.5);
  w.doc.moveDown(0.3);
  w.para(`Premium = ${d.technical_premium.formula}; ${d.technical_premium.rounding}.`, 8);
  for (const l of loads.values()) w.para(`${LOADS[l.name] ?? words(l.name)}: ${l.basis}.`, 8);

  w.section('Model and data');
  w.pairs([
    ['model', `${d.model.name} ${d.model.version}`],
    ['backtest engine', `${d.backtest_engine.name} ${d.backtest_engine.version}`],
    ['price run', d.price_id],
    ...d.feeds_read.map((f): [string, string] => ['feed read', `${f.feed_id}, version ${f.version}; SHA-256 ${f.sha256}`]),
    ['window', `${d.window.from_year} to ${d.window.to_year}`],
  ]);

  w.section('Parameters');
  w.table([{ header: 'parameter', width: 120 }, { header: 'value', width: 75, align: 'right' }, { header: 'what it does', width: 300 }],
    Object.entries(d.parameters).map(([k, v]) => {
      const p = PARAMETERS[k];
      return p ? [p.name, p.value(v), p.meaning] : [words(k), said(k, v, null), ''];
    }), 8);

  w.section('Historical burn');
  w.pairs([
    ['mean annual payout', money(burn.mean, cur)],
    ['standard deviation', burn.standard_deviation == null ? '—' : money(burn.standard_deviation, cur)],
    ['standard error', burn.standard_error == null ? '—' : money(burn.standard_error, cur)],
    ['years used', `${burn.years_used}, of which ${burn.years_paying} paid`],
  ]);
  w.para(`Basis: ${burn.basis}.`, 8);
  w.subsection('Years left out');
  if ((burn.years_excluded ?? []).length === 0) w.para('No year of the window was excluded.', 8);
  for (const y of burn.years_excluded ?? []) w.bullet(`${y.year}: ${y.reason}.`);
  w.subsection('Partial years');
  if ((burn.partial_years ?? []).length === 0) w.para('No year of the window is partial.', 8);
  for (const p of (burn.partial_years ?? []) as PartialYear[]) w.bullet(partialYearWords(p, cur));

  w.section(`Fitted view: ${method(fitted.method)}`);
  if (fitted.description) w.para(fitted.description, 8);
  if (!fitted.available) w.para(`Not available: ${fitted.reason ?? 'the data cannot carry the fit'}. The expected loss is the burn alone.`, 9);
  w.pairs([
    ['expected annual payout before the annual terms', fitted.expected_annual_payout_before_annual_terms == null ? '—' : money(fitted.expected_annual_payout_before_annual_terms, cur)],
    ['expected annual payout', fitted.expected_annual_payout == null ? '—' : money(fitted.expected_annual_payout, cur)],
    ['annual payout standard deviation', fitted.standard_deviation_annual_payout == null ? '—' : money(fitted.standard_deviation_annual_payout, cur)],
  ]);
  if (fitted.parameters.length > 0) {
    w.subsection('Parameters of the fit');
    w.table([{ header: 'parameter', width: 150 }, { header: 'value', width: 90, align: 'right' }, { header: 'standard error', width: 90, align: 'right' }, { header: 'unit', width: 165 }],
      fitted.parameters.map((p) => [words(p.name), p.value == null ? '—' : figure(p.value), p.standard_error == null ? '—' : figure(p.standard_error), p.unit ?? '']), 8);
    for (const p of fitted.parameters) if (p.note) w.para(`${words(p.name)}: ${p.note}.`, 7.5);
  }
  if (Object.keys(fitted.sample).length > 0) {
    w.subsection('What the fit read');
    w.stated(fitted.sample as Record<string, unknown>, cur);
  }
  if (fitted.goodness_of_fit) {
    w.subsection('Goodness of fit');
    w.stated(fitted.goodness_of_fit as Record<string, unknown>, null);
  }
  if (fitted.annual_terms) {
    const a = fitted.annual_terms;
    w.subsection(`Annual terms: ${method(a.method)}`);
    w.para(a.description, 8);
    w.pairs([['attachment', money(a.attachment, cur)], ['annual cap', money(a.annual_cap, cur)]]);
    if (a.simulation) w.stated(a.simulation as unknown as Record<string, unknown>, cur);
  }
  if (fitted.notes.length > 0) {
    w.subsection('Notes');
    for (const n of fitted.notes) w.bullet(n);
  }

  w.section('Credibility blend');
  w.table([{ header: '', width: 170 }, { header: 'burn', width: 105, align: 'right' }, { header: 'fitted view', width: 105, align: 'right' }, { header: 'blended', width: 115, align: 'right' }], [
    ['weight', share(blend.z), blend.fitted_expected_loss == null ? '—' : share(1 - blend.z), '100%'],
    ['expected annual loss', money(blend.burn_expected_loss, cur), blend.fitted_expected_loss == null ? '—' : money(blend.fitted_expected_loss, cur), money(blend.expected_loss, cur)],
    ['annual standard deviation', blend.burn_standard_deviation == null ? '—' : money(blend.burn_standard_deviation, cur), blend.fitted_standard_deviation == null ? '—' : money(blend.fitted_standard_deviation, cur), money(blend.sigma, cur)],
  ], 8.5);
  w.doc.moveDown(0.3);
  w.para(`${blend.rule}.`, 8);
  w.para(`${blend.sigma_rule}.`, 8);

  w.section('Record needed and data quality');
  w.pairs([
    ['counted years', `${d.record_needed.counted_years} (at least ${d.record_needed.minimum_counted_years} needed)`],
    ['excluded observations', d.data_quality.excluded_observations.length === 0 ? 'none' : String(d.data_quality.excluded_observations.length)],
  ]);
  if (d.data_quality.excluded_observations.length > 0) w.records(d.data_quality.excluded_observations as unknown as Record<string, unknown>[], null);
  w.para(d.record_needed.rule, 8);
  w.subsection('Publisher quality flags read');
  if (d.data_quality.publisher_flags.length === 0) w.para('None.', 8);
  for (const f of d.data_quality.publisher_flags) w.bullet(f.replace(/\.$/, '') + '.');

  w.section('Assumptions');
  for (const a of d.assumptions) w.bullet(a);

  w.section('Terms priced');
  const fs = terms.financial_structure;
  if (terms.trigger && fs?.limit !== undefined && fs.currency) {
    for (const line of triggerWords(terms.trigger, terms.peril, fs.currency, fs.limit)) w.bullet(line, 8.5);
  }
  if (terms.period) w.bullet(`Period: ${terms.period.start} to ${terms.period.end}.`, 8.5);
  w.subsection('The terms member by member');
  w.stated(d.terms_priced, fs?.currency ?? cur);
}
