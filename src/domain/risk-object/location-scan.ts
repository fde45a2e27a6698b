// Finds exposure.locations[] in a risk object's JSON bytes without parsing the document: a byte
// scanner fed chunk by chunk, so a page of a 300,000-location object costs one page of parsing.
// Pure.
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isSpace, JsonPathTracker, OPEN_ARRAY, OPEN_OBJECT } from './json-bytes.js';

/** The byte offset where location `index` starts: lets the next page resume without rescanning. */
export interface LocationMark { index: number; offset: number }

export interface LocationPage {
  /** The raw JSON bytes of each location in the page, in order. */
  items: Buffer[];
  /** Where the location after the page starts, or undefined when the page reached the end. */
  next: LocationMark | undefined;
}

/** The path of the array read: member exposure of the document, member locations of that. */
const PATH = ['exposure', 'locations'];

/**
 * Reads locations [start, start + limit) from a document's bytes. `from` resumes at a location
 * already found (the caller vouches that location from.index starts at byte from.offset); chunks
 * then begin at that offset.
 */
export class LocationScanner {
  private readonly path: JsonPathTracker;
  /** Depth of the locations array while inside it, else -1. */
  private arrayDepth = -1;
  private index: number;
  private elementStart = -1;
  private parts: Buffer[] = [];
  private offset: number;
  readonly items: Buffer[] = [];
  private nextMark: LocationMark | undefined;
  private finished = false;

  constructor(private readonly start: number, private readonly limit: number, from?: LocationMark) {
    this.index = from?.index ?? 0;
    this.offset = from?.offset ?? 0;
    this.path = new JsonPathTracker(PATH.length, from ? [OPEN_OBJECT, OPEN_OBJECT, OPEN_ARRAY] : []);
    if (from) this.arrayDepth = 3;
  }

  get done(): boolean { return this.finished; }

  /** Feeds the next chunk; true once the page is complete (feed no more). */
  feed(chunk: Buffer): boolean {
    const base = this.offset;
    let i = 0;
    for (; i < chunk.length && !this.finished; i += 1) this.step(chunk[i]!, base + i, chunk, i);
    if (!this.finished && this.elementStart >= 0 && this.collecting()) {
      this.parts.push(chunk.subarray(Math.max(0, this.elementStart - base)));
      this.elementStart = base + chunk.length;
    }
    this.offset = base + chunk.length;
    return this.finished;
  }

  /** The page once the bytes are exhausted or the page is complete. */
  page(): LocationPage {
    return { items: this.items, next: this.nextMark };
  }

  private collecting(): boolean {
    return this.index >= this.start && this.index < this.start + this.limit;
  }

  private step(b: number, at: number, chunk: Buffer, i: number): void {
    const depth = this.path.step(b);
    if (depth < 0) return;
    // The first byte of a location: at the array's own depth, after '[' or ','.
    if (depth === this.arrayDepth && this.elementStart < 0 && b !== CLOSE_ARRAY && b !== COMMA) this.elementStart = at;
    switch (b) {
      case OPEN_ARRAY:
        if (this.arrayDepth < 0 && this.path.at(PATH)) this.arrayDepth = depth + 1;
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth === this.arrayDepth && b === CLOSE_ARRAY) {
          this.endElement(at, chunk, i, false);
          this.finished = true;
          return;
        }
        if (this.path.stack.length === 0) this.finished = true;
        return;
      case COMMA:
        if (depth === this.arrayDepth) this.endElement(at, chunk, i, true);
        return;
      default:
        return;
    }
  }

  private endElement(at: number, chunk: Buffer, i: number, more: boolean): void {
    if (this.elementStart < 0) return; // an empty array
    if (this.collecting()) {
      const from = Math.max(0, i - (at - this.elementStart));
      this.parts.push(chunk.subarray(from, i));
      this.items.push(trimEnd(Buffer.concat(this.parts)));
    }
    this.parts = [];
    this.elementStart = -1;
    this.index += 1;
    if (this.index === this.start + this.limit) {
      if (more) this.nextMark = { index: this.index, offset: at + 1 };
      this.finished = true;
    }
  }
}

function trimEnd(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && isSpace(bytes[end - 1]!)) end -= 1;
  return bytes.subarray(0, end);
}
