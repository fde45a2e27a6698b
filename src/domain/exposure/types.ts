// The exposure block of the canonical risk object as ingest writes it, and the reader's answer.
// Field names inside the exposure block are the published (snake_case) member names.
import type { Result } from '../../kernel/result.js';

/** Coverage parts a schedule value can belong to. */
export const COVERAGE_PARTS = ['buildings', 'contents', 'business_interruption', 'other'] as const;
export type CoveragePart = (typeof COVERAGE_PARTS)[number];

/**
 * Money as a decimal string with the currency's ISO 4217 minor unit ("1200000.00" USD, "1200000"
 * JPY, "1200.500" BHD; two places when no currency is known), never a binary float.
 * Parts are present only when the source gave them; total is null when a row states no value.
 */
export interface CoverageValues {
  buildings?: string;
  contents?: string;
  business_interruption?: string;
  other?: string;
  total: string | null;
}

/** The address exactly as given, one member per address column the file has. */
export interface AddressAsGiven {
  street?: string;
  city?: string;
  area?: string;
  postcode?: string;
  country?: string;
}

/** An OED code when the text maps to one unambiguously, and the text as given. */
export interface CodedText {
  code: number | null;
  text: string | null;
}

export interface ScheduleLocation {
  ref: string | null;
  address: AddressAsGiven;
  latitude: number | null;
  longitude: number | null;
  occupancy: CodedText;
  construction: CodedText;
  year_built: number | null;
  /** Present when the file has a storeys column; OED's −1/−2/−3 (unknown low/mid/high rise) kept. */
  storeys?: number | null;
  values: CoverageValues;
  /** ISO 4217 code the row's values are in, when known (request, or stated by the file). */
  currency?: string;
  /** The row's perils covered as given (OED LocPerilsCovered, e.g. "WW1" or "WTC;WSS"), when the file has that column. */
  perils_covered?: string;
  /** Business interruption period of indemnity in days (OED BIPOI, CEDE DaysCovered), when given. */
  bi_period_days?: number | null;
  /**
   * OED fields as given, under their OED names: from an OED location file every OED location field
   * with a value (numbers as numbers), else the identifiers PortNumber, AccNumber and LocName
   * (LocNumber is ref), when the file has them.
   */
  oed?: OedFields;
}

export type OedFields = Record<string, string | number>;

/** A totals or subtotal row left out of the locations, with the figures it was checked against. */
export interface TotalsRow {
  row: number;
  kind: 'total' | 'subtotal';
  /** The label as written; null for an unlabelled row read by its sums. */
  label: string | null;
  /** Whether each amount it states equals the sum of its column over the rows above. */
  matched: boolean;
  /** What the row states, per value column read (coverage parts, and total for a stated TIV). */
  stated: Partial<Record<CoveragePart | 'total', string>>;
  /** The sums of those columns it was compared with. */
  summed: Partial<Record<CoveragePart | 'total', string>>;
  /** Location rows those sums cover. */
  rows_summed: number;
}

export interface UnmappedColumn {
  column: string;
  /** Up to three distinct non-empty values, in file order. */
  sample: string[];
  /** Why a column with a known name was still left behind (e.g. a second column for one field). */
  reason?: string;
}

/** Every unit the reader did not read verbatim: taken from the request, guessed, or scaled. */
export interface GuessedUnit {
  field: string;
  unit: string;
  source: string;
}

export interface AmbiguousRow {
  /** 1-based line number (delimited text: the line the record starts on; JSON Lines: the line). */
  row: number;
  reason: string;
}

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface SourceFidelity {
  /** The character encoding the bytes were read in. */
  encoding: SourceEncoding;
  unmapped_columns: UnmappedColumn[];
  guessed_units: GuessedUnit[];
  ambiguous_rows: AmbiguousRow[];
  /** File-level observations (encoding fallback, layout, several currencies or perils...). */
  notes: string[];
  /** Totals and subtotal rows excluded from the locations, checked against the column sums (present when any). */
  totals_rows?: TotalsRow[];
}

export interface Exposure<L = ScheduleLocation[]> {
  locations: L;
  /** Schedule totals per coverage part; total is null when the file states several currencies. */
  values: CoverageValues;
  /** Only when the file states several currencies: totals per currency. */
  values_by_currency?: Record<string, CoverageValues>;
  currency?: string;
  source_fidelity: SourceFidelity;
}

/** The closed peril vocabulary of the canonical object. */
export const PERIL_CODES = [
  'earthquake',
  'weather_station',
  'tropical_cyclone',
  'flood',
  'wildfire',
  'severe_convective_storm',
  'cloud_outage',
  'extratropical_cyclone',
  'grid_outage',
] as const;
export type PerilCode = (typeof PERIL_CODES)[number];

export type Delimiter = ',' | ';' | '\t' | '|';

export type MediaTypeRead = 'text/csv' | 'text/tab-separated-values' | 'application/x-ndjson';

export interface ScheduleRead<L = ScheduleLocation[]> {
  /** What the reader actually read (comma, semicolon and pipe files are all text/csv; see delimiter). */
  mediaTypeRead: MediaTypeRead;
  delimiter?: Delimiter;
  exposure: Exposure<L>;
  /** Set only when the file names exactly one peril of the vocabulary. */
  peril?: { code: PerilCode };
  /** Set when the file is an OED location file: the OEDVersion its rows gave. */
  oedLocations?: { version: string | null };
  /** The OED set's other files, when sent (the risk object's oed member). */
  oed?: {
    version: string | null;
    accounts: OedFields[];
    ri_info: OedFields[];
    ri_scope: OedFields[];
  };
}

/** The read schedule, or the refusal the ingest job fails with (415 unsupported_source, 422 currency_conflict). */
export type ReadScheduleResult<L = ScheduleLocation[]> = Result<ScheduleRead<L>>;
