// Technical prices over the real pinned feeds (the structures issue's acceptance bodies and more):
// the burn is the backtest's own mean annual payout for the same window, and the premium is
// re-derived here from the document's stated parameters in plain arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backtest, GREENVILLE_GUST, load } from '../backtest/support.js';
import { ACCEPTANCE_BODIES, DENVER_HAIL } from '../../support/acceptance.js';
import type { BacktestArtifact } from '../../../src/domain/backtest/artifact.js';
import { validateStructure } from '../../../src/domain/triggers/index.js';
import type { BacktestWindow } from '../../../src/domain/triggers/read.js';
import {
  MINIMUM_COUNTED_YEARS, PRICING_DEFAULTS, technicalPrice, type PriceDocument, type PricingParameters,
} from '../../../src/domain/pricing/technical-price.js';
import { PRICING_MODEL } from '../../../src/kernel/versions.js';
import { STATE_DESIGN_POINTER } from '../../../src/domain/triggers/vocabulary.js';
import type { Result } from '../../../src/kernel/result.js';

// Half away from zero, as the document states (608889.445 is 608889.45, not the binary-noise .44).
const cents = (x: number): number => Math.round(x * 100 + 1e-6) / 100;
const within = (actual: number | null, expected: number, tolerance: number, what: string): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected} ± ${tolerance}`);
};
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

async function price(terms: unknown, window?: BacktestWindow, options?: Partial<PricingParameters>): Promise<{ doc: Result<PriceDocument>; artifact: BacktestArtifact }> {
  const { data, feed, validation } = await load(terms);
  const artifact = await backtest(terms, window);
  return { doc: technicalPrice({ validation, artifact, data, manifest: feed.manifest, feed_class: feed.class, ...(options ? { options } : {}) }), artifact };
}

async function priced(terms: unknown, window?: BacktestWindow, options?: Partial<PricingParameters>): Promise<{ doc: PriceDocument; artifact: BacktestArtifact }> {
  const { doc, artifact } = await price(terms, window, options);
  assert.ok(doc.ok, `refused: ${JSON.stringify((doc as { refusal?: unknown }).refusal)}`);
  return { doc: doc.value, artifact };
}

/**
 * The premium from the stated parameters alone: Z = n/(n + k); EL = Z·burn + (1 − Z)·fitted;
 * σ = Z·s + (1 − Z)·σ_f; risk load λσ; gross (EL + R)/(1 − e); premium max(gross, m·limit); cents
 * at each step.
 */
function rederive(doc: PriceDocument, artifact: BacktestArtifact, limit: number) {
  const p = doc.inputs.parameters;
  const n = artifact.statistics.years;
  const burn = artifact.statistics.mean_annual_payout!;
  const s = artifact.statistics.standard_deviation!;
  const fitted = doc.fitted_view.expected_annual_payout;
  const sf = doc.fitted_view.standard_deviation_annual_payout;
  const z = fitted === null ? 1 : n / (n + p.credibility_k);
  const el = fitted === null ? burn : cents(z * burn + (1 - z) * fitted);
  const sigma = sf === null ? s : cents(z * s + (1 - z) * sf);
  const risk = cents(p.risk_load_lambda * sigma);
  const gross = cents((el + risk) / (1 - p.expense_share));
  const minimum = cents(p.minimum_rate_on_line * limit);
  const premium = Math.max(gross, minimum);
  return { z, el, sigma, risk, gross, expense: gross - el - risk, topUp: premium - gross, premium, rol: premium / limit, multiple: premium / el };
}

function checkDocument(doc: PriceDocument, artifact: BacktestArtifact, limit: number, fitted = true): void {
  // Burn = the backtest's statistics over the same window.
  assert.equal(doc.historical_burn.mean, artifact.statistics.mean_annual_payout);
  assert.equal(doc.historical_burn.standard_deviation, artifact.statistics.standard_deviation);
  assert.equal(doc.historical_burn.standard_error, artifact.statistics.standard_error);
  assert.equal(doc.historical_burn.years_used, artifact.statistics.years);
  assert.deepEqual(doc.historical_burn.years_excluded.map((y) => y.year), artifact.data_coverage.years_missing);
  assert.deepEqual(doc.inputs.window, { from_year: artifact.window.from_year, to_year: artifact.window.to_year });
  // Feed triple, model, statement.
  assert.deepEqual(doc.feed, artifact.feed);
  assert.match(doc.feed.sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(doc.model, PRICING_MODEL);
  assert.match(doc.statement, /^Technical price, not a quote/);
  assert.equal(doc.kind, 'technical_price');
  // Both inputs of the blend shown; the premium re-derived.
  const r = rederive(doc, artifact, limit);
  assert.equal(doc.fitted_view.available, fitted, `fitted view: ${doc.fitted_view.reason}`);
  assert.equal(doc.blend.burn_expected_loss, artifact.statistics.mean_annual_payout);
  assert.equal(doc.blend.fitted_expected_loss, doc.fitted_view.expected_annual_payout);
  within(doc.blend.z, r.z, 1e-11, 'Z');
  within(doc.blend.expected_loss, r.el, 0.011, 'EL');
  within(doc.blend.sigma, r.sigma, 0.011, 'σ');
  const load = (name: string) => doc.loads.find((l) => l.name === name)!;
  within(load('risk_load').amount, r.risk, 0.011, 'risk load');
  within(load('expense_load').amount, r.expense, 0.011, 'expense load');
  within(load('minimum_rate_on_line').amount, r.topUp, 0.011, 'minimum top-up');
  assert.equal(load('risk_load').parameter, doc.inputs.parameters.risk_load_lambda);
  assert.equal(load('expense_load').parameter, doc.inputs.parameters.expense_share);
  assert.equal(load('minimum_rate_on_line').parameter, doc.inputs.parameters.minimum_rate_on_line);
  within(doc.technical_premium.amount, r.premium, 0.011, 'premium');
  within(doc.technical_premium.rate_on_line, r.rol, 1e-9, 'rate on line');
  within(doc.multiple_of_expected_loss, r.multiple, 1e-9, 'multiple of EL');
  // The pieces add up to the premium, to the cent.
  within(doc.blend.expected_loss + doc.loads.reduce((a, l) => a + l.amount, 0), doc.technical_premium.amount, 0.011, 'EL + loads');
  assert.equal(doc.technical_premium.amount, cents(doc.technical_premium.amount), 'premium in cents');
  assert.equal(doc.technical_premium.currency, artifact.currency);
  assert.ok(doc.technical_premium.amount > 0, 'a positive premium');
  assert.ok(doc.assumptions.length > 5, 'assumptions stated');
}

test('earthquake (a): burn = the backtest mean, Gutenberg–Richter fitted view, premium re-derived from the stated parameters', async () => {
  const { doc, artifact } = await priced(ACCEPTANCE_BODIES.earthquake);
  checkDocument(doc, artifact, 10_000_000);
  // 57,500,000 paid over the 121 counted years (1901, from 3 March, is partial and not counted).
  assert.equal(doc.historical_burn.mean, 475_206.61);
  assert.equal(doc.fitted_view.method, 'gutenberg_richter_poisson');
  assert.equal(doc.fitted_view.sample.magnitude_floor, 6);
  assert.deepEqual(doc.inputs.parameters, { ...PRICING_DEFAULTS });
  assert.equal(doc.blend.n, 121);
  assert.equal(doc.blend.k, PRICING_DEFAULTS.credibility_k);
});

test('flood (b) and weather_station (d): extreme-value view on the term maxima of the same covered years', async () => {
  for (const [body, limit] of [[ACCEPTANCE_BODIES.flood, 5_000_000], [ACCEPTANCE_BODIES.weather_station, 2_000_000]] as const) {
    const { doc, artifact } = await priced(body);
    checkDocument(doc, artifact, limit);
    assert.equal(doc.fitted_view.method, 'extreme_value_term_maxima');
    assert.equal(doc.fitted_view.sample.term_maxima, artifact.statistics.years);
    assert.ok(doc.historical_burn.years_excluded.length > 0, 'years without a record are named');
  }
});

test('tropical_cyclone (c) gate and wildfire (e): Poisson rate × empirical severity over the backtest\'s own occurrences', async () => {
  for (const [body, limit] of [[ACCEPTANCE_BODIES.tropical_cyclone, 10_000_000], [ACCEPTANCE_BODIES.wildfire, 5_000_000]] as const) {
    const { doc, artifact } = await priced(body);
    checkDocument(doc, artifact, limit);
    assert.equal(doc.fitted_view.method, 'poisson_empirical_severity');
    // The counted years only: a partial year (payout null) is in neither view.
    const counted = artifact.years.filter((y) => y.payout !== null);
    const occurrences = counted.reduce((a, y) => a + y.occurrences.length, 0);
    assert.equal(doc.fitted_view.sample.qualifying_occurrences, occurrences, 'the same occurrences the backtest pays from');
    // ν·E[payout] before the annual cap = Σ occurrence payouts / covered term-years.
    const gross = counted.reduce((a, y) => a + y.occurrences.reduce((b, o) => b + o.payout, 0), 0);
    within(doc.fitted_view.expected_annual_payout_before_annual_terms, gross / (doc.fitted_view.sample.exposure_years as number), 0.011, 'Σ payouts / T');
  }
});

test('severe convective storm (hail, Denver): seasonal term, annual aggregate attachment and annual limit in both views', async () => {
  const { doc, artifact } = await priced(DENVER_HAIL);
  checkDocument(doc, artifact, 1_000_000);
  assert.equal(doc.fitted_view.method, 'poisson_empirical_severity');
  assert.equal(doc.fitted_view.annual_terms!.method, 'exact_distribution');
  assert.equal(doc.fitted_view.annual_terms!.attachment, 250_000);
  assert.equal(doc.fitted_view.annual_terms!.annual_cap, 1_500_000);
  assert.ok(doc.fitted_view.expected_annual_payout! < doc.fitted_view.expected_annual_payout_before_annual_terms!, 'the annual attachment lowers the fitted EL');
  assert.ok(doc.historical_burn.years_excluded.some((y) => y.year === 1995), '1990-2004 are missing, not zeros');
});

test('the burn is the backtest mean for the window priced (earthquake 1950-2020), not the whole record', async () => {
  const { doc, artifact } = await priced(ACCEPTANCE_BODIES.earthquake, { from_year: 1950, to_year: 2020 });
  // Nine occurrences at or above Mc in 71 years: below the stated minimum for a Gutenberg–Richter
  // view, so the expected loss is the burn alone (Z = 1), the reason stated.
  checkDocument(doc, artifact, 10_000_000, false);
  assert.match(doc.fitted_view.reason!, /9 occurrence\(s\) at or above Mc .*at least 10/);
  assert.equal(doc.blend.z, 1);
  assert.deepEqual(doc.inputs.window, { from_year: 1950, to_year: 2020 });
  assert.equal(doc.historical_burn.years_used, 71);
  assert.notEqual(doc.historical_burn.mean, 475_206.61);
  assert.equal(doc.fitted_view.sample.years_used, 71);
});

test('a linear quake payout with an annual cap: the fitted annual terms are simulated with the stated years and seed', async () => {
  const terms = clone(ACCEPTANCE_BODIES.earthquake) as { trigger: { payout: unknown } };
  terms.trigger.payout = { function: 'linear', attachment: 6.5, exhaustion: 7.5 };
  const { doc, artifact } = await priced(terms);
  checkDocument(doc, artifact, 10_000_000);
  const at = doc.fitted_view.annual_terms!;
  assert.equal(at.method, 'simulation');
  assert.equal(at.simulation!.years, PRICING_DEFAULTS.simulation_years);
  assert.equal(at.simulation!.seed, PRICING_DEFAULTS.simulation_seed);
  assert.ok(at.simulation!.standard_error_of_mean > 0, 'Monte Carlo error stated');
});

test('a structure no year of the record would have paid (a magnitude 9.5 level) is refused: 422 unpriceable_object, 0.00 untested', async () => {
  const terms = clone(ACCEPTANCE_BODIES.earthquake) as { trigger: { payout: unknown } };
  terms.trigger.payout = { function: 'ladder', levels: [{ at_least: 9.5, fraction: 1 }] };
  const { doc, artifact } = await price(terms);
  assert.equal(artifact.statistics.mean_annual_payout, 0);
  assert.ok(!doc.ok, 'refused');
  assert.equal(doc.refusal.status, 422);
  assert.equal(doc.refusal.code, 'unpriceable_object');
  assert.match(doc.refusal.message, /no year of the record would have paid/);
  assert.match(doc.refusal.message, /0\.00/);
  assert.match(doc.refusal.message, /untested/);
});

test('terms without a financial structure are refused as unpriceable_object', async () => {
  const { data, feed } = await load(ACCEPTANCE_BODIES.earthquake);
  const artifact = await backtest(ACCEPTANCE_BODIES.earthquake);
  const terms = clone(ACCEPTANCE_BODIES.earthquake) as Record<string, unknown>;
  delete terms.financial_structure;
  const doc = technicalPrice({ validation: validateStructure(terms), artifact, data, manifest: feed.manifest, feed_class: feed.class });
  assert.ok(!doc.ok, 'refused');
  assert.equal(doc.refusal.code, 'unpriceable_object');
  assert.match(doc.refusal.message, /financial_structure/);
});

test('deterministic: the same object, terms and snapshot give the same document, byte for byte', async () => {
  for (const body of [ACCEPTANCE_BODIES.earthquake, ACCEPTANCE_BODIES.flood, ACCEPTANCE_BODIES.wildfire]) {
    const a = await priced(body);
    const b = await priced(clone(body));
    assert.deepEqual(a.doc, b.doc);
    assert.equal(JSON.stringify(a.doc), JSON.stringify(b.doc));
  }
});

test('options override the defaults and are stated: k = 0 gives Z = 1; a binding minimum rate on line tops the premium up', async () => {
  const { doc, artifact } = await priced(ACCEPTANCE_BODIES.flood, undefined, { credibility_k: 0, minimum_rate_on_line: 0.5 });
  checkDocument(doc, artifact, 5_000_000);
  assert.equal(doc.blend.z, 1);
  assert.equal(doc.blend.expected_loss, artifact.statistics.mean_annual_payout);
  assert.equal(doc.technical_premium.amount, 2_500_000);
  assert.equal(doc.technical_premium.rate_on_line, 0.5);
  assert.ok(doc.loads.find((l) => l.name === 'minimum_rate_on_line')!.amount > 0, 'top-up applied');
  assert.equal(doc.inputs.parameters.credibility_k, 0);
});

test('a seasonal term crossing New Year (weather_station, 1 December to 28 February) prices on the same covered years', async () => {
  const terms = clone(ACCEPTANCE_BODIES.weather_station) as { period: unknown; trigger: { payout: unknown } };
  terms.period = { start: '2026-12-01', end: '2027-02-28' };
  terms.trigger.payout = { function: 'linear', attachment: 40, exhaustion: 100, basis: 'term_maximum' };
  const { doc, artifact } = await priced(terms);
  checkDocument(doc, artifact, 2_000_000);
  assert.equal(doc.fitted_view.sample.term_maxima, artifact.statistics.years);
});

test('when the record cannot carry a fit (earthquake 2000-2022: one occurrence above Mc), Z = 1 and the rule says why', async () => {
  const { doc, artifact } = await priced(ACCEPTANCE_BODIES.earthquake, { from_year: 2000, to_year: 2022 });
  assert.equal(doc.fitted_view.available, false);
  assert.match(doc.fitted_view.reason!, /at least two events/);
  assert.equal(doc.blend.z, 1);
  assert.equal(doc.blend.fitted_expected_loss, null);
  assert.match(doc.blend.rule, /^Z = 1: no fitted view/);
  assert.equal(doc.blend.expected_loss, artifact.statistics.mean_annual_payout);
  assert.equal(doc.blend.sigma, artifact.statistics.standard_deviation);
  const r = rederive(doc, artifact, 10_000_000);
  within(doc.technical_premium.amount, r.premium, 0.011, 'premium');
});

// ---- the record a price needs; a premium below the limit; data quality in the price ----------

/** Fulton County customers out over the pinned Hurricane Helene extract (2024-09-25 to 2024-11-05). */
const FULTON_OUTAGE = {
  peril: { code: 'grid_outage' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'gema-county-outages-13121', version: '2024-11-05' }],
    measurement: { variable: 'customers_out', aggregation: 'max' }, aggregation_window: { duration: 'P1D' },
    payout: { function: 'linear', attachment: 5000, exhaustion: 50000 },
  },
  financial_structure: { currency: 'USD', limit: 1000000, attachment: 0 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};

test('an outage index on one partial year of record is refused (422 unpriceable_object) naming the record length and the minimum', async () => {
  const { doc, artifact } = await price(FULTON_OUTAGE);
  // The year paid on its 42 days (shown), but it is partial: no counted year.
  assert.ok((artifact.years[0]!.payout_on_partial_record as number) > 0);
  assert.equal(artifact.statistics.years, 0);
  assert.ok(!doc.ok);
  assert.equal(doc.refusal.status, 422);
  assert.equal(doc.refusal.code, 'unpriceable_object');
  assert.match(doc.refusal.message, /0 counted years .*at least 10 counted years/);
  assert.match(doc.refusal.message, /2024-09-25 to 2024-11-05/);
  assert.ok(doc.refusal.details!.includes(`record_length: 0 counted years; minimum: ${MINIMUM_COUNTED_YEARS}`));
  assert.ok(doc.refusal.details!.some((d) => /partial_years .*2024/.test(d)));
  // It points to the state design, which has the years the county series lacks.
  assert.ok(doc.refusal.details!.includes(STATE_DESIGN_POINTER));
  assert.match(STATE_DESIGN_POINTER, /customers_affected .*doe-oe417-disturbance-events 2023-12-30 .*2002-2023 \(22 counted years\)/);
});

test('a window of fewer than 10 counted years is refused even where it pays; 10 years are priced', async () => {
  const short = await price(ACCEPTANCE_BODIES.earthquake, { from_year: 1950, to_year: 1958 });
  assert.ok(!short.doc.ok);
  assert.equal(short.artifact.statistics.years, 9);
  assert.ok((short.artifact.statistics.mean_annual_payout ?? 0) > 0, '1952 pays: refused for the record, not for the burn');
  assert.match(short.doc.refusal.message, /9 counted years .*at least 10/);
  const enough = await price(ACCEPTANCE_BODIES.earthquake, { from_year: 1950, to_year: 1959 });
  assert.ok(enough.doc.ok);
  assert.equal(enough.doc.value.record_needed.counted_years, 10);
});

test('a premium whose rate on line would reach 1 is refused, never published', async () => {
  // A rainfall ladder every June-October term reaches: the burn is the whole limit each year.
  const terms = clone(ACCEPTANCE_BODIES.weather_station) as { trigger: { payout: unknown } };
  terms.trigger.payout = { function: 'ladder', levels: [{ at_least: 0, fraction: 1 }], basis: 'term_maximum' };
  const { doc, artifact } = await price(terms);
  assert.equal(artifact.statistics.mean_annual_payout, 2_000_000);
  assert.ok(!doc.ok);
  assert.equal(doc.refusal.code, 'unpriceable_object');
  assert.match(doc.refusal.message, /at least the limit 2000000 USD \(rate on line [0-9.]+\); a rate on line of 1 or more is refused/);
  // Below the limit the same record is priced with a rate on line under 1.
  terms.trigger.payout = { function: 'ladder', levels: [{ at_least: 0, fraction: 0.5 }], basis: 'term_maximum' };
  const half = await priced(terms);
  assert.ok(half.doc.technical_premium.rate_on_line < 1);
});

test('the price lists the excluded observations and partial years exactly as its backtest does', async () => {
  const { doc, artifact } = await priced(GREENVILLE_GUST);
  assert.deepEqual(doc.data_quality.excluded_observations, artifact.data_coverage.excluded_observations);
  assert.deepEqual(doc.data_quality.excluded_observations.filter((o) => o.date.startsWith('2010')).map((o) => [o.date, o.value_si]),
    [['2010-06-29', 80.5], ['2010-07-16', 98.3], ['2010-07-28', 93.9], ['2010-10-26', 89.4]]);
  // 2012 ends on 30 September: 61 of the 183 term days lacking, partial, named and not counted.
  assert.deepEqual((doc.historical_burn.partial_years as { year: number }[]).map((p) => p.year), [2012]);
  assert.equal(doc.historical_burn.years_used, artifact.statistics.years);
  assert.ok(!artifact.years.some((y) => y.year === 2012 && y.payout !== null));
  assert.equal(doc.historical_burn.years_used, 2011 - 1996 + 1);
});
