// The OED (Open Exposure Data) reference tables ingest maps against, taken as parsed input.
// parseOedReference turns the texts of the pinned tables into an OedReference; the caller reads the
// files (the domain does no I/O). Tables: OEDInputFields_Loc.csv, OccupancyValues.csv,
// ConstructionValues.csv, CurrencyValues.csv, PerilValues.csv of the pinned oed-spec snapshot.
import { parse } from 'csv-parse/sync';

export interface OedReference {
  /** Location-file input field names (LocNumber, Latitude, BuildingTIV...), as the spec spells them. */
  readonly locFields: readonly string[];
  /** Occupancy code → name ("1050" → "Residential, General residential"). */
  readonly occupancy: ReadonlyMap<number, string>;
  /** Construction code → name ("5050" → "Wood, Wood frame"). */
  readonly construction: ReadonlyMap<number, string>;
  /** ISO 4217 currency codes OED accepts (upper case). */
  readonly currencies: ReadonlySet<string>;
  /** Peril input abbreviation → description ("WTC" → "Strong wind from Tropical Cyclone"). */
  readonly perils: ReadonlyMap<string, string>;
  /** Every input field of each OED file, by lower-cased name (empty without OEDInputFields.csv). */
  readonly files: Readonly<Record<OedFile, ReadonlyMap<string, OedField>>>;
  /** Peril code (single or group) → the single perils it covers, from PerilsCovered.csv (empty without it). */
  readonly perilGroups: ReadonlyMap<string, readonly string[]>;
}

/** The files of an OED set, as OEDInputFields.csv names them. */
export type OedFile = 'Loc' | 'Acc' | 'ReinsInfo' | 'ReinsScope';
export const OED_FILES: readonly OedFile[] = ['Loc', 'Acc', 'ReinsInfo', 'ReinsScope'];

export interface OedField {
  /** The name as the spec spells it. */
  readonly name: string;
  /** OED types it as a number (int, tinyint, smallint, bigint, bit, float, decimal, real). */
  readonly numeric: boolean;
}

export interface OedReferenceTexts {
  /** OEDInputFields_Loc.csv */
  locFields: string;
  /** OccupancyValues.csv */
  occupancy: string;
  /** ConstructionValues.csv */
  construction: string;
  /** CurrencyValues.csv */
  currency: string;
  /** PerilValues.csv */
  perils: string;
  /** OEDInputFields.csv: every file's input fields with their data types. */
  inputFields?: string;
  /** PerilsCovered.csv: which codes cover each single peril. */
  perilsCovered?: string;
}

const NUMERIC_TYPE = /^(int|tinyint|smallint|bigint|bit|float|decimal|real|numeric)\b/i;

function fileFields(text: string | undefined): Record<OedFile, Map<string, OedField>> {
  const out: Record<OedFile, Map<string, OedField>> = { Loc: new Map(), Acc: new Map(), ReinsInfo: new Map(), ReinsScope: new Map() };
  if (text === undefined) return out;
  for (const row of rows(text, 'OEDInputFields', ['File Name', 'Input Field Name', 'Data Type'])) {
    const name = (row['Input Field Name'] ?? '').trim();
    if (name === '') continue;
    const field: OedField = { name, numeric: NUMERIC_TYPE.test((row['Data Type'] ?? '').trim()) };
    for (const file of (row['File Name'] ?? '').split(';').map((f) => f.trim())) {
      if ((OED_FILES as readonly string[]).includes(file)) out[file as OedFile].set(name.toLowerCase(), field);
    }
  }
  return out;
}

function perilGroupsOf(text: string | undefined): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  if (text === undefined) return groups;
  for (const row of rows(text, 'PerilsCovered', ['Peril', 'PerilsCovered'])) {
    const peril = (row['Peril'] ?? '').toUpperCase();
    const group = (row['PerilsCovered'] ?? '').toUpperCase();
    if (peril === '' || group === '') continue;
    const list = groups.get(group) ?? [];
    list.push(peril);
    groups.set(group, list);
  }
  return groups;
}

type Row = Record<string, string>;

function rows(text: string, table: string, required: readonly string[]): Row[] {
  const records = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Row[];
  const first = records[0];
  for (const column of required) {
    if (first === undefined || !(column in first)) {
      throw new Error(`OED table ${table}: column "${column}" missing`);
    }
  }
  return records;
}

function codeTable(text: string, table: string): Map<number, string> {
  const table_ = new Map<number, string>();
  for (const row of rows(text, table, ['OED Code', 'Name'])) {
    const code = Number(row['OED Code']);
    if (Number.isInteger(code)) table_.set(code, (row['Name'] ?? '').replace(/\s+/g, ' ').trim());
  }
  if (table_.size === 0) throw new Error(`OED table ${table}: no codes`);
  return table_;
}

/** Parses the texts of the pinned OED tables. Throws on a table that lacks its columns. */
export function parseOedReference(texts: OedReferenceTexts): OedReference {
  const locFields = rows(texts.locFields, 'OEDInputFields_Loc', ['Input Field Name'])
    .map((row) => row['Input Field Name'] ?? '')
    .filter((name) => name !== '');
  const currencies = new Set(
    rows(texts.currency, 'CurrencyValues', ['Code'])
      .map((row) => (row['Code'] ?? '').toUpperCase())
      .filter((code) => /^[A-Z]{3}$/.test(code)),
  );
  const perils = new Map<string, string>();
  for (const row of rows(texts.perils, 'PerilValues', ['Input format abbreviation', 'Peril Description'])) {
    const code = (row['Input format abbreviation'] ?? '').toUpperCase();
    if (code !== '') perils.set(code, row['Peril Description'] ?? '');
  }
  return {
    locFields,
    occupancy: codeTable(texts.occupancy, 'OccupancyValues'),
    construction: codeTable(texts.construction, 'ConstructionValues'),
    currencies,
    perils,
    files: fileFields(texts.inputFields),
    perilGroups: perilGroupsOf(texts.perilsCovered),
  };
}
