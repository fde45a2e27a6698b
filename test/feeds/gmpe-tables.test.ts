// The GMPE verification table reader: every pinned table parses with its manifest facts, and the
// quirks the manifest names (trailing unnamed column, leading index column, period spellings) read
// as one layout. The small tables below are hand-made for the quirks, not pinned data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGmpeTable } from '../../src/feeds/parsers/gmpe-tables.js';
import { verificationTables } from '../domain/gmpe/support.js';
import { manifestOf } from '../support/feeds.js';

const facts = { name: 'hand-made.csv', gsim: 'X', gsim_arguments: {}, result_type: 'MEAN', tolerance_percent: 0.1 };

test('every pinned table is read with its rows, its IMT columns and its manifest tolerance', async () => {
  const m = manifestOf('oq-gmpe-verification');
  const tables = await verificationTables();
  assert.equal(tables.size, m.files.length);
  for (const f of m.files) {
    const t = tables.get(f.name)!;
    assert.equal(t.rows.length, f.data_rows, `${f.name}: rows`);
    assert.equal(t.rows[0]!.values.length, f.imt_columns.length, `${f.name}: IMT columns`);
    assert.deepEqual(Object.keys(t.rows[0]!.inputs).sort(), [...f.input_columns].sort(), `${f.name}: input columns`);
    assert.equal(t.tolerance_percent, f.tolerance_percent);
    assert.equal(t.result_type, f.result_type);
  }
});

test('a trailing unnamed column, a leading index column and period spellings', () => {
  const trailing = 'rup_mag,dist_rjb,result_type,damping,pga,0.010,0.1000,Unnamed: 7\n5.0,10,MEAN,5.0,0.1,0.2,1.49601781e-01,\n';
  const t = parseGmpeTable(trailing, facts);
  assert.deepEqual(t.rows[0]!.values, [
    { imt: { kind: 'PGA' }, expected: 0.1 }, { imt: { kind: 'SA', period: 0.01 }, expected: 0.2 }, { imt: { kind: 'SA', period: 0.1 }, expected: 0.149601781 },
  ]);
  assert.deepEqual(t.rows[0]!.inputs, { rup_mag: 5, dist_rjb: 10 });
  const indexed = ',rup_mag,site_geology,result_type,damping,pgv\n0,4,PRECAMBRIAN,MEAN,5,0.12\n';
  assert.deepEqual(parseGmpeTable(indexed, facts).rows[0]!.inputs, { rup_mag: 4, site_geology: 'PRECAMBRIAN' });
});

test('a row of another result type, or a value that is not a number, is an error naming the line', () => {
  assert.throws(() => parseGmpeTable('rup_mag,result_type,damping,pga\n5,TOTAL_STDDEV,5,0.1\n', facts), /line 2: result_type TOTAL_STDDEV in a MEAN table/);
  assert.throws(() => parseGmpeTable('rup_mag,result_type,damping,pga\n5,MEAN,5,abc\n', facts), /line 2: value "abc"/);
  assert.throws(() => parseGmpeTable('rup_mag,result_type,damping,pga\n', { ...facts, result_type: 'MEDIAN' }), /not one of/);
});
