// Akkar-Sandikkaya-Bommer 2014 (Joyner-Boore distance model) against OpenQuake's verification
// tables (from the authors' Matlab code, per OpenQuake's test driver): every row, every IMT, at
// OpenQuake's tolerance for these tables, 0.1% (akkar_2014_test.py).
import { test } from 'node:test';
import { asb14 } from '../../../src/domain/hazard/gmpe/asb14.js';
import { assertTable } from './support.js';

const model = asb14();
for (const name of ['AKKAR_2014_RJB_MEAN.csv', 'AKKAR_2014_RJB_STD_TOTAL.csv', 'AKKAR_2014_RJB_STD_INTER.csv', 'AKKAR_2014_RJB_STD_INTRA.csv']) {
  test(`ASB14 (Rjb) matches ${name} within 0.1%`, async (t) => {
    const check = await assertTable(name, (ctx, imt) => model.predict(ctx, imt), { gsim: 'AkkarEtAlRjb2014', tolerance_percent: 0.1 });
    t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
  });
}
