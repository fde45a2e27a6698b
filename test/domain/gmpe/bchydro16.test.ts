// BC Hydro 2016 (central magnitude-scaling branch) against OpenQuake's verification tables for the
// interface and in-slab models: every row, every IMT, at OpenQuake's tolerance for these tables,
// 0.1% (abrahamson_2015_test.py).
import { test } from 'node:test';
import { bcHydro2016 } from '../../../src/domain/hazard/gmpe/bchydro16.js';
import { assertTable } from './support.js';

for (const [event, prefix, gsim] of [['interface', 'BCHYDRO_SINTER_CENTRAL', 'AbrahamsonEtAl2015SInter'], ['slab', 'BCHYDRO_SSLAB_CENTRAL', 'AbrahamsonEtAl2015SSlab']] as const) {
  const model = bcHydro2016(event);
  for (const kind of ['MEAN', 'STDDEV_TOTAL', 'STDDEV_INTER', 'STDDEV_INTRA']) {
    const name = `${prefix}_${kind}.csv`;
    test(`BC Hydro 2016 ${event} matches ${name} within 0.1%`, async (t) => {
      const check = await assertTable(name, (ctx, imt) => model.predict(ctx, imt), { gsim, tolerance_percent: 0.1 });
      t.diagnostic(`${check.values_checked} values, largest discrepancy ${check.max_percent.toFixed(4)}%`);
    });
  }
}
