// JSON Lines → keyed rows for the schedule table. One JSON object a line; blank lines are skipped;
// a line that is not an object is noted on its line and skipped. Keys become columns in the order
// first seen; values are read as text (numbers as JSON wrote them, nested values as JSON).
import type { ScheduleTable } from './schedule-table.js';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Deepest nesting a line may have; a schedule row is flat, and deeper values would overflow the stack when written back. */
export const MAX_LINE_NESTING = 64;

/** True when arrays and objects nest deeper than the limit (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const item of Object.values(v)) stack.push([item, depth + 1]);
  }
  return false;
}

export class JsonLinesReader {
  private readonly columns = new Map<string, number>();
  /** Lines that held a JSON object. */
  objects = 0;
  /** The first line nested deeper than MAX_LINE_NESTING: the file is refused as unreadable. */
  tooDeepLine: number | undefined;

  constructor(private readonly table: ScheduleTable) {}

  /** One line of the file (without its line break) and its 1-based number. */
  line(number: number, text: string): void {
    if (this.tooDeepLine !== undefined) return;
    const trimmed = text.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.table.noteRow(number, 'line is not valid JSON; skipped');
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.table.noteRow(number, 'line is not a JSON object; skipped');
      return;
    }
    if (nestsDeeperThan(value, MAX_LINE_NESTING)) {
      this.tooDeepLine = number;
      return;
    }
    this.objects++;
    const entries = Object.entries(value as Record<string, unknown>);
    const added: string[] = [];
    for (const [key] of entries) {
      if (!this.columns.has(key)) {
        this.columns.set(key, this.columns.size);
        added.push(key);
      }
    }
    if (added.length > 0) this.table.addColumns(number, added);
    const cells: string[] = new Array<string>(this.columns.size).fill('');
    for (const [key, item] of entries) cells[this.columns.get(key) ?? 0] = cellText(item);
    this.table.pushRecord(number, cells);
  }
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Feeds every line of a whole text to the reader (CRLF, LF and lone CR all end a line).
 * `onLines` is told the characters read (a line break counted as one) and the lines read, every
 * `every` lines. Returns how many lines there were.
 */
export function readJsonLines(text: string, reader: JsonLinesReader, onLines?: (read: number, lines: number) => void, every = 4096): number {
  const lines = text.split(LINE_BREAK);
  let read = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    reader.line(i + 1, line);
    if (onLines === undefined) continue;
    read += line.length + 1;
    if ((i + 1) % every === 0) onLines(Math.min(read, text.length), i + 1);
  }
  return lines.length;
}
