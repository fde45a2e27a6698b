// The row-by-row core of ingest: records in, exposure out. Feed it records (delimited text) or
// keyed rows (JSON Lines) one at a time with pushRecord, then call finish. It holds only what the
// answer needs (the locations, running sums, the fidelity log) plus a lookahead of the first
// LOOKAHEAD_RECORDS records to find the header, so a stream can drive it.
//
// Per record, in order: blank → skipped; a repeat of the header (or a new header) → skipped, noted;
// a totals row (labelled in any column, or unlabelled with values equal to the sums above) →
// excluded, disclosed with its figures; a row with no mapped value (a note or footer line) →
// skipped, noted, its text read for a stated currency or peril; anything else → a location, handed
// to the location sink (objects, or canonical JSON text for large schedules).
//
// Amounts are read exactly (ten-thousandths) and written with the ISO 4217 minor unit of the
// location's currency. A location whose currency is not settled when read (no declared currency,
// none in its own cells) waits: a footer or a later row may still state the schedule's currency.
import { isMoneyField, OED_IDENTIFIER_FIELDS, type LocationField, type MoneyField, type OedIdentifierField } from './columns.js';
import { oedLocationColumns, oedRowFields } from './oed-columns.js';
import type { OedField } from './oed-reference.js';
import { resolveCurrency, currencyToken, type CurrencyToken } from './currency.js';
import { FidelityLog, type UnmappedHandle } from './fidelity.js';
import { readLayout, type Layout, type LayoutColumn } from './layout.js';
import { LocationArray, type LocationSink, type Settled } from './location-sink.js';
import { formatUnits, minorUnits, roundToMinor } from './minor-units.js';
import { decimalMarkShown, readMoney, type MoneyContext, type MoneyReading } from './money.js';
import { codeConstruction, codeOccupancy } from './occupancy.js';
import type { OedReference } from './oed-reference.js';
import { perilsNamed, type PerilsNamed } from './peril-words.js';
import { readDays, readLocationCoordinates, readStoreys, readYearBuilt } from './row-fields.js';
import { readLineStatement } from './statements.js';
import { RunningSums, totalsLabelKind, type SumsCheck, type TotalsKind } from './totals.js';
import type {
  AddressAsGiven,
  CoveragePart,
  CoverageValues,
  Exposure,
  PerilCode,
  ScheduleLocation,
  OedFields,
  SourceEncoding,
  TotalsRow,
} from './types.js';
import { COVERAGE_PARTS } from './types.js';
import { refusal } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';

export interface ScheduleTableOptions<L = ScheduleLocation[]> {
  readonly oed: OedReference;
  /** Currency the request declared (three upper-case letters), if any. */
  readonly currency?: string;
  /**
   * How to read a lone mark before three digits ("1,200", "1.200") unless the file's own
   * unambiguous amounts show its decimal mark; basis says why (null: the plain default, unrecorded).
   */
  readonly numberFormat: { readonly decimalComma: boolean; readonly basis: string | null };
  /** 'detect': the header is found among the first records; 'keyed': columns come from addColumns. */
  readonly header: 'detect' | 'keyed';
  readonly encoding: SourceEncoding;
  /** File-level notes from decoding, written first. */
  readonly notes?: readonly string[];
  /** Where locations go; objects in an array unless given. */
  readonly locations?: LocationSink<L>;
}

export type TableOutcome<L = ScheduleLocation[]> = Result<{ exposure: Exposure<L>; peril?: { code: PerilCode }; oedLocations?: { version: string | null } }>;

export const LOOKAHEAD_RECORDS = 50;
const MAX_CONFLICT_DETAILS = 20;
const MAX_PERIL_NOTES = 10;
/** Distinct cell texts whose readings are kept (currency and peril columns repeat a few values). */
const SEEN_LIMIT = 1024;

const ADDRESS_PARTS = ['street', 'city', 'area', 'postcode', 'country'] as const;
const SCALE_NAMES: Readonly<Record<number, string>> = { 3: 'thousand', 6: 'million', 9: 'billion' };
const HAS_DIGIT = /\d/;
const NUMERIC_FIELDS: ReadonlySet<LocationField> = new Set<LocationField>(['latitude', 'longitude', 'coordinates', 'year_built', 'storeys', 'buildings', 'contents', 'business_interruption', 'other', 'tiv', 'bi_period_days']);
const MONEY_ORDER: readonly MoneyField[] = ['buildings', 'contents', 'business_interruption', 'other', 'tiv'];
/** Key of the sums of locations that carry no currency. */
const NO_CURRENCY = '';

/** Sums of settled values (in the minor unit of their currency) per coverage part. */
interface PartSums {
  parts: Map<CoveragePart, bigint>;
  total: bigint;
  any: boolean;
}

/**
 * The amounts of locations waiting for the schedule's currency, per field in column arrays (a
 * large schedule without a stated currency keeps 300,000 of these, not 300,000 maps).
 */
class PendingAmounts {
  private readonly fields = new Map<MoneyField, (bigint | undefined)[]>();
  private readonly finelyRounded: number[] = [];
  readonly lines: number[] = [];

