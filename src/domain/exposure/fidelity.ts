// Collects what the reader could not read verbatim, in the order it met it, without duplicates.
import type { AmbiguousRow, GuessedUnit, SourceEncoding, SourceFidelity, UnmappedColumn } from './types.js';

const SAMPLE_SIZE = 3;

interface Unmapped {
  readonly entry: UnmappedColumn;
  /** False once the sample is full, so most rows cost one comparison. */
  open: boolean;
}

export class FidelityLog {
  private readonly guessed: GuessedUnit[] = [];
  private readonly guessedKeys = new Map<string, Set<string>>();
  private readonly ambiguous: AmbiguousRow[] = [];
  private readonly notes: string[] = [];
  private readonly unmapped: Unmapped[] = [];
  private readonly unmappedByName = new Map<string, Unmapped>();

  /** Records a unit read by assumption; the same field, unit and source is recorded once. */
  guess(field: string, unit: string, source: string): void {
    let bySource = this.guessedKeys.get(field + '\u0000' + unit);
    if (bySource === undefined) {
      bySource = new Set();
      this.guessedKeys.set(field + '\u0000' + unit, bySource);
    }
    if (bySource.has(source)) return;
    bySource.add(source);
    this.guessed.push({ field, unit, source });
  }

  row(row: number, reason: string): void {
    this.ambiguous.push({ row, reason });
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Registers an unmapped column (once per name) and returns its handle for samples. */
  unmappedColumn(column: string, reason?: string): Unmapped {
    const known = this.unmappedByName.get(column);
    if (known !== undefined) return known;
    const entry: UnmappedColumn = reason === undefined ? { column, sample: [] } : { column, sample: [], reason };
    const handle: Unmapped = { entry, open: true };
    this.unmapped.push(handle);
    this.unmappedByName.set(column, handle);
    return handle;
  }

  static sample(handle: Unmapped, value: string): void {
    if (!handle.open || value === '') return;
    const sample = handle.entry.sample;
    if (!sample.includes(value)) sample.push(value);
    if (sample.length >= SAMPLE_SIZE) handle.open = false;
  }

  build(encoding: SourceEncoding, dropUnnamedEmpty: (column: string) => boolean): SourceFidelity {
    const ambiguous = this.ambiguous
      .map((entry, order) => ({ entry, order }))
      .sort((a, b) => a.entry.row - b.entry.row || a.order - b.order)
      .map(({ entry }) => entry);
    return {
      encoding,
      unmapped_columns: this.unmapped
        .map((u) => u.entry)
        .filter((entry) => entry.sample.length > 0 || !dropUnnamedEmpty(entry.column)),
      guessed_units: [...this.guessed],
      ambiguous_rows: ambiguous,
      notes: [...this.notes],
    };
  }
}

export type UnmappedHandle = ReturnType<FidelityLog['unmappedColumn']>;
