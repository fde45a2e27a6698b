// The Purdue major-outage table (Mukherjee, Nateghi and Hastak 2018, Data in Brief 19): sheet
// 'Masterdata', column names on the row whose second cell is OBS, units on the next, one event per
// row after. Read with SheetJS like the OE-417 workbooks (one library for both formats). Every
// column is kept verbatim in `fields`; "NA" and empty cells are missing values, never zeros.
import * as XLSX from '@e965/xlsx';
import type { OutageEventSet, PurdueOutage } from '../../domain/outages/records.js';
import { cellDate, cellMinutes, READ_OPTIONS } from './oe417.js';

type Cell = string | number | boolean | null;

const missing = (v: Cell): boolean => v === null || (typeof v === 'string' && /^\s*(na|)\s*$/i.test(v));
const num = (v: Cell): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null);
const pad = (n: number): string => String(n).padStart(2, '0');

export function parsePurdueOutages(bytes: Uint8Array): OutageEventSet {
  const wb = XLSX.read(bytes, READ_OPTIONS);
  const sheet = wb.Sheets.Masterdata;
  if (!sheet) throw new Error(`no Masterdata sheet (sheets ${wb.SheetNames.join(', ')})`);
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const rows = XLSX.utils.sheet_to_json<Cell[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  const at = rows.findIndex((r) => r?.[1] === 'OBS');
  if (at < 0) throw new Error('no header row naming OBS');
  const header = rows[at]!.map((c) => (c === null ? '' : String(c).trim()));
  const col = (name: string): number => {
    const k = header.indexOf(name);
    if (k < 0) throw new Error(`no ${name} column`);
    return k;
  };
  const [obs, year, state, postal, startDate, startTime, cause, detail, duration, loss, customers] =
    ['OBS', 'YEAR', 'U.S._STATE', 'POSTAL.CODE', 'OUTAGE.START.DATE', 'OUTAGE.START.TIME', 'CAUSE.CATEGORY', 'CAUSE.CATEGORY.DETAIL', 'OUTAGE.DURATION', 'DEMAND.LOSS.MW', 'CUSTOMERS.AFFECTED'].map(col) as [number, number, number, number, number, number, number, number, number, number, number];
  const events: PurdueOutage[] = [];
  let customersMissing = 0;
  for (let i = at + 2; i < rows.length; i++) {
    const r = rows[i] ?? [];
    if (num(r[obs] ?? null) === null) continue;
    const fields: Record<string, string | number | null> = {};
    header.forEach((h, k) => { if (h !== '' && h !== 'variables') fields[h] = (r[k] ?? null) as string | number | null; });
    const day = missing(r[startDate] ?? null) ? null : cellDate(r[startDate] ?? null, date1904);
    const minutes = missing(r[startTime] ?? null) ? null : cellMinutes(r[startTime] ?? null);
    const c = missing(r[customers] ?? null) ? null : num(r[customers] ?? null);
    if (c === null) customersMissing++;
    events.push({
      event_id: String(r[obs]), row: i + 1, fields,
      year: Number(r[year]), state: String(r[state] ?? ''), postal_code: String(r[postal] ?? ''),
      date: day?.date ?? null,
      start_local: day && minutes !== null ? `${day.date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` : null,
      cause_category: String(r[cause] ?? ''), cause_detail: missing(r[detail] ?? null) ? null : String(r[detail]),
      duration_minutes: missing(r[duration] ?? null) ? null : num(r[duration] ?? null),
      customers: c,
      demand_loss_mw: missing(r[loss] ?? null) ? null : num(r[loss] ?? null),
    });
  }
  return {
    kind: 'purdue', events: [], purdue: events, years_not_read: [],
    counts: { event_rows: events.length, customers_missing: customersMissing, rows_without_start_date: events.filter((e) => e.date === null).length },
    quirks: ['NA and empty cells are missing values, not zeros', 'times are as published (local, no zone stated)'],
  };
}
