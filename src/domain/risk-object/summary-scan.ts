// Reads an object's list summary (peril, location count, source file) from its JSON bytes chunk by
// chunk, without parsing the document: the locations are counted, never held, and only the small
// top-level members the summary reads (peril, provenance) are parsed. For documents stored before
// the summary columns existed (a 100 MB object costs one chunk of memory). Pure.
import { summaryOf, type ObjectSummary } from '../list-summaries.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, KEY_LIMIT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.js';

/** The top-level members the summary reads, parsed whole (they are small). */
const READ = new Set(['peril', 'provenance']);

export class ObjectSummaryScanner {
  private readonly stack: number[] = [];
  /** The member name last read at each depth (1: top level, 2: inside a top-level member). */
  private readonly keys: Array<string | undefined> = [];
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private keyBytes: number[] | undefined;
  /** The bytes of a read member's value, while inside it. */
  private capture: number[] | undefined;
  private readonly members: Record<string, unknown> = {};
  /** Depth of exposure.locations while inside it, else -1. */
  private locationsDepth = -1;
  private elementOpen = false;
  private locations: number | null = null;

  feed(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i += 1) this.step(chunk[i]!);
  }

  summary(): ObjectSummary {
    return summaryOf(this.members, this.locations);
  }

  private step(b: number): void {
    this.capture?.push(b);
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) {
        this.escaped = true;
        // Never matched: the names read are written without escapes.
        if (this.keyBytes) this.keyBytes.length = KEY_LIMIT + 1;
      } else if (b === QUOTE) {
        this.inString = false;
        if (this.keyBytes) {
          this.keys[this.stack.length] = this.keyBytes.length <= KEY_LIMIT ? Buffer.from(this.keyBytes).toString('utf8') : undefined;
          this.keyBytes = undefined;
        }
      } else if (this.keyBytes && this.keyBytes.length <= KEY_LIMIT) this.keyBytes.push(b);
      return;
    }
    if (isSpace(b)) return;
    const depth = this.stack.length;
    // The first byte of a location: at the array's own depth, after '[' or ','.
    if (depth === this.locationsDepth && !this.elementOpen && b !== CLOSE_ARRAY && b !== COMMA) {
      this.elementOpen = true;
      this.locations! += 1;
    }
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.expectKey && depth <= 2) this.keyBytes = [];
        this.expectKey = false;
        return;
      case OPEN_OBJECT:
        this.stack.push(b);
        this.expectKey = true;
        return;
      case OPEN_ARRAY:
        this.stack.push(b);
        this.expectKey = false;
        if (depth === 2 && this.locationsDepth < 0 && this.locations === null && this.stack[0] === OPEN_OBJECT && this.stack[1] === OPEN_OBJECT
          && this.keys[1] === 'exposure' && this.keys[2] === 'locations') {
          this.locationsDepth = 3;
          this.locations = 0;
        }
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        this.expectKey = false;
        if (depth === this.locationsDepth) this.locationsDepth = -1;
        this.stack.pop();
        if (depth === 1) this.endMember();
        return;
      case COMMA:
        if (depth === this.locationsDepth) this.elementOpen = false;
        if (depth === 1) this.endMember();
        if (this.stack[depth - 1] === OPEN_OBJECT) this.expectKey = true;
        return;
      case COLON:
        if (depth === 1 && READ.has(this.keys[1] ?? '')) this.capture = [];
        return;
      default:
        return;
    }
  }

  /** A top-level member ended (at ',' or the closing '}', the last byte captured). */
  private endMember(): void {
    if (!this.capture) return;
    const bytes = this.capture.slice(0, -1);
    this.capture = undefined;
    this.members[this.keys[1]!] = JSON.parse(Buffer.from(bytes).toString('utf8'));
  }
}
