// The bytes of JSON's structure, and the one tracker of where a byte stands in a document, for the
// scanners that read a stored risk object without parsing it (location-scan.ts, summary-scan.ts,
// object-scan.ts). Pure.
export const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
export const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
export const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Member names longer than this are never the ones a scanner looks for: not kept. */
export const KEY_LIMIT = 64;

/**
 * Strings, escapes, the open objects and arrays, and the member names of the first levels of a JSON
 * byte stream, fed one byte at a time. Each scanner keeps only what it captures and when; `step`
 * stays small so the scanners' per-byte loops keep it inlined.
 */
export class JsonPathTracker {
  /** The opening byte of each open object or array, outermost first. */
  readonly stack: number[];
  /** The member name last read at each depth (1: top level), for depths up to keyDepth. */
  readonly keys: Array<string | undefined> = [];
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private keyBytes: number[] | undefined;

  /** `open`: the objects and arrays already open where the bytes begin (a scan resumed inside). */
  constructor(private readonly keyDepth: number, open: readonly number[] = []) {
    this.stack = [...open];
  }

  /**
   * Steps over byte `b`: -1 when it is blank or inside a string (its closing quote included), else
   * the depth before it, the stack already updated (a structural byte or a string's opening quote).
   */
  step(b: number): number {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) {
        this.escaped = true;
        // Never matched: the names looked for are written without escapes.
        if (this.keyBytes) this.keyBytes.length = KEY_LIMIT + 1;
      } else if (b === QUOTE) {
        this.inString = false;
        if (this.keyBytes) {
          this.keys[this.stack.length] = this.keyBytes.length <= KEY_LIMIT ? Buffer.from(this.keyBytes).toString('utf8') : undefined;
          this.keyBytes = undefined;
        }
      } else if (this.keyBytes && this.keyBytes.length <= KEY_LIMIT) this.keyBytes.push(b);
      return -1;
    }
    if (isSpace(b)) return -1;
    const depth = this.stack.length;
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.expectKey && depth <= this.keyDepth) this.keyBytes = [];
        this.expectKey = false;
        break;
      case OPEN_OBJECT:
        this.stack.push(b);
        this.expectKey = true;
        break;
      case OPEN_ARRAY:
        this.stack.push(b);
        this.expectKey = false;
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
    return depth;
  }

  /** Whether the innermost open value is member path[0] of the document, member path[1] of that, ... */
  at(path: readonly string[]): boolean {
    if (this.stack.length !== path.length + 1) return false;
    for (let d = 0; d < path.length; d += 1) {
      if (this.stack[d] !== OPEN_OBJECT || this.keys[d + 1] !== path[d]) return false;
    }
    return true;
  }
}
