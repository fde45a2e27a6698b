// The step-and-linear payout function: its fraction at and around the attachment and the exhaustion
// (values worked by hand here), its identity with a one-level ladder plus a linear payout, the
// shape faults its parameters are refused with, and a backtest over the real California ComCat
// extract checked year by year against a recount of the raw CSV written here (own parsing, box
// test, clustering loop, payout arithmetic and annual cap; no engine helper).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { payoutFraction, stepLinearFraction, stepLinearParts, triggerLevel, type StepLinearPayout } from '../../../src/domain/triggers/payout.js';
import { validateStructure } from '../../../src/domain/triggers/index.js';
import { backtest, checkPaid, closeMoney, csvRecords, DAY, partialTerm, rawText } from '../backtest/support.js';

const P: StepLinearPayout = { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5 };

test('the fraction: 0 below A, the step at A (inclusive), linear to 1 at E, 1 above', () => {
  // By hand: s + (1 − s)(x − A)/(E − A) = 0.25 + 0.75·(x − 6.5)/1.
  const cases: [number, number][] = [
    [5, 0], [6.4, 0], [6.499999, 0],
    [6.5, 0.25], [6.6, 0.325], [7.0, 0.625], [7.2, 0.775], [7.499999, 0.99999925],
    [7.5, 1], [7.8, 1], [9, 1],
  ];
  for (const [x, f] of cases) assert.ok(Math.abs(payoutFraction(P, x) - f) < 1e-12, `fraction(${x}) = ${payoutFraction(P, x)}, by hand ${f}`);
  // The jump at A is the step: just below pays nothing, A itself pays s.
  assert.equal(payoutFraction(P, 6.5 - 1e-9), 0);
  assert.equal(payoutFraction(P, 6.5), 0.25);
  assert.equal(stepLinearFraction(6.5, 0.25, 7.5, 7.5), 1);
  // Occurrences below A are left out before clustering: the trigger level is A.
  assert.equal(triggerLevel(P), 6.5);
  assert.throws(() => stepLinearFraction(6.5, 1, 7.5, 7), RangeError);
  assert.throws(() => stepLinearFraction(6.5, 0.5, 6.5, 7), RangeError);
});

test('step-and-linear = step × a one-level ladder at A + (1 − step) × the linear A..E, at every value', () => {
  const { step, ladder, linear } = stepLinearParts(P);
  assert.deepEqual(ladder, { function: 'ladder', levels: [{ at_least: 6.5, fraction: 1 }] });
  assert.deepEqual(linear, { function: 'linear', attachment: 6.5, exhaustion: 7.5 });
  for (let x = 5.9; x <= 8.1; x += 0.013) {
    const sum = step * payoutFraction(ladder, x) + (1 - step) * payoutFraction(linear, x);
    assert.ok(Math.abs(payoutFraction(P, x) - sum) < 1e-12, `x ${x}`);
  }
  for (const x of [6.5, 7.5]) assert.equal(payoutFraction(P, x), step * payoutFraction(ladder, x) + (1 - step) * payoutFraction(linear, x));
});

const QUAKE_STEP = {
  peril: { code: 'earthquake', region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 } },
  trigger: {
    type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }],
    measurement: { variable: 'magnitude', max_depth_km: 70 }, aggregation_window: { duration: 'P7D' },
    payout: { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5 },
  },
  financial_structure: { currency: 'USD', limit: 10000000, attachment: 0, annual_limit: 6000000 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};

const edit = (path: string, value?: unknown): unknown => {
  const out = JSON.parse(JSON.stringify(QUAKE_STEP)) as Record<string, any>;
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce((o, k) => o[k], out);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return out;
};

