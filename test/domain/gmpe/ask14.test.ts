// ASK14 against OpenQuake's verification tables (California, abrahamson_2014_test.py): every row,
// every IMT, medians and the total and within-event standard deviations, at OpenQuake's tolerance
// for these tables, 0.1%. The model is configured as the tables were made: California (no regional
// term), mainshocks, Vs30 measured as each row says, z1.0 given per row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask14, ask14MeanZ1Km } from '../../../src/domain/hazard/gmpe/ask14.js';
import { PGA, PGV, sa } from '../../../src/domain/hazard/gmpe/types.js';
import { assertTable } from './support.js';

const model = ask14();
for (const name of ['ASK14_ResMEAN_RegCAL.csv', 'ASK14_ResStdTot_RegCAL.csv', 'ASK14_ResStdPhi_RegCAL.csv']) {
  test(`ASK14 matches ${name} within 0.1%`, async (t) => {
    const check = await assertTable(name, (ctx, imt) => model.predict(ctx, imt), { gsim: 'AbrahamsonEtAl2014', tolerance_percent: 0.1 });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}

// Hand-made contexts (not from a feed): the model's own rules.
const ctx = {
  rupture: { mag: 7, rake: 90, dip: 45, ztor: 2, width: 20, hypo_depth: 10 },
  site: { vs30: 400, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false },
  distances: { rjb: 5, rrup: 8, rx: 10, ry0: 0, rhypo: 12 },
};

test('ASK14: an unknown z1.0 is the California mean for the Vs30 (no soil-depth term)', () => {
  const unknown = model.predict(ctx, sa(2));
  const atMean = model.predict({ ...ctx, site: { ...ctx.site, z1pt0: ask14MeanZ1Km(400) * 1000 } }, sa(2));
  assert.ok(Math.abs(unknown.mean - atMean.mean) < 1e-12);
});

test('ASK14: the hanging-wall term lifts a site over the hanging wall and vanishes on the footwall side', () => {
  const hanging = model.predict(ctx, PGA).mean;
  const footwall = model.predict({ ...ctx, distances: { ...ctx.distances, rx: -10 } }, PGA).mean;
  assert.ok(hanging > footwall);
  // Off the rupture's ends by more than Rx tan(20 deg) + 5 km the taper T5 is zero: no hanging-wall lift.
  const beyondEnd = model.predict({ ...ctx, distances: { ...ctx.distances, ry0: 10 * Math.tan((20 * Math.PI) / 180) + 5 } }, PGA).mean;
  assert.ok(Math.abs(beyondEnd - footwall) < 1e-12);
});

test('ASK14: PGV is supported, sigma comes from tau and phi, and an SA period outside the table is refused', () => {
  const v = model.predict(ctx, PGV);
  assert.ok(Number.isFinite(v.mean) && Math.abs(v.sigma - Math.hypot(v.tau, v.phi)) < 1e-12);
  assert.throws(() => model.predict(ctx, sa(12)), /no coefficients for SA\(12\)/);
});
