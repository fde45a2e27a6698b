// CB14 against OpenQuake's verification tables: every row, every IMT, at OpenQuake's tolerance for
// these tables, 0.1% (campbell_bozorgnia_2014_test.py), model configured as the tables were made
// (not Japan, S_J = 0; global anelastic attenuation).
import { test } from 'node:test';
import { cb14 } from '../../../src/domain/hazard/gmpe/cb14.js';
import { assertTable } from './support.js';

const model = cb14();
for (const name of ['CB2014_MEAN.csv', 'CB2014_STD_TOTAL.csv', 'CB2014_STD_INTER.csv', 'CB2014_STD_INTRA.csv']) {
  test(`CB14 matches ${name} within 0.1%`, async (t) => {
    const check = await assertTable(name, (ctx, imt) => model.predict(ctx, imt), { gsim: 'CampbellBozorgnia2014', tolerance_percent: 0.1 });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}