  push(line: number, units: ReadonlyMap<MoneyField, bigint>, finelyRounded: number): void {
    const at = this.lines.length;
    this.lines.push(line);
    this.finelyRounded.push(finelyRounded);
    for (const [field, amount] of units) {
      let column = this.fields.get(field);
      if (column === undefined) {
        column = [];
        this.fields.set(field, column);
      }
      column[at] = amount;
    }
  }

  get(at: number): { units: Map<MoneyField, bigint>; finelyRounded: number } {
    const units = new Map<MoneyField, bigint>();
    for (const [field, column] of this.fields) {
      const amount = column[at];
      if (amount !== undefined) units.set(field, amount);
    }
    return { units, finelyRounded: this.finelyRounded[at] ?? 0 };
  }
}

interface MoneyCell {
  index: number;
  raw: string;
  reading: MoneyReading;
}

interface MoneyCells {
  units: Map<MoneyField, bigint>;
  readings: MoneyCell[];
  /** Bits (MONEY_ORDER) of the fields whose text had more than four decimals. */
  finelyRounded: number;
}

interface Pending {
  line: number;
  cells: readonly string[];
}

/** The trimmed cell of a field; undefined when the layout has no column for it. */
function cellOf(cells: readonly string[], layout: Layout, field: LocationField): string | undefined {
  const index = layout.indexOf[field];
  return index < 0 ? undefined : (cells[index] ?? '').trim();
}

function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.length > 0 && cell.trim() !== '') return false;
  return true;
}

export class ScheduleTable<L = ScheduleLocation[]> {
  private readonly fidelity = new FidelityLog();
  private money: MoneyContext;
  private numberBasis: string | null;
  private readonly declared: string | undefined;
  private layout: Layout | null = null;
  private unmapped: (UnmappedHandle | null)[] = [];
  /** An OED location file's OED field per column (kept verbatim on each location); null for any other schedule. */
  private oedColumns: (OedField | null)[] | null = null;
  /** Whether any layout read was an OED location file's, and the first OEDVersion its rows gave. */
  private oedFile = false;
  private oedVersion: string | null = null;
  /** Code each money column's name states, resolved once per layout. */
  private columnCurrency: (string | null)[] = [];
  /** "column 'TIV'", built once per column: rows reuse it. */
  private columnWhere: string[] = [];
  /** Columns whose bare-M suffix guess is already recorded. */
  private scaleGuessed: boolean[] = [];
  /** Places (a column) → symbols whose currency guess is already recorded there. */
  private readonly currencyGuessed = new Map<string, Set<string>>();
  private pending: Pending[] = [];
  private pendingRecords = 0;

  private readonly sink: LocationSink<L>;
  private readonly pendingAmounts = new PendingAmounts();
  /** Settled values summed per currency (NO_CURRENCY for locations without one). */
  private readonly settledSums = new Map<string, PartSums>();
  private readonly totalsRows: TotalsRow[] = [];
  private readonly sums = new RunningSums();
  private readonly refs = new Map<string, number>();
  private readonly stated = new Map<string, number>();
  private readonly conflicts: string[] = [];
  private conflictCount = 0;
  private readonly perils = new Map<PerilCode, number>();
  private readonly perilsUnread = new Map<string, { line: number; count: number }>();
  /** Values rounded to their currency's minor unit, per currency (NO_CURRENCY: two places). */
  private readonly rounded = new Map<string, number>();
  private readonly currencyCells = new Map<string, CurrencyToken | null>();
  private readonly perilCells = new Map<string, PerilsNamed>();
  private tivOnlyColumn: string | null = null;
  private partColumnSeen = false;
  private refColumnSeen = false;
  private anyMapped = false;

  constructor(private readonly options: ScheduleTableOptions<L>) {
    this.sink = options.locations ?? (new LocationArray() as unknown as LocationSink<L>);
    this.declared = options.currency;
    this.money = { currencies: options.oed.currencies, decimalComma: options.numberFormat.decimalComma };
    this.numberBasis = options.numberFormat.basis;
    for (const note of options.notes ?? []) this.fidelity.note(note);
    if (this.declared !== undefined) this.fidelity.guess('currency', this.declared, 'request');
    if (options.header === 'keyed') this.useLayout(readLayout([], options.oed), 0);
  }

  /** One record of the source: its 1-based line and its cells (in header order for keyed input). */
  pushRecord(line: number, cells: readonly string[]): void {
    if (this.layout === null) {
      this.pending.push({ line, cells });
      if (!isBlank(cells) && ++this.pendingRecords >= LOOKAHEAD_RECORDS) this.chooseHeader();
      return;
    }
    this.record(line, cells);
  }

  /** Keyed input (JSON Lines): columns first seen on this line, appended in order. */
  addColumns(line: number, names: readonly string[]): void {
    if (this.layout === null) return;
    const start = this.layout.columns.length;
    const layout = readLayout(names, this.options.oed, this.layout);
    this.useLayout(layout, line, start);
  }

  /** A line the source reader could not turn into a record (or had to read loosely). */
  noteRow(line: number, reason: string): void {
    this.fidelity.row(line, reason);
  }

