// BSSA14 against OpenQuake's verification tables (from D. M. Boore's own Fortran code, per
// OpenQuake's test driver): every row, every IMT. Tolerance as OpenQuake's boore_2014_test.py:
// 2.0% on medians, 1.0% on standard deviations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bssa14 } from '../../../src/domain/hazard/gmpe/bssa14.js';
import { PGA, sa } from '../../../src/domain/hazard/gmpe/types.js';
import { assertTable } from './support.js';

const global = bssa14('global');
const california = bssa14('california');
const GSIM = 'BooreEtAl2014';

for (const [name, tol] of [['BSSA_2014_MEAN.csv', 2.0], ['BSSA_2014_TOTAL_STD.csv', 1.0], ['BSSA_2014_INTER_STD.csv', 1.0], ['BSSA_2014_INTRA_STD.csv', 1.0]] as const) {
  test(`BSSA14 (no basin term) matches ${name} within ${tol}%`, async (t) => {
    const check = await assertTable(name, (ctx, imt) => global.predict(ctx, imt), { gsim: GSIM, tolerance_percent: tol });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}

for (const [name, tol] of [['BSSA_2014_CALIFORNIA_MEAN.csv', 2.0], ['BSSA_2014_CALIFORNIA_TOTAL_STD.csv', 1.0]] as const) {
  test(`BSSA14 California (basin term over z1) matches ${name} within ${tol}%`, async (t) => {
    const check = await assertTable(name, (ctx, imt) => california.predict(ctx, imt), { gsim: GSIM, tolerance_percent: tol });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}

test('BSSA14 refuses an IMT its table does not hold, and answers sigma from tau and phi', () => {
  const ctx = {
    rupture: { mag: 6.5, rake: 0, dip: 90, ztor: 0, width: 10, hypo_depth: 8 },
    site: { vs30: 760, vs30measured: true, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false },
    distances: { rjb: 10, rrup: 10, rx: 10, ry0: 0, rhypo: 12 },
  };
  assert.throws(() => global.predict(ctx, sa(12)), /no coefficients for SA\(12\)/);
  const gm = global.predict(ctx, PGA);
  assert.ok(Math.abs(gm.sigma - Math.hypot(gm.tau, gm.phi)) < 1e-12);
});
