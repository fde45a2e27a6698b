// Which shape a decoded schedule has: JSON Lines, or delimited text with which delimiter.
// Delimited: each of comma, semicolon, tab and pipe splits a sample of the first records (quotes
// honoured, so embedded delimiters and newlines do not count); the winner is the one whose header
// maps the most location fields, then the one whose records most often share one field count
// (two or more fields), then the larger field count, then the file name's extension, then the
// order , ; tab |. No delimiter giving consistent fields or a recognisable header → not delimited.
import { readLayout } from './layout.js';
import type { OedReference } from './oed-reference.js';
import { DelimitedRecordReader } from './records.js';
import type { Delimiter } from './types.js';

export type SourceShape =
  | { kind: 'json-lines' }
  | { kind: 'delimited'; delimiter: Delimiter }
  | { kind: 'unsupported'; message: string };

const SAMPLE_CHARS = 65536;
const SAMPLE_RECORDS = 100;
const HEADER_RECORDS = 50;
const JSON_SAMPLE_LINES = 100;
const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];
const LINE_BREAK = /\r\n|\r|\n/;

interface Candidate {
  delimiter: Delimiter;
  headerScore: number;
  support: number;
  fields: number;
  preference: number;
}

function isObjectLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function looksLikeJsonLines(text: string): boolean {
  const lines = text.slice(0, SAMPLE_CHARS * 4).split(LINE_BREAK);
  let nonBlank = 0;
  let objects = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (++nonBlank > JSON_SAMPLE_LINES) break;
    if (isObjectLine(line)) objects++;
  }
  return objects > 0 && objects * 2 >= Math.min(nonBlank, JSON_SAMPLE_LINES);
}

function isJsonArray(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return false;
  try {
    return Array.isArray(JSON.parse(trimmed));
  } catch {
    return false;
  }
}

function preferenceOrder(fileName: string): readonly Delimiter[] {
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  const first: Delimiter | null = extension === 'tsv' || extension === 'tab' ? '\t' : extension === 'psv' || extension === 'pipe' ? '|' : null;
  return first === null ? DELIMITERS : [first, ...DELIMITERS.filter((d) => d !== first)];
}

function candidate(sample: string, whole: boolean, delimiter: Delimiter, preference: number, oed: OedReference): Candidate {
  const records: string[][] = [];
  const reader = new DelimitedRecordReader(delimiter, (_line, cells) => {
    if (cells.some((c) => c.trim() !== '')) records.push(cells);
  }, undefined, SAMPLE_RECORDS);
  reader.write(sample);
  if (whole) reader.end();
  const frequency = new Map<number, number>();
  for (const record of records) frequency.set(record.length, (frequency.get(record.length) ?? 0) + 1);
  let fields = 1;
  let support = 0;
  for (const [count, times] of frequency) {
    if (count < 2) continue;
    if (times > support || (times === support && count > fields)) {
      fields = count;
      support = times;
    }
  }
  let headerScore = 0;
  for (const record of records.slice(0, HEADER_RECORDS)) {
    headerScore = Math.max(headerScore, readLayout(record, oed).score);
  }
  return { delimiter, headerScore, support, fields, preference };
}

export function sniffSchedule(text: string, fileName: string, oed: OedReference): SourceShape {
  if (isJsonArray(text)) {
    return { kind: 'unsupported', message: 'the file is a JSON array, not JSON Lines: send one JSON object a line' };
  }
  if (looksLikeJsonLines(text)) return { kind: 'json-lines' };

  const whole = text.length <= SAMPLE_CHARS;
  const sample = whole ? text : text.slice(0, SAMPLE_CHARS);
  const candidates = preferenceOrder(fileName)
    .map((delimiter, preference) => candidate(sample, whole, delimiter, preference, oed))
    .filter((c) => c.headerScore >= 1 || (c.fields >= 2 && c.support >= 2));
  if (candidates.length === 0) {
    return {
      kind: 'unsupported',
      message: 'the file is neither JSON Lines nor delimited text: no comma, semicolon, tab or pipe divides its lines into consistent fields',
    };
  }
  candidates.sort(
    (a, b) =>
      (b.headerScore >= 2 ? b.headerScore : 0) - (a.headerScore >= 2 ? a.headerScore : 0) ||
      b.support - a.support ||
      b.fields - a.fields ||
      a.preference - b.preference,
  );
  const best = candidates[0] as Candidate;
  return { kind: 'delimited', delimiter: best.delimiter };
}
