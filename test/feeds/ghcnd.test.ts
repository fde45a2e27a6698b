import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludedObservations } from '../../src/domain/quality.js';
import { join } from 'node:path';
import { parseGhcnCsv, parseGhcnDly } from '../../src/feeds/parsers/ghcnd.js';
import { dayEpoch } from '../../src/kernel/dates.js';
import { toStandardUnits } from '../../src/feeds/series.js';
import type { DailySeries } from '../../src/domain/hazard/records.js';
import { pinnedText as feed } from '../support/feeds.js';

const day = (s: DailySeries, date: string) => s.days.find((d) => d.date === date);
const nonNull = (s: DailySeries) => s.days.filter((d) => d.value !== null);

function assertContiguous(s: DailySeries) {
  for (let i = 1; i < s.days.length; i++) {
    assert.equal(dayEpoch(s.days[i]!.date) - dayEpoch(s.days[i - 1]!.date), 86_400_000, `gap/order at ${s.days[i]!.date}`);
  }
}

test('GHCN .dly PRCP (USW00003870): recount, QC exclusion, trace, spot values, units', () => {
  const { manifest, text } = feed('ghcnd-usw00003870-prcp');
  const s = parseGhcnDly(text, 'PRCP', manifest);
  assert.equal(s.source_id, 'USW00003870');
  assert.equal(s.unit, 'tenths of mm');
  assert.equal(s.days[0]!.date, manifest.period_of_record.from);
  assert.equal(s.days.at(-1)!.date, manifest.period_of_record.to);
  assertContiguous(s);

  // Independent recount: slots in PRCP lines that are not the -9999 missing marker.
  const prcpLines = text.split('\n').filter((l) => l.slice(17, 21) === 'PRCP');
  assert.equal(prcpLines.length, 603);
  const missingSlots = prcpLines.reduce((n, l) => n + (l.match(/-9999/g)?.length ?? 0), 0);
  const present = prcpLines.length * 31 - missingSlots;
  assert.equal(present, manifest.check.PRCP_day_values);
  // One present value carries a QFLAG and is excluded.
  assert.equal(nonNull(s).length, present - 1);
  const flagged = day(s, '1976-07-29')!;
  assert.equal(flagged.value, null);
  assert.match(flagged.flags!, /Q=S/);
  assert.match(flagged.flags!, /raw=907/);
  assert.ok(s.quirks.some((q) => /1 values with a failed quality flag excluded/.test(q)));

  // Trace: MFLAG T right after the 5-character value.
  const traces = prcpLines.reduce((n, l) => n + (l.match(/\d{1}T/g)?.length ?? 0), 0);
  assert.equal(s.days.filter((d) => d.flags?.includes('M=T')).length, traces);
  assert.ok(s.days.filter((d) => d.flags?.includes('M=T')).every((d) => d.value === 0));

  // Spot check against the raw line for 1995-08 (day 26 slot).
  const aug95 = prcpLines.find((l) => l.slice(11, 17) === '199508')!;
  const raw26 = Number(aug95.slice(21 + 25 * 8, 26 + 25 * 8));
  assert.equal(raw26, 2367);
  assert.equal(day(s, '1995-08-26')!.value, 2367);
  assert.equal(Math.max(...nonNull(s).map((d) => d.value!)), manifest.check.PRCP_max_unflagged['value_0.1mm']);
  const mm = toStandardUnits(s);
  assert.equal(mm.unit, 'mm');
  assert.ok(Math.abs(day(mm, '1995-08-26')!.value! - 236.7) < 1e-9);
});

test('GHCN .dly wind (USW00003870): AWND/WSF2/WSF5 counts, QC flag, suspect value', () => {
  const { manifest, text } = feed('ghcnd-usw00003870-wind');
  for (const el of ['AWND', 'WSF2', 'WSF5'] as const) {
    const s = parseGhcnDly(text, el, { units: manifest.units });
    const check = manifest.check[el];
    assert.equal(s.unit, 'tenths of m/s');
    assert.equal(s.days[0]!.date, check.from);
    assert.equal(s.days.at(-1)!.date, check.to);
    // QFLAG values and values above the 75 m/s bound (the four WSF5 gusts below) are excluded.
    assert.equal(nonNull(s).length, check.day_values - check.qc_flagged_values - (el === 'WSF5' ? 4 : 0), el);
    assertContiguous(s);
  }
  const awnd = parseGhcnDly(text, 'AWND', { units: manifest.units });
  assert.equal(day(awnd, '1993-03-13')!.value, 109);
  const wsf5 = parseGhcnDly(text, 'WSF5', { units: manifest.units });
  const x = day(wsf5, '2002-05-04')!;
  assert.equal(x.value, null);
  assert.match(x.flags!, /Q=X;.*raw=1381/);
  // The manifest's quality warning: 983 (98.3 m/s) unflagged, above the 75 m/s bound: excluded,
  // raw value kept, and listed with the three other gusts of 80-94 m/s.
  const sus = day(wsf5, '2010-07-16')!;
  assert.equal(sus.value, null);
  assert.match(sus.flags!, /excluded=above_physical_bound;raw=983/);
  assert.ok(wsf5.quirks.some((q) => q.includes('2010-07-16 983')));
  assert.deepEqual(excludedObservations(wsf5).map((o) => [o.date, o.value, o.reason]), [
    ['2002-05-04', 1381, 'publisher_quality_flag'], ['2010-06-29', 805, 'above_physical_bound'], ['2010-07-16', 983, 'above_physical_bound'],
    ['2010-07-28', 939, 'above_physical_bound'], ['2010-10-26', 894, 'above_physical_bound'],
  ]);
  assert.ok(Math.abs(toStandardUnits(awnd).days.find((d) => d.date === '1993-03-13')!.value! - 10.9) < 1e-9);
});

