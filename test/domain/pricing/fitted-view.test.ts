// Fitted views on synthetic records built here with known laws, each expected loss checked against
// a closed form or an integral computed independently in the test (own fit arithmetic, own
// distribution functions, own convolution), never against the module's helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BacktestArtifact } from '../../../src/domain/backtest/artifact.js';
import type { TriggerData } from '../../../src/domain/triggers/records.js';
import { replayTerms } from '../backtest/support.js';
import type { FeedFacts, FeedRead } from '../../../src/domain/triggers/feed.js';
import { validateStructure } from '../../../src/domain/triggers/index.js';
import { fittedView } from '../../../src/domain/pricing/fit.js';
import type { Structure } from '../../../src/domain/triggers/terms.js';
import type { QuakeEvent, ReportEvent } from '../../../src/domain/hazard/records.js';
import { seededRandom, type SeededRandom } from '../../../src/domain/stats/random.js';
import { simulateAnnualPayouts, type FittedView } from '../../../src/domain/pricing/fitted-view.js';
import { compoundPoissonAnnual } from '../../../src/domain/stats/compound-poisson.js';
import { regularizedGammaQ } from '../../../src/domain/stats/special-functions.js';
import { PRICING_DEFAULTS } from '../../../src/domain/pricing/technical-price.js';

const DAY = 86_400_000;
const PARAMS = {
  simulation_years: PRICING_DEFAULTS.simulation_years, simulation_seed: PRICING_DEFAULTS.simulation_seed,
  bootstrap_replicates: 200, bootstrap_seed: PRICING_DEFAULTS.bootstrap_seed,
};