test('step-and-linear terms are read; bad parameters are shape faults with their codes', () => {
  const s = validateStructure(QUAKE_STEP).structure!;
  assert.deepEqual(s.payout, { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5, basis: 'per_occurrence' });
  const cases: [string, unknown, string[]][] = [
    ['step 0', edit('trigger.payout.step', 0), ['step_linear_step_out_of_range']],
    ['step 1', edit('trigger.payout.step', 1), ['step_linear_step_out_of_range']],
    ['step below 0', edit('trigger.payout.step', -0.1), ['step_linear_step_out_of_range']],
    ['step above 1', edit('trigger.payout.step', 1.5), ['step_linear_step_out_of_range']],
    ['step not a number', edit('trigger.payout.step', '0.25'), ['step_linear_step_out_of_range']],
    ['step missing', edit('trigger.payout.step'), ['step_linear_step_out_of_range']],
    ['exhaustion at attachment', edit('trigger.payout.exhaustion', 6.5), ['linear_exhaustion_not_above_attachment']],
    ['exhaustion below attachment', edit('trigger.payout.exhaustion', 6.0), ['linear_exhaustion_not_above_attachment']],
    ['attachment missing', edit('trigger.payout.attachment'), ['linear_level_invalid']],
    ['a ladder member on a step_linear', edit('trigger.payout.levels', []), ['unknown_member']],
  ];
  for (const [what, terms, codes] of cases) {
    const v = validateStructure(terms);
    assert.equal(v.structure, null, what);
    assert.deepEqual(v.shape_faults.map((f) => f.fault), codes, what);
  }
  const step = validateStructure(edit('trigger.payout.step', 1.5)).shape_faults[0]!;
  assert.equal(step.path, 'trigger.payout.step');
  assert.match(step.message, /in \(0, 1\)/);
});

interface Row { id: string; t: number; v: number }

test('a step-and-linear backtest over the California ComCat extract matches a recount of the raw CSV, year by year', async () => {
  const artifact = await backtest(QUAKE_STEP);
  // The recount: rows of type earthquake in the box, depth at most 70 km, magnitude at least A.
  const rows: Row[] = [];
  for (const r of csvRecords(rawText('usgs-comcat-m6-california'))) {
    if (r.type !== 'earthquake' || r.mag === '' || r.depth === '') continue;
    const lat = Number(r.latitude), lon = Number(r.longitude), depth = Number(r.depth), mag = Number(r.mag);
    if (lat < 32 || lat > 36 || lon < -121 || lon > -114 || depth > 70 || mag < 6.5) continue;
    rows.push({ id: r.id!, t: Date.parse(r.time!), v: mag });
  }
  rows.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
  // Clusters of 7 days from each cluster's first row; its peak the largest, earliest on ties.
  const clusters: { first: Row; peak: Row }[] = [];
  for (const r of rows) {
    const open = clusters[clusters.length - 1];
    if (open && r.t - open.first.t <= 7 * DAY) { if (r.v > open.peak.v) open.peak = r; } else clusters.push({ first: r, peak: r });
  }
  // Occurrence payout: 10 000 000 × (0.25 + 0.75·(m − 6.5)) below 7.5, the limit from 7.5, in cents;
  // a year pays the sum, at most the annual limit 6 000 000.
  const pays = (m: number): number => Math.round((m >= 7.5 ? 1 : 0.25 + 0.75 * (m - 6.5)) * 10_000_000 * 100) / 100;
  const byYear = new Map<number, number[]>();
  for (const c of clusters) {
    const y = new Date(c.first.t).getUTCFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), c.peak.v]);
  }
  let total = 0;
  let paying = 0;
  let capped = 0;
  for (const year of artifact.years) {
    const peaks = byYear.get(year.year) ?? [];
    const expected = Math.min(6_000_000, peaks.reduce((a, m) => a + pays(m), 0));
    const partial = partialTerm(year.term, { from: '1901-03-03', to: '2022-12-20' });
    if (!partial) { total += expected; if (expected > 0) paying++; }
    if (peaks.reduce((a, m) => a + pays(m), 0) > 6_000_000) capped++;
    checkPaid(year, expected, partial, `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.value), peaks, `peaks ${year.year}`);
  }
  assert.ok(paying > 5, `${paying} years pay`);
  assert.ok(capped >= 1, 'the annual limit binds in some year');
  assert.equal(artifact.statistics.years, 121);
  closeMoney(artifact.statistics.mean_annual_payout, total / 121, 'mean annual payout');
  // 1952 Kern County M7.5 pays the whole limit, cut to the annual limit; an M6.5 year pays exactly the step.
  assert.equal(artifact.years.find((y) => y.year === 1952)!.payout, 6_000_000);
  const atStep = artifact.years.find((y) => (byYear.get(y.year) ?? []).length === 1 && byYear.get(y.year)![0] === 6.5 && y.payout !== null);
  assert.ok(atStep, "a year whose one occurrence peaks at M6.5");
  assert.equal(atStep.payout, 2_500_000, `${atStep.year} pays the step`);
  assert.match(String(artifact.conventions.payout_rule), /^Step-and-linear: .*from 6\.5 \(inclusive\)/);
  assert.deepEqual((artifact.structure as any).trigger.payout, { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5, basis: 'per_occurrence' });
});
