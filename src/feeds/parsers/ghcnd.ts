// GHCN-Daily: the by-station fixed-width .dly file and the NCEI "daily summaries" CSV export.
// Decisions: the data-quality rule of src/domain/quality.ts: a value with a QFLAG (failed NCEI
// quality check) is excluded (null, raw value kept in flags) and counted, and so is a value outside
// its variable's physical bounds (a negative amount, a gust above 75 m/s); trace precipitation
// (MFLAG T) stays 0 and is counted.
import { parse } from 'csv-parse/sync';
import { buildSeries, canonicalUnit, countBy, describeCounts, splitLines, type Entry, type ManifestFacts } from '../series.js';
import { isValidDate } from '../../kernel/dates.js';
import type { DailySeries } from '../../domain/hazard/records.js';
import { exclusionFlags, screenNative } from '../../domain/quality.js';

const NATIVE_UNITS: Record<string, string> = {
  PRCP: 'tenths of mm', SNOW: 'mm', SNWD: 'mm', TMAX: 'tenths of degC', TMIN: 'tenths of degC', TAVG: 'tenths of degC',
  AWND: 'tenths of m/s', WSF2: 'tenths of m/s', WSF5: 'tenths of m/s', WSFG: 'tenths of m/s', WSF1: 'tenths of m/s', WSFM: 'tenths of m/s',
};

class Checker {
  readonly entries = new Map<string, Entry>();
  failedQc = new Map<string, number>();
  trace = 0;
  outOfBounds: string[] = [];
  duplicates = 0;
  constructor(private readonly element: string, private readonly unit: string) {}

  // flags: GHCN M/Q/S flags (blank ones omitted); q: the quality flag. The data-quality rule
  // (src/domain/quality.ts) decides: a QFLAG excludes, and so does a value outside its bounds.
  add(date: string, raw: number, flags: string[], m: string, q: string): void {
    if (this.entries.has(date)) { this.duplicates++; return; }
    if (q !== '') {
      countBy(this.failedQc, q);
      this.entries.set(date, { value: null, flags: [...flags, ...exclusionFlags('publisher_quality_flag', raw)].join(';') });
      return;
    }
    const reason = screenNative(this.element, this.unit, raw);
    if (reason !== null) {
      this.outOfBounds.push(`${date} ${raw} (${reason})`);
      this.entries.set(date, { value: null, flags: [...flags, ...exclusionFlags(reason, raw)].join(';') });
      return;
    }
    if (m === 'T') this.trace++;
    const e: Entry = { value: raw };
    if (flags.length > 0) e.flags = flags.join(';');
    this.entries.set(date, e);
  }

  report(quirks: string[]): void {
    const failed = [...this.failedQc.values()].reduce((a, b) => a + b, 0);
    if (failed > 0) quirks.push(`${failed} values with a failed quality flag excluded (QFLAG ${describeCounts(this.failedQc)}); raw value kept in flags`);
    if (this.trace > 0) quirks.push(`${this.trace} trace values (MFLAG T) kept as 0`);
    if (this.outOfBounds.length > 0) quirks.push(`${this.outOfBounds.length} values outside the physical bounds of the data-quality rule excluded: ${this.outOfBounds.slice(0, 10).join(', ')}`);
    if (this.duplicates > 0) quirks.push(`${this.duplicates} duplicate dates ignored (first kept)`);
  }
}

