// DOE OE-417 annual summaries (2002-2023 as legacy .xls workbooks, BIFF8), read with SheetJS
// (@e965/xlsx: SheetJS 0.20.3 as published on npm; the `xlsx` name there is frozen at 0.18.5).
// Decisions:
// - Columns are found by the header row's own words (they change in 2011 and 2015); each event
//   keeps every header's cell verbatim in `fields`.
// - Rows without a date (draftRows): month labels, notes and a page's repeated header are skipped;
//   a row with its own area and a region or count is DOE's per-state split of the event above,
//   kept as its own row dated by the row above (flagged dated_by_row_above); any other continues
//   the row above (a wrapped area or type), its text appended there on a new line.
// - Dates are Excel serials or "MM/DD/YYYY" text; times are day fractions or text ("4:00 a.m.",
//   "Noon", "Evening": a word names no minute and leaves the time unknown). DOE states no time
//   zone: times are kept as written and read as UTC only to order rows.
// - Restoration: a date and time (2011 on) or one cell (2002-2010: a serial, or text such as
//   "5:00 p.m. January 14" read in the event's year, the next year when that is before the start).
// - Customers: a number; text digits with commas; "N million"; "approximately N"; "over N" (read
//   as N, noted at_least); "N (peak)", "N at peak" (noted qualified). "Unknown", "NA", "N/A", "-",
//   ranges ("500-600") and any other text ("1 PG&E", "93,000 at peak 133,000 cumulative") are not
//   read (null, counted by reason): never guessed. customers_note says which rule read the cell.
// - The 2000-2001 PDF tables are pinned but not read (years_not_read): no PDF reader here reads
//   their layout faithfully.
import * as XLSX from '@e965/xlsx';
import { placeArea } from '../../domain/outages/areas.js';
import { causeOf } from '../../domain/outages/causes.js';
import type { OutageEvent, OutageEventSet } from '../../domain/outages/records.js';

type Cell = string | number | boolean | null;

/** Cell values only: no formatted text, HTML, number formats or styles (a third of the read time). */
export const READ_OPTIONS: XLSX.ParsingOptions = { type: 'buffer', dense: true, cellText: false, cellHTML: false, cellNF: false, cellStyles: false };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Which column holds what, by the header's words. */
interface Columns {
  date: number; time: number; restDate: number; restTime: number; restoration: number;
  area: number; nerc: number; type: number; alert: number; loss: number; customers: number;
}

const find = (header: readonly string[], re: RegExp): number => header.findIndex((h) => re.test(h));

function columnsOf(header: readonly string[]): Columns | null {
  const c: Columns = {
    date: find(header, /^date( event began)?$/i), time: find(header, /^time( event began)?$/i),
    restDate: find(header, /^date of restoration$/i), restTime: find(header, /^time of restoration$/i),
    restoration: find(header, /^restoration( time)?$/i), area: find(header, /^area( affected)?$/i),
    nerc: find(header, /^nerc region$/i), type: find(header, /^(type of disturbance|event type)$/i),
    alert: find(header, /^alert criteria$/i), loss: find(header, /^(loss \(megawatts\)|demand loss \(mw\))$/i),
    customers: find(header, /^number of customers affected/i),
  };
  return c.date < 0 || c.area < 0 || c.customers < 0 || c.type < 0 ? null : c;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const text = (v: Cell): string => (v === null || v === undefined ? '' : String(v).trim());

/** A date cell: an Excel serial (its fraction a time of day) or M/D/YYYY text. */
export function cellDate(v: Cell, date1904: boolean): { date: string; minutes: number | null } | null {
  if (typeof v === 'number' && v > 1000) {
    const d = XLSX.SSF.parse_date_code(v, { date1904 });
    if (!d) return null;
    const frac = v - Math.floor(v);
    return { date: `${d.y}-${pad(d.m)}-${pad(d.d)}`, minutes: frac > 0 ? d.H * 60 + d.M + (d.S >= 30 ? 1 : 0) : null };
  }
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text(v));
  if (!m) return null;
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  return { date: `${year}-${pad(Number(m[1]))}-${pad(Number(m[2]))}`, minutes: null };
}

