import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKnmiNeerslag } from '../../src/feeds/parsers/knmi.js';
import { missingDaysPerYear, toStandardUnits } from '../../src/feeds/series.js';
import type { DailySeries } from '../../src/domain/hazard/records.js';
import { pinnedText as feed } from '../support/feeds.js';

const day = (s: DailySeries, date: string) => s.days.find((d) => d.date === date);
const nonNull = (s: DailySeries) => s.days.filter((d) => d.value !== null);

test('KNMI neerslaggeg 336: recount by pattern, blanks, max, units, gaps', () => {
  const { manifest, text } = feed('knmi-neerslaggeg-336-prcp');
  const s = parseKnmiNeerslag(text, manifest);
  assert.equal(s.source_id, '336');
  assert.equal(s.variable, 'RD');
  assert.equal(s.unit, 'tenths of mm');
  const rows = text.match(/^336,\d{8},/gm)!.length;
  const valued = [...text.matchAll(/^336,\d{8},\s*(\d+),/gm)];
  assert.equal(rows, manifest.check.rows);
  assert.equal(rows - valued.length, manifest.check.RD_blank);
  assert.equal(nonNull(s).length, valued.length);
  const sum = valued.reduce((a, m) => a + Number(m[1]), 0);
  assert.equal(nonNull(s).reduce((a, d) => a + d.value!, 0), sum);
  assert.equal(day(s, manifest.check.RD_max.date)!.value, manifest.check.RD_max['value_0.1mm']);
  assert.equal(day(toStandardUnits(s), '1965-07-26')!.value, 70.2);
  assert.equal(day(s, '1927-07-10')!.value, 220);

  // Years 1940-1949 have no rows: nulls, and the gap really runs 1939-08-01..1950-05-31.
  for (const y of manifest.years_missing as number[]) assert.equal(missingDaysPerYear(s).find((m) => m.year === y)!.missing, y % 4 === 0 ? 366 : 365);
  assert.ok(s.quirks.some((q) => q.includes('1939-08-01..1950-05-31')));
  assert.ok(s.quirks.some((q) => q.includes('CRLF line endings')));
  assert.ok(s.quirks.some((q) => q.includes('37 with a blank RD')));
});

test('KNMI hand-made rows: negative and duplicate values are disclosed', () => {
  const txt = 'legend\r\n\r\nSTN,YYYYMMDD,   RD,   SX,\r\n  1,20200101,    5,     ,\r\n  1,20200102,   -1,     ,\r\n  1,20200102,    3,     ,\r\n  1,20200104,     ,     ,\r\n';
  const s = parseKnmiNeerslag(txt);
  assert.deepEqual(s.days.map((d) => [d.date, d.value]), [['2020-01-01', 5], ['2020-01-02', null]]);
  assert.ok(s.quirks.some((q) => q.includes('outside the physical bounds') && q.includes('2020-01-02 -1')));
  assert.match(s.days[1]!.flags!, /excluded=below_physical_bound;raw=-1/);
  assert.ok(s.quirks.some((q) => q.includes('duplicate dates')));
  assert.ok(s.quirks.some((q) => q.includes('1 with a blank RD')));
});