  finish(): TableOutcome<L> {
    if (this.layout === null) this.chooseHeader();
    const f = this.fidelity;
    if (this.conflictCount > 0 && this.declared !== undefined) {
      const codes = [...this.stated.keys()].filter((code) => code !== this.declared).sort();
      const details = [...this.conflicts];
      if (this.conflictCount > details.length) details.push(`and ${this.conflictCount - details.length} more`);
      return refused(refusal(422, 'currency_conflict',
        `the file states ${codes.length > 0 ? codes.join(', ') : 'another currency'} but the request declared ${this.declared}`,
        details));
    }

    if (!this.anyMapped) f.note('no column maps to a location field; no locations read');
    else if (!this.refColumnSeen) f.note('no reference column; location refs are null');
    if (this.tivOnlyColumn !== null && !this.partColumnSeen) {
      f.note(`column '${this.tivOnlyColumn}' gives total insured values without coverage parts; values are totals only`);
    }

    // The schedule's currency settles the locations that waited for it.
    const codes = [...this.stated.keys()].sort();
    const currency = this.declared ?? (codes.length === 1 ? codes[0] : undefined);
    const several = currency === undefined && codes.length > 1;
    const pending = this.pendingAmounts;
    const locations = this.sink.finish((at): Settled => {
      const line = pending.lines[at] ?? 0;
      const { units, finelyRounded } = pending.get(at);
      if (currency !== undefined) return { currency, values: this.settleValues(units, finelyRounded, currency, true) };
      const values = this.settleValues(units, finelyRounded, undefined, !several);
      if (several && values.total !== null) f.row(line, 'values carry no currency while the file states several; left out of the totals');
      return { values };
    });
    for (const [code, count] of [...this.rounded].sort((a, b) => a[0].localeCompare(b[0]))) {
      const digits = minorUnits(code === NO_CURRENCY ? undefined : code);
      f.note(digits === 2
        ? `${count} value(s) had more than two decimal places and were rounded half-up to cents`
        : `${count} value(s) had more decimal places than ${code}'s ISO 4217 minor unit (${digits}) and were rounded half-up`);
    }
    this.notePerils();

    const exposure: Exposure<L> = {
      locations,
      values: this.sumsValues(currency ?? NO_CURRENCY),
      source_fidelity: { encoding: this.options.encoding, unmapped_columns: [], guessed_units: [], ambiguous_rows: [], notes: [] },
    };
    if (currency !== undefined) {
      exposure.currency = currency;
    } else if (several) {
      f.note(`the file states several currencies (${codes.join(', ')}); each location keeps its own and totals are per currency`);
      exposure.values = { total: null };
      exposure.values_by_currency = Object.fromEntries(codes.map((code) => [code, this.sumsValues(code)]));
    }
    exposure.source_fidelity = f.build(this.options.encoding, (column) => this.isUnnamed(column));
    if (this.totalsRows.length > 0) exposure.source_fidelity.totals_rows = this.totalsRows;
    const named = [...this.perils.keys()];
    const oedLocations = this.oedFile ? { oedLocations: { version: this.oedVersion } } : {};
    return named.length === 1 && named[0] !== undefined
      ? ok({ exposure, peril: { code: named[0] }, ...oedLocations })
      : ok({ exposure, ...oedLocations });
  }

  // ---- header -------------------------------------------------------------------------------

  private chooseHeader(): void {
    const pending = this.pending;
    this.pending = [];
    let best: { at: number; layout: Layout } | null = null;
    let firstNonBlank = -1;
    for (let i = 0; i < pending.length; i++) {
      const record = pending[i];
      if (record === undefined || isBlank(record.cells)) continue;
      if (firstNonBlank < 0) firstNonBlank = i;
      const layout = readLayout(record.cells, this.options.oed);
      if (best === null || layout.score > best.layout.score) best = { at: i, layout };
    }
    if (best === null) {
      this.useLayout(readLayout([], this.options.oed), 0);
      this.fidelity.note('the file holds no records');
      return;
    }
    const at = best.layout.score > 0 ? best.at : firstNonBlank;
    const header = pending[at];
    if (header === undefined) return;
    for (let i = 0; i < at; i++) {
      const record = pending[i];
      if (record !== undefined && !isBlank(record.cells)) this.statementLine(record.line, record.cells);
    }
    if (at > firstNonBlank) {
      const above = pending.slice(firstNonBlank, at).filter((r) => !isBlank(r.cells)).length;
      this.fidelity.note(`header row on line ${header.line}; ${above} line(s) above it read as title lines`);
    }
    this.useLayout(best.layout.score > 0 ? best.layout : readLayout(header.cells, this.options.oed), header.line);
    this.learnDecimalMark(pending.slice(at + 1));
    for (let i = at + 1; i < pending.length; i++) {
      const record = pending[i];
      if (record !== undefined) this.record(record.line, record.cells);
    }
  }