/** A time cell: a day fraction, "H:MM a.m.", "HH:MM", "Noon", "Midnight"; null for words naming no minute. */
export function cellMinutes(v: Cell): number | null {
  if (typeof v === 'number') return v >= 0 && v < 1 ? Math.round(v * 1440) % 1440 : null;
  const t = text(v).toLowerCase();
  if (t === 'noon') return 720;
  if (t === 'midnight') return 0;
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap])?\.?\s*m?\.?/.exec(t);
  if (!m) return null;
  let h = Number(m[1]);
  if (m[3] === 'p' && h < 12) h += 12;
  if (m[3] === 'a' && h === 12) h = 0;
  return h < 24 && Number(m[2]) < 60 ? h * 60 + Number(m[2]) : null;
}

/** "5:00 p.m. January 14", "Noon November 10": a time and a month-day in the event's year (or the next). */
function textRestoration(t: string, start: string): string | null {
  const m = /^(.*?)\s*([a-z]+)\.?\s+(\d{1,2})(?:,?\s*(\d{4}))?$/i.exec(t.trim());
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name.startsWith(m[2]!.toLowerCase()) && m[2]!.length >= 3);
  const minutes = cellMinutes(m[1]!.trim());
  if (month < 0 || minutes === null) return null;
  let year = m[4] ? Number(m[4]) : Number(start.slice(0, 4));
  let iso = `${year}-${pad(month + 1)}-${pad(Number(m[3]))}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  if (!m[4] && iso < start.slice(0, 16)) iso = `${(year += 1)}${iso.slice(4)}`;
  return iso;
}

const localIso = (date: string, minutes: number | null): string | null =>
  minutes === null ? null : `${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

const UNREAD_COUNT = /^(unknown|unk|n\/?a|none|-+|tbd|\?)$/i;

/** The customers cell by the rule above: the count, or null and why. */
export function readCustomers(v: Cell): { value: number | null; note: string | null } {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? { value: Math.round(v), note: null } : { value: null, note: 'unreadable' };
  const raw = text(v);
  if (raw === '') return { value: null, note: 'empty' };
  const t = raw.replace(/\[\d+\]|\*+$/g, '').trim();
  if (UNREAD_COUNT.test(t)) return { value: null, note: 'unknown' };
  if (/^\d{1,3}(,\d{3})+$|^\d+$/.test(t)) return { value: Number(t.replace(/,/g, '')), note: 'text' };
  const million = /^(\d+(?:\.\d+)?)\s*million$/i.exec(t);
  if (million) return { value: Math.round(Number(million[1]) * 1e6), note: 'million' };
  const approx = /^(?:approx(?:imately|\.)?|about|~)\s*(\d{1,3}(?:,\d{3})+|\d+)$/i.exec(t);
  if (approx) return { value: Number(approx[1]!.replace(/,/g, '')), note: 'approximate' };
  const atLeast = /^(?:over|more than|greater than)\s+(\d{1,3}(?:,\d{3})+|\d+)$/i.exec(t);
  if (atLeast) return { value: Number(atLeast[1]!.replace(/,/g, '')), note: 'at_least' };
  const qualified = /^(\d{1,3}(?:,\d{3})+|\d+)\s*(?:\((?:peak|total|[a-z .]+)\)|at peak\b[^\d]*)$/i.exec(t);
  if (qualified) return { value: Number(qualified[1]!.replace(/,/g, '')), note: 'qualified' };
  if (/^\d[\d,]*\s*-\s*\d[\d,]*$/.test(t)) return { value: null, note: 'range' };
  return { value: null, note: 'unreadable' };
}

function readNumber(v: Cell): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const t = text(v).replace(/,/g, '');
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : null;
}

/** The 1-based header row and the columns it names, within the sheet's first rows. */
function headerOf(rows: readonly Cell[][]): { at: number; header: string[]; columns: Columns } | null {
  for (let i = 0; i < Math.min(rows.length, 8); i++) {
    const header = (rows[i] ?? []).map((c) => text(c).replace(/\s+/g, ' '));
    const columns = columnsOf(header);
    if (columns) return { at: i, header, columns };
  }
  return null;
}

/** The sheet DOE put the year's table on: the first whose header row names the columns. */
function tableSheet(wb: XLSX.WorkBook): { name: string; rows: Cell[][] } {
  for (const name of wb.SheetNames) {
    const rows = XLSX.utils.sheet_to_json<Cell[]>(wb.Sheets[name]!, { header: 1, raw: true, defval: null, blankrows: true });
    if (headerOf(rows)) return { name, rows };
  }
  throw new Error(`no sheet holds an OE-417 header row (sheets ${wb.SheetNames.join(', ')})`);
}

