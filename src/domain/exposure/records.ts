// Delimited text → records, one callback per record, never throwing. RFC 4180 quoting, made
// tolerant the way broker files need: a quote opens a quoted field only at the start of a field
// (after spaces); text after a closing quote is kept; CRLF, LF and lone CR all end a line; an
// unclosed quote (at end of input, or one that would swallow more than MAX_QUOTED_CHARS) is read
// as a literal character and the record re-read without quoting.
//
// Fed whole (readDelimitedRecords) or in chunks (DelimitedRecordReader.write / end), so a stream
// can drive it; an incomplete record at the end of a chunk is kept and re-read with the next one.

/** `read`: the characters of the whole input read up to the end of this record. */
export type RecordHandler = (line: number, cells: string[], read: number) => void;
export type RecordNoteHandler = (line: number, reason: string) => void;

/** A quoted field longer than this is taken to be an unclosed quote. */
export const MAX_QUOTED_CHARS = 65536;

const LF = 10;
const CR = 13;
const QUOTE = 34;
const SPACE = 32;

const INCOMPLETE = -1;
const UNCLOSED = -2;

export class DelimitedRecordReader {
  private readonly delim: number;
  private buffer = '';
  private line = 1;
  private stopped = false;
  private cells: string[] = [];
  private breaks = 0;
  /** Characters of the input before this.buffer. */
  private consumed = 0;

  /**
   * @param delimiter one of , ; \t |
   * @param onRecord called with the 1-based line the record starts on and its fields
   * @param onNote called when a quote had to be read literally
   * @param maxRecords stop after this many records (sniffing reads a sample)
   */
  constructor(
    delimiter: string,
    private readonly onRecord: RecordHandler,
    private readonly onNote: RecordNoteHandler = () => {},
    private readonly maxRecords = Infinity,
  ) {
    this.delim = delimiter.charCodeAt(0);
  }

  private emitted = 0;

  write(chunk: string): void {
    if (this.stopped) return;
    this.buffer = this.buffer === '' ? chunk : this.buffer + chunk;
    this.drain(false);
  }

  end(): void {
    if (this.stopped) return;
    this.drain(true);
    this.buffer = '';
    this.stopped = true;
  }

  private drain(final: boolean): void {
    const buf = this.buffer;
    const n = buf.length;
    let pos = 0;
    while (pos < n && this.emitted < this.maxRecords) {
      let end = this.record(buf, pos, final, false);
      if (end === INCOMPLETE) break;
      if (end === UNCLOSED) {
        this.onNote(this.line, 'unclosed quote read as a literal character');
        end = this.record(buf, pos, final, true);
        if (end < 0) break; // only INCOMPLETE is possible without quoting
      }
      this.emitted++;
      this.onRecord(this.line, this.cells, this.consumed + end);
      this.line += this.breaks;
      pos = end;
    }
    if (this.emitted >= this.maxRecords) this.stopped = true;
    this.consumed += pos;
    this.buffer = pos >= n ? '' : buf.slice(pos);
  }

  /** Reads one record from start; fills this.cells / this.breaks; returns the index after it. */
  private record(buf: string, start: number, final: boolean, literalQuotes: boolean): number {
    const n = buf.length;
    const delim = this.delim;
    const cells: string[] = [];
    let breaks = 0;
    let i = start;
    for (;;) {
      let value: string;
      let k = i;
      while (k < n && buf.charCodeAt(k) === SPACE) k++;
      if (!literalQuotes && k < n && buf.charCodeAt(k) === QUOTE) {
        value = '';
        let p = k + 1;
        for (;;) {
          const q = buf.indexOf('"', p);
          if (q === -1 || q - k > MAX_QUOTED_CHARS) {
            if (!final && q === -1 && n - k <= MAX_QUOTED_CHARS) return INCOMPLETE;
            return UNCLOSED;
          }
          breaks += countBreaks(buf, p, q);
          value += buf.slice(p, q);
          if (q + 1 < n && buf.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            p = q + 2;
            continue;
          }
          if (q + 1 >= n && !final) return INCOMPLETE; // the next chunk may start with a quote
          p = q + 1;
          break;
        }
        let r = p;
        while (r < n) {
          const c = buf.charCodeAt(r);
          if (c === delim || c === LF || c === CR) break;
          r++;
        }
        if (r === n && !final) return INCOMPLETE;
        if (r > p) value += buf.slice(p, r);
        i = r;
      } else {
        let r = i;
        while (r < n) {
          const c = buf.charCodeAt(r);
          if (c === delim || c === LF || c === CR) break;
          r++;
        }
        if (r === n && !final) return INCOMPLETE;
        value = buf.slice(i, r);
        i = r;
      }
      cells.push(value);
      if (i >= n) break;
      const c = buf.charCodeAt(i);
      if (c === delim) {
        i++;
        if (i >= n) {
          if (!final) return INCOMPLETE;
          cells.push('');
          break;
        }
        continue;
      }
      if (c === LF) {
        i++;
      } else {
        // CR or CRLF; a CR at the end of a chunk may be the first half of a CRLF.
        if (i + 1 >= n && !final) return INCOMPLETE;
        i += i + 1 < n && buf.charCodeAt(i + 1) === LF ? 2 : 1;
      }
      breaks++;
      break;
    }
    this.cells = cells;
    this.breaks = breaks;
    return i;
  }
}

function countBreaks(buf: string, from: number, to: number): number {
  let breaks = 0;
  for (let i = from; i < to; i++) {
    const c = buf.charCodeAt(i);
    if (c === LF) breaks++;
    else if (c === CR && (i + 1 >= to || buf.charCodeAt(i + 1) !== LF)) breaks++;
  }
  return breaks;
}

/** Reads a whole text; returns nothing, calls onRecord for every record (blank lines included). */
export function readDelimitedRecords(
  text: string,
  delimiter: string,
  onRecord: RecordHandler,
  onNote?: RecordNoteHandler,
  maxRecords?: number,
): void {
  const reader = new DelimitedRecordReader(delimiter, onRecord, onNote, maxRecords);
  reader.write(text);
  reader.end();
}