  /** The decimal mark the first records' unambiguous amounts show, when they agree on one. */
  private learnDecimalMark(records: readonly Pending[]): void {
    const layout = this.layout;
    if (layout === null) return;
    let comma = 0;
    let point = 0;
    for (const record of records) {
      for (const index of layout.mapped) {
        const field = layout.columns[index]?.field;
        if (field == null || !isMoneyField(field)) continue;
        const shown = decimalMarkShown(record.cells[index] ?? '');
        if (shown === 'comma') comma++;
        else if (shown === 'point') point++;
      }
    }
    if (comma === point) return;
    const decimalComma = comma > point;
    if (decimalComma !== this.money.decimalComma || this.numberBasis !== null) {
      this.numberBasis = `amounts with a decimal ${decimalComma ? 'comma' : 'point'} elsewhere in the file`;
    }
    this.money = { ...this.money, decimalComma };
  }

  /**
   * Reads by a layout from here on: columns from index `from` are registered (unmapped ones for
   * sampling; a currency or scale in a column name is recorded as stated on `line`, the header's).
   */
  private useLayout(layout: Layout, line: number, from = 0): void {
    this.layout = layout;
    if (from === 0) {
      this.unmapped = [];
      this.columnCurrency = [];
      this.columnWhere = [];
      this.scaleGuessed = [];
    }
    this.oedColumns = oedLocationColumns(layout, this.options.oed);
    if (this.oedColumns !== null) this.oedFile = true;
    for (let i = from; i < layout.columns.length; i++) {
      const column = layout.columns[i];
      if (column === undefined) continue;
      // An OED location file's own fields are kept on the location, so they are not unmapped.
      const kept = this.oedColumns?.[i] != null && column.unreadReason === undefined;
      this.unmapped[i] = column.field === null && !kept ? this.fidelity.unmappedColumn(column.name, column.unreadReason) : null;
      this.columnCurrency[i] = null;
      this.columnWhere[i] = `column '${column.name}'`;
      this.scaleGuessed[i] = false;
      if (column.field === null) continue;
      this.anyMapped = true;
      if (column.field === 'ref') this.refColumnSeen = true;
      if (column.field === 'tiv' && this.tivOnlyColumn === null) this.tivOnlyColumn = column.name;
      if (isMoneyField(column.field) && column.field !== 'tiv') this.partColumnSeen = true;
      if (column.currency !== null) {
        this.columnCurrency[i] = this.currencyStated(column.currency, line, `column name '${column.name}'`, []);
      }
      if (column.scale !== null) {
        this.fidelity.guess('scale', SCALE_NAMES[column.scale.exponent] ?? String(column.scale.exponent), `column name '${column.name}'`);
      }
    }
  }

  private isUnnamed(column: string): boolean {
    return this.layout?.columns.some((c) => c.unnamed && c.name === column) ?? false;
  }

  /** Whether a record repeats the header (same layout) or starts a new one. */
  private headerAgain(cells: readonly string[], layout: Layout): 'same' | Layout | null {
    if (layout.score < 2) return null;
    const threshold = Math.max(2, Math.ceil(layout.score / 2));
    let same = 0;
    for (const index of layout.mapped) {
      const cell = cells[index];
      const column = layout.columns[index];
      if (cell === undefined || column === undefined || column.lowerName.length === 0) continue;
      // Cheap before dear: only a cell of about the name's length (spaces aside) is compared.
      const extra = cell.length - column.lowerName.length;
      if (extra >= 0 && extra <= 8 && cell.trim().toLowerCase() === column.lowerName) same++;
    }
    if (same >= threshold) return 'same';
    // A new header has words, not numbers, where the numbers go.
    for (const index of layout.mapped) {
      const field = layout.columns[index]?.field;
      if (field != null && NUMERIC_FIELDS.has(field) && HAS_DIGIT.test(cells[index] ?? '')) return null;
    }
    const candidate = readLayout(cells, this.options.oed);
    return candidate.score >= threshold ? candidate : null;
  }

  // ---- records ------------------------------------------------------------------------------

  /**
   * One record read by the layout: a header again, a totals row, a note line, or a location,
   * placed in the sink (settled, or pending the file's currency). The fidelity notes keep the
   * order of the steps below.
   */
  private record(line: number, cells: readonly string[]): void {
    if (isBlank(cells)) return;
    const layout = this.layout;
    if (layout === null) return;
    if (this.options.header === 'detect' && this.headerRow(line, cells, layout)) return;
    const ref = cellOf(cells, layout, 'ref') ?? '';
    const latText = cellOf(cells, layout, 'latitude') ?? '';
    const lonText = cellOf(cells, layout, 'longitude') ?? '';
    const pairText = cellOf(cells, layout, 'coordinates') ?? '';
    const located = latText !== '' || lonText !== '' || pairText !== '';
    const values = this.moneyCells(cells, layout);
    if (this.labelledTotalsRow(line, cells, layout, ref, located, values)) return;
    if (!this.hasLocationData(cells, layout)) {
      this.fidelity.row(line, 'row has no location data; skipped');
      this.statementLine(line, cells);
      return;
    }
    if (this.unlabelledTotalsRow(line, ref, located, values)) return;