interface Draft { row: number; cells: Cell[]; dated_by_row_above: boolean; date_cell: Cell; time_cell: Cell }

/** What a row without a date is: a note, a page's repeated header, a sub-row of its own, or a continuation. */
function undatedRow(cells: readonly Cell[], c: Columns, header: readonly string[]): 'note' | 'page_header' | 'sub_row' | 'continuation' {
  const filled = cells.map((v, k) => (text(v) === '' ? -1 : k)).filter((k) => k >= 0);
  if (filled.every((k) => k === c.date)) return 'note';
  if (/^table\b/i.test(text(cells[c.date] ?? null)) || filled.some((k) => text(cells[k] ?? null).replace(/\s+/g, ' ') === header[k])
    || /^area( affected)?$/i.test(text(cells[c.area] ?? null))) return 'page_header';
  const stated = [c.nerc, c.customers].some((k) => text(cells[k] ?? null) !== '');
  return text(cells[c.area] ?? null) !== '' && stated ? 'sub_row' : 'continuation';
}

/**
 * The event rows of one sheet. A dated row opens an event. An undated row is a note (text in the
 * date column alone: footnotes, "None") or a page's repeated header, both skipped; a sub-row (its
 * own area and a region or customers count: DOE's per-state split of the event above) is its own
 * row dated by the row above, flagged; any other is a continuation, its text joined to the row above.
 */
function draftRows(rows: readonly Cell[][], head: { at: number; header: string[]; columns: Columns }, date1904: boolean, counts: Map<string, number>): Draft[] {
  const c = head.columns;
  const drafts: Draft[] = [];
  const bump = (k: string): void => void counts.set(k, (counts.get(k) ?? 0) + 1);
  for (let i = head.at + 1; i < rows.length; i++) {
    const cells = [...(rows[i] ?? [])];
    if (cells.every((v) => text(v) === '')) continue;
    if (cellDate(cells[c.date] ?? null, date1904) !== null) {
      drafts.push({ row: i + 1, cells, dated_by_row_above: false, date_cell: cells[c.date] ?? null, time_cell: c.time >= 0 ? cells[c.time] ?? null : null });
      continue;
    }
    const label = text(cells[0] ?? null).toLowerCase();
    if (MONTHS.includes(label) && cells.every((v, k) => k === 0 || k === c.date || text(v) === '' || text(v).toLowerCase() === label)) { bump('month_label_rows'); continue; }
    const prev = drafts[drafts.length - 1];
    const kind = undatedRow(cells, c, head.header);
    if (kind === 'note' || kind === 'page_header') { bump(`${kind}_rows_skipped`); continue; }
    if (!prev) { bump('rows_before_first_event_skipped'); continue; }
    if (kind === 'sub_row') {
      const time = c.time >= 0 && text(cells[c.time] ?? null) !== '' ? cells[c.time] ?? null : prev.time_cell;
      drafts.push({ row: i + 1, cells, dated_by_row_above: true, date_cell: prev.date_cell, time_cell: time });
      bump('sub_rows_dated_by_row_above');
      continue;
    }
    cells.forEach((v, k) => {
      if (text(v) === '' || k === c.date) return;
      prev.cells[k] = text(prev.cells[k] ?? null) === '' ? v : `${text(prev.cells[k] ?? null)}\n${text(v)}`;
    });
    bump('continuation_rows_joined');
  }
  return drafts;
}

function restorationOf(d: Draft, c: Columns, date1904: boolean, start: string | null): string | null {
  if (start === null) return null;
  if (c.restDate >= 0) {
    const day = cellDate(d.cells[c.restDate] ?? null, date1904);
    const minutes = c.restTime >= 0 ? cellMinutes(d.cells[c.restTime] ?? null) : null;
    return day ? localIso(day.date, minutes ?? day.minutes) : null;
  }
  if (c.restoration < 0) return null;
  const v = d.cells[c.restoration] ?? null;
  const serial = cellDate(v, date1904);
  if (serial) return localIso(serial.date, serial.minutes ?? 0);
  return typeof v === 'string' ? textRestoration(v, start) : null;
}

