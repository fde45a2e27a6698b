// The OED set's files beside the locations (the account file, ri_info and ri_scope), read row by
// row into the risk object's top-level oed member: every field of that file with a value, under the
// spec's spelling, typed as OED types it (oed-columns.ts). Same decoding as a schedule (decode.ts);
// the delimiter is the one of , ; tab | that makes the most header cells fields of the file.
// Columns that are not fields of the file are disclosed as unmapped, with samples, as a schedule's are.
import { decodeSchedule } from './decode.js';
import { FidelityLog } from './fidelity.js';
import { oedColumnsOf, oedRowFields } from './oed-columns.js';
import type { OedFile, OedReference } from './oed-reference.js';
import { readDelimitedRecords } from './records.js';
import type { OedFields, SourceFidelity } from './types.js';
import { ok, refused, type Result } from '../../kernel/result.js';
import { refusal } from '../../kernel/refusal.js';

/** The risk object's oed member. */
export interface OedSet {
  version: string | null;
  accounts: OedFields[];
  ri_info: OedFields[];
  ri_scope: OedFields[];
}

/** The parts of an ingest beside the location file, by their form names. */
export type OedPart = 'account' | 'ri_info' | 'ri_scope';
export const OED_PARTS: readonly OedPart[] = ['account', 'ri_info', 'ri_scope'];
const FILE_OF: Record<OedPart, OedFile> = { account: 'Acc', ri_info: 'ReinsInfo', ri_scope: 'ReinsScope' };
const NAME_OF: Record<OedPart, string> = { account: 'account file', ri_info: 'reinsurance info file', ri_scope: 'reinsurance scope file' };
const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface OedTable {
  rows: OedFields[];
  /** What the table could not keep: columns that are no field of its file, rows read loosely. */
  fidelity: SourceFidelity;
}

function headerCells(text: string, delimiter: string): string[] {
  let header: string[] = [];
  readDelimitedRecords(text, delimiter, (_line, cells) => {
    if (header.length === 0 && cells.some((c) => c.trim() !== '')) header = [...cells];
  }, undefined, 50);
  return header;
}

/** Reads one file of the set; refused (415 unsupported_source) when it is not text or names no field of its file. */
export function readOedTable(bytes: Uint8Array, part: OedPart, oed: OedReference): Result<OedTable> {
  const decoded = decodeSchedule(bytes);
  if (!decoded.ok) return refused(refusal(415, 'unsupported_source', `The ${NAME_OF[part]} (part ${part}): ${decoded.message}.`));
  const file = FILE_OF[part];
  let best: { delimiter: string; columns: ReturnType<typeof oedColumnsOf>; score: number } | null = null;
  for (const delimiter of DELIMITERS) {
    const header = headerCells(decoded.text, delimiter).map((c) => c.trim().toLowerCase());
    const columns = oedColumnsOf(header, oed, file);
    const score = columns.filter((c) => c !== null).length;
    if (best === null || score > best.score) best = { delimiter, columns, score };
  }
  if (best === null || best.score === 0) {
    return refused(refusal(415, 'unsupported_source', `The ${NAME_OF[part]} (part ${part}) has no header naming an OED ${file} field.`));
  }
  const { delimiter, columns } = best;
  const log = new FidelityLog();
  for (const note of decoded.notes) log.note(`${NAME_OF[part]}: ${note}`);
  const rows: OedFields[] = [];
  let header: string[] | null = null;
  let handles: (ReturnType<FidelityLog['unmappedColumn']> | null)[] = [];
  readDelimitedRecords(decoded.text, delimiter, (line, cells) => {
    if (cells.every((c) => c.trim() === '')) return;
    if (header === null) {
      header = cells.map((c) => c.trim());
      handles = header.map((name, i) => (columns[i] == null ? log.unmappedColumn(name === '' ? `column ${i + 1}` : name, `not an OED field of the ${NAME_OF[part]} (part ${part})`) : null));
      return;
    }
    if (cells.length > header.length && cells.slice(header.length).some((c) => c.trim() !== '')) log.note(`${NAME_OF[part]}, line ${line}: values beyond the header's ${header.length} columns ignored`);
    handles.forEach((h, i) => { if (h != null && h.open) FidelityLog.sample(h, (cells[i] ?? '').trim()); });
    const fields = oedRowFields(cells, columns);
    if (fields !== undefined) rows.push(fields);
  }, (line, reason) => log.note(`${NAME_OF[part]}, line ${line}: ${reason}`));
  return ok({ rows, fidelity: log.build(decoded.encoding, () => false) });
}

/** The OED version a set states: the first OEDVersion of the locations, then of the other files. */
export function oedVersionOf(...tables: readonly (readonly OedFields[])[]): string | null {
  for (const rows of tables) {
    for (const r of rows) {
      const v = r['OEDVersion'];
      if (v !== undefined && String(v).trim() !== '') return String(v);
    }
  }
  return null;
}
