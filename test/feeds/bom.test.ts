import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBomCdo } from '../../src/feeds/parsers/bom.js';
import type { DailySeries } from '../../src/domain/hazard/records.js';
import { pinnedText as feed } from '../support/feeds.js';

const day = (s: DailySeries, date: string) => s.days.find((d) => d.date === date);
const nonNull = (s: DailySeries) => s.days.filter((d) => d.value !== null);

test('BoM CDO 031036: recount single-day and accumulated values with a plain loop', () => {
  const { manifest, text } = feed('bom-cdo-031036-prcp');
  const s = parseBomCdo(text, manifest);
  assert.equal(s.source_id, '031036');
  assert.equal(s.unit, 'mm');
  let valued = 0, single = 0, singleSum = 0, accum = 0, accumDays = 0, qN = 0;
  for (const line of text.split('\n').slice(1)) {
    const c = line.split(',');
    if (c.length < 8 || c[5] === '') continue;
    valued++;
    if (c[7] === 'N') qN++;
    const period = c[6] === '' ? 1 : Number(c[6]);
    if (period > 1) { accum++; accumDays += period; } else { single++; singleSum += Number(c[5]); }
  }
  assert.equal(valued, manifest.check.rows_with_value);
  assert.equal(nonNull(s).length, single);
  assert.ok(Math.abs(nonNull(s).reduce((a, d) => a + d.value!, 0) - singleSum) < 1e-6);
  assert.equal(s.accumulations.length, accum);
  assert.equal(s.accumulations.reduce((a, x) => a + x.days, 0), accumDays);
  assert.equal(s.days.filter((d) => d.flags?.includes('Q=N')).length, qN);

  // Raw line: IDCJAC0009,031036,1898,04,08,39.1,2,Y -> two days' total, not one day's rain.
  assert.equal(day(s, '1898-04-08')!.value, null);
  assert.equal(day(s, '1898-04-08')!.flags, 'Q=Y;period=2;accum_mm=39.1');
  assert.equal(day(s, '1898-04-07')!.flags, 'accum_into=1898-04-08');
  assert.deepEqual(s.accumulations[0], { from: '1898-04-07', to: '1898-04-08', days: 2, total_mm: 39.1, quality: 'Y' });
  assert.equal(day(s, manifest.check.max.date)!.value, manifest.check.max.mm);

  assert.equal(s.days[0]!.date, manifest.period_of_record.from);
  assert.equal(s.days.at(-1)!.date, manifest.period_of_record.to);
  assert.ok(s.days.filter((d) => d.date.startsWith('1939')).every((d) => d.value === null));
  assert.ok(s.quirks.some((q) => q.includes('351 multi-day accumulations')));
  assert.ok(s.quirks.some((q) => q.includes('Quality N')));
  assert.ok(s.quirks.some((q) => q.includes('does not list as missing: 1939')));
});