const close = (actual: number | null, expected: number, tolerance: number, what: string): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected} ± ${tolerance}`);
};
const paramOf = (view: FittedView, name: string): number => {
  const p = view.parameters.find((x) => x.name === name);
  assert.ok(p && p.value !== null, `parameter ${name}`);
  return p.value;
};

/** Knuth's product-of-uniforms Poisson draw (independent of the module's inversion). */
function poisson(rng: SeededRandom, rate: number): number {
  const limit = Math.exp(-rate);
  let n = 0;
  let p = rng.uniform();
  while (p > limit) { n++; p *= rng.uniform(); }
  return n;
}

function feed(feed_id: string, manifest: FeedFacts): FeedRead {
  return { feed_id, version: '1', sha256: '0'.repeat(64), manifest };
}

function replay(terms: unknown, data: TriggerData, f: FeedRead): { s: Structure; artifact: BacktestArtifact } {
  const v = validateStructure(terms);
  assert.ok(v.structure, JSON.stringify(v.shape_faults));
  const replayed = replayTerms(terms, data, f);
  assert.ok(replayed.ok, JSON.stringify((replayed as { refusal?: unknown }).refusal));
  return { s: v.structure, artifact: replayed.value };
}

// ---- 1. Gutenberg–Richter sample with known a and b -------------------------------------------

const B_TRUE = 1.0;
const RATE_M6 = 2; // binned M >= 6.0 per year: log10 N(>=M) = a − bM with a = log10 2 + 6
const YEARS: [number, number] = [1601, 2000];

/** 400 years of quakes: Poisson(2) a year, magnitude 5.95 + Exp(b ln10) rounded to 0.1, >= 2 days apart. */
function quakeCatalog(): QuakeEvent[] {
  const rng = seededRandom(4242);
  const out: QuakeEvent[] = [];
  for (let y = YEARS[0]; y <= YEARS[1]; y++) {
    const n = Math.min(11, poisson(rng, RATE_M6));
    for (let i = 0; i < n; i++) {
      const m = Math.round((5.95 - Math.log(rng.uniformOpen()) / (B_TRUE * Math.LN10)) * 10) / 10;
      const epoch = Date.UTC(y, 0, 1) + (10 + 30 * i) * DAY + Math.floor(rng.uniform() * DAY);
      const time = new Date(epoch).toISOString();
      out.push({
        event_id: `q${y}-${i}`, time, epoch_ms: epoch, latitude: 35, longitude: -118, depth_km: 10, magnitude: m,
        mag_type: 'mw', type: 'earthquake', net: 'test', status: 'reviewed', line: out.length + 2, fields: {},
      });
    }
  }
  return out;
}

const QUAKES = quakeCatalog();
const QUAKE_FEED = feed('synthetic-quakes', {
  kind: 'event_catalog', perils: ['earthquake'], period_of_record: { from: '1601-01-01', to: '2000-12-31' }, years_missing: [],
  raw: { magnitude_floor: { value: 6.0 } },
});

function quakeTerms(payout: unknown, financial: Record<string, unknown> = {}): unknown {
  return {
    peril: { code: 'earthquake', region: { type: 'box', min_latitude: 30, max_latitude: 40, min_longitude: -125, max_longitude: -110 } },
    trigger: {
      type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'synthetic-quakes', version: '1' }],
      measurement: { variable: 'magnitude' }, aggregation_window: { duration: 'P1D' }, payout,
    },
    financial_structure: { currency: 'USD', limit: 1_000_000, attachment: 0, ...financial },
    period: { start: '2027-01-01', end: '2027-12-31' },
  };
}
const LADDER = { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] };

function quakeView(payout: unknown, financial: Record<string, unknown> = {}): FittedView {
  const terms = quakeTerms(payout, financial);
  const data: TriggerData = { kind: 'quakes', events: QUAKES };
  const { s, artifact } = replay(terms, data, QUAKE_FEED);
  return fittedView({ structure: s, artifact, data, manifest: QUAKE_FEED.manifest, parameters: PARAMS });
}

/** The test's own Aki–Utsu fit: Mc 6.0 (the floor and the mode), b = log10 e / (M̄ − 5.95), rate N/T. */
function ownFit(): { b: number; rate: number; lambda: (m: number) => number } {
  const mags = QUAKES.map((q) => q.magnitude!).filter((m) => m >= 5.99);
  const mean = mags.reduce((a, m) => a + m, 0) / mags.length;
  const b = Math.LOG10E / (mean - 5.95);
  const rate = mags.length / 400;
  return { b, rate, lambda: (m) => rate * 10 ** (-b * (m - 6.0)) };
}

/** Compound Poisson on a lattice of `unit` money: severity units → probability; annual min(cap, max(0, S − att)). */
function ownCompound(rate: number, severity: [number, number][], att: number, cap: number, unit: number): { mean: number; sd: number } {
  const ceiling = att + cap;
  let dist = new Array<number>(ceiling + 1).fill(0);
  dist[0] = 1;
  let mean = 0;
  let second = 0;
  let pN = Math.exp(-rate);
  for (let n = 0; n <= 120; n++) {
    if (n > 0) pN *= rate / n;
    dist.forEach((p, s) => {
      const v = Math.min(cap, Math.max(0, s - att)) * unit;
      mean += pN * p * v;
      second += pN * p * v * v;
    });
    const next = new Array<number>(ceiling + 1).fill(0);
    dist.forEach((p, s) => { for (const [c, q] of severity) next[Math.min(ceiling, s + c)]! += p * q; });
    dist = next;
  }
  return { mean, sd: Math.sqrt(second - mean * mean) };
}

test('Gutenberg–Richter sample (a = log10 2 + 6, b = 1): Mc 6.0, b and λ(m) as the test\'s own Aki–Utsu fit, near the truth', () => {
  const view = quakeView(LADDER);
  assert.equal(view.method, 'gutenberg_richter_poisson');
  assert.equal(view.available, true);
  const own = ownFit();
  assert.equal(paramOf(view, 'mc'), 6.0);
  close(paramOf(view, 'b'), own.b, 1e-9, 'b');
  close(paramOf(view, 'annual_rate_at_mc'), own.rate, 1e-9, 'rate at Mc');
  close(paramOf(view, 'annual_rate_at_lowest_level'), own.lambda(6.5), 1e-9, 'λ(6.5)');
  // Against the law that generated the sample: b within 3 standard errors, the rate within 3 Poisson errors.
  const bSe = view.parameters.find((p) => p.name === 'b')!.standard_error!;
  assert.ok(Math.abs(own.b - B_TRUE) < 3 * bSe, `b ${own.b} vs 1 ± 3·${bSe}`);
  assert.ok(Math.abs(own.rate - RATE_M6) < 3 * Math.sqrt(RATE_M6 / 400), `rate ${own.rate}`);
  assert.equal(view.sample.occurrences_in_covered_terms, QUAKES.length);
  assert.equal(view.sample.exposure_years, 400);
});

test('GR ladder per occurrence: EL before the annual terms = Σ λ(L_k)·limit·(f_k − f_{k−1}); with the cap, the exact compound Poisson distribution', () => {
  const own = ownFit();
  const limit = 1_000_000;
  const closedForm = limit * (0.25 * own.lambda(6.5) + 0.25 * own.lambda(7.0) + 0.5 * own.lambda(7.5));
  const view = quakeView(LADDER);
  close(view.expected_annual_payout_before_annual_terms, closedForm, 0.006, 'Σ λ(L_k)·limit·Δf');
  // The same sum with the generating law: 1e6 · (0.25·2·10^−0.5 + 0.25·2·10^−1 + 0.5·2·10^−1.5) = 239 736.66.
  const truth = limit * (0.25 * 2 * 10 ** -0.5 + 0.25 * 2 * 10 ** -1 + 0.5 * 2 * 10 ** -1.5);
  close(truth, 239_736.66, 0.01, 'hand figure');
  assert.ok(Math.abs(closedForm - truth) / truth < 0.15, `fitted ${closedForm} vs true ${truth}`);

  // Annual cap = the limit (20 units of 50 000): the test's own lattice convolution.
  const nu = own.lambda(6.5);
  const sev: [number, number][] = [
    [5, 1 - own.lambda(7.0) / nu], [10, (own.lambda(7.0) - own.lambda(7.5)) / nu], [20, own.lambda(7.5) / nu],
  ];
  const capped = ownCompound(nu, sev, 0, 20, 50_000);
  assert.equal(view.annual_terms!.method, 'exact_distribution');
  close(view.expected_annual_payout, capped.mean, 0.006, 'capped mean');
  close(view.standard_deviation_annual_payout, capped.sd, 0.006, 'capped sd');
  assert.ok(view.expected_annual_payout! < view.expected_annual_payout_before_annual_terms!, 'the cap lowers the EL');

  // Annual aggregate attachment 200 000 and annual limit 1 500 000.
  const agg = quakeView(LADDER, { attachment: 200_000, annual_limit: 1_500_000 });
  const own2 = ownCompound(nu, sev, 4, 30, 50_000);
  close(agg.expected_annual_payout, own2.mean, 0.006, 'aggregate mean');
  close(agg.standard_deviation_annual_payout, own2.sd, 0.006, 'aggregate sd');
  close(agg.expected_annual_payout_before_annual_terms, closedForm, 0.006, 'before terms unchanged');
  assert.equal(agg.annual_terms!.attachment, 200_000);
  assert.equal(agg.annual_terms!.annual_cap, 1_500_000);
});

test('GR ladder on the term maximum: Σ limit·Δf_k·(1 − exp(−λ(L_k))), closed form', () => {
  const own = ownFit();
  const view = quakeView({ ...LADDER, basis: 'term_maximum' });
  const expected = 1_000_000 * (0.25 * -Math.expm1(-own.lambda(6.5)) + 0.25 * -Math.expm1(-own.lambda(7.0)) + 0.5 * -Math.expm1(-own.lambda(7.5)));
  close(view.expected_annual_payout, expected, 0.006, 'term maximum EL');
  assert.equal(view.annual_terms!.method, 'closed_form');
});

test('GR linear per occurrence: closed form ∫ λ(x) dx, and the seeded simulation of the annual terms agrees with it when the cap cannot bind', () => {
  const own = ownFit();
  const A = 6.5;
  const E = 7.5;
  const linear = { function: 'linear', attachment: A, exhaustion: E };
  // E[Σ payouts] = limit/(E − A) · ∫_A^E λ(x) dx = limit/(E − A) · λ(A)·(1 − 10^(−b(E − A)))/(b ln 10).
  const closedForm = (1_000_000 / (E - A)) * own.lambda(A) * (1 - 10 ** (-own.b * (E - A))) / (own.b * Math.LN10);
  const wide = quakeView(linear, { annual_limit: 100_000_000 });
  close(wide.expected_annual_payout_before_annual_terms, closedForm, 0.006, 'closed form');
  assert.equal(wide.annual_terms!.method, 'simulation');
  const sim = wide.annual_terms!.simulation!;
  assert.equal(sim.years, PRICING_DEFAULTS.simulation_years);
  assert.equal(sim.seed, PRICING_DEFAULTS.simulation_seed);
  assert.ok(Math.abs(wide.expected_annual_payout! - closedForm) < 4 * sim.standard_error_of_mean,
    `simulated ${wide.expected_annual_payout} vs ${closedForm} ± 4·${sim.standard_error_of_mean}`);
  // The default cap (the limit) binds in the years with several occurrences.
  const capped = quakeView(linear);
  assert.ok(capped.expected_annual_payout! < closedForm, 'the cap binds');
  // Same seed, same figures.
  assert.deepEqual(quakeView(linear), capped);
});

test('GR step-and-linear: EL before the annual terms equals the test\'s own numerical integration of the payout over the fitted law, per occurrence and on the term maximum', () => {
  const own = ownFit();
  const [A, s, E, limit] = [6.5, 0.3, 7.5, 1_000_000];
  const stepLinear = { function: 'step_linear', attachment: A, step: s, exhaustion: E };
  const beta = own.b * Math.LN10;
  const g = (x: number): number => limit * (x < A ? 0 : x >= E ? 1 : s + ((1 - s) * (x - A)) / (E - A));

  // Per occurrence: ν(A)·E[g(X)], X = A + Exp(β): ∫_A^E g(x)·β·e^(−β(x − A)) dx by Simpson (20 000
  // intervals, error far below a cent) plus the whole limit times P(X ≥ E).
  const perOccurrence = own.lambda(A) * (simpson((x) => g(x) * beta * Math.exp(-beta * (x - A)), A, E) + limit * Math.exp(-beta * (E - A)));
  const wide = quakeView(stepLinear, { annual_limit: 100_000_000 });
  close(wide.expected_annual_payout_before_annual_terms, perOccurrence, 0.006, 'per occurrence: module vs Simpson');
  // The identity the module uses, read back from the two views it is made of (each rounded to the cent).
  const ladderView = quakeView({ function: 'ladder', levels: [{ at_least: A, fraction: 1 }] }, { annual_limit: 100_000_000 });
  const linearView = quakeView({ function: 'linear', attachment: A, exhaustion: E }, { annual_limit: 100_000_000 });
  close(wide.expected_annual_payout_before_annual_terms,
    s * ladderView.expected_annual_payout_before_annual_terms! + (1 - s) * linearView.expected_annual_payout_before_annual_terms!, 0.011, 'step × ladder + (1 − step) × linear');
  // A continuous payout per occurrence: the annual terms are simulated, and agree when the cap cannot bind.
  assert.equal(wide.annual_terms!.method, 'simulation');
  const sim = wide.annual_terms!.simulation!;
  assert.ok(Math.abs(wide.expected_annual_payout! - perOccurrence) < 4 * sim.standard_error_of_mean,
    `simulated ${wide.expected_annual_payout} vs ${perOccurrence} ± 4·${sim.standard_error_of_mean}`);
  assert.ok(quakeView(stepLinear).expected_annual_payout! < perOccurrence, 'the default cap (the limit) binds');

  // Term maximum: P(max ≤ x) = exp(−λ(x)) for x ≥ A, density λ(x)·β·exp(−λ(x)); E[g(max)] =
  // ∫_A^E g·density dx (Simpson) + limit·P(max ≥ E). The module integrates by Gauss–Legendre in
  // probability: agreement within 1e−6 of the limit.
  const termMax = simpson((x) => g(x) * own.lambda(x) * beta * Math.exp(-own.lambda(x)), A, E) + limit * -Math.expm1(-own.lambda(E));
  const tm = quakeView({ ...stepLinear, basis: 'term_maximum' });
  close(tm.expected_annual_payout_before_annual_terms, termMax, 1, 'term maximum: module vs Simpson');
  close(tm.expected_annual_payout, termMax, 1, 'the cap (the limit) cannot bind on the term maximum');
  assert.equal(tm.annual_terms!.method, 'numerical_integration');
});

// ---- 2. GEV sample with known parameters --------------------------------------------------------

const GEV_TRUE = { location: 100, scale: 20, shape: 0.2 };
const gevQ = (u: number, p: typeof GEV_TRUE): number => p.location + (p.scale * ((-Math.log(u)) ** -p.shape - 1)) / p.shape;
const gevS = (x: number, p: { location: number; scale: number; shape: number }): number => {
  const t = 1 + (p.shape * (x - p.location)) / p.scale;
  if (t <= 0) return p.shape > 0 ? 1 : 0;
  return 1 - Math.exp(-(t ** (-1 / p.shape)));
};
/** Simpson's rule with n (even) intervals. */
function simpson(f: (x: number) => number, a: number, b: number, n = 20_000): number {
  const h = (b - a) / n;
  let sum = f(a) + f(b);
  for (let i = 1; i < n; i++) sum += (i % 2 === 1 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

function gevSeries(): { data: TriggerData; f: FeedRead } {
  const rng = seededRandom(777);
  const days = [];
  for (let y = 1701; y <= 2000; y++) days.push({ date: `${y}-06-01`, value: Math.round(gevQ(rng.uniformOpen(), GEV_TRUE) * 1000) / 1000 });
  return {
    data: { kind: 'series', series: { days, unit: 'mm', variable: 'PRCP', source_id: 'synthetic' } },
    f: { ...feed('synthetic-station-prcp', { kind: 'daily_series', perils: ['weather_station'], period_of_record: { from: '1701-06-01', to: '2000-06-01' }, years_missing: [] }), class: { kind: 'daily_series', series: 'rainfall' } },
  };
}

function indexTerms(financial: Record<string, unknown> = {}): unknown {
  return {
    peril: { code: 'weather_station' },
    trigger: {
      type: 'parametric_index', data_sources: [{ feed_id: 'synthetic-station-prcp', version: '1' }],
      measurement: { variable: 'precipitation', aggregation: 'max', unit: 'mm' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'linear', attachment: 150, exhaustion: 250, basis: 'term_maximum' },
    },
    financial_structure: { currency: 'USD', limit: 1_000_000, attachment: 0, ...financial },
    period: { start: '2027-06-01', end: '2027-06-01' },
  };
}

test('GEV sample (μ 100, σ 20, ξ 0.2): GEV chosen; linear EL = limit/(E − A)·∫_A^E (1 − F) dx by the test\'s own Simpson integral', () => {
  const { data, f } = gevSeries();
  const { s, artifact } = replay(indexTerms(), data, f);
  const view = fittedView({ structure: s, artifact, data, parameters: PARAMS });
  assert.equal(view.method, 'extreme_value_term_maxima');
  assert.equal(paramOf(view, 'distribution_gev'), 1, 'n = 300 and ξ = 0.2 reject Gumbel');
  const fit = { location: paramOf(view, 'location'), scale: paramOf(view, 'scale'), shape: paramOf(view, 'shape') };
  const el = (p: typeof fit) => (1_000_000 / 100) * simpson((x) => gevS(x, p), 150, 250);
  close(view.expected_annual_payout, el(fit), 0.02, 'EL under the fitted law');
  close(view.expected_annual_payout_before_annual_terms, el(fit), 0.02, 'no annual terms bind');
  // Second moment: E[g²] = ∫_A^E 2g(x)g'(x) S(x) dx (g² is flat beyond E).
  const g = (x: number) => (1_000_000 * (x - 150)) / 100;
  const second = simpson((x) => 2 * g(x) * (1_000_000 / 100) * gevS(x, fit), 150, 250);
  close(view.standard_deviation_annual_payout, Math.sqrt(second - el(fit) ** 2), 0.05, 'sd');
  // Against the generating law: the fit within 3 bootstrap standard errors.
  const se = view.parameters.find((p) => p.name === 'expected_annual_payout')!.standard_error!;
  assert.ok(se > 0, 'bootstrap standard error');
  assert.ok(Math.abs(el(fit) - el(GEV_TRUE)) < 3 * se, `EL ${el(fit)} vs true ${el(GEV_TRUE)} ± 3·${se}`);
  for (const name of ['location', 'scale', 'shape'] as const) {
    const p = view.parameters.find((x) => x.name === name)!;
    assert.ok(Math.abs(p.value! - GEV_TRUE[name]) < 3 * p.standard_error!, `${name} ${p.value} ± ${p.standard_error}`);
  }
  const gof = view.goodness_of_fit!;
  assert.ok((gof.probability_plot_correlation as number) > 0.95, 'probability-plot correlation');
  assert.equal(typeof gof.anderson_darling, 'number');
});

test('GEV step-and-linear on the term maximum, with annual attachment and annual limit: E[h] = h(A)·S(A) + ∫ h\'·S by the test\'s own Simpson integral', () => {
  const { data, f } = gevSeries();
  const terms = indexTerms({ attachment: 100_000, annual_limit: 500_000 }) as any;
  terms.trigger.payout = { function: 'step_linear', attachment: 150, step: 0.3, exhaustion: 250, basis: 'term_maximum' };
  const { s, artifact } = replay(terms, data, f);
  const view = fittedView({ structure: s, artifact, data, parameters: PARAMS });
  assert.equal(view.method, 'extreme_value_term_maxima');
  const fit = { location: paramOf(view, 'location'), scale: paramOf(view, 'scale'), shape: paramOf(view, 'shape') };
  // g(x) = 1e6·(0.3 + 0.7·(x − 150)/100) from 150: before the annual terms E[g] = 0.3e6·S(150) + 7000·∫_150^250 S dx.
  const before = 300_000 * gevS(150, fit) + 7_000 * simpson((x) => gevS(x, fit), 150, 250);
  close(view.expected_annual_payout_before_annual_terms, before, 0.02, 'before the annual terms');
  // h = min(500 000, max(0, g − 100 000)): jumps to 200 000 at 150, rises 7 000 a unit, reaches the cap
  // where g = 600 000, x = 150 + 300 000/7 000 = 192.857…; E[h] = 200 000·S(150) + 7 000·∫_150^192.857 S dx.
  const xCap = 150 + 300_000 / 7_000;
  const after = 200_000 * gevS(150, fit) + 7_000 * simpson((x) => gevS(x, fit), 150, xCap);
  close(view.expected_annual_payout, after, 0.02, 'after the annual attachment and limit');
  assert.ok(view.expected_annual_payout! < before);
});

test('GEV with annual attachment and annual limit: h(x) = min(cap, max(0, g − att)) integrated as ∫ h\'·(1 − F)', () => {
  const { data, f } = gevSeries();
  const { s, artifact } = replay(indexTerms({ attachment: 100_000, annual_limit: 500_000 }), data, f);
  const view = fittedView({ structure: s, artifact, data, parameters: PARAMS });
  const fit = { location: paramOf(view, 'location'), scale: paramOf(view, 'scale'), shape: paramOf(view, 'shape') };
  // g(x) = 10 000·(x − 150): g = 100 000 at x = 160, g − att = 500 000 at x = 210.
  const expected = 10_000 * simpson((x) => gevS(x, fit), 160, 210);
  close(view.expected_annual_payout, expected, 0.02, 'EL net of the annual terms');
  assert.ok(view.expected_annual_payout_before_annual_terms! > view.expected_annual_payout!, 'annual terms lower the EL');
});

// ---- 3. Poisson rate × empirical severity ------------------------------------------------------

function hailReport(id: string, date: string, value: number): ReportEvent {
  const epoch = Date.parse(`${date}T18:00:00Z`);
  return {
    kind: 'hail', event_id: id, date, time: new Date(epoch).toISOString(), epoch_ms: epoch, local_time: null, utc_offset: null,
    latitude: 32.8, longitude: -97.0, value, unit: 'in', line: 1, fields: {},
  };
}
const HAIL_DATA: TriggerData = {
  kind: 'reports', unit: 'in',
  events: [
    hailReport('r1', '2011-05-01', 1.5),
    hailReport('r2', '2013-04-10', 2.5),
    hailReport('r3', '2013-06-20', 3.25),
    hailReport('r4', '2014-05-05', 0.75),
    hailReport('r5', '2015-05-05', 1.0),
    hailReport('r6', '2020-04-28', 2.0),
  ],
};
const HAIL_FEED: FeedRead = { ...feed('synthetic-spc-hail-test', { kind: 'storm_report_set', perils: ['severe_convective_storm'], period_of_record: { from: '2011-01-01', to: '2020-12-31' }, years_missing: [] }), class: { kind: 'storm_report_set', report: 'hail' } };
function hailTerms(basis?: string): unknown {
  return {
    peril: { code: 'severe_convective_storm', region: { type: 'box', min_latitude: 32, max_latitude: 34, min_longitude: -98, max_longitude: -96 } },
    trigger: {
      type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'synthetic-spc-hail-test', version: '1' }],
      measurement: { variable: 'hail_diameter', unit: 'in' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'ladder', levels: [{ at_least: 1.0, fraction: 0.2 }, { at_least: 2.0, fraction: 0.6 }, { at_least: 3.0, fraction: 1.0 }], ...(basis ? { basis } : {}) },
    },
    financial_structure: { currency: 'USD', limit: 1_000_000, attachment: 0 },
    period: { start: '2027-01-01', end: '2027-12-31' },
  };
}

test('Poisson × empirical severity, by hand: ν = 5/10, payouts 200k, 200k, 600k, 600k, 1M; EL before the cap 260 000; with the cap the hand series', () => {
  const { s, artifact } = replay(hailTerms(), HAIL_DATA, HAIL_FEED);
  const view = fittedView({ structure: s, artifact, data: HAIL_DATA, manifest: HAIL_FEED.manifest, parameters: PARAMS });
  assert.equal(view.method, 'poisson_empirical_severity');
  assert.equal(artifact.statistics.mean_annual_payout, 200_000); // 200k + min(1M, 1.6M) + 200k + 600k over 10 years
  close(paramOf(view, 'annual_rate'), 0.5, 1e-12, 'ν');
  // ν·E[payout] = 0.5 × (200k + 200k + 600k + 600k + 1M)/5 = 260 000.
  close(view.expected_annual_payout_before_annual_terms, 260_000, 0.005, 'uncapped EL');
  // With the annual cap 1M, by number of occurrences N ~ Poisson(0.5) (severity 200k 0.4, 600k 0.4, 1M 0.2):
  //   N = 1: 0.4·200k + 0.4·600k + 0.2·1M = 520k
  //   N = 2: 0.16·400k + 0.32·800k + (0.16 + 0.36)·1M = 840k
  //   N = 3: 0.064·600k + 0.936·1M = 974.4k
  //   N = 4: 0.0256·800k + 0.9744·1M = 994.88k;  N >= 5: 1M
  const p = (n: number) => (Math.exp(-0.5) * 0.5 ** n) / [1, 1, 2, 6, 24][n]!;
  const tail = 1 - [0, 1, 2, 3, 4].reduce((a, n) => a + p(n), 0);
  const hand = p(1) * 520_000 + p(2) * 840_000 + p(3) * 974_400 + p(4) * 994_880 + tail * 1_000_000;
  close(view.expected_annual_payout, hand, 0.006, 'capped EL by hand');
  assert.equal(view.annual_terms!.method, 'exact_distribution');
  // Goodness of fit lists the observed values; the Poisson dispersion of annual counts (1,0,2,0,1,0,0,0,0,1).
  assert.deepEqual((view.goodness_of_fit!.observed_values as number[]), [1, 1.5, 2, 2.5, 3.25]);
  const disp = view.goodness_of_fit!.poisson_dispersion as Record<string, number>;
  // mean 0.5; Σ(c − 0.5)² = six zeros·0.25 + three ones·0.25 + one two·2.25 = 4.5; χ² = 4.5/0.5 = 9; D = (4.5/9)/0.5 = 1.
  close(disp.chi_square!, 9, 1e-9, 'χ²');
  close(disp.dispersion_index!, 1, 1e-9, 'D');
  close(disp.p_value!, regularizedGammaQ(4.5, 4.5), 1e-12, 'p');
});

test('Poisson × empirical on the term maximum: Σ limit·Δf·(1 − exp(−ν·S(L_k))) by hand', () => {
  const { s, artifact } = replay(hailTerms('term_maximum'), HAIL_DATA, HAIL_FEED);
  const view = fittedView({ structure: s, artifact, data: HAIL_DATA, parameters: PARAMS });
  // S(1.0) = 1, S(2.0) = 3/5, S(3.0) = 1/5; Δf = 0.2, 0.4, 0.4.
  const hand = 1_000_000 * (0.2 * (1 - Math.exp(-0.5)) + 0.4 * (1 - Math.exp(-0.3)) + 0.4 * (1 - Math.exp(-0.1)));
  close(view.expected_annual_payout, hand, 0.006, 'term maximum EL');
});

test('the seeded simulation agrees with the exact compound Poisson distribution within 4 Monte Carlo standard errors', () => {
  const values = [1, 1.5, 2, 2.5, 3.25];
  const pay = (x: number) => (x >= 3 ? 1_000_000 : x >= 2 ? 600_000 : x >= 1 ? 200_000 : 0);
  const exact = compoundPoissonAnnual(0.5, values.map((v) => ({ amount: pay(v), probability: 0.2 })), 100_000, 1_000_000)!;
  const sim = simulateAnnualPayouts({
    rate: 0.5, draw: (rng) => values[Math.floor(rng.uniform() * 5)]!, payout: pay, basis: 'per_occurrence',
    attachment: 100_000, cap: 1_000_000, years: 200_000, seed: 99,
  });
  assert.ok(Math.abs(sim.mean - exact.mean) < 4 * sim.standard_error_of_mean, `${sim.mean} vs ${exact.mean}`);
  assert.ok(Math.abs(sim.standard_deviation - exact.standard_deviation) / exact.standard_deviation < 0.02, 'sd within 2%');
  assert.deepEqual(simulateAnnualPayouts({
    rate: 0.5, draw: (rng) => values[Math.floor(rng.uniform() * 5)]!, payout: pay, basis: 'per_occurrence',
    attachment: 100_000, cap: 1_000_000, years: 200_000, seed: 99,
  }), sim, 'same seed, same figures');
});

test('regularized upper incomplete gamma: Q(1, x) = e^−x, Q(1/2, x) = erfc √x, χ² tail at 2 df', () => {
  for (const x of [0.1, 1, 3, 10]) close(regularizedGammaQ(1, x), Math.exp(-x), 1e-13, `Q(1, ${x})`);
  close(regularizedGammaQ(0.5, 1), 0.15729920705028513, 1e-12, 'erfc(1)');
  // χ² on 10 degrees of freedom: the 5% point is 18.307 (tables), so Q(5, 18.307/2) = 0.05.
  close(regularizedGammaQ(5, 18.307 / 2), 0.05, 1e-4, 'χ² 5% point, 10 df');
  close(regularizedGammaQ(50, 60), 1 - 0.9156, 2e-3, 'Q(50, 60), continued-fraction branch');
});
