// A risk object back out as OED files (the pinned OED spec's field names and order,
// OEDInputFields.csv). Two kinds of source:
// - An OED location file: every location keeps each OED field the file gave, verbatim, in `oed`
//   (schemas/risk-object.v0.json); those fields are written back as read, columns in the spec's
//   order, then any field the spec does not list in the order first met. Nothing is filled.
// - Any other schedule: the canonical members under their OED names (the ones ingest reads in
//   domain/exposure/columns.ts), and OED's required location fields filled where the source gave
//   none: PortNumber and AccNumber the object's id, LocNumber the row's position, CountryCode from
//   the coordinates, LocPerilsCovered from the object's peril, LocCurrency the exposure's currency;
//   a location with only a total value has it written as BuildingTIV. What was filled is listed
//   (OED_FILL_RULES) so the export can say so.
// The account and reinsurance files (the object's top-level `oed`) are written as read. Columns are
// planned over every location first (OedColumnPlan), so a field a late row holds is not lost. Pure.
import { countryAlpha2 } from '../country.js';
import type { ScheduleLocation } from '../exposure/types.js';
import { csvRecord, type Cell } from './csv.js';

export const OED_TABLES = ['location', 'account', 'ri_info', 'ri_scope'] as const;
export type OedTable = (typeof OED_TABLES)[number];

/** The identifiers any schedule's locations may keep in `oed`; a location with another OED field came from an OED file. */
const IDENTIFIERS = new Set(['PortNumber', 'AccNumber', 'LocName']);

type OedMap = Readonly<Record<string, string | number>>;

function oedOf(l: ScheduleLocation): OedMap | undefined {
  return l.oed as OedMap | undefined;
}

/** Whether a location came from an OED location file: its `oed` holds more than the identifiers. */
export function fromOedFile(l: ScheduleLocation): boolean {
  const oed = oedOf(l);
  return oed !== undefined && Object.keys(oed).some((k) => !IDENTIFIERS.has(k));
}

/** An object's OED peril group for its peril code (PerilValues.csv of the pinned spec); none for perils OED has no code for. */
export const OED_PERIL_OF: Readonly<Record<string, string>> = {
  earthquake: 'QQ1',
  tropical_cyclone: 'WTC',
  extratropical_cyclone: 'WEC',
  flood: 'OO1',
  wildfire: 'BB1',
  severe_convective_storm: 'XX1',
};

/** What a non-OED object's export needs besides its locations. */
export interface OedFillContext {
  objectId: string;
  /** The object's peril code (peril.code), if any. */
  peril: string | undefined;
  /** The exposure's currency, if known. */
  currency: string | undefined;
}

/** The rule each filled column follows, as the export states it (Catrisk-Oed-Filled). */
export const OED_FILL_RULES = {
  PortNumber: 'object id',
  AccNumber: 'object id',
  LocNumber: 'row position',
  CountryCode: 'coordinates',
  LocPerilsCovered: 'object peril',
  LocCurrency: 'exposure currency',
  BuildingTIV: 'total value',
} as const;
type Filled = keyof typeof OED_FILL_RULES;

function coded(c: ScheduleLocation['occupancy']): Cell {
  return c.code ?? c.text;
}

const hasParts = (l: ScheduleLocation) => ['buildings', 'contents', 'business_interruption', 'other'].some((k) => (l.values as unknown as Record<string, unknown>)[k] !== undefined);

/**
 * The canonical members under their OED names: `cell` the member as the source gave it, `fill` the
 * value OED requires when the source gave none (required columns are always written).
 */
