// A risk object's locations back out as an OED location file (OED field names, the ones ingest
// reads in domain/exposure/columns.ts): PortNumber, AccNumber and LocName come back from the
// identifiers kept on each location, LocNumber from its ref, so ingesting the file again reads the
// same locations. Written a record at a time so a large object is never held whole. Pure.
import type { ScheduleLocation } from '../exposure/types.js';
import { csvRecord, type Cell } from './csv.js';

/** An OED code when the location has one, else the text as given (ingest codes it the same way again). */
function coded(c: ScheduleLocation['occupancy']): Cell {
  return c.code ?? c.text;
}

/**
 * Each OED column, in the order OED's own examples list them, with the location member it holds.
 * OED has no total value: a location whose source gave only a total (no coverage parts) has no
 * TIV to write, as OED cannot say it.
 */
const COLUMNS: ReadonlyArray<{ name: string; cell: (l: ScheduleLocation) => Cell; always?: true }> = [
  { name: 'PortNumber', cell: (l) => l.oed?.PortNumber },
  { name: 'AccNumber', cell: (l) => l.oed?.AccNumber },
  { name: 'LocNumber', cell: (l) => l.ref, always: true },
  { name: 'LocName', cell: (l) => l.oed?.LocName },
  { name: 'StreetAddress', cell: (l) => l.address.street },
  { name: 'City', cell: (l) => l.address.city },
  { name: 'AreaName', cell: (l) => l.address.area },
  { name: 'PostalCode', cell: (l) => l.address.postcode },
  { name: 'CountryCode', cell: (l) => l.address.country },
  { name: 'Latitude', cell: (l) => l.latitude, always: true },
  { name: 'Longitude', cell: (l) => l.longitude, always: true },
  { name: 'OccupancyCode', cell: (l) => coded(l.occupancy), always: true },
  { name: 'ConstructionCode', cell: (l) => coded(l.construction), always: true },
  { name: 'YearBuilt', cell: (l) => l.year_built, always: true },
  { name: 'NumberOfStoreys', cell: (l) => l.storeys },
  { name: 'LocPerilsCovered', cell: (l) => l.perils_covered },
  { name: 'BuildingTIV', cell: (l) => l.values.buildings },
  { name: 'OtherTIV', cell: (l) => l.values.other },
  { name: 'ContentsTIV', cell: (l) => l.values.contents },
  { name: 'BITIV', cell: (l) => l.values.business_interruption },
  { name: 'BIPOI', cell: (l) => l.bi_period_days },
  { name: 'LocCurrency', cell: (l) => l.currency },
];

export type OedColumns = readonly (typeof COLUMNS)[number][];

export const OED_LOCATION_COLUMNS = COLUMNS.map((c) => c.name);

/**
 * The columns a file needs for these locations (the first ones read): those every location has,
 * and each other column when some location has its member. A column written for a member the
 * source never had would come back as an empty field, not an absent member: ingest reads a
 * storeys, BIPOI or address column only when the file has it.
 */
export function oedColumns(sample: readonly ScheduleLocation[]): OedColumns {
  return COLUMNS.filter((c) => c.always || sample.some((l) => c.cell(l) !== undefined));
}

export function oedLocationHeader(columns: OedColumns): string {
  return csvRecord(columns.map((c) => c.name));
}

export function oedLocationRecord(l: ScheduleLocation, columns: OedColumns): string {
  return csvRecord(columns.map((c) => c.cell(l)));
}