// .dly layout: ID 1-11, YEAR 12-15, MONTH 16-17, ELEMENT 18-21, then 31 x (VALUE5 MFLAG QFLAG SFLAG).
export function parseGhcnDly(text: string, element: string, facts: ManifestFacts = {}): DailySeries {
  const quirks: string[] = [];
  const lines = splitLines(text, quirks);
  const unit = canonicalUnit(facts.units?.[element], NATIVE_UNITS[element] ?? 'unknown');
  const check = new Checker(element, unit);
  let stationId: string | null = null;
  let otherStation = 0, monthLines = 0, shortLines = 0, badSlots = 0, emptyLines = 0;
  for (const line of lines) {
    if (line.trim() === '') { emptyLines++; continue; }
    if (line.slice(17, 21) !== element) continue;
    const id = line.slice(0, 11);
    if (stationId === null) stationId = id;
    else if (id !== stationId) { otherStation++; continue; }
    monthLines++;
    if (line.length < 269) shortLines++;
    const ym = `${line.slice(11, 15)}-${line.slice(15, 17)}`;
    for (let d = 0; d < 31; d++) {
      const off = 21 + d * 8;
      const raw = Number.parseInt(line.slice(off, off + 5), 10);
      if (Number.isNaN(raw) || raw === -9999) continue;
      const date = `${ym}-${String(d + 1).padStart(2, '0')}`;
      if (!isValidDate(date)) { badSlots++; continue; }
      const m = (line[off + 5] ?? ' ').trim(), q = (line[off + 6] ?? ' ').trim(), s = (line[off + 7] ?? ' ').trim();
      const flags = [m && `M=${m}`, q && `Q=${q}`, s && `S=${s}`].filter((f): f is string => f !== '');
      check.add(date, raw, flags, m, q);
    }
  }
  quirks.push(`${monthLines} ${element} month lines`);
  if (otherStation > 0) quirks.push(`${otherStation} ${element} lines for other stations than ${stationId} ignored`);
  if (shortLines > 0) quirks.push(`${shortLines} month lines shorter than 269 characters (missing slots read as missing)`);
  if (badSlots > 0) quirks.push(`${badSlots} values in day slots that do not exist in the month ignored`);
  if (emptyLines > 0) quirks.push(`${emptyLines} empty lines`);
  check.report(quirks);
  return buildSeries({
    source_id: stationId ?? '', variable: element, unit,
    entries: check.entries, facts, quirks,
  });
}

// NCEI CSV export: STATION, DATE, [NAME], element columns, optional <EL>_ATTRIBUTES ("M,Q,S,time").
// Exports may be in standard (inches, mph) or metric units, so the unit comes from the manifest.
export function parseGhcnCsv(text: string, element: string, facts: ManifestFacts = {}): DailySeries {
  const quirks: string[] = [];
  splitLines(text, quirks); // line-ending report only; csv-parse handles both
  const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
  const header = rows[0] ? Object.keys(rows[0]) : [];
  if (!header.includes(element)) throw new Error(`GHCN CSV has no ${element} column (columns: ${header.join(',')})`);
  const attrCol = `${element}_ATTRIBUTES`;
  const hasAttr = header.includes(attrCol);
  if (!hasAttr) quirks.push(`export carries no ${attrCol} column: measurement/quality/source flags cannot be checked`);
  const unitText = facts.units?.[element];
  if (!unitText) quirks.push(`manifest gives no unit for ${element}; unit unknown (CSV exports may be converted)`);
  const unit = unitText ? canonicalUnit(unitText, 'unknown') : 'unknown';
  const check = new Checker(element, unit);
  let stationId: string | null = null;
  let otherStation = 0, blank = 0, badDate = 0;
  const bad: string[] = [];
  for (const r of rows) {
    const id = r.STATION ?? '';
    if (stationId === null) stationId = id;
    else if (id !== stationId) { otherStation++; continue; }
    const date = r.DATE ?? '';
    if (!isValidDate(date)) { badDate++; continue; }
    const cell = (r[element] ?? '').trim();
    if (cell === '') { blank++; continue; }
    const raw = Number(cell);
    if (!Number.isFinite(raw)) { bad.push(`${date} "${cell}"`); continue; }
    let m = '', q = '', s = '';
    if (hasAttr) [m = '', q = '', s = ''] = (r[attrCol] ?? '').split(',').map((x) => x.trim());
    const flags = [m && `M=${m}`, q && `Q=${q}`, s && `S=${s}`].filter((f): f is string => f !== '');
    check.add(date, raw, flags, m, q);
  }
  quirks.push(`${rows.length} rows, ${blank} with a blank ${element}`);
  if (otherStation > 0) quirks.push(`${otherStation} rows for other stations than ${stationId} ignored`);
  if (badDate > 0) quirks.push(`${badDate} rows with an invalid DATE ignored`);
  if (bad.length > 0) quirks.push(`${bad.length} non-numeric ${element} cells ignored: ${bad.slice(0, 10).join(', ')}`);
  check.report(quirks);
  return buildSeries({
    source_id: stationId ?? '', variable: element, unit,
    entries: check.entries, facts, quirks,
  });
}
