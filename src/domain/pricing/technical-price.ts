// The technical price of a parametric structure (DOMAIN.md "Technical price"): never a quote.
//
//   burn      μ_b = the backtest's mean annual payout over the window (artifact statistics), s_b its sd
//   fitted    μ_f, σ_f = the fitted view's expected annual payout and sd (fitted-view.ts)
//   blend     Z = n / (n + k) (Bühlmann form, n the years with a record, k stated);
//             EL = Z·μ_b + (1 − Z)·μ_f;  σ = Z·s_b + (1 − Z)·σ_f (the same weights)
//   risk load R = λ·σ (standard-deviation principle)
//   expense   gross G = (EL + R) / (1 − e); the expense load is G − EL − R
//   minimum   premium P = max(G, m × limit) (minimum rate on line m)
//   P / limit is the rate on line; P / EL the multiple of expected loss.
// Every money figure is rounded to cents (half away from zero) before the next step uses it, so
// the document's own figures reproduce the premium by plain arithmetic.
//
// Refused with 422 unpriceable_object (RECORD_NEEDED_TO_PRICE):
// - a record of fewer than MINIMUM_COUNTED_YEARS counted years (complete years: partial years and
//   years without a record are not counted), the message naming the record's length and the minimum;
// - a structure no year of the record would have paid (burn 0.00), as untested;
// - a premium whose rate on line would reach 1 (the premium at least the limit it buys).

import type { BacktestArtifact } from '../backtest/artifact.js';
import type { BacktestStatistics } from '../backtest/statistics.js';
import { roundMoney } from '../triggers/payout.js';
import { faultAnswer, type StructureValidation } from '../triggers/faults.js';
import type { Structure } from '../triggers/terms.js';
import { STATE_DESIGN_POINTER } from '../triggers/vocabulary.js';
import { refusal } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';
import { fittedView } from './fit.js';
import { FITTED_VIEW_RULE, publish, type FittedView, type PricedReplay } from './fitted-view.js';
import { PUBLISHER_FLAG_RULES, QUALITY_RULE_TEXT, type SiObservation } from '../quality.js';
import { PRICING_MODEL } from '../../kernel/versions.js';

/** A burn over n years has standard error s/√n: below this many counted years it is not informative. */
export const MINIMUM_COUNTED_YEARS = 10;

export const RECORD_NEEDED_TO_PRICE =
  `A price needs at least ${MINIMUM_COUNTED_YEARS} counted years in its window: complete years of the pinned record (a year whose term ` +
  'lacks more than 10% of its days is partial and not counted; a year the record lacks is not counted). ' + FITTED_VIEW_RULE + ' ' +
  'A premium whose rate on line would reach 1 (a premium at least the limit) is refused, never published.';

/** Every parameter of the price, with its default. Each is stated in the document. */
export const PRICING_DEFAULTS = {
  /** k of Z = n/(n + k): a record of k years gets half credibility. */
  credibility_k: 25,
  /** λ of the standard-deviation principle: risk load = λ·σ. */
  risk_load_lambda: 0.25,
  /** e, the expense share of the gross premium: premium = (EL + risk load)/(1 − e). */
  expense_share: 0.15,
  /** Minimum rate on line: the premium is at least this share of the limit. */
  minimum_rate_on_line: 0.01,
  /** Years simulated where the annual payout distribution is simulated (a continuous per-occurrence payout). */
  simulation_years: 100_000,
  simulation_seed: 20_270_101,
  /** Parametric-bootstrap replicates (standard errors of an extreme-value fit). */
  bootstrap_replicates: 400,
  bootstrap_seed: 20_270_102,
} as const;

export type PricingParameters = { -readonly [K in keyof typeof PRICING_DEFAULTS]: number };

export const TECHNICAL_PRICE_STATEMENT =
  'Technical price, not a quote: an actuarial estimate of what the structure\'s terms cost over the pinned public record named in ' +
  'feed, under the assumptions and parameters stated here. It is not an offer, a binding quotation or a commitment to cover; the ' +
  'service cannot bind, issue or settle. Analysis and drafts only.';

// ---------------------------------------------------------------------------------------------
// Document

export interface PriceLoad {
  readonly name: 'risk_load' | 'expense_load' | 'minimum_rate_on_line';
  readonly parameter_name: string;
  readonly parameter: number;
  /** In the structure's currency, cents. */
  readonly amount: number;
  readonly basis: string;
}