    const location = this.locationOf(line, cells, layout, this.locationRef(line, ref, layout), latText, lonText, pairText);
    const rowCurrencies = this.bookMoney(values, line);
    this.readRowDetails(line, cells, layout, location);
    const own = this.rowCurrency(line, cells, layout, rowCurrencies);
    // Settled now when the request declared a currency or the row states its own (a row stating
    // several keeps none); otherwise it waits for the end of the file.
    const settled = this.declared ?? own;
    this.checkStatedTotal(line, values.units, settled);
    this.sums.add(values.units);
    if (settled === undefined) {
      this.pendingAmounts.push(line, values.units, values.finelyRounded);
      this.sink.addPending(location);
    } else {
      const code = settled ?? undefined;
      location.values = this.settleValues(values.units, values.finelyRounded, code, code !== undefined);
      if (code !== undefined) location.currency = code;
      this.sink.add(location);
    }
    this.sampleCells(line, cells, layout);
  }

  /** A repeated header (skipped) or a header with another layout (read by from here on): true when the record was one. */
  private headerRow(line: number, cells: readonly string[], layout: Layout): boolean {
    const again = this.headerAgain(cells, layout);
    if (again === 'same') {
      this.fidelity.row(line, 'repeated header row skipped');
      return true;
    }
    if (again !== null) {
      this.fidelity.row(line, 'header row with a different layout; columns read by it from here on');
      this.useLayout(again, line);
      return true;
    }
    return false;
  }

  /**
   * Totals row by label: in the ref cell, or (ref empty, no coordinates: "Total Plaza" with a
   * position is an address) in any text cell, whichever column the broker had room in. True when
   * the record was one (disclosed and excluded).
   */
  private labelledTotalsRow(line: number, cells: readonly string[], layout: Layout, ref: string, located: boolean, values: MoneyCells): boolean {
    let label: string | null = null;
    let kind: TotalsKind | null = ref === '' ? null : totalsLabelKind(ref);
    if (kind !== null) label = ref;
    else if (ref === '' && !located) {
      for (const column of layout.columns) {
        if (column.field !== null && NUMERIC_FIELDS.has(column.field)) continue;
        const text = (cells[column.index] ?? '').trim();
        kind = totalsLabelKind(text);
        if (kind !== null) {
          label = text;
          break;
        }
      }
    }
    if (label === null || kind === null) return false;
    const check = this.sums.check(values.units, 1);
    const tail = values.units.size === 0 ? '' : check.matched ? '; its values equal the sum of the rows above' : '; its values do not equal the sum of the rows above';
    this.fidelity.row(line, `${kind === 'subtotal' && !/^sub/i.test(label) ? 'subtotal' : 'totals'} row ('${label}') excluded${tail}`);
    this.totalsRow(line, kind, label, values.units, check);
    this.sums.closeBlock();
    return true;
  }

  /** Whether a mapped cell other than the ref is filled: a record with only a ref (or nothing mapped) is a note or footer line. */
  private hasLocationData(cells: readonly string[], layout: Layout): boolean {
    const refIndex = layout.indexOf.ref;
    for (const index of layout.mapped) {
      if (index !== refIndex && (cells[index] ?? '').trim() !== '') return true;
    }
    return false;
  }

  /**
   * Totals row without a label: no ref, no coordinates, each value the sum of its column, whatever
   * its other cells say. True when the record was one (disclosed and excluded).
   */
  private unlabelledTotalsRow(line: number, ref: string, located: boolean, values: MoneyCells): boolean {
    if (ref !== '' || values.units.size === 0 || located) return false;
    const check = this.sums.check(values.units, 2);
    if (!check.matched) return false;
    this.fidelity.row(line, 'row with no ref whose values equal the sum of the rows above read as a totals row; excluded');
    this.totalsRow(line, 'total', null, values.units, check);
    this.sums.closeBlock();
    return true;
  }

  /** A location's ref, with a note when it is missing or repeats an earlier line's; null without a ref column. */
  private locationRef(line: number, ref: string, layout: Layout): string | null {
    if (layout.indexOf.ref < 0) return null;
    if (ref === '') {
      this.fidelity.row(line, 'no ref');
      return null;
    }
    const earlier = this.refs.get(ref);
    if (earlier !== undefined) this.fidelity.row(line, `ref '${ref}' repeats line ${earlier}`);
    else this.refs.set(ref, line);
    return ref;
  }

