// Record types the publisher parsers return, and the few helpers they share (CSV reading with line
// numbers, local-time conversion, id de-duplication, sorting, quirk wording).
import { parse } from 'csv-parse/sync';
import { boxContains, type Box } from '../domain/geo.js';

/** Every parser returns its records plus a disclosure of each oddity met. */
export interface ParseResult<T> {
  /** Sorted by epoch_ms, ties by event_id. */
  readonly records: T[];
  /** Plain-language disclosures: blanks, impossible values, time interpretation, line endings... */
  readonly quirks: string[];
  /** Data rows read (header excluded); rows = records.length + unusable.length. */
  readonly rows: number;
  /** Rows that could not become records, each named (also counted in quirks). */
  readonly unusable: Unusable[];
}

export interface Unusable {
  /** 1-based line of the file where the row starts. */
  readonly line: number;
  readonly id: string | null;
  readonly reason: string;
}

export type { Box };

// ---- helpers shared by the parsers ----

export interface CsvRow {
  readonly line: number;
  readonly values: string[];
  /** Holds a quoted line break. */
  readonly multiline: boolean;
}

export interface CsvText {
  readonly header: string[];
  readonly rows: CsvRow[];
  /** Line breaks in the file: CRLF and bare LF (inside quoted fields included). */
  readonly crlf: number;
  readonly lf: number;
}

/**
 * Parses CSV, accepting CRLF and LF record ends in the same file (SPC hail mixes them). With
 * `columns` the file has no header row and these are its column names.
 */
export function readCsv(text: string, columns?: readonly string[]): CsvText {
  const buf = Buffer.from(text, 'utf8');
  const parsed = parse(buf, {
    bom: true, info: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'],
  }) as unknown as { record: string[]; info: { bytes: number } }[];
  // csv-parse's own line counter is unreliable across mixed endings: count LFs up to each record start.
  let start = 0;
  let line = 1;
  const rows = parsed.map(({ record, info }) => {
    while (start < buf.length && (buf[start] === 0x0a || buf[start] === 0x0d)) {
      if (buf[start] === 0x0a) line++;
      start++;
    }
    const row = { line, values: record, multiline: false };
    for (let i = start; i < info.bytes; i++) if (buf[i] === 0x0a && i < info.bytes - 1) { line++; row.multiline = true; }
    if (buf[info.bytes - 1] === 0x0a) line++;
    start = info.bytes;
    return row;
  });
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  if (columns) return { header: [...columns], rows, crlf, lf };
  const [head, ...data] = rows;
  return { header: head?.values ?? [], rows: data, crlf, lf };
}

/** Row values by column name; missing trailing columns read as ''. */
export function record(header: readonly string[], values: readonly string[], trim = false): Record<string, string> {
  const out: Record<string, string> = {};
  header.forEach((h, i) => (out[h] = trim ? (values[i] ?? '').trim() : (values[i] ?? '')));
  return out;
}

/** Number or null for blank / NA; NaN for text that is not a number. */
export function num(s: string | undefined): number | null {
  const t = (s ?? '').trim();
  if (t === '' || t === 'NA') return null;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** "-06:00" for -360 minutes. */
export function offsetText(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** A real calendar date's 00:00 UTC, or null (rejects 1999-02-30 and the like). */
export function dateMs(y: number, m: number, d: number): number | null {
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? ms : null;
}

/** Local date + clock time at a fixed UTC offset -> epoch ms, or null if not a real date/time. */
export function localToEpoch(y: number, m: number, d: number, hh: number, mm: number, ss: number, offsetMinutes: number): number | null {
  const day = dateMs(y, m, d);
  if (day === null || !(hh >= 0 && hh <= 23 && mm >= 0 && mm <= 59 && ss >= 0 && ss <= 59)) return null;
  return day + ((hh * 60 + mm - offsetMinutes) * 60 + ss) * 1000;
}

export function isoDate(y: number, m: number, d: number): string {
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

export function clock(hh: number, mm: number, ss: number): string {
  return `${pad(hh)}:${pad(mm)}:${pad(ss)}`;
}

/** "a, b, c and 4 more": names up to `max` items of a list in a quirk. */
export function sample(items: readonly (string | number)[], max = 10): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/** Counts of each value, most frequent first: "mw 65, ml 17". */
export function tally(values: readonly string[]): string {
  const c = new Map<string, number>();
  for (const v of values) c.set(v, (c.get(v) ?? 0) + 1);
  return [...c].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${JSON.stringify(k)} ${n}`).join(', ');
}

/** Quirk for line endings other than plain LF. */
export function lineEndingQuirk(csv: CsvText): string | null {
  const multi = csv.rows.filter((r) => r.multiline).length;
  const inside = multi > 0 ? `; ${multi} rows hold line breaks inside quoted fields (kept in the field text)` : '';
  if (csv.crlf > 0 && csv.lf > 0) return `mixed line endings: ${csv.crlf} CRLF and ${csv.lf} LF (either ends a row)${inside}`;
  if (csv.crlf > 0) return `CRLF line endings (${csv.crlf})${inside}`;
  return multi > 0 ? inside.slice(2) : null;
}

/**
 * Inclusive box test by plain comparison (a box with min_longitude > max_longitude crosses the
 * antimeridian). Not geo.boxContains: its modulo arithmetic drops points exactly on an edge
 * (e.g. -116.45 in a box ending at -116.45).
 */
export function inBox(box: Box, lat: number, lon: number): boolean {
  return boxContains(box, { latitude: lat, longitude: lon });
}

/** Points outside the manifest's coverage box, disclosed (kept as published). */
export function outsideBoxQuirk(records: readonly { event_id: string; latitude: number | null; longitude: number | null }[], box: Box | null | undefined): string | null {
  if (!box) return null;
  const out = records.filter((r) => r.latitude !== null && r.longitude !== null && !inBox(box, r.latitude, r.longitude));
  if (out.length === 0) return null;
  return `${out.length} rows have coordinates outside the coverage box (kept as published): ${sample(out.map((r) => r.event_id), 20)}`;
}

/**
 * Makes event ids unique (a repeat gets "#2", "#3"... in file order, disclosed) and sorts by
 * epoch_ms, then event_id. Also discloses when the file itself is not in time order.
 */
export function finish<T extends { event_id: string; epoch_ms: number }>(records: T[], quirks: string[]): T[] {
  const seen = new Map<string, number>();
  const repeated: string[] = [];
  const out = records.map((r) => {
    const n = (seen.get(r.event_id) ?? 0) + 1;
    seen.set(r.event_id, n);
    if (n === 1) return r;
    repeated.push(r.event_id);
    return { ...r, event_id: `${r.event_id}#${n}` };
  });
  if (repeated.length > 0) quirks.push(`${repeated.length} rows repeat an event id already used; renamed with a "#n" suffix: ${sample(repeated)}`);
  const inOrder = out.every((r, i) => i === 0 || out[i - 1]!.epoch_ms <= r.epoch_ms);
  if (!inOrder) quirks.push('file rows are not in time order; records sorted by time (ties by event_id)');
  return out.sort((a, b) => a.epoch_ms - b.epoch_ms || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
}