export interface PriceDocument {
  readonly kind: 'technical_price';
  readonly statement: string;
  readonly model: typeof PRICING_MODEL;
  readonly feed: { readonly feed_id: string; readonly version: string; readonly sha256: string };
  readonly currency: string;
  readonly inputs: {
    readonly structure: Record<string, unknown>;
    readonly window: { readonly from_year: number; readonly to_year: number };
    readonly feed: { readonly feed_id: string; readonly version: string; readonly sha256: string };
    readonly backtest_engine: { readonly name: string; readonly version: string };
    readonly parameters: PricingParameters;
  };
  readonly historical_burn: {
    readonly mean: number;
    readonly standard_deviation: number | null;
    readonly standard_error: number | null;
    readonly years_used: number;
    readonly years_excluded: readonly { readonly year: number; readonly reason: string }[];
    readonly partial_years: readonly unknown[];
    readonly years_paying: number;
    readonly basis: string;
  };
  readonly fitted_view: FittedView;
  readonly blend: {
    readonly rule: string;
    readonly n: number;
    readonly k: number;
    readonly z: number;
    readonly burn_expected_loss: number;
    readonly fitted_expected_loss: number | null;
    readonly expected_loss: number;
    readonly sigma_rule: string;
    readonly burn_standard_deviation: number | null;
    readonly fitted_standard_deviation: number | null;
    readonly sigma: number;
  };
  readonly loads: readonly PriceLoad[];
  readonly technical_premium: {
    readonly amount: number;
    readonly currency: string;
    readonly rate_on_line: number;
    readonly formula: string;
    readonly rounding: string;
  };
  readonly multiple_of_expected_loss: number;
  readonly record_needed: { readonly minimum_counted_years: number; readonly counted_years: number; readonly rule: string };
  readonly data_quality: { readonly rule: string; readonly publisher_flags: readonly string[]; readonly excluded_observations: readonly SiObservation[] };
  readonly assumptions: readonly string[];
}

export interface TechnicalPriceInput extends PricedReplay {
  /**
   * The structure's terms as read once, before the replay (validateStructure, then checkStructure
   * against the feed): never read again here.
   */
  readonly validation: StructureValidation;
  /** Overrides of PRICING_DEFAULTS. */
  readonly options?: Partial<PricingParameters>;
}

// ---------------------------------------------------------------------------------------------

function refuse(message: string, details: readonly string[] = []): Result<never> {
  return refused(refusal(422, 'unpriceable_object', message, details));
}

/** The effective parameters: defaults overridden by options, each checked. */
export function pricingParameters(options: Partial<PricingParameters> = {}): PricingParameters {
  const p: PricingParameters = { ...PRICING_DEFAULTS, ...options };
  const check = (ok: boolean, what: string) => { if (!ok) throw new RangeError(what); };
  check(Number.isFinite(p.credibility_k) && p.credibility_k >= 0, `credibility_k must be finite and >= 0, got ${p.credibility_k}`);
  check(Number.isFinite(p.risk_load_lambda) && p.risk_load_lambda >= 0, `risk_load_lambda must be finite and >= 0, got ${p.risk_load_lambda}`);
  check(p.expense_share >= 0 && p.expense_share < 1, `expense_share must lie in [0, 1), got ${p.expense_share}`);
  check(p.minimum_rate_on_line >= 0 && p.minimum_rate_on_line <= 1, `minimum_rate_on_line must lie in [0, 1], got ${p.minimum_rate_on_line}`);
  check(Number.isInteger(p.simulation_years) && p.simulation_years >= 2, `simulation_years must be an integer >= 2, got ${p.simulation_years}`);
  check(Number.isInteger(p.bootstrap_replicates) && p.bootstrap_replicates >= 2, `bootstrap_replicates must be an integer >= 2, got ${p.bootstrap_replicates}`);
  check(Number.isSafeInteger(p.simulation_seed) && Number.isSafeInteger(p.bootstrap_seed), 'seeds must be safe integers');
  return p;
}


/**
 * The technical price of a structure over its backtest, or the refusal (422 unpriceable_object)
 * when the record is too short, no year of it would have paid, or the premium would reach the
 * limit. Pure and deterministic: the same structure, artifact and data give the same document.
 */
