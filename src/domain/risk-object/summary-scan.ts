// Reads an object's list summary (peril, location count, source file) from its JSON bytes chunk by
// chunk, without parsing the document: the locations are counted, never held, and only the small
// top-level members the summary reads (peril, provenance) are parsed. For documents stored before
// the summary columns existed (a 100 MB object costs one chunk of memory). Pure.
import { summaryOf, type ObjectSummary } from '../list-summaries.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, JsonPathTracker, OPEN_ARRAY } from './json-bytes.js';

/** The top-level members the summary reads, parsed whole (they are small). */
const READ = new Set(['peril', 'provenance']);
const LOCATIONS = ['exposure', 'locations'];

export class ObjectSummaryScanner {
  /** Member names are read at the top level and inside a top-level member. */
  private readonly path = new JsonPathTracker(2);
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
    const depth = this.path.step(b);
    if (depth < 0) return;
    // The first byte of a location: at the array's own depth, after '[' or ','.
    if (depth === this.locationsDepth && !this.elementOpen && b !== CLOSE_ARRAY && b !== COMMA) {
      this.elementOpen = true;
      this.locations! += 1;
    }
    switch (b) {
      case OPEN_ARRAY:
        if (this.locationsDepth < 0 && this.locations === null && this.path.at(LOCATIONS)) {
          this.locationsDepth = 3;
          this.locations = 0;
        }
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth === this.locationsDepth) this.locationsDepth = -1;
        if (depth === 1) this.endMember();
        return;
      case COMMA:
        if (depth === this.locationsDepth) this.elementOpen = false;
        if (depth === 1) this.endMember();
        return;
      case COLON:
        if (depth === 1 && READ.has(this.path.keys[1] ?? '')) this.capture = [];
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
    this.members[this.path.keys[1]!] = JSON.parse(Buffer.from(bytes).toString('utf8'));
  }
}
