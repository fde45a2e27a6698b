// A header row read into a layout: which column holds which location field, and what each money
// column's name says about its currency and scale.
import { LOCATION_FIELDS, readColumnName, type LocationField } from './columns.js';
import type { CurrencyToken } from './currency.js';
import type { Scale } from './money.js';
import type { OedReference } from './oed-reference.js';

export interface LayoutColumn {
  readonly index: number;
  /** The name as written, trimmed; "column N" when the header cell is empty. */
  readonly name: string;
  /** Lower-cased name, to recognise the header when it repeats. */
  readonly lowerName: string;
  readonly field: LocationField | null;
  readonly currency: CurrencyToken | null;
  readonly scale: Scale | null;
  /** Why a column with a known name is not read (a second column for the same field). */
  readonly unreadReason?: string;
  readonly unnamed: boolean;
}

export interface Layout {
  readonly columns: readonly LayoutColumn[];
  /** Column index of each field read. */
  readonly byField: ReadonlyMap<LocationField, number>;
  /** Number of distinct fields mapped: how much the row looks like a header. */
  readonly score: number;
  /** Column index of each field, −1 when absent (the per-row fast path). */
  readonly indexOf: Readonly<Record<LocationField, number>>;
  /** Indexes of the columns read, in column order. */
  readonly mapped: readonly number[];
}

export function unnamedColumn(index: number): string {
  return `column ${index + 1}`;
}

/** Maps header cells (appending to an earlier layout for JSON Lines keys seen later). */
export function readLayout(cells: readonly string[], oed: OedReference, earlier?: Layout): Layout {
  const columns: LayoutColumn[] = earlier ? [...earlier.columns] : [];
  const byField = new Map<LocationField, number>(earlier?.byField ?? []);
  for (const cell of cells) {
    const index = columns.length;
    const trimmed = cell.trim();
    const unnamed = trimmed === '';
    const name = unnamed ? unnamedColumn(index) : trimmed;
    const reading = unnamed ? { field: null, currency: null, scale: null } : readColumnName(trimmed, oed);
    let field = reading.field;
    let unreadReason: string | undefined;
    if (field !== null) {
      const first = byField.get(field);
      if (first !== undefined) {
        unreadReason = `a second column for ${field}; '${columns[first]?.name ?? ''}' is read`;
        field = null;
      } else {
        byField.set(field, index);
      }
    }
    columns.push({
      index,
      name,
      lowerName: trimmed.toLowerCase(),
      field,
      currency: field === null ? null : reading.currency,
      scale: field === null ? null : reading.scale,
      ...(unreadReason === undefined ? {} : { unreadReason }),
      unnamed,
    });
  }
  // A combined coordinates column is read only when there are no latitude/longitude columns.
  const pair = byField.get('coordinates');
  if (pair !== undefined && (byField.has('latitude') || byField.has('longitude'))) {
    byField.delete('coordinates');
    const column = columns[pair];
    if (column !== undefined) {
      columns[pair] = { ...column, field: null, unreadReason: 'latitude and longitude columns are read instead' };
    }
  }
  const indexOf = Object.fromEntries(LOCATION_FIELDS.map((field) => [field, byField.get(field) ?? -1])) as Record<LocationField, number>;
  const mapped = [...byField.values()].sort((a, b) => a - b);
  return { columns, byField, score: byField.size, indexOf, mapped };
}