export function technicalPrice(input: TechnicalPriceInput): Result<PriceDocument> {
  const params = pricingParameters(input.options);
  const read = pricedStructure(input.validation);
  if (!read.ok) return read;
  const s = read.value;
  const { artifact } = input;
  const source = s.data_sources[0];
  if (!source || source.feed_id !== artifact.feed.feed_id || source.version !== artifact.feed.version) {
    throw new Error(`the artifact replays ${artifact.feed.feed_id}/${artifact.feed.version}, the structure reads ${source?.feed_id}/${source?.version}`);
  }
  const unpriceable = recordRefusal(artifact, s.financial.currency);
  if (unpriceable) return unpriceable;
  const fitted = fittedView({
    structure: s, artifact, data: input.data, manifest: input.manifest ?? null, feed_class: input.feed_class ?? null,
    parameters: { simulation_years: params.simulation_years, simulation_seed: params.simulation_seed, bootstrap_replicates: params.bootstrap_replicates, bootstrap_seed: params.bootstrap_seed },
  });
  const blend = blendOf(artifact.statistics, fitted, params);
  const premium = premiumOf(blend, s, params);
  if (!premium.ok) return premium;
  return ok(priceDocument(s, artifact, fitted, blend, premium.value, params));
}

/** The structure priced: the terms as read once, or the refusal of terms that cannot be priced. */
function pricedStructure(v: StructureValidation): Result<Structure> {
  if (v.structure) return ok(v.structure);
  const missing = v.shape_faults.filter((f) => f.fault === 'block_missing' && (f.path === 'trigger' || f.path === 'financial_structure'));
  if (missing.length > 0) return refuse(`the object cannot be priced: no ${missing.map((f) => f.path).join(' and no ')}`, missing.map((f) => f.message));
  const answer = faultAnswer(v, 'price')!;
  return refused({ ...answer, code: 'unpriceable_object' });
}

function isCountyOutageIndex(artifact: BacktestArtifact): boolean {
  const s = artifact.structure as { peril?: { code?: string }; trigger?: { design?: string } };
  return s.peril?.code === 'grid_outage' && s.trigger?.design === 'index_series';
}

/** The refusal of a record too short to price, or of a burn of 0.00 (untested); null when the record prices. */
function recordRefusal(artifact: BacktestArtifact, currency: string): Result<never> | null {
  const st = artifact.statistics;
  const window = artifact.window;
  if (st.years < MINIMUM_COUNTED_YEARS) {
    const partial = (artifact.data_coverage.partial_years as { year: number }[] | undefined) ?? [];
    const missing = (artifact.data_coverage.years_missing as number[] | undefined) ?? [];
    const record = artifact.data_coverage.period_of_record as { from: string | null; to: string | null } | undefined;
    return refuse(
      `the record is too short to price: ${st.years} counted year${st.years === 1 ? '' : 's'} of ${artifact.feed.feed_id} ${artifact.feed.version} ` +
      `(period of record ${record?.from ?? '?'} to ${record?.to ?? '?'}, window ${window.from_year} to ${window.to_year}); a price needs at least ${MINIMUM_COUNTED_YEARS} counted years`,
      [
        `record_length: ${st.years} counted year${st.years === 1 ? '' : 's'}; minimum: ${MINIMUM_COUNTED_YEARS}`,
        ...(partial.length > 0 ? [`partial_years (lacking more than 10% of the term, not counted): ${partial.map((p) => p.year).join(', ')}`] : []),
        ...(missing.length > 0 ? [`years_missing (no record): ${missing.length}`] : []),
        // The county outage index has weeks of record; the state design has 22 years.
        ...(isCountyOutageIndex(artifact) ? [STATE_DESIGN_POINTER] : []),
      ],
    );
  }
  if (st.mean_annual_payout === null || st.years === 0 || !(st.mean_annual_payout > 0)) {
    return refuse(
      `no year of the record would have paid: the historical burn over ${st.years} year${st.years === 1 ? '' : 's'} of ${artifact.feed.feed_id} ${artifact.feed.version} ` +
      `(${window.from_year} to ${window.to_year}) is 0.00 ${currency}; a premium of 0.00 is refused as untested`,
      [
        `structure_never_paid: no occurrence in the window reached a paying level of the payout (${JSON.stringify((artifact.structure.trigger as Record<string, unknown>)?.payout ?? null)}) net of the annual terms`,
        `years_used: ${st.years}; years_excluded: ${JSON.stringify((artifact.data_coverage.years_missing as unknown[]) ?? [])}`,
      ],
    );
  }
  return null;
}

