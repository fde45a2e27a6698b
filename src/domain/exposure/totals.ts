// Totals rows brokers leave in schedules. Two rules:
// 1. A label: the ref cell reads "Total", "Totals", "Grand total", "Sub-total", "Sum", "Summe",
//    "Gesamt"... (optionally followed by a word or two such as "TIV" or a currency), or the ref is
//    empty and another text cell (street, city, an unmapped column) reads so.
// 2. No label: the ref is empty, the row carries no address, coordinates or building text, and each
//    of its money values equals the sum of that column over the rows above (since the previous
//    totals row, or since the start), with at least two rows summed.
// Either way the row is excluded from locations and noted with its reason.
import type { MoneyField } from './columns.js';
import { normalizeWords } from './occupancy.js';

const TOTAL_WORDS = new Set(['total', 'totals', 'subtotal', 'subtotals', 'summe', 'gesamt', 'gesamtsumme', 'totaux', 'totale', 'zwischensumme']);
const MAX_LABEL_LENGTH = 60;
const MAX_LABEL_WORDS = 5;

export function isTotalsLabel(cell: string): boolean {
  if (cell === '' || cell.length > MAX_LABEL_LENGTH) return false;
  const c = cell.charCodeAt(0) | 0x20; // first letter, lower-cased
  if (c !== 0x74 /* t */ && c !== 0x67 /* g */ && c !== 0x73 /* s */) return false;
  const words = normalizeWords(cell).split(' ');
  if (words.length > MAX_LABEL_WORDS) return false;
  const [first = '', second = ''] = words;
  if (TOTAL_WORDS.has(first)) return true;
  if ((first === 'grand' || first === 'sub') && second.startsWith('total')) return true;
  return first === 'sum' && words.length === 1;
}

type Sums = Map<MoneyField, bigint>;

/** Column sums over location rows, overall and since the last totals row. */
export class RunningSums {
  private all: Sums = new Map();
  private block: Sums = new Map();
  private allRows = 0;
  private blockRows = 0;

  add(values: ReadonlyMap<MoneyField, bigint>): void {
    for (const [field, cents] of values) {
      this.all.set(field, (this.all.get(field) ?? 0n) + cents);
      this.block.set(field, (this.block.get(field) ?? 0n) + cents);
    }
    this.allRows++;
    this.blockRows++;
  }

  /**
   * True when every value equals the sum of its column over the block, or over all rows, with at
   * least minRows rows summed (an unlabelled row needs two, or it would match a copy of one row).
   */
  matches(values: ReadonlyMap<MoneyField, bigint>, minRows: number): boolean {
    if (values.size === 0) return false;
    const equal = (sums: Sums, rows: number) => {
      if (rows < minRows) return false;
      for (const [field, cents] of values) if ((sums.get(field) ?? 0n) !== cents) return false;
      return true;
    };
    return equal(this.block, this.blockRows) || equal(this.all, this.allRows);
  }

  /** A totals row closes a block: subtotals that follow sum the rows after it. */
  closeBlock(): void {
    this.block = new Map();
    this.blockRows = 0;
  }
}
