import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseNwisDaily } from '../../src/feeds/parsers/nwis.js';
import { dayEpoch } from '../../src/kernel/dates.js';
import { missingDaysPerYear, toStandardUnits } from '../../src/feeds/series.js';
import type { DailySeries } from '../../src/domain/hazard/records.js';
import { pinnedText as feed, FEEDS_DIR as FEEDS } from '../support/feeds.js';

const day = (s: DailySeries, date: string) => s.days.find((d) => d.date === date);
const nonNull = (s: DailySeries) => s.days.filter((d) => d.value !== null);
const NWIS = readdirSync(FEEDS).filter((d) => d.startsWith('usgs-nwis-'));

test('every NWIS feed parses; max flow, period and contiguity match the manifest', () => {
  assert.equal(NWIS.length, 5);
  for (const id of NWIS) {
    const { manifest, text } = feed(id);
    const s = parseNwisDaily(text, manifest);
    assert.equal(s.source_id, manifest.coverage.station_id, id);
    assert.equal(s.unit, 'ft3/s');
    assert.equal(s.days[0]!.date, manifest.period_of_record.from, id);
    assert.equal(s.days.at(-1)!.date, manifest.period_of_record.to, id);
    for (let i = 1; i < s.days.length; i++) assert.equal(dayEpoch(s.days[i]!.date) - dayEpoch(s.days[i - 1]!.date), 86_400_000);
    const max = nonNull(s).reduce((a, d) => (d.value! > a.value! ? d : a));
    assert.equal(max.value, manifest.check.max.cfs, id);
    assert.equal(max.date, manifest.check.max.date, id);
    for (const y of manifest.years_missing as number[]) {
      assert.equal(missingDaysPerYear(s).find((m) => m.year === y)?.missing, y % 4 === 0 ? 366 : 365, `${id} ${y}`);
    }
  }
});

test('NWIS dataRetrieval TSV (01509000): recount with a plain loop, -999999 ice days, codes', () => {
  const { manifest, text } = feed('usgs-nwis-01509000-discharge');
  const s = parseNwisDaily(text, manifest);
  let rows = 0, sum = 0, sentinel = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('"USGS"')) continue;
    rows++;
    const v = Number(line.split('\t')[3]);
    if (v === -999999) sentinel++; else sum += v;
  }
  assert.equal(rows, manifest.check.rows);
  assert.equal(sentinel, manifest.check['rows_-999999']);
  assert.equal(nonNull(s).length, rows - sentinel);
  assert.ok(Math.abs(nonNull(s).reduce((a, d) => a + d.value!, 0) - sum) < 1e-6);
  const ice = day(s, '2018-01-03')!;
  assert.equal(ice.value, null);
  assert.equal(ice.flags, 'cd=P:Ice;no_value=-999999');
  assert.match(day(s, s.days.find((d) => d.flags?.includes('cd=A:e'))!.date)!.flags!, /A:e/);
  assert.ok(s.quirks.some((q) => q.includes('-999999 (P:Ice): 9')));
  assert.ok(s.quirks.some((q) => q.includes('provisional (P)')));
  const m3 = toStandardUnits(s);
  assert.equal(m3.unit, 'm3/s');
  assert.ok(Math.abs(day(m3, '2005-04-03')!.value! - 12600 * 0.028316846592) < 1e-9);
});

test('NWIS native RDB (03062500): format line skipped, empty rows are nulls, codes kept', () => {
  const { manifest, text } = feed('usgs-nwis-03062500-discharge');
  const s = parseNwisDaily(text, manifest);
  const dataLines = text.split('\n').filter((l) => /^USGS\t03062500\t/.test(l));
  const withValue = dataLines.filter((l) => l.split('\t')[3] !== '').length;
  assert.equal(dataLines.length, manifest.check.rows);
  assert.equal(withValue, manifest.check.rows_with_value);
  assert.equal(nonNull(s).length, withValue);
  assert.equal(s.days.length, manifest.check.rows);
  assert.equal(day(s, '1980-06-01')!.value, null);
  assert.equal(day(s, '1946-03-03')!.value, 122);
  assert.ok(s.quirks.some((q) => q.includes('column-format line skipped')));
  assert.ok(s.quirks.some((q) => q.includes('1970-2001 all missing')));
});

test('NWIS write_csv (11425500) and hand-made no-value codes', () => {
  const { manifest, text } = feed('usgs-nwis-11425500-discharge');
  const s = parseNwisDaily(text, manifest);
  assert.equal(nonNull(s).length, manifest.check.rows);
  assert.equal(day(s, '1929-10-01')!.value, 5020);

  const rdb = [
    '# comment', 'agency_cd\tsite_no\tdatetime\t1_00060_00003\t1_00060_00003_cd', '5s\t15s\t20d\t14n\t10s',
    'USGS\t1\t2020-01-01\t10\tA', 'USGS\t1\t2020-01-02\tIce\tP', 'USGS\t1\t2020-01-03\t-5\tP', 'USGS\t1\t2020-01-03\t7\tP', 'USGS\t1\t2020-01-05\tEqp\tP',
  ].join('\n') + '\n';
  const h = parseNwisDaily(rdb);
  assert.deepEqual(h.days.map((d) => d.value), [10, null, null, null, null]);
  assert.equal(h.days[1]!.flags, 'cd=P;no_value=Ice');
  assert.ok(h.quirks.some((q) => q.includes('duplicate dates')));
  assert.ok(h.quirks.some((q) => q.includes('excluded below_physical_bound (P): 1')));
  assert.equal(h.days[2]!.flags, 'cd=P;excluded=below_physical_bound;raw=-5');
});