type Blend = PriceDocument['blend'];

/** The credibility blend of the burn and the fitted view: the expected loss and σ, each in cents. */
function blendOf(st: BacktestStatistics, fitted: FittedView, params: PricingParameters): Blend {
  const n = st.years;
  const burnMean = st.mean_annual_payout!;
  const burnSd = st.standard_deviation;
  const fittedMean = fitted.available ? fitted.expected_annual_payout : null;
  const fittedSd = fitted.available ? fitted.standard_deviation_annual_payout : null;
  const z = fittedMean === null ? 1 : n / (n + params.credibility_k);
  const el = fittedMean === null ? burnMean : roundMoney(z * burnMean + (1 - z) * fittedMean);
  let sigma: number;
  let sigmaRule: string;
  if (fittedSd !== null && burnSd !== null) {
    sigma = roundMoney(z * burnSd + (1 - z) * fittedSd);
    sigmaRule = 'σ = Z·s_burn + (1 − Z)·σ_fitted: the annual payout standard deviation, credibility-weighted like the expected loss (s_burn with the n − 1 denominator; σ_fitted of the fitted annual payout distribution after the annual terms)';
  } else if (burnSd !== null) {
    sigma = burnSd;
    sigmaRule = 'σ = s_burn, the annual payout standard deviation of the record (n − 1 denominator): no fitted view';
  } else if (fittedSd !== null) {
    sigma = fittedSd;
    sigmaRule = 'σ = σ_fitted: the record has fewer than two years, so it gives no standard deviation';
  } else {
    sigma = 0;
    sigmaRule = 'σ = 0: the record has fewer than two years (no standard deviation) and there is no fitted view, so no risk load can be measured';
  }
  const rule = fittedMean === null
    ? `Z = 1: no fitted view (${fitted.reason}); the expected loss is the historical burn`
    : `Bühlmann credibility: EL = Z·burn + (1 − Z)·fitted with Z = n/(n + k), n = ${n} years with a record, k = ${params.credibility_k} (a record of k years gets half weight)`;
  return {
    rule, n, k: params.credibility_k, z: publish(z)!, burn_expected_loss: burnMean, fitted_expected_loss: fittedMean, expected_loss: el,
    sigma_rule: sigmaRule, burn_standard_deviation: burnSd, fitted_standard_deviation: fittedSd, sigma,
  };
}

interface Premium {
  readonly amount: number;
  readonly loads: readonly PriceLoad[];
}

/** The loads and the premium, each money step in cents; refused when the premium would reach the limit. */
function premiumOf(blend: Blend, s: Structure, params: PricingParameters): Result<Premium> {
  const { limit, currency } = s.financial;
  const { expected_loss: el, sigma } = blend;
  const riskLoad = roundMoney(params.risk_load_lambda * sigma);
  const gross = roundMoney((el + riskLoad) / (1 - params.expense_share));
  const expenseLoad = roundMoney(gross - el - riskLoad);
  const minimum = roundMoney(params.minimum_rate_on_line * limit);
  const premium = Math.max(gross, minimum);
  const topUp = roundMoney(premium - gross);
  // A premium at least the limit buys nothing; it is never published.
  if (premium / limit >= 1) {
    return refuse(
      `the technical premium ${premium} ${currency} would be at least the limit ${limit} ${currency} (rate on line ${publish(premium / limit)}); a rate on line of 1 or more is refused`,
      [`expected_loss: ${el}; risk_load: ${riskLoad}; gross: ${gross}; minimum: ${minimum}`, `rate_on_line: ${publish(premium / limit)}; ceiling: below 1`],
    );
  }
  const loads: PriceLoad[] = [
    {
      name: 'risk_load', parameter_name: 'lambda', parameter: params.risk_load_lambda, amount: riskLoad,
      basis: `standard-deviation principle: λ·σ = ${params.risk_load_lambda} × ${sigma} (σ as stated in blend.sigma_rule)`,
    },
    {
      name: 'expense_load', parameter_name: 'e', parameter: params.expense_share, amount: expenseLoad,
      basis: `a share e of the gross: gross = (EL + risk load)/(1 − e) = (${el} + ${riskLoad})/(1 − ${params.expense_share}) = ${gross}; expense load = gross − EL − risk load`,
    },
    {
      name: 'minimum_rate_on_line', parameter_name: 'minimum_rate_on_line', parameter: params.minimum_rate_on_line, amount: topUp,
      basis: `the premium is at least ${params.minimum_rate_on_line} × limit ${limit} = ${minimum} ${currency}; amount = the top-up above the gross (${topUp > 0 ? 'applied' : 'not binding'})`,
    },
  ];
  return ok({ amount: premium, loads });
}

