// KNMI precipitation-station file ("neerslaggeg_<NAME>_<STN>.txt"): a Dutch/English legend, then
// "STN,YYYYMMDD,   RD,   SX," and space-padded comma rows. RD is the 24 h sum in 0.1 mm from
// 08 UTC the previous day to 08 UTC on the stated date (kept as that date); 5 spaces = missing.
// A negative RD, or one above the rainfall bound, is excluded (src/domain/quality.ts).
import { buildSeries, splitLines, type Entry, type ManifestFacts } from '../series.js';
import { isValidDate } from '../../kernel/dates.js';
import type { DailySeries } from '../../domain/hazard/records.js';
import { exclusionFlags, screenNative } from '../../domain/quality.js';

export function parseKnmiNeerslag(text: string, facts: ManifestFacts = {}): DailySeries {
  const quirks: string[] = [];
  const lines = splitLines(text, quirks);
  const h = lines.findIndex((l) => /^\s*STN\s*,\s*YYYYMMDD/.test(l));
  if (h < 0) throw new Error('KNMI file: no "STN,YYYYMMDD" header line');
  const cols = lines[h]!.split(',').map((c) => c.trim());
  const iRd = cols.indexOf('RD');
  if (iRd < 0) throw new Error('KNMI file: no RD column');
  quirks.push(`${h} legend lines before the column header; RD day = 08 UTC previous day to 08 UTC stated day`);

  const entries = new Map<string, Entry>();
  let station: string | null = null;
  let rows = 0, blank = 0, duplicates = 0, otherStation = 0, bad = 0, emptyLines = 0;
  const negative: string[] = [];
  for (const line of lines.slice(h + 1)) {
    if (line.trim() === '') { emptyLines++; continue; }
    rows++;
    const c = line.split(',').map((x) => x.trim());
    const stn = c[0] ?? '';
    if (station === null) station = stn;
    else if (stn !== station) { otherStation++; continue; }
    const ymd = c[1] ?? '';
    const date = `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
    if (ymd.length !== 8 || !isValidDate(date)) { bad++; continue; }
    if (entries.has(date)) { duplicates++; continue; }
    const cell = c[iRd] ?? '';
    if (cell === '') { blank++; continue; }
    const v = Number(cell);
    if (!Number.isInteger(v)) { bad++; continue; }
    const excluded = screenNative('RD', 'tenths of mm', v);
    if (excluded !== null) { negative.push(`${date} ${v} (${excluded})`); entries.set(date, { value: null, flags: exclusionFlags(excluded, v).join(';') }); continue; }
    entries.set(date, { value: v });
  }
  quirks.push(`${rows} data rows, ${blank} with a blank RD (missing)`);
  if (negative.length > 0) quirks.push(`${negative.length} RD values outside the physical bounds of the data-quality rule excluded: ${negative.slice(0, 10).join(', ')}`);
  if (duplicates > 0) quirks.push(`${duplicates} duplicate dates ignored (first kept)`);
  if (otherStation > 0) quirks.push(`${otherStation} rows for other stations than ${station} ignored`);
  if (bad > 0) quirks.push(`${bad} rows with an unreadable date or RD ignored`);
  if (emptyLines > 0) quirks.push(`${emptyLines} empty lines after the header`);
  return buildSeries({ source_id: station ?? '', variable: 'RD', unit: 'tenths of mm', entries, facts, quirks });
}
