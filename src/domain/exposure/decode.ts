// Bytes → text. UTF-8 (BOM or not), UTF-16 LE/BE (BOM, or the unmistakable NUL pattern of
// UTF-16 text without one), and Windows-1252 when the bytes are not valid UTF-8. Containers and
// binary files are refused with a reason a broker can act on.
import type { SourceEncoding } from './types.js';

export type Decoded =
  | { ok: true; text: string; encoding: SourceEncoding; notes: string[] }
  | { ok: false; message: string };

/** Leading bytes of containers brokers send instead of text, with what to say about them. */
const CONTAINERS: ReadonlyArray<{ magic: readonly number[]; what: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP container (an .xlsx or .ods workbook, or an archive)' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: 'an OLE container (an .xls workbook)' },
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' },
  { magic: [0x1f, 0x8b], what: 'a gzip archive' },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
];

const SAMPLE_BYTES = 4096;

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  if (bytes.length < magic.length) return false;
  return magic.every((byte, i) => bytes[i] === byte);
}

/** UTF-16 without a BOM: NULs on one byte parity (ASCII-range text), almost none on the other. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, SAMPLE_BYTES) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul >= pairs * 0.3 && evenNul <= pairs * 0.02) return 'utf-16le';
  if (evenNul >= pairs * 0.3 && oddNul <= pairs * 0.02) return 'utf-16be';
  return null;
}

// Windows-1252 code points for bytes 0x80–0x9F (the five unassigned bytes stay C1 controls).
// Node 20's TextDecoder('windows-1252') decodes that range as ISO-8859-1 (0x80 → U+0080, not €),
// so the range is mapped here; on a runtime that decodes it right the map finds nothing to do.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const C1 = /[\u0080-\u009f]/g;

function decodeWindows1252(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252').decode(bytes).replace(C1, (c) => CP1252_HIGH.charAt(c.charCodeAt(0) - 0x80));
}

function decodeStrict(bytes: Uint8Array, label: 'utf-8' | 'utf-16le' | 'utf-16be'): string | null {
  try {
    // ignoreBOM false (the default) drops a leading BOM of the named encoding.
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

const BINARY_SAMPLE_CHARS = 1 << 20;

/**
 * Share of characters that no text file holds: C0 controls other than tab, LF, CR and form feed,
 * DEL, and the C1 range. A file with any NUL, or above 1% of them in its first MiB, is binary.
 */
function looksBinary(text: string): boolean {
  if (text.indexOf('\u0000') >= 0) return true;
  const n = Math.min(text.length, BINARY_SAMPLE_CHARS);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || (c >= 0x7f && c <= 0x9f)) {
      controls++;
    }
  }
  return controls > 0 && controls > n * 0.01;
}

export function decodeSchedule(bytes: Uint8Array): Decoded {
  if (bytes.length === 0) return { ok: false, message: 'the file is empty' };
  for (const { magic, what } of CONTAINERS) {
    if (startsWith(bytes, magic)) {
      return { ok: false, message: `the file is ${what}, not delimited text or JSON Lines; export the sheet as CSV` };
    }
  }

  let text: string | null;
  let encoding: SourceEncoding;
  const notes: string[] = [];
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    encoding = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be';
    text = decodeStrict(bytes, encoding);
    if (text === null) return { ok: false, message: `the file starts with a ${encoding.toUpperCase()} byte order mark but does not decode as ${encoding.toUpperCase()}` };
  } else {
    const utf16 = utf16WithoutBom(bytes);
    if (utf16 !== null) {
      encoding = utf16;
      text = decodeStrict(bytes, utf16);
      if (text === null) return { ok: false, message: 'the file holds NUL bytes (binary data) and does not decode as UTF-16' };
      notes.push(`no byte order mark; the bytes read as ${utf16.toUpperCase()} by their NUL pattern`);
    } else {
      if (bytes.includes(0)) return { ok: false, message: 'the file holds NUL bytes: binary data, not text' };
      encoding = 'utf-8';
      text = decodeStrict(bytes, 'utf-8');
      if (text === null) {
        encoding = 'windows-1252';
        text = decodeWindows1252(bytes);
        notes.push('the bytes are not valid UTF-8; read as Windows-1252');
      }
    }
  }
  if (looksBinary(text)) return { ok: false, message: 'the file is mostly control characters: binary data, not text' };
  return { ok: true, text, encoding, notes };
}
