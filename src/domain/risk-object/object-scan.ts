// Reads a risk object's JSON bytes chunk by chunk in one pass: the locations of
// exposure.locations[] are handed on a run at a time (every whole location a chunk holds, parsed
// together by the native JSON parser), and everything else is kept as the document's skeleton
// (peril, region, currency, source fidelity, values, provenance) with its locations counted. A
// schedule is never held whole: memory is one chunk and one run of locations. Pure.
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isSpace, JsonPathTracker, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.js';

export interface ObjectSkeleton {
  /** The document with exposure.locations read as []. */
  document: Record<string, unknown>;
  /** How many locations the array held. */
  locations: number;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const LOCATIONS = ['exposure', 'locations'];

export class ObjectScanner {
  /** Where the skeleton's bytes stand; the locations array's bytes bypass it (scanArray). */
  private readonly path = new JsonPathTracker(LOCATIONS.length);
  /** Pieces of the skeleton's bytes, in order. */
  private readonly kept: Buffer[] = [];
  /** Inside the locations array. */
  private inArray = false;
  // The array's scanning state between chunks: nesting below the array, inside a string, after a backslash.
  private depth = 0;
  private string = false;
  private escape = false;
  /** Bytes of the run of locations not yet handed on (begun in earlier chunks). */
  private pending: Buffer[] = [];
  private count = 0;
  /** A location has begun since the last comma at the array's own level. */
  private open = false;

  /** Bytes of the skeleton kept so far. */
  private keptBytes = 0;
  /** Where the locations array's '[' stands in the skeleton's bytes; -1 until (or unless) found. */
  private slotAt = -1;

  /**
   * `onLocations` is handed each run of whole locations, parsed; without it they are only counted.
   * `onArrayBytes` is handed the array's own bytes between its brackets, unparsed, in order.
   */
  constructor(private readonly onLocations?: (locations: unknown[]) => void, private readonly onArrayBytes?: (bytes: Buffer) => void) {}

  feed(chunk: Buffer): void {
    let keptFrom = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.inArray) {
        const end = this.scanArray(chunk, i);
        if (end < 0) return;
        // The array's closing ']' is kept with what follows, and stepped over next to close it.
        this.inArray = false;
        keptFrom = end;
        i = end;
        continue;
      }
      const b = chunk[i]!;
      i += 1;
      if (this.path.step(b) === LOCATIONS.length && b === OPEN_ARRAY && this.path.at(LOCATIONS)) {
        this.keep(chunk.subarray(keptFrom, i));
        this.slotAt = this.keptBytes - 1;
        this.inArray = true;
      }
    }
    if (!this.inArray) this.keep(chunk.subarray(keptFrom));
  }

  private keep(bytes: Buffer): void {
    this.kept.push(Buffer.from(bytes));
    this.keptBytes += bytes.byteLength;
  }

  /**
   * Scans the locations array from `from`: the index of its closing ']', or -1 when the chunk ends
   * inside it. Every run of whole locations is handed on; a location cut by the chunk's end waits.
   */
  private scanArray(chunk: Buffer, from: number): number {
    let depth = this.depth;
    let string = this.string;
    let escape = this.escape;
    let open = this.open;
    let count = this.count;
    let cut = -1;
    let closed = -1;
    for (let i = from; i < chunk.length; i += 1) {
      if (string) {
        // Strings are most of the bytes: their end is found by the native search.
        const end = stringEnd(chunk, i, escape);
        escape = end < 0 && trailingEscape(chunk, escape ? i + 1 : i);
        if (end < 0) break;
        string = false;
        i = end;
        continue;
      }
      const b = chunk[i]!;
      if (b === QUOTE) string = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth += 1;
      else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (depth === 0) { closed = i; break; }
        depth -= 1;
        continue;
      } else if (b === COMMA && depth === 0) {
        open = false;
        cut = i;
        continue;
      } else if (isSpace(b)) continue;
      if (!open && depth <= 1) {
        // The first byte of a location at the array's own level (a bracket has raised the depth to 1).
        open = true;
        count += 1;
      }
    }
    this.depth = depth;
    this.string = string;
    this.escape = escape;
    this.open = open;
    this.count = count;
    if (this.onArrayBytes && (closed >= 0 ? closed : chunk.length) > from) this.onArrayBytes(chunk.subarray(from, closed >= 0 ? closed : chunk.length));
    if (closed >= 0) {
      this.handOn(chunk.subarray(from, closed));
      this.pending = [];
      return closed;
    }
    if (cut >= 0) {
      this.handOn(chunk.subarray(from, cut));
      this.pending = [Buffer.from(chunk.subarray(cut + 1))];
    } else {
      this.pending.push(Buffer.from(chunk.subarray(from)));
    }
    return -1;
  }

  /** The pending bytes and `tail`: whole locations separated by commas. */
  private handOn(tail: Buffer): void {
    if (!this.onLocations) return;
    const parsed = JSON.parse(Buffer.concat([OPEN, ...this.pending, tail, CLOSE]).toString('utf8')) as unknown[];
    if (parsed.length > 0) this.onLocations(parsed);
  }

  /**
   * The skeleton as canonical bytes (the document with its locations array written []) and where
   * that array's '[' stands in them (-1: the document has no exposure.locations array).
   */
  skeletonBytes(): { bytes: Buffer; slot: number } {
    return { bytes: Buffer.concat(this.kept), slot: this.slotAt };
  }

  skeleton(): ObjectSkeleton {
    return { document: JSON.parse(Buffer.concat(this.kept).toString('utf8')) as Record<string, unknown>, locations: this.count };
  }
}

/**
 * The index of the quote closing a string whose bytes resume at `from` (the byte at `from` escaped
 * when `escaped`), or -1 when the chunk ends first.
 */
function stringEnd(chunk: Buffer, from: number, escaped: boolean): number {
  const low = escaped ? from + 1 : from;
  let at = low;
  for (;;) {
    const quote = chunk.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let k = quote - 1; k >= low && chunk[k] === BACKSLASH; k -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** Whether a chunk ending inside a string ends on an escaping backslash (counted from `low`). */
function trailingEscape(chunk: Buffer, low: number): boolean {
  let backslashes = 0;
  for (let k = chunk.length - 1; k >= low && chunk[k] === BACKSLASH; k -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}
