// The bytes of JSON's structure, for the scanners that read a stored risk object without parsing
// it (location-scan.ts, summary-scan.ts). Pure.
export const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
export const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
export const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Member names longer than this are never the ones a scanner looks for: not kept. */
export const KEY_LIMIT = 64;
