// Totals rows brokers leave in schedules. A totals row is never a location. Two rules:
// 1. A label: a text cell in any column (ref, address, occupancy, an unmapped column...) reads
//    "Total", "Totals", "Grand total", "Sum", "Summe", "Gesamt", "Total général", "Totale",
//    "Totaal", "Suma", "合計"... (optionally followed by a few words such as "TIV", a currency or a
//    region), on a row with no reference (or the label is the reference) and no coordinates.
//    "Subtotal", "Zwischensumme", "小計"... are subtotals: read the same way, told apart only in
//    the disclosure.
// 2. No label: the row has no reference and no coordinates, and each of its money values equals
//    the sum of that column over the rows above (since the previous totals row, or since the
//    start), with at least two rows summed, whatever its other cells say.
// Either way the row is excluded and disclosed with the figures it states and the sums it was
// checked against (source_fidelity.totals_rows).
import type { MoneyField } from './columns.js';
import { normalizeWords } from './occupancy.js';

export type TotalsKind = 'total' | 'subtotal';

/** First words that make a totals label, by kind (after normalizeWords: lower case, no accents). */
const TOTAL_WORDS: ReadonlyMap<string, TotalsKind> = new Map<string, TotalsKind>([
  ...[
    'total', 'totals', 'totales', 'totaux', 'totale', 'totali', 'totaal', 'totalt', 'totalsumme',
    'sum', 'sums', 'summe', 'summen', 'summa', 'suma', 'somme', 'soma', 'gesamt', 'gesamtsumme',
    'grandtotal', 'yhteensa', 'razem', 'celkem', 'osszesen', 'toplam', 'итого', 'всего',
    '合計', '合计', '总计', '總計', '총계', '합계',
  ].map((w) => [w, 'total'] as const),
  ...['subtotal', 'subtotals', 'zwischensumme', 'teilsumme', 'subtotaal', 'soustotal', '小計', '小计'].map((w) => [w, 'subtotal'] as const),
]);
/** Two-word openings ("grand total", "sub total", "sous total", "total général" is covered by total). */
const FIRST_OF_TWO: ReadonlyMap<string, TotalsKind> = new Map<string, TotalsKind>([['grand', 'total'], ['sub', 'subtotal'], ['sous', 'subtotal']]);
/** Words that are a label alone, but open ordinary names when followed by others. */
const ALONE_ONLY = new Set(['sum', 'sums', 'soma', 'suma', 'summa']);

const MAX_LABEL_LENGTH = 60;
const MAX_LABEL_WORDS = 5;
const NO_LETTER = /^[^\p{L}]*$/u;
/** Every label word opens with one of these letters (or Cyrillic, CJK, Hangul): most cells are rejected here, cheaply. */
const MAY_BE_LABEL = /^[^\p{L}]{0,4}[tsgzyrcoöÖ\u0400-\u04ff\u3400-\u9fff\uac00-\ud7af]/iu;

/** The kind of totals label a cell reads as, or null. */
export function totalsLabelKind(cell: string): TotalsKind | null {
  if (cell === '' || cell.length > MAX_LABEL_LENGTH || !MAY_BE_LABEL.test(cell) || NO_LETTER.test(cell)) return null;
  const words = normalizeWords(cell).split(' ');
  if (words.length > MAX_LABEL_WORDS) return null;
  const [first = '', second = ''] = words;
  const kind = TOTAL_WORDS.get(first);
  // "Sum" opens ordinary names ("Sum Street"): a label alone, or before a totals word ("Suma total").
  if (kind !== undefined) return ALONE_ONLY.has(first) && words.length > 1 && !TOTAL_WORDS.has(second) ? null : kind;
  const opening = FIRST_OF_TWO.get(first);
  if (opening !== undefined && second.startsWith('total')) return opening;
  return null;
}

export function isTotalsLabel(cell: string): boolean {
  return totalsLabelKind(cell) !== null;
}

type Sums = Map<MoneyField, bigint>;

export interface SumsCheck {
  matched: boolean;
  /** The sums the row was compared with: those it matched, else the rows since the last totals row. */
  summed: ReadonlyMap<MoneyField, bigint>;
  /** Location rows those sums cover. */
  rows: number;
}

/** Column sums over location rows, overall and since the last totals row. */
export class RunningSums {
  private all: Sums = new Map();
  private block: Sums = new Map();
  private allRows = 0;
  private blockRows = 0;

  add(values: ReadonlyMap<MoneyField, bigint>): void {
    for (const [field, units] of values) {
      this.all.set(field, (this.all.get(field) ?? 0n) + units);
      this.block.set(field, (this.block.get(field) ?? 0n) + units);
    }
    this.allRows++;
    this.blockRows++;
  }

  /**
   * Whether every value equals the sum of its column over the block, or over all rows, with at
   * least minRows rows summed (an unlabelled row needs two, or it would match a copy of one row).
   */
  check(values: ReadonlyMap<MoneyField, bigint>, minRows: number): SumsCheck {
    const equal = (sums: Sums, rows: number) => {
      if (values.size === 0 || rows < minRows) return false;
      for (const [field, units] of values) if ((sums.get(field) ?? 0n) !== units) return false;
      return true;
    };
    if (equal(this.block, this.blockRows)) return { matched: true, summed: this.block, rows: this.blockRows };
    if (equal(this.all, this.allRows)) return { matched: true, summed: this.all, rows: this.allRows };
    return { matched: false, summed: this.block, rows: this.blockRows };
  }

  matches(values: ReadonlyMap<MoneyField, bigint>, minRows: number): boolean {
    return this.check(values, minRows).matched;
  }

  /** A totals row closes a block: subtotals that follow sum the rows after it. */
  closeBlock(): void {
    this.block = new Map();
    this.blockRows = 0;
  }
}
