import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSeries, canonicalUnit, describeMissing, missingDaysPerYear, splitLines, toStandardUnits, type Entry } from '../../src/feeds/series.js';
import { isValidDate } from '../../src/kernel/dates.js';

test('buildSeries fills explicit nulls inside the period and discloses widening and gaps', () => {
  const entries = new Map<string, Entry>([['2020-12-30', { value: 1 }], ['2021-01-02', { value: 2, flags: 'x=1' }]]);
  const quirks: string[] = [];
  const s = buildSeries({
    source_id: 'S', variable: 'V', unit: 'mm', entries, quirks,
    facts: { period_of_record: { from: '2020-12-31', to: '2021-01-03' }, years_missing: [2019] },
  });
  assert.deepEqual(s.days, [
    { date: '2020-12-30', value: 1 }, { date: '2020-12-31', value: null }, { date: '2021-01-01', value: null },
    { date: '2021-01-02', value: 2, flags: 'x=1' }, { date: '2021-01-03', value: null },
  ]);
  assert.deepEqual(missingDaysPerYear(s), [{ year: 2020, days: 2, missing: 1 }, { year: 2021, days: 3, missing: 2 }]);
  assert.ok(quirks.some((q) => q.includes('before the manifest period of record')));
  assert.ok(quirks.some((q) => q.includes('missing days per year: 2020: 1/2, 2021: 2/3')));
});

test('describeMissing collapses fully missing years; helpers behave', () => {
  const days = ['2001-06-01', '2002-06-01', '2003-06-01', '2004-06-01'].map((date, i) => ({ date, value: i === 0 || i === 3 ? 1 : null }));
  assert.equal(describeMissing({ days }), '2002-2003 all missing');
  assert.equal(isValidDate('2021-02-29'), false);
  assert.equal(isValidDate('2020-02-29'), true);
  const q: string[] = [];
  assert.deepEqual(splitLines('a\r\nb\nc', q), ['a', 'b', 'c']);
  assert.ok(q.some((x) => x.includes('mixed line endings: 1 CRLF and 2 LF')));
  assert.ok(q.some((x) => x.includes('no line terminator')));
  assert.equal(canonicalUnit('tenths of millimetres (0.1 mm) per observation day', '?'), 'tenths of mm');
  assert.equal(canonicalUnit('cubic feet per second (daily mean)', '?'), 'ft3/s');
  assert.equal(canonicalUnit('mm, 24 h to 09:00 local time', '?'), 'mm');
  const same = { source_id: '', variable: '', unit: 'customers', days: [{ date: '2020-01-01', value: 3 }], quirks: [] };
  assert.equal(toStandardUnits(same), same);
});