  /** A location's address, coordinates, codes, year and storeys, each cell's faults noted; its values not yet read. */
  private locationOf(
    line: number, cells: readonly string[], layout: Layout, ref: string | null, latText: string, lonText: string, pairText: string,
  ): ScheduleLocation {
    const f = this.fidelity;
    const address: AddressAsGiven = {};
    for (const part of ADDRESS_PARTS) {
      const text = cellOf(cells, layout, part);
      if (text !== undefined && text !== '') address[part] = text;
    }
    const coordinates = readLocationCoordinates(latText, lonText, pairText, layout.indexOf.coordinates >= 0);
    for (const reason of coordinates.reasons) f.row(line, reason);
    const { latitude, longitude } = coordinates.value;
    const occupancy = codeOccupancy(cellOf(cells, layout, 'occupancy') ?? '', this.options.oed);
    if (occupancy.reason !== undefined) f.row(line, occupancy.reason);
    const construction = codeConstruction(cellOf(cells, layout, 'construction') ?? '', this.options.oed);
    if (construction.reason !== undefined) f.row(line, construction.reason);

    const yearBuilt = readYearBuilt(cellOf(cells, layout, 'year_built') ?? '');
    for (const reason of yearBuilt.reasons) f.row(line, reason);
    const storeysText = cellOf(cells, layout, 'storeys');
    const storeys = storeysText === undefined ? undefined : readStoreys(storeysText);
    for (const reason of storeys?.reasons ?? []) f.row(line, reason);
    const location: ScheduleLocation = {
      ref,
      address,
      latitude,
      longitude,
      occupancy: { code: occupancy.code, text: occupancy.text },
      construction: { code: construction.code, text: construction.text },
      year_built: yearBuilt.value,
      values: { total: null },
    };
    if (storeys !== undefined) location.storeys = storeys.value;
    return location;
  }

  /** The rest of a location's cells: its business-interruption days, OED identifiers and perils covered. */
  private readRowDetails(line: number, cells: readonly string[], layout: Layout, location: ScheduleLocation): void {
    const daysText = cellOf(cells, layout, 'bi_period_days');
    if (daysText !== undefined) {
      const days = readDays(daysText);
      for (const reason of days.reasons) this.fidelity.row(line, reason);
      location.bi_period_days = days.value;
    }
    let oed: OedFields | undefined;
    if (this.oedColumns !== null) {
      oed = oedRowFields(cells, this.oedColumns);
      if (this.oedVersion === null && oed?.OEDVersion !== undefined) this.oedVersion = String(oed.OEDVersion);
    } else {
      for (const field of Object.keys(OED_IDENTIFIER_FIELDS) as OedIdentifierField[]) {
        const text = cellOf(cells, layout, field);
        if (text === undefined || text === '') continue;
        oed ??= {};
        oed[OED_IDENTIFIER_FIELDS[field]] = text;
      }
    }
    if (oed !== undefined) location.oed = oed;

    const perilText = cellOf(cells, layout, 'peril');
    if (perilText !== undefined && perilText !== '') {
      this.perilCell(line, perilText);
      // OED's own LocPerilsCovered column is kept per row: models key their items on it.
      if (/^locperilscovered$/i.test(layout.columns[layout.byField.get('peril') ?? -1]?.name.replace(/[^a-z]/gi, '') ?? '')) {
        location.perils_covered = perilText;
      }
    }
  }

  /**
   * The currency a row's own cells state (its money cells' and its currency cell's): the one code,
   * null when they state several, undefined when none.
   */
  private rowCurrency(line: number, cells: readonly string[], layout: Layout, rowCurrencies: string[]): string | null | undefined {
    const f = this.fidelity;
    const currencyText = cellOf(cells, layout, 'currency');
    if (currencyText !== undefined && currencyText !== '') {
      const token = this.currencyCell(currencyText);
      const name = layout.columns[layout.byField.get('currency') ?? -1]?.name ?? 'currency';
      if (token === null) f.row(line, `currency '${currencyText}' is not an ISO 4217 code or known symbol; not read`);
      else {
        const notes: string[] = [];
        const code = this.currencyStated(token, line, this.columnWhere[layout.indexOf.currency] ?? `column '${name}'`, notes);
        for (const note of notes) f.row(line, note);
        if (code !== null) rowCurrencies.push(code);
      }
    }
    const distinct = rowCurrencies.length <= 1 || rowCurrencies.every((c) => c === rowCurrencies[0]) ? rowCurrencies.slice(0, 1) : [...new Set(rowCurrencies)].sort();
    if (distinct.length > 1) f.row(line, `values in several currencies (${distinct.join(', ')})`);
    return distinct.length === 0 ? undefined : distinct.length === 1 ? distinct[0] : null;
  }

  /** Notes a stated total that differs from the sum of its parts (the stated total is kept). */
  private checkStatedTotal(line: number, units: ReadonlyMap<MoneyField, bigint>, settled: string | null | undefined): void {
    const stated = units.get('tiv');
    if (stated === undefined) return;
    let partSum: bigint | null = null;
    for (const part of COVERAGE_PARTS) {
      const amount = units.get(part);
      if (amount !== undefined) partSum = (partSum ?? 0n) + amount;
    }
    if (partSum !== null && partSum !== stated) {
      const digits = minorUnits(settled ?? undefined);
      this.fidelity.row(line, `stated total ${formatUnits(stated, digits)} differs from the sum of parts ${formatUnits(partSum, digits)}; total is the stated total`);
    }
  }