interface CanonicalColumn {
  name: string;
  cell: (l: ScheduleLocation) => Cell;
  always?: true;
  fill?: (l: ScheduleLocation, at: number, c: OedFillContext) => Cell;
}
const CANONICAL: readonly CanonicalColumn[] = [
  { name: 'PortNumber', cell: (l) => l.oed?.PortNumber, always: true, fill: (_l, _at, c) => c.objectId },
  { name: 'AccNumber', cell: (l) => l.oed?.AccNumber, always: true, fill: (_l, _at, c) => c.objectId },
  { name: 'LocNumber', cell: (l) => l.ref ?? undefined, always: true, fill: (_l, at) => String(at + 1) },
  { name: 'LocName', cell: (l) => l.oed?.LocName },
  { name: 'StreetAddress', cell: (l) => l.address.street },
  { name: 'City', cell: (l) => l.address.city },
  { name: 'AreaName', cell: (l) => l.address.area },
  { name: 'PostalCode', cell: (l) => l.address.postcode },
  {
    name: 'CountryCode', cell: (l) => l.address.country, always: true,
    fill: (l) => (l.latitude !== null && l.longitude !== null ? countryAlpha2(l.latitude, l.longitude) : null),
  },
  { name: 'Latitude', cell: (l) => l.latitude, always: true },
  { name: 'Longitude', cell: (l) => l.longitude, always: true },
  { name: 'OccupancyCode', cell: (l) => coded(l.occupancy), always: true },
  { name: 'ConstructionCode', cell: (l) => coded(l.construction), always: true },
  { name: 'YearBuilt', cell: (l) => l.year_built, always: true },
  { name: 'NumberOfStoreys', cell: (l) => l.storeys },
  { name: 'LocPerilsCovered', cell: (l) => l.perils_covered, always: true, fill: (_l, _at, c) => (c.peril ? OED_PERIL_OF[c.peril] : undefined) },
  { name: 'BuildingTIV', cell: (l) => l.values.buildings, fill: (l) => (hasParts(l) ? undefined : l.values.total) },
  { name: 'OtherTIV', cell: (l) => l.values.other },
  { name: 'ContentsTIV', cell: (l) => l.values.contents },
  { name: 'BITIV', cell: (l) => l.values.business_interruption },
  { name: 'BIPOI', cell: (l) => l.bi_period_days },
  { name: 'LocCurrency', cell: (l) => l.currency, always: true, fill: (_l, _at, c) => c.currency },
];

/**
 * The columns of an object's location file, planned over every location before any is written:
 * for an OED source, every field some location holds; for another, the canonical columns OED
 * requires and those some location has a member for (a column the source never had does not come
 * back as an empty one), and which required ones had to be filled.
 */
export class OedColumnPlan {
  private oed: boolean | undefined;
  private readonly fields = new Set<string>();
  private readonly present = new Set<string>();
  private readonly filled = new Set<Filled>();
  private seen = 0;

  constructor(private readonly context: OedFillContext) {}

  add(batch: readonly ScheduleLocation[]): void {
    for (const l of batch) {
      if (this.oed === undefined) this.oed = fromOedFile(l);
      if (this.oed) {
        for (const k of Object.keys(oedOf(l) ?? {})) this.fields.add(k);
      } else {
        for (const c of CANONICAL) {
          const v = c.cell(l);
          if (v !== undefined) this.present.add(c.name);
          else if (c.fill && c.fill(l, this.seen, this.context) !== undefined) {
            this.present.add(c.name);
            this.filled.add(c.name as Filled);
          }
        }
      }
      this.seen++;
    }
  }

  /** The writer for the locations planned, in the spec's order (`order`: OED's location fields). */
  writer(order: readonly string[]): OedLocationWriter {
    if (this.oed) return new OedLocationWriter(ordered(order, this.fields), null, this.context, []);
    const columns = CANONICAL.filter((c) => c.always || this.present.has(c.name));
    return new OedLocationWriter(columns.map((c) => c.name), columns, this.context, [...this.filled]);
  }
}

/** Field names in the spec's order, then those the spec does not list, in the order first met. */
function ordered(order: readonly string[], fields: ReadonlySet<string>): string[] {
  const known = order.filter((f) => fields.has(f));
  const inSpec = new Set(order);
  return [...known, ...[...fields].filter((f) => !inSpec.has(f))];
}

export class OedLocationWriter {
  private at = 0;

  constructor(
    readonly columns: readonly string[],
    private readonly canonical: readonly CanonicalColumn[] | null,
    private readonly context: OedFillContext,
    /** The columns filled for a non-OED source and the rule of each (empty for an OED source). */
    readonly filled: readonly Filled[],
  ) {}

  header(): string {
    return csvRecord(this.columns);
  }

  /** One location's record; locations are numbered in the order written (LocNumber's fill). */
  record(l: ScheduleLocation): string {
    const at = this.at++;
    if (!this.canonical) {
      const oed = oedOf(l) ?? {};
      return csvRecord(this.columns.map((f) => oed[f]));
    }
    return csvRecord(this.canonical.map((c) => {
      const v = c.cell(l);
      return v !== undefined || !c.fill ? v : c.fill(l, at, this.context);
    }));
  }
}

/** The filled columns and their rules, as the export's Catrisk-Oed-Filled header states them. */
export function filledStatement(filled: readonly Filled[]): string {
  return filled.map((f) => `${f}; from="${OED_FILL_RULES[f]}"`).join(', ');
}

/** An account or reinsurance file from its records, as read: every field some record holds, in the spec's order. */
export function oedRecordsCsv(records: readonly OedMap[], order: readonly string[]): string {
  const fields = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) fields.add(k);
  const columns = ordered(order, fields);
  return csvRecord(columns) + records.map((r) => csvRecord(columns.map((f) => r[f]))).join('');
}