/** Every assumption the price rests on, in words. */
function assumptionsOf(artifact: BacktestArtifact, fitted: FittedView, blend: Blend, params: PricingParameters): string[] {
  const window = artifact.window;
  return [
    'The pinned record is taken as a sample of the hazard the structure will face: no trend, no climate or reporting adjustment.',
    `The window is ${window.from_year} to ${window.to_year}; years the record lacks are excluded, never filled (historical_burn.years_excluded); partial years (more than 10% of the term lacking) are shown in the backtest and not counted (historical_burn.partial_years).`,
    RECORD_NEEDED_TO_PRICE,
    `Data quality: ${QUALITY_RULE_TEXT} Excluded observations are listed in data_quality.excluded_observations.`,
    'The historical burn is the backtest\'s mean annual payout over the same window: its terms replayed on every covered year (statistics.mean_annual_payout).',
    `The fitted view: ${fitted.description}`,
    ...(fitted.annual_terms ? [`Annual terms in the fitted view: ${fitted.annual_terms.description}`] : []),
    ...fitted.notes,
    blend.rule + '.',
    `Risk load: standard-deviation principle, λ = ${params.risk_load_lambda}; ${blend.sigma_rule}.`,
    `Expense load: a share e = ${params.expense_share} of the gross premium.`,
    `Minimum rate on line ${params.minimum_rate_on_line} of the limit.`,
    'Money is rounded to cents (half away from zero) at each step: EL, σ, risk load, gross, expense load, minimum, premium.',
    'No cost of capital, tax, brokerage or profit beyond the stated loads is included; no counterparty or basis risk is priced.',
  ];
}

/** The price document from its figures. */
function priceDocument(s: Structure, artifact: BacktestArtifact, fitted: FittedView, blend: Blend, premium: Premium, params: PricingParameters): PriceDocument {
  const st = artifact.statistics;
  const { limit, currency } = s.financial;
  const years = artifact.data_coverage.years_missing_detail as { year: number; reason: string }[] | undefined;
  return {
    kind: 'technical_price',
    statement: TECHNICAL_PRICE_STATEMENT,
    model: PRICING_MODEL,
    feed: artifact.feed,
    currency,
    inputs: {
      structure: artifact.structure,
      window: { from_year: artifact.window.from_year, to_year: artifact.window.to_year },
      feed: artifact.feed,
      backtest_engine: { name: artifact.engine.name, version: artifact.engine.version },
      parameters: params,
    },
    historical_burn: {
      mean: blend.burn_expected_loss,
      standard_deviation: blend.burn_standard_deviation,
      standard_error: st.standard_error,
      years_used: blend.n,
      years_excluded: (years ?? []).map((y) => ({ year: y.year, reason: y.reason })),
      partial_years: (artifact.data_coverage.partial_years as unknown[] | undefined) ?? [],
      years_paying: st.years_paying,
      basis: 'the backtest artifact\'s statistics over the same window: mean annual payout Σ payout/n, standard deviation (n − 1), standard error s/√n, net of the annual terms',
    },
    fitted_view: fitted,
    blend,
    loads: premium.loads,
    technical_premium: {
      amount: premium.amount,
      currency,
      rate_on_line: publish(premium.amount / limit)!,
      formula: 'max((EL + λ·σ)/(1 − e), minimum rate on line × limit)',
      rounding: 'to cents, half away from zero, at each step',
    },
    multiple_of_expected_loss: publish(premium.amount / blend.expected_loss)!,
    record_needed: { minimum_counted_years: MINIMUM_COUNTED_YEARS, counted_years: blend.n, rule: RECORD_NEEDED_TO_PRICE },
    data_quality: {
      rule: QUALITY_RULE_TEXT,
      publisher_flags: PUBLISHER_FLAG_RULES,
      excluded_observations: (artifact.data_coverage.excluded_observations as SiObservation[] | undefined) ?? [],
    },
    assumptions: assumptionsOf(artifact, fitted, blend, params),
  };
}