function eventOf(file: string, sheet: string, header: readonly string[], c: Columns, d: Draft, date1904: boolean): OutageEvent {
  const fields: Record<string, string | number | null> = {};
  header.forEach((h, k) => {
    if (h === '') return;
    const v = d.cells[k];
    fields[h] = v === null || v === undefined ? null : typeof v === 'boolean' ? String(v) : v;
  });
  const day = cellDate(d.date_cell, date1904);
  const minutes = cellMinutes(d.time_cell);
  const start = day ? localIso(day.date, minutes ?? day.minutes) : null;
  const restored = restorationOf(d, c, date1904, start);
  const startMs = start ? Date.parse(`${start}:00Z`) : null;
  const restoredMs = restored ? Date.parse(`${restored}:00Z`) : null;
  const area = text(d.cells[c.area] ?? null);
  const type = text(d.cells[c.type] ?? null);
  const customers = readCustomers(d.cells[c.customers] ?? null);
  return {
    event_id: `${file.slice(0, 4)}:${sheet}:${d.row}`,
    source: { file, sheet, row: d.row },
    fields,
    date: day?.date ?? null,
    dated_by_row_above: d.dated_by_row_above,
    start_local: start,
    epoch_ms: startMs ?? (day ? Date.parse(`${day.date}T00:00:00Z`) : null),
    restored_local: restored,
    duration_hours: startMs !== null && restoredMs !== null && restoredMs >= startMs ? (restoredMs - startMs) / 3_600_000 : null,
    area,
    placement: placeArea(area),
    nerc_region: text(d.cells[c.nerc] ?? null),
    event_type: type,
    alert_criteria: c.alert >= 0 ? text(d.cells[c.alert] ?? null) : null,
    cause: causeOf(type),
    customers: customers.value,
    customers_note: customers.note,
    demand_loss_mw: c.loss >= 0 ? readNumber(d.cells[c.loss] ?? null) : null,
  };
}

/** One annual workbook's events. */
export function parseOe417Workbook(file: string, bytes: Uint8Array, counts: Map<string, number> = new Map()): OutageEvent[] {
  const wb = XLSX.read(bytes, READ_OPTIONS);
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const { name, rows } = tableSheet(wb);
  const head = headerOf(rows)!;
  return draftRows(rows, head, date1904, counts).map((d) => eventOf(file, name, head.header, head.columns, d, date1904));
}

const tally = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);

/** Every annual summary of a snapshot: the workbooks read, the PDFs named as years not read. */
export function parseOe417(files: ReadonlyMap<string, Uint8Array>): OutageEventSet {
  const counts = new Map<string, number>();
  const events: OutageEvent[] = [];
  const notRead: { year: number; file: string; reason: string }[] = [];
  for (const name of [...files.keys()].sort()) {
    const year = Number(name.slice(0, 4));
    if (/\.pdf$/i.test(name)) {
      notRead.push({ year, file: name, reason: 'a PDF table (DOE Table B1); no reader here reads its layout faithfully, so the year is not read and is disclosed' });
      continue;
    }
    if (!/\.xls$/i.test(name)) continue;
    for (const e of parseOe417Workbook(name, files.get(name)!, counts)) {
      events.push(e);
      tally(counts, 'event_rows');
      if (e.date === null) tally(counts, 'rows_without_date');
      if (e.placement.unplaced === null) tally(counts, 'rows_placed');
      else tally(counts, `rows_unplaced_${e.placement.unplaced}`);
      if (e.customers === null) tally(counts, `customers_${e.customers_note}`);
      if (e.duration_hours === null) tally(counts, 'duration_unknown');
    }
  }
  const sorted: Record<string, number> = {};
  for (const k of [...counts.keys()].sort()) sorted[k] = counts.get(k)!;
  return {
    kind: 'oe417', events, years_not_read: notRead, counts: sorted,
    quirks: [
      'times are as DOE wrote them (no time zone stated) and are read as UTC only to order and cluster rows',
      'continuation rows (a wrapped area or type on the next row) are joined to the row above on a new line',
      'customers affected is read only when the cell is a count; Unknown, NA, ranges and footnoted text are null, counted by reason',
      ...notRead.map((n) => `${n.year} (${n.file}) not read: ${n.reason}`),
    ],
  };
}
