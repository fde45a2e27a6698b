// CY14 against OpenQuake's verification tables (NGA/CY14, OpenSHA-derived, and OpenQuake's own
// extended tables): every row, every IMT, at the tolerance OpenQuake's chiou_youngs_2014_test.py
// uses for each table. The model is configured as each table was made: default (California)
// coefficients; the PEER variant (total sigma 0.65); the near-fault directivity table with its
// centred DPP column (dist_rcdpp, read into Distances.rcdpp); the Japan, Italy and Wenchuan variants.
// Two conventions the tables carry: PSA at periods up to 0.3 s is not taken below PGA, and a z1.0
// of 0 is read as not given (no sediment term), as cy14_extended_table_mean (0.001%) requires. The
// regional tables, made by an earlier OpenQuake, take z1.0 = 0 literally; their rows at z1.0 = 0
// are therefore up to 0.9% apart here, inside those tables' own 1% tolerance (asserted, not skipped);
// every other row of them matches to 0.001%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cy14, cy14MeanZ1M } from '../../../src/domain/hazard/gmpe/cy14.js';
import { PGA, sa } from '../../../src/domain/hazard/gmpe/types.js';
import { checkTable } from '../../../src/domain/hazard/gmpe/verification.js';
import { assertTable, table } from './support.js';

const model = cy14();
const GSIM = 'ChiouYoungs2014';

for (const [name, tol] of [
  ['CY14_MEDIAN_MS_HW_SS.csv', 0.05], ['CY14_MEDIAN_MS_HW_RV.csv', 0.05], ['CY14_MEDIAN_MS_HW_NM.csv', 0.05],
  ['CY14_INTER_EVENT_SIGMA.csv', 0.05], ['CY14_INTRA_EVENT_SIGMA.csv', 0.05], ['CY14_TOTAL_EVENT_SIGMA.csv', 0.05],
  ['cy14_extended_table_mean.csv', 0.001], ['cy14_extended_table_total_stddev.csv', 0.001],
] as const) {
  test(`CY14 matches ${name} within ${tol}%`, async (t) => {
    const gsim = name.startsWith('CY14_MEDIAN_MS_HW') ? 'ChiouYoungs2014 (also ChiouYoungs2014PEER)' : GSIM;
    const check = await assertTable(name, (ctx, imt) => model.predict(ctx, imt), { gsim, tolerance_percent: tol });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}

test('CY14 with near-fault directivity (centred DPP) matches CY14_MEDIAN_RCDPP.csv within 0.05%', async (t) => {
  const check = await assertTable('CY14_MEDIAN_RCDPP.csv', (ctx, imt) => model.predict(ctx, imt), { gsim: 'ChiouYoungs2014NearFaultEffect', tolerance_percent: 0.05 });
  t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  // The directivity term is what the table tests: without the DPP column read, rows fail.
  const without = checkTable(await table('CY14_MEDIAN_RCDPP.csv'), (ctx, imt) => model.predict({ ...ctx, distances: { ...ctx.distances, rcdpp: 0 } }, imt));
  assert.ok(without.failures.length > 100, `${without.failures.length} values fail without the DPP`);
});

test('CY14 PEER variant (total sigma 0.65) matches CY14_TOTAL_EVENT_SIGMA_PEER.csv within 0.05%', async (t) => {
  const peer = cy14({ sigma: 'peer' });
  const check = await assertTable('CY14_TOTAL_EVENT_SIGMA_PEER.csv', (ctx, imt) => peer.predict(ctx, imt), { gsim: 'ChiouYoungs2014PEER', tolerance_percent: 0.05 });
  t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
});

for (const [region, name] of [['japan', 'CY14_Japan_MEAN.csv'], ['italy', 'CY14_Italy_MEAN.csv'], ['wenchuan', 'CY14_Wenchuan_MEAN.csv']] as const) {
  test(`CY14 ${region} matches ${name} within 1.0%`, async (t) => {
    const regional = cy14({ region });
    const check = await assertTable(name, (ctx, imt) => regional.predict(ctx, imt), { gsim: GSIM, tolerance_percent: 1.0 });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
    // Where the two table generations agree (z1.0 given and positive) the match is far tighter.
    const full = await table(name);
    const given = checkTable({ ...full, rows: full.rows.filter((r) => r.inputs.site_z1pt0 !== 0) }, (ctx, imt) => regional.predict(ctx, imt), 0.001);
    assert.ok(given.rows_checked > 0 && given.rows_checked < full.rows.length);
    assert.deepEqual(given.failures.slice(0, 3), [], `${given.failures.length} values with z1.0 > 0 past 0.001%`);
  });
}

// Hand-made context (not from a feed): checks of the model's own rules.
const ctx = {
  rupture: { mag: 6.5, rake: 0, dip: 90, ztor: 0, width: 12, hypo_depth: 8 },
  site: { vs30: 400, vs30measured: false, z1pt0: Number.NaN, z2pt5: Number.NaN, backarc: false },
  distances: { rjb: 20, rrup: 20, rx: 20, ry0: 0, rhypo: 21 },
};

test('CY14: an unknown z1.0 is the California mean for the Vs30 (no sediment term), and sigma comes from tau and phi', () => {
  const unknown = model.predict(ctx, sa(1));
  const atMean = model.predict({ ...ctx, site: { ...ctx.site, z1pt0: cy14MeanZ1M(400) } }, sa(1));
  assert.ok(Math.abs(unknown.mean - atMean.mean) < 1e-12);
  const deeper = model.predict({ ...ctx, site: { ...ctx.site, z1pt0: cy14MeanZ1M(400) + 300 } }, sa(1));
  assert.ok(deeper.mean > unknown.mean, 'a deeper basin amplifies long periods');
  assert.ok(Math.abs(unknown.sigma - Math.hypot(unknown.tau, unknown.phi)) < 1e-12);
});

test('CY14: a period between two tabled ones is interpolated in ln(period); one outside the table is refused', () => {
  const a = model.predict(ctx, sa(0.75));
  const b = model.predict(ctx, sa(1));
  const mid = model.predict(ctx, sa(Math.sqrt(0.75)));
  // the period is keyed to 1e-6 s, so the midpoint holds to about 1e-6 of the difference
  assert.ok(Math.abs(mid.mean - (a.mean + b.mean) / 2) < 1e-5);
  assert.throws(() => model.predict(ctx, sa(12)), /no coefficients for SA\(12\)/);
  assert.ok(Number.isFinite(model.predict(ctx, PGA).mean));
});