  /** Samples the unmapped columns' cells, and notes values beyond the header's columns. */
  private sampleCells(line: number, cells: readonly string[], layout: Layout): void {
    for (let i = 0; i < layout.columns.length; i++) {
      const handle = this.unmapped[i];
      if (handle != null && handle.open) FidelityLog.sample(handle, (cells[i] ?? '').trim());
    }
    if (cells.length > layout.columns.length) {
      let extra = 0;
      for (let i = layout.columns.length; i < cells.length; i++) if ((cells[i] ?? '').trim() !== '') extra++;
      if (extra > 0) this.fidelity.row(line, `${extra} value(s) beyond the header's ${layout.columns.length} columns ignored`);
    }
  }

  /** Discloses a totals row with what it states and the sums it was checked against. */
  private totalsRow(line: number, kind: TotalsKind, label: string | null, units: ReadonlyMap<MoneyField, bigint>, check: SumsCheck): void {
    const digits = minorUnits(this.declared ?? (this.stated.size === 1 ? [...this.stated.keys()][0] : undefined));
    const stated: TotalsRow['stated'] = {};
    const summed: TotalsRow['summed'] = {};
    for (const field of MONEY_ORDER) {
      const amount = units.get(field);
      if (amount === undefined) continue;
      const key = field === 'tiv' ? 'total' : field;
      stated[key] = formatUnits(amount, digits);
      summed[key] = formatUnits(check.summed.get(field) ?? 0n, digits);
    }
    this.totalsRows.push({ row: line, kind, label, matched: check.matched, stated, summed, rows_summed: check.rows });
  }

  /** Money cells of a row, read without side effects: cents per field and the readings. */
  private moneyCells(cells: readonly string[], layout: Layout): MoneyCells {
    const units = new Map<MoneyField, bigint>();
    const readings: MoneyCell[] = [];
    let finelyRounded = 0;
    for (const index of layout.mapped) {
      const column = layout.columns[index] as LayoutColumn;
      const field = column.field;
      if (field === null || !isMoneyField(field)) continue;
      const raw = cells[index] ?? '';
      if (raw === '') continue;
      const reading = readMoney(raw, this.money, column.scale);
      if (reading.kind === 'empty') continue;
      readings.push({ index, raw, reading });
      if (reading.kind === 'amount') {
        units.set(field, reading.units);
        if (reading.rounded) finelyRounded |= 1 << MONEY_ORDER.indexOf(field);
      }
    }
    return { units, readings, finelyRounded };
  }

  /** Books a location's money cells: unreadable notes, guesses, rounding, currencies stated. */
  private bookMoney(money: MoneyCells, line: number): string[] {
    const currencies: string[] = [];
    for (const { index, raw, reading } of money.readings) {
      const where = this.columnWhere[index] ?? '';
      if (reading.kind === 'unreadable') {
        this.fidelity.row(line, `${where}: '${raw.trim()}' is not a readable amount (${reading.reason})`);
        continue;
      }
      if (reading.kind !== 'amount') continue;
      if (reading.separatorGuess !== null && this.numberBasis !== null) {
        this.fidelity.guess('number_format', this.money.decimalComma ? 'decimal comma' : 'decimal point', this.numberBasis);
      }
      const column = this.layout?.columns[index];
      if (reading.scale !== null && reading.scale !== column?.scale && reading.scale.guessed && this.scaleGuessed[index] !== true) {
        this.scaleGuessed[index] = true;
        this.fidelity.guess('scale', 'million', `suffix '${reading.scale.written}' in ${where}`);
      }
      if (reading.currency !== null) {
        const notes: string[] = [];
        const code = this.currencyStated(reading.currency, line, where, notes);
        for (const note of notes) this.fidelity.row(line, note);
        if (code !== null) currencies.push(code);
      } else {
        const code = this.columnCurrency[index];
        if (code != null) currencies.push(code);
      }
    }
    return currencies;
  }

  /**
   * Records that the file states a currency; returns its code (null when a symbol such as kr does
   * not say which). A contradiction of the declared currency is kept for the refusal.
   */
  private currencyStated(token: CurrencyToken, line: number, where: string, notes: string[]): string | null {
    const resolved = resolveCurrency(token, this.declared);
    if (resolved.code === null) {
      const family = [...resolved.family].sort().join(', ');
      if (this.declared !== undefined) this.conflict(`line ${line}: ${where} states '${token.written}' (one of ${family})`, token.written);
      else notes.push(`${where}: '${token.written}' may be any of ${family}; currency not read`);
      return null;
    }
    if (resolved.guessed && this.declared === undefined) {
      let symbols = this.currencyGuessed.get(where);
      if (symbols === undefined) {
        symbols = new Set();
        this.currencyGuessed.set(where, symbols);
      }
      if (!symbols.has(token.written)) {
        symbols.add(token.written);
        this.fidelity.guess('currency', resolved.code, `symbol '${token.written}' in ${where}`);
      }
    }
    if (this.declared !== undefined && resolved.code !== this.declared) {
      const written = token.written.toUpperCase() === resolved.code ? '' : ` ('${token.written}')`;
      this.conflict(`line ${line}: ${where} states ${resolved.code}${written}`, resolved.code);
    }
    if (!this.stated.has(resolved.code)) this.stated.set(resolved.code, line);
    return resolved.code;
  }

