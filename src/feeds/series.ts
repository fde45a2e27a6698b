// Daily series: the common output of the per-publisher daily parsers (src/feeds/parsers/).
// Values stay in the feed's native unit; convert explicitly with toStandardUnits().
import type { DailySeries, DayValue } from '../domain/hazard/records.js';
import { DAY_MS, dayEpoch, isoDay, isValidDate } from '../kernel/dates.js';
import { baseConversion } from '../kernel/units.js';

// The manifest members a parser may use (a MANIFEST.json object can be passed as is).
export interface ManifestFacts {
  period_of_record?: { from: string; to: string };
  years_missing?: number[];
  units?: Record<string, string>;
}

export interface YearMissing {
  year: number;
  days: number; // days of that year inside the series
  missing: number; // of which value === null
}

export function missingDaysPerYear(series: Pick<DailySeries, 'days'>): YearMissing[] {
  const byYear = new Map<number, YearMissing>();
  for (const d of series.days) {
    const year = +d.date.slice(0, 4);
    let y = byYear.get(year);
    if (!y) byYear.set(year, (y = { year, days: 0, missing: 0 }));
    y.days++;
    if (d.value === null) y.missing++;
  }
  return [...byYear.values()].sort((a, b) => a.year - b.year);
}

// One line per partial year, runs of fully missing years collapsed ("1970-1983 all missing").
export function describeMissing(series: Pick<DailySeries, 'days'>): string {
  const parts: string[] = [];
  let runFrom: number | null = null;
  let runTo = 0;
  const flush = () => {
    if (runFrom !== null) parts.push(runFrom === runTo ? `${runFrom} all missing` : `${runFrom}-${runTo} all missing`);
    runFrom = null;
  };
  for (const y of missingDaysPerYear(series)) {
    if (y.missing === y.days) {
      if (runFrom === null) runFrom = y.year;
      runTo = y.year;
      continue;
    }
    flush();
    if (y.missing > 0) parts.push(`${y.year}: ${y.missing}/${y.days}`);
  }
  flush();
  return parts.length === 0 ? 'none' : parts.join(', ');
}

export interface Entry {
  value: number | null;
  flags?: string;
}

// Builds the contiguous day list from parsed entries. The span is the manifest period of record
// when given, widened to any entry outside it (disclosed); otherwise the entries' own extent.
export function buildSeries(args: {
  source_id: string;
  variable: string;
  unit: string;
  entries: Map<string, Entry>;
  facts?: ManifestFacts;
  quirks: string[];
}): DailySeries {
  const { entries, facts, quirks } = args;
  const dates = [...entries.keys()].sort();
  let from = dates[0];
  let to = dates[dates.length - 1];
  const period = facts?.period_of_record;
  if (period) {
    if (from !== undefined && from < period.from) quirks.push(`entries start ${from}, before the manifest period of record (${period.from}); series widened`);
    if (to !== undefined && to > period.to) quirks.push(`entries end ${to}, after the manifest period of record (${period.to}); series widened`);
    from = from === undefined || period.from < from ? period.from : from;
    to = to === undefined || period.to > to ? period.to : to;
  }
  const days: DayValue[] = [];
  if (from !== undefined && to !== undefined) {
    for (let t = dayEpoch(from), end = dayEpoch(to); t <= end; t += DAY_MS) {
      const date = isoDay(t);
      const e = entries.get(date);
      const day: DayValue = { date, value: e ? e.value : null };
      if (e?.flags) day.flags = e.flags;
      days.push(day);
    }
  }
  const series: DailySeries = { source_id: args.source_id, variable: args.variable, unit: args.unit, days, quirks };
  const nulls = days.filter((d) => d.value === null).length;
  quirks.push(`${days.length} days ${from ?? '-'}..${to ?? '-'}, ${nulls} without a usable value; missing days per year: ${describeMissing(series)}`);
  const gaps = longGaps(days, 31);
  if (gaps.length > 0) quirks.push(`${gaps.length} gaps of more than 31 days without a value: ${gaps.slice(0, 20).join(', ')}${gaps.length > 20 ? ', ...' : ''}`);
  checkYearsMissing(series, facts?.years_missing);
  return series;
}

// Runs of null days longer than minDays, as "from..to (n days)".
export function longGaps(days: DayValue[], minDays: number): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= days.length; i++) {
    const isNull = i < days.length && days[i]!.value === null;
    if (isNull && start < 0) start = i;
    if (!isNull && start >= 0) {
      if (i - start > minDays) out.push(`${days[start]!.date}..${days[i - 1]!.date} (${i - start} days)`);
      start = -1;
    }
  }
  return out;
}

// Compares the manifest's years_missing with what the file holds, both ways.
function checkYearsMissing(series: DailySeries, listed: number[] | undefined): void {
  const years = missingDaysPerYear(series);
  const empty = years.filter((y) => y.missing === y.days).map((y) => y.year);
  if (listed && listed.length > 0) {
    const withValues = listed.filter((y) => !empty.includes(y) && years.some((x) => x.year === y));
    series.quirks.push(
      withValues.length === 0
        ? `manifest years_missing ${listed.join(',')}: no value in the file for these years (true gaps, left null, never filled)`
        : `manifest lists years_missing ${withValues.join(',')} but the file has values in them`,
    );
  }
  const unlisted = empty.filter((y) => !(listed ?? []).includes(y));
  if (unlisted.length > 0) series.quirks.push(`years with no usable value that the manifest does not list as missing: ${unlisted.join(',')}`);
}

export function toStandardUnits(series: DailySeries): DailySeries {
  const c = baseConversion(series.unit);
  if (!c || c.unit === series.unit) return series;
  return {
    ...series,
    unit: c.unit,
    days: series.days.map((d) => ({ ...d, value: d.value === null ? null : d.value * c.factor })),
  };
}

// Maps a manifest unit description onto a canonical native unit name.
export function canonicalUnit(description: string | undefined, fallback: string): string {
  if (!description) return fallback;
  const d = description.toLowerCase();
  if (/tenths? of (mm|millimet)|0\.1 mm/.test(d)) return 'tenths of mm';
  if (/tenths? of m\/s|0\.1 m\/s/.test(d)) return 'tenths of m/s';
  if (/cubic feet per second|ft3\/s|ft³\/s|cfs/.test(d)) return 'ft3/s';
  if (/^inch|hundredths of inch/.test(d)) return /hundredths/.test(d) ? 'hundredths of inches' : 'inches';
  if (/^mph|miles per hour/.test(d)) return 'mph';
  if (/^mm\b|millimet/.test(d)) return 'mm';
  if (/^m\/s\b/.test(d)) return 'm/s';
  return description;
}

// Splits text into lines, reporting the line-ending mix (CRLF vs LF) as a quirk.
export function splitLines(text: string, quirks: string[]): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body !== text) quirks.push('file starts with a UTF-8 byte-order mark (removed)');
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else if (lines.length > 0) quirks.push('last line has no line terminator');
  let crlf = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.endsWith('\r')) {
      crlf++;
      lines[i] = l.slice(0, -1);
    }
  }
  if (crlf > 0) quirks.push(crlf === lines.length ? `CRLF line endings (all ${crlf} lines)` : `mixed line endings: ${crlf} CRLF and ${lines.length - crlf} LF lines`);
  return lines;
}

export function countBy(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function describeCounts(map: Map<string, number>): string {
  return [...map.entries()].map(([k, n]) => `${k === '' ? '(blank)' : k}: ${n}`).join(', ');
}
