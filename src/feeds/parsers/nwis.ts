// USGS NWIS daily values (parameter 00060 discharge, statistic 00003 mean), in the three shapes
// the pinned files come in: native RDB (# comments, header, "5s 15s..." format line, tabs),
// dataRetrieval write.table TSV (quoted, Flow/Flow_cd) and dataRetrieval write_csv CSV (flow/flow_cd).
// Decisions: -999999 (dataRetrieval's no-value code), a non-numeric value cell (Ice, Eqp, Ssn...)
// are no value (null, code kept in flags); negative flows, flows above the bound and values under an
// excluding qualifier are excluded by the data-quality rule (src/domain/quality.ts; raw value kept
// in flags); provisional (P) and estimated (e) values are kept and counted. Codes are normalised to the RDB ':' separator ("A e" -> "A:e").
import { parse } from 'csv-parse/sync';
import { buildSeries, countBy, describeCounts, splitLines, type Entry, type ManifestFacts } from '../series.js';
import { isValidDate } from '../../kernel/dates.js';
import type { DailySeries } from '../../domain/hazard/records.js';
import { exclusionFlags, screenNative } from '../../domain/quality.js';

// NWIS qualification codes under which a number is not the day's measured mean discharge.
const EXCLUDING_CODES = new Set(['<', '>', 'X', 'Ice', 'Eqp', 'Bkw', 'Dis', 'Mnt', 'Ssn', 'Rat', 'Fld', 'Pr', 'Zfl', '***']);

export function parseNwisDaily(text: string, facts: ManifestFacts = {}): DailySeries {
  const quirks: string[] = [];
  const lines = splitLines(text, quirks);
  const comments = lines.filter((l) => l.startsWith('#')).length;
  const body = lines.filter((l) => !l.startsWith('#') && l.trim() !== '');
  const headerLine = body[0] ?? '';
  const delimiter = headerLine.includes('\t') ? '\t' : ',';
  let dataLines = body;
  // RDB: the line after the header gives column formats (e.g. "5s 15s 20d 14n 10s"), not data.
  if (body[1] !== undefined && body[1].split('\t').every((c) => /^\d+[sdn]$/.test(c))) {
    dataLines = [body[0]!, ...body.slice(2)];
    quirks.push(`USGS RDB: ${comments} comment lines and a column-format line skipped`);
  } else if (comments > 0) quirks.push(`${comments} comment lines skipped`);
  const rows = parse(dataLines.join('\n'), { delimiter, relax_quotes: true }) as string[][];
  const header = rows[0] ?? [];
  const find = (re: RegExp) => header.findIndex((h) => re.test(h));
  const iSite = find(/^site_no$/);
  const iDate = find(/^(datetime|date)$/i);
  const iValue = find(/^(\d+_00060_00003|X_00060_00003|flow)$/i);
  const iCode = find(/^(\d+_00060_00003_cd|X_00060_00003_cd|flow_cd)$/i);
  if (iDate < 0 || iValue < 0) throw new Error(`NWIS file: no date/discharge column in header ${header.join(',')}`);

  const entries = new Map<string, Entry>();
  const codes = new Map<string, number>();
  const noValue = new Map<string, number>();
  let site: string | null = null;
  let otherSite = 0, duplicates = 0, blank = 0, badDate = 0, unsorted = 0, prevDate = '';
  for (const r of rows.slice(1)) {
    const s = iSite >= 0 ? r[iSite] ?? '' : '';
    if (site === null) site = s;
    else if (s !== site) { otherSite++; continue; }
    const date = r[iDate] ?? '';
    if (!isValidDate(date)) { badDate++; continue; }
    if (date <= prevDate) unsorted++;
    prevDate = date;
    const code = (iCode >= 0 ? r[iCode] ?? '' : '').trim().split(/[\s:]+/).filter(Boolean).join(':');
    const cell = (r[iValue] ?? '').trim();
    countBy(codes, code);
    if (entries.has(date)) { duplicates++; continue; }
    if (cell === '' && code === '') { blank++; continue; } // gauge not operated: no row content
    const v = Number(cell);
    let reason: string | null = null;
    if (cell === '') reason = 'blank';
    else if (!Number.isFinite(v)) reason = cell; // NWIS writes Ice, Eqp, Ssn, *** in the value cell
    else if (v === -999999) reason = '-999999';
    if (reason === null) {
      // The data-quality rule (src/domain/quality.ts): a qualifier saying the number is not the
      // day's discharge, or a value outside the physical bounds, excludes the value (listed).
      const excludingCode = code.split(':').find((c) => EXCLUDING_CODES.has(c));
      const excluded = excludingCode !== undefined ? 'publisher_qualifier' : screenNative('00060', 'ft3/s', v);
      if (excluded !== null) {
        countBy(noValue, `excluded ${excluded}${code ? ` (${code})` : ''}`);
        entries.set(date, { value: null, flags: [...(code ? [`cd=${code}`] : []), ...exclusionFlags(excluded, v)].join(';') });
        continue;
      }
    }
    if (reason !== null) {
      countBy(noValue, `${reason}${code ? ` (${code})` : ''}`);
      entries.set(date, { value: null, flags: [code && `cd=${code}`, `no_value=${reason}`].filter(Boolean).join(';') });
      continue;
    }
    const e: Entry = { value: v };
    if (code !== '' && code !== 'A') e.flags = `cd=${code}`; // 'A' (approved) is the default: no flag
    entries.set(date, e);
  }
  quirks.push(`${rows.length - 1} rows; qualification codes ${describeCounts(codes)}`);
  const provisional = [...codes].filter(([c]) => c.split(':').includes('P')).reduce((a, [, n]) => a + n, 0);
  const estimated = [...codes].filter(([c]) => c.split(':').includes('e')).reduce((a, [, n]) => a + n, 0);
  if (provisional > 0) quirks.push(`${provisional} provisional (P) rows kept (subject to revision)`);
  if (estimated > 0) quirks.push(`${estimated} estimated (e) rows kept`);
  if (noValue.size > 0) quirks.push(`rows with no value (null, code in flags): ${describeCounts(noValue)}`);
  if (blank > 0) quirks.push(`${blank} rows with empty value and code (no record that day)`);
  if (duplicates > 0) quirks.push(`${duplicates} duplicate dates ignored (first kept)`);
  if (unsorted > 0) quirks.push(`${unsorted} rows out of date order`);
  if (otherSite > 0) quirks.push(`${otherSite} rows for other sites than ${site} ignored`);
  if (badDate > 0) quirks.push(`${badDate} rows with an invalid date ignored`);
  return buildSeries({ source_id: site ?? '', variable: '00060', unit: 'ft3/s', entries, facts, quirks });
}