test('GHCN CSV export (USW00012816 Gainesville): recount by plain split, units from manifest, years_missing', () => {
  const { manifest, text } = feed('ghcnd-usw00012816-prcp');
  const s = parseGhcnCsv(text, 'PRCP', manifest);
  assert.equal(s.source_id, 'USW00012816');
  assert.equal(s.unit, 'tenths of mm'); // manifest: GHCN native tenths despite the repo's metadata
  assertContiguous(s);
  // Recount: after the quoted NAME, PRCP is the first comma field.
  let n = 0, sum = 0;
  for (const line of text.split(/\r?\n/).slice(1)) {
    if (line === '') continue;
    const prcp = line.split('",')[1]!.split(',')[0]!;
    if (prcp !== '') { n++; sum += Number(prcp); }
  }
  assert.equal(n, manifest.check.PRCP_values);
  assert.equal(nonNull(s).length, n);
  assert.ok(Math.abs(nonNull(s).reduce((a, d) => a + d.value!, 0) - sum) < 1e-6);
  assert.equal(day(s, '2012-06-24')!.value, 1765);
  assert.ok(Math.abs(day(toStandardUnits(s), '2012-06-24')!.value! - 176.5) < 1e-9);
  // 1970-1983 are absent from the file: explicit nulls, disclosed, never filled.
  assert.ok(s.days.filter((d) => d.date.startsWith('1975')).every((d) => d.value === null));
  assert.ok(s.quirks.some((q) => q.includes('manifest years_missing 1970')));
  assert.ok(s.quirks.some((q) => q.includes('no PRCP_ATTRIBUTES column')));
  assert.ok(s.quirks.some((q) => /CRLF/.test(q)));

  const w = feed('ghcnd-usw00012816-wind');
  const awnd = parseGhcnCsv(w.text, 'AWND', { units: w.manifest.units });
  assert.equal(nonNull(awnd).length, w.manifest.check.AWND_values);
  assert.equal(day(awnd, '2004-09-26')!.value, 126);
  const wsf5 = parseGhcnCsv(w.text, 'WSF5', { units: w.manifest.units });
  assert.equal(nonNull(wsf5).length, w.manifest.check.WSF5_values);
  assert.equal(wsf5.days[0]!.date, '1998-08-08');
});

test('GHCN CSV without a manifest unit says so; converted exports keep their unit', () => {
  const csv = 'STATION,DATE,PRCP\nX1,2020-01-01,0.5\nX1,2020-01-03,-1\nX1,2020-01-03,2\n';
  const unknown = parseGhcnCsv(csv, 'PRCP');
  assert.equal(unknown.unit, 'unknown');
  assert.ok(unknown.quirks.some((q) => q.includes('no unit')));
  const inches = parseGhcnCsv(csv, 'PRCP', { units: { PRCP: 'inches' } });
  assert.equal(inches.unit, 'inches');
  assert.deepEqual(inches.days.map((d) => d.value), [0.5, null, null]);
  assert.ok(inches.quirks.some((q) => q.includes('outside the physical bounds') && q.includes('-1 (below_physical_bound)')));
  assert.ok(inches.quirks.some((q) => q.includes('duplicate dates')));
  assert.ok(Math.abs(toStandardUnits(inches).days[0]!.value! - 12.7) < 1e-9);
});

test('GHCN .dly hand-made month: invalid day slots and mixed line endings are disclosed', () => {
  const slot = (v: number, m = ' ', q = ' ', s = '0') => `${String(v).padStart(5)}${m}${q}${s}`;
  const slots = Array.from({ length: 31 }, (_, i) => (i === 29 ? slot(5) : i < 28 ? slot(i) : slot(-9999, ' ', ' ', ' ')));
  const line = `XXX00000001202102PRCP${slots.join('')}`;
  const s = parseGhcnDly(`${line}\r\n${line.replace('202102', '202103')}\n`, 'PRCP');
  assert.ok(s.quirks.some((q) => q.includes('mixed line endings')));
  assert.ok(s.quirks.some((q) => q.includes('day slots that do not exist')));
  assert.equal(day(s, '2021-03-30')!.value, 5);
});