  private conflict(detail: string, stated: string): void {
    if (!this.stated.has(stated)) this.stated.set(stated, 0);
    this.conflictCount++;
    if (this.conflicts.length < MAX_CONFLICT_DETAILS) this.conflicts.push(detail);
  }

  /**
   * A location's values in its currency's minor unit (rounded half-up, counted), added to the sums
   * of that currency when `sum`. A total is the stated TIV, else the sum of the parts as written.
   */
  private settleValues(units: ReadonlyMap<MoneyField, bigint>, finelyRounded: number, currency: string | undefined, sum: boolean): CoverageValues {
    const digits = minorUnits(currency);
    const key = currency ?? NO_CURRENCY;
    let sums: PartSums | undefined;
    if (sum) {
      sums = this.settledSums.get(key);
      if (sums === undefined) {
        sums = { parts: new Map(), total: 0n, any: false };
        this.settledSums.set(key, sums);
      }
    }
    let roundedHere = 0;
    const round = (field: MoneyField, amount: bigint): bigint => {
      const rounded = roundToMinor(amount, digits);
      if (rounded !== amount || (finelyRounded & (1 << MONEY_ORDER.indexOf(field))) !== 0) roundedHere++;
      return rounded;
    };
    const values: CoverageValues = { total: null };
    let partSum = 0n;
    let anyPart = false;
    for (const part of COVERAGE_PARTS) {
      const amount = units.get(part);
      if (amount === undefined) continue;
      const rounded = round(part, amount);
      values[part] = formatUnits(rounded, digits);
      partSum += rounded;
      anyPart = true;
      if (sums !== undefined) sums.parts.set(part, (sums.parts.get(part) ?? 0n) + rounded);
    }
    const stated = units.get('tiv');
    let total: bigint | null = null;
    if (stated !== undefined) {
      total = round('tiv', stated);
    } else if (anyPart) {
      total = partSum;
    }
    if (total !== null) {
      values.total = formatUnits(total, digits);
      if (sums !== undefined) {
        sums.total += total;
        sums.any = true;
      }
    }
    if (roundedHere > 0) this.rounded.set(key, (this.rounded.get(key) ?? 0) + roundedHere);
    return values;
  }

  /** A currency column's cell as a token; schedules repeat a few values, so readings are kept. */
  private currencyCell(text: string): CurrencyToken | null {
    let token = this.currencyCells.get(text);
    if (token === undefined) {
      token = currencyToken(text, this.options.oed.currencies);
      if (this.currencyCells.size < SEEN_LIMIT) this.currencyCells.set(text, token);
    }
    return token;
  }

  private perilCell(line: number, text: string): void {
    let named = this.perilCells.get(text);
    if (named === undefined) {
      named = perilsNamed(text, this.options.oed);
      if (this.perilCells.size < SEEN_LIMIT) this.perilCells.set(text, named);
    }
    for (const peril of named.perils) if (!this.perils.has(peril)) this.perils.set(peril, line);
    if (named.perils.length === 0) {
      const known = this.perilsUnread.get(text);
      if (known !== undefined) known.count++;
      else this.perilsUnread.set(text, { line, count: 1 });
    }
  }

  /** A title or footer line: what it states about currency and peril. */
  private statementLine(line: number, cells: readonly string[]): void {
    const text = cells.map((c) => c.trim()).filter((c) => c !== '').join(' ');
    const statement = readLineStatement(text, this.options.oed);
    if (statement.currency !== null) this.currencyStated(statement.currency, line, `line '${text}'`, []);
    for (const peril of statement.perils) if (!this.perils.has(peril)) this.perils.set(peril, line);
  }

  private notePerils(): void {
    let noted = 0;
    for (const [text, { line, count }] of this.perilsUnread) {
      if (noted++ >= MAX_PERIL_NOTES) {
        this.fidelity.note(`${this.perilsUnread.size - MAX_PERIL_NOTES} more peril value(s) name no peril of the vocabulary`);
        break;
      }
      const codes = perilsNamed(text, this.options.oed).unmatchedCodes;
      const described = codes.map((c) => `${c}: ${this.options.oed.perils.get(c) ?? ''}`).join('; ');
      this.fidelity.note(`peril '${text}'${described !== '' ? ` (${described})` : ''} names no peril of the vocabulary (line ${line}${count > 1 ? ` and ${count - 1} more` : ''})`);
    }
    if (this.perils.size > 1) {
      const named = [...this.perils].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
      this.fidelity.note(`several perils named (${named.map(([peril, line]) => `${peril} from line ${line}`).join(', ')}); peril.code not set`);
    }
  }

  /** Schedule totals of the locations settled in a currency (NO_CURRENCY: those without one). */
  private sumsValues(key: string): CoverageValues {
    const sums = this.settledSums.get(key);
    const digits = minorUnits(key === NO_CURRENCY ? undefined : key);
    const values: CoverageValues = { total: sums?.any === true ? formatUnits(sums.total, digits) : null };
    for (const part of COVERAGE_PARTS) {
      const amount = sums?.parts.get(part);
      if (amount !== undefined) values[part] = formatUnits(amount, digits);
    }
    return values;
  }
}
