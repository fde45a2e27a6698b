// Reads a risk object's JSON bytes chunk by chunk and keeps everything but the members of
// exposure.locations[]: the document's skeleton (peril, region, currency, source fidelity, values,
// provenance), with its locations counted and never held. Pure. Locations themselves are read by
// location-scan.ts (locationBatches of app/objects.ts).
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isSpace, KEY_LIMIT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.js';

export interface ObjectSkeleton {
  /** The document with exposure.locations read as []. */
  document: Record<string, unknown>;
  /** How many locations the array held. */
  locations: number;
}

export class SkeletonScanner {
  private readonly stack: number[] = [];
  private readonly keys: Array<string | undefined> = [];
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private keyBytes: number[] | undefined;
  /** Pieces of the skeleton's bytes, in order. */
  private readonly kept: Buffer[] = [];
  /** Inside the locations array: its nesting below the array (0 between elements). */
  private skipping = false;
  private skipDepth = 0;
  private skipString = false;
  private skipEscaped = false;
  private elementOpen = false;
  private count = 0;

  feed(chunk: Buffer): void {
    let keptFrom = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      if (this.skipping) {
        // A tight loop over the locations: only strings and brackets matter here.
        for (; i < chunk.length; i += 1) {
          const b = chunk[i]!;
          if (this.skipString) {
            if (this.skipEscaped) this.skipEscaped = false;
            else if (b === BACKSLASH) this.skipEscaped = true;
            else if (b === QUOTE) this.skipString = false;
            continue;
          }
          if (b === QUOTE) { this.open(); this.skipString = true; continue; }
          if (b === OPEN_OBJECT || b === OPEN_ARRAY) { this.open(); this.skipDepth += 1; continue; }
          if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
            if (this.skipDepth === 0) break; // the array's own ']'
            this.skipDepth -= 1;
            continue;
          }
          if (b === COMMA && this.skipDepth === 0) { this.elementOpen = false; continue; }
          if (!isSpace(b)) this.open();
        }
        if (i === chunk.length) return;
        // The closing ']' is kept with what follows.
        this.skipping = false;
        this.stack.pop();
        keptFrom = i;
        continue;
      }
      const b = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) {
          this.escaped = true;
          if (this.keyBytes) this.keyBytes.length = KEY_LIMIT + 1;
        } else if (b === QUOTE) {
          this.inString = false;
          if (this.keyBytes) {
            this.keys[this.stack.length] = this.keyBytes.length <= KEY_LIMIT ? Buffer.from(this.keyBytes).toString('utf8') : undefined;
            this.keyBytes = undefined;
          }
        } else if (this.keyBytes && this.keyBytes.length <= KEY_LIMIT) this.keyBytes.push(b);
        continue;
      }
      if (isSpace(b)) continue;
      const depth = this.stack.length;
      switch (b) {
        case QUOTE:
          this.inString = true;
          if (this.expectKey && depth <= 2) this.keyBytes = [];
          this.expectKey = false;
          break;
        case OPEN_OBJECT:
          this.stack.push(b);
          this.expectKey = true;
          break;
        case OPEN_ARRAY:
          this.stack.push(b);
          this.expectKey = false;
          if (depth === 2 && this.stack[0] === OPEN_OBJECT && this.stack[1] === OPEN_OBJECT && this.keys[1] === 'exposure' && this.keys[2] === 'locations') {
            this.kept.push(Buffer.from(chunk.subarray(keptFrom, i + 1)));
            this.skipping = true;
            this.skipDepth = 0;
            this.elementOpen = false;
          }
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.expectKey = false;
          this.stack.pop();
          break;
        case COMMA:
          if (this.stack[depth - 1] === OPEN_OBJECT) this.expectKey = true;
          break;
        default:
          break;
      }
    }
    if (!this.skipping) this.kept.push(Buffer.from(chunk.subarray(keptFrom)));
  }

  /** The first byte of a location. */
  private open(): void {
    if (this.skipDepth === 0 && !this.elementOpen) {
      this.elementOpen = true;
      this.count += 1;
    }
  }

  skeleton(): ObjectSkeleton {
    return { document: JSON.parse(Buffer.concat(this.kept).toString('utf8')) as Record<string, unknown>, locations: this.count };
  }
}
