// An OED location file's own fields, kept verbatim on each location (exposure.locations[i].oed):
// a header naming PortNumber, AccNumber and LocNumber is an OED location file, and each of its
// columns named as an OED location field (in any case) is kept under the spec's spelling, the value
// a number when OED types the field as one and the cell reads as one, else the text as written.
// The account and reinsurance files' rows are read the same way (oed-set.ts).
import type { Layout } from './layout.js';
import type { OedField, OedFile, OedReference } from './oed-reference.js';
import type { OedFields } from './types.js';

const OED_IDENTIFIERS = ['portnumber', 'accnumber', 'locnumber'];

/** The OED field of each column of an OED location file's layout; null when the header is not one. */
export function oedLocationColumns(layout: Layout, oed: OedReference): (OedField | null)[] | null {
  const names = new Set(layout.columns.map((c) => c.lowerName));
  if (!OED_IDENTIFIERS.every((n) => names.has(n))) return null;
  return oedColumnsOf(layout.columns.map((c) => c.lowerName), oed, 'Loc');
}

/** The OED field each header cell names in a file of the set (null: not one of that file's fields; a repeated name is read once). */
export function oedColumnsOf(lowerNames: readonly string[], oed: OedReference, file: OedFile): (OedField | null)[] {
  const fields = oed.files[file];
  const seen = new Set<string>();
  return lowerNames.map((n) => {
    const f = fields.get(n.trim()) ?? null;
    if (f === null || seen.has(f.name)) return null;
    seen.add(f.name);
    return f;
  });
}

/** A cell as OED types its field: a finite number for a numeric field whose text reads as one, else the text (trimmed). */
export function oedValue(text: string, field: OedField): string | number {
  if (field.numeric && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  return text;
}

/** A row's OED fields with a value, or undefined when none has one. */
export function oedRowFields(cells: readonly string[], columns: readonly (OedField | null)[]): OedFields | undefined {
  let out: OedFields | undefined;
  for (let i = 0; i < columns.length; i++) {
    const field = columns[i];
    if (field == null) continue;
    const text = (cells[i] ?? '').trim();
    if (text === '') continue;
    out ??= {};
    out[field.name] = oedValue(text, field);
  }
  return out;
}
