// Australian Bureau of Meteorology Climate Data Online daily rainfall CSV (product IDCJAC0009):
// Product code, station number, Year, Month, Day, Rainfall amount (millimetres),
// Period over which rainfall was measured (days), Quality (Y = quality controlled, N = not yet).
// Rainfall is the 24 h to 09:00 local time on the stated date.
// Decision on accumulations: a value with period P > 1 is the total of P days ending on its date,
// not one day's rain. It is not spread over the days (that would invent a distribution): the day
// value is null, flags carry period and total, the P-1 days before are flagged accum_into=<date>,
// and the totals are returned in `accumulations` for users that need them (e.g. annual sums).
// Quality N values are kept (not yet checked, not failed) and flagged Q=N.
import { parse } from 'csv-parse/sync';
import { buildSeries, countBy, describeCounts, splitLines, type Entry, type ManifestFacts } from '../series.js';
import { dayEpoch, isoDay, isValidDate } from '../../kernel/dates.js';
import type { DailySeries } from '../../domain/hazard/records.js';
import { exclusionFlags, screenNative } from '../../domain/quality.js';

export interface Accumulation {
  from: string; // first day covered (date - period + 1)
  to: string; // the stated date
  days: number;
  total_mm: number;
  quality: string;
}

export interface BomDailySeries extends DailySeries {
  accumulations: Accumulation[];
}

export function parseBomCdo(text: string, facts: ManifestFacts = {}): BomDailySeries {
  const quirks: string[] = [];
  splitLines(text, quirks); // line-ending report only
  const rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  const header = rows[0] ?? [];
  const col = (re: RegExp) => {
    const i = header.findIndex((h) => re.test(h));
    if (i < 0) throw new Error(`BoM CDO file: no column matching ${re} in ${header.join(',')}`);
    return i;
  };
  const iStation = col(/station number/i), iY = col(/^Year$/i), iM = col(/^Month$/i), iD = col(/^Day$/i);
  const iValue = col(/^Rainfall amount/i), iPeriod = col(/^Period over which/i), iQuality = col(/^Quality$/i);

  const entries = new Map<string, Entry>();
  const accumulations: Accumulation[] = [];
  const quality = new Map<string, number>();
  const periods = new Map<string, number>();
  let station: string | null = null;
  let blank = 0, duplicates = 0, otherStation = 0, bad = 0, overlap = 0;
  const negative: string[] = [];
  for (const r of rows.slice(1)) {
    const stn = r[iStation] ?? '';
    if (station === null) station = stn;
    else if (stn !== station) { otherStation++; continue; }
    const date = `${r[iY]}-${(r[iM] ?? '').padStart(2, '0')}-${(r[iD] ?? '').padStart(2, '0')}`;
    if (!isValidDate(date)) { bad++; continue; }
    if (entries.has(date) && !entries.get(date)!.flags?.startsWith('accum_into=')) { duplicates++; continue; }
    const cell = (r[iValue] ?? '').trim();
    const q = (r[iQuality] ?? '').trim();
    const p = (r[iPeriod] ?? '').trim();
    if (cell === '') { blank++; continue; }
    countBy(quality, q);
    countBy(periods, p);
    const v = Number(cell);
    const period = p === '' ? 1 : Number(p);
    if (!Number.isFinite(v) || !Number.isInteger(period) || period < 1) { bad++; continue; }
    const qFlag = q === '' ? [] : [`Q=${q}`];
    // One day's value is screened by the data-quality rule; an accumulation is never one day's value.
    const excluded = period === 1 ? screenNative('RAINFALL', 'mm', v) : v < 0 ? 'below_physical_bound' : null;
    if (excluded !== null) { negative.push(`${date} ${v} (${excluded})`); entries.set(date, { value: null, flags: [...qFlag, ...exclusionFlags(excluded, v)].join(';') }); continue; }
    if (period === 1) {
      entries.set(date, q === '' ? { value: v } : { value: v, flags: qFlag.join(';') });
      continue;
    }
    const end = dayEpoch(date);
    const from = isoDay(end - (period - 1) * 86_400_000);
    accumulations.push({ from, to: date, days: period, total_mm: v, quality: q });
    entries.set(date, { value: null, flags: [...qFlag, `period=${period}`, `accum_mm=${v}`].join(';') });
    for (let k = 1; k < period; k++) {
      const d = isoDay(end - k * 86_400_000);
      if (entries.get(d)?.value != null) overlap++; // a value inside an accumulation: keep it, report
      else entries.set(d, { value: null, flags: `accum_into=${date}` });
    }
  }
  quirks.push(`${rows.length - 1} rows, ${blank} with a blank rainfall; quality flags of valued rows ${describeCounts(quality)}; period column ${describeCounts(periods)}`);
  const qN = quality.get('N') ?? 0;
  if (qN > 0) quirks.push(`${qN} values not yet quality controlled (Quality N) kept, flagged Q=N`);
  if (accumulations.length > 0) {
    const covered = accumulations.reduce((a, x) => a + x.days, 0);
    const total = accumulations.reduce((a, x) => a + x.total_mm, 0);
    quirks.push(`${accumulations.length} multi-day accumulations (period 2-${Math.max(...accumulations.map((a) => a.days))} days, ${covered} days, ${total.toFixed(1)} mm in all) not treated as one day's rain: day values null, totals in accumulations`);
  }
  if (overlap > 0) quirks.push(`${overlap} days with their own value inside an accumulation period (value kept)`);
  if (negative.length > 0) quirks.push(`${negative.length} values outside the physical bounds of the data-quality rule excluded: ${negative.slice(0, 10).join(', ')}`);
  if (duplicates > 0) quirks.push(`${duplicates} duplicate dates ignored (first kept)`);
  if (otherStation > 0) quirks.push(`${otherStation} rows for other stations than ${station} ignored`);
  if (bad > 0) quirks.push(`${bad} rows with an unreadable date, value or period ignored`);
  const series = buildSeries({ source_id: station ?? '', variable: 'Rainfall amount (millimetres)', unit: 'mm', entries, facts, quirks });
  return { ...series, accumulations };
}
