// Ingest's reader: the bytes of a broker's schedule → the exposure block of a canonical risk object,
// or the refusal the ingest job fails with (415 unsupported_source, 422 currency_conflict).
// Pure: no I/O, no clock; the same bytes and options give the same answer.
//
//   decode (decode.ts) → sniff JSON Lines / delimiter (sniff.ts) → records (records.ts,
//   json-lines.ts) → the row-by-row table (schedule-table.ts) → exposure.
import { decodeSchedule, type Decoded } from './decode.js';
import { JsonLinesReader, MAX_LINE_NESTING, readJsonLines } from './json-lines.js';
import type { OedReference } from './oed-reference.js';
import { readDelimitedRecords } from './records.js';
import { ScheduleTable } from './schedule-table.js';
import { sniffSchedule } from './sniff.js';
import type { LocationSink } from './location-sink.js';
import type { ReadScheduleResult, ScheduleLocation } from './types.js';
import { refusal } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';

export interface ReadScheduleOptions<L = ScheduleLocation[]> {
  /** Name of the source file (for messages and as a tie-break hint: .tsv, .psv). */
  fileName: string;
  /** The request's currency part: three letters. Never inferred otherwise. */
  currency?: string;
  oed: OedReference;
  /** Where locations go (objects in an array unless given; LocationJsonList keeps text only). */
  locations?: LocationSink<L>;
  /**
   * Told how far the read has got: characters of the decoded text read, of all, and the rows read
   * (a header row counts); every PROGRESS_ROWS rows and once when the file is read.
   */
  onProgress?: (read: number, of: number, rows: number) => void;
}

/** How many rows are read between two progress reports. */
export const PROGRESS_ROWS = 4096;

function unsupported<T>(fileName: string, reason: string): Result<T> {
  return refused(refusal(415, 'unsupported_source', `${fileName || 'the file'}: ${reason}`));
}

export function readSchedule(bytes: Uint8Array, options: ReadScheduleOptions): ReadScheduleResult;
export function readSchedule<L>(bytes: Uint8Array, options: ReadScheduleOptions<L> & { locations: LocationSink<L> }): ReadScheduleResult<L>;
export function readSchedule<L>(bytes: Uint8Array, options: ReadScheduleOptions<L>): ReadScheduleResult<L> {
  return readDecoded(decodeSchedule(bytes), options);
}

/** readSchedule from the decoded text: the caller may let go of the bytes once they are decoded. */
export function readDecodedSchedule(decoded: Decoded, options: ReadScheduleOptions): ReadScheduleResult;
export function readDecodedSchedule<L>(decoded: Decoded, options: ReadScheduleOptions<L> & { locations: LocationSink<L> }): ReadScheduleResult<L>;
export function readDecodedSchedule<L>(decoded: Decoded, options: ReadScheduleOptions<L>): ReadScheduleResult<L> {
  return readDecoded(decoded, options);
}

function readDecoded<L>(decoded: Decoded, options: ReadScheduleOptions<L>): ReadScheduleResult<L> {
  if (!decoded.ok) return unsupported(options.fileName, decoded.message);
  const shape = sniffSchedule(decoded.text, options.fileName, options.oed);
  if (shape.kind === 'unsupported') return unsupported(options.fileName, shape.message);

  const currency = options.currency?.trim().toUpperCase();
  const common = {
    oed: options.oed,
    ...(currency === undefined || currency === '' ? {} : { currency }),
    encoding: decoded.encoding,
    notes: decoded.notes,
    ...(options.locations === undefined ? {} : { locations: options.locations }),
  };

  if (shape.kind === 'json-lines') {
    const table = new ScheduleTable<L>({ ...common, numberFormat: { decimalComma: false, basis: null }, header: 'keyed' });
    // The reader only feeds records; the table's location type is no concern of it.
    const reader = new JsonLinesReader(table as unknown as ScheduleTable);
    const onProgress = options.onProgress;
    const length = decoded.text.length;
    const lines = readJsonLines(decoded.text, reader, onProgress && ((read, lines) => onProgress(read, length, lines)), PROGRESS_ROWS);
    onProgress?.(length, length, lines);
    if (reader.tooDeepLine !== undefined) return unsupported(options.fileName, `line ${reader.tooDeepLine} nests arrays and objects more than ${MAX_LINE_NESTING} levels deep; a schedule row is flat`);
    if (reader.objects === 0) return unsupported(options.fileName, 'no line of the file is a JSON object');
    const outcome = table.finish();
    return outcome.ok ? ok({ ...outcome.value, mediaTypeRead: 'application/x-ndjson' }) : outcome;
  }

  const { delimiter } = shape;
  const numberFormat = delimiter === ';' ? { decimalComma: true, basis: 'semicolon-delimited file' } : { decimalComma: false, basis: null };
  const table = new ScheduleTable<L>({ ...common, numberFormat, header: 'detect' });
  const onProgress = options.onProgress;
  const length = decoded.text.length;
  let rows = 0;
  readDelimitedRecords(
    decoded.text,
    delimiter,
    onProgress === undefined
      ? (line, cells) => table.pushRecord(line, cells)
      : (line, cells, read) => {
        table.pushRecord(line, cells);
        if (++rows % PROGRESS_ROWS === 0) onProgress(read, length, rows);
      },
    (line, reason) => table.noteRow(line, reason),
  );
  onProgress?.(length, length, rows);
  const outcome = table.finish();
  if (!outcome.ok) return outcome;
  return ok({
    ...outcome.value,
    mediaTypeRead: delimiter === '\t' ? 'text/tab-separated-values' : 'text/csv',
    delimiter,
  });
}
