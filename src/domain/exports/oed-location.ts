// A risk object's locations back out as an OED location file (OED field names, the ones ingest
// reads in domain/exposure/columns.ts): PortNumber, AccNumber and LocName come back from the
// identifiers kept on each location, LocNumber from its ref, so ingesting the file again reads the
// same locations. Written a record at a time so a large object is never held whole. Pure.
import type { ScheduleLocation } from '../exposure/types.js';
import { csvRecord, type Cell } from './csv.js';

/** The columns, in the order OED's own examples list them. */
export const OED_LOCATION_COLUMNS = [
  'PortNumber', 'AccNumber', 'LocNumber', 'LocName', 'StreetAddress', 'City', 'AreaName', 'PostalCode', 'CountryCode',
  'Latitude', 'Longitude', 'OccupancyCode', 'ConstructionCode', 'YearBuilt', 'NumberOfStoreys', 'LocPerilsCovered',
  'BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV', 'BIPOI', 'LocCurrency',
] as const;

export function oedLocationHeader(): string {
  return csvRecord(OED_LOCATION_COLUMNS);
}

/** An OED code when the location has one, else the text as given (ingest codes it the same way again). */
function coded(c: ScheduleLocation['occupancy']): Cell {
  return c.code ?? c.text;
}

/**
 * One location as an OED record. OED has no total value: a location whose source gave only a
 * total (no coverage parts) has its TIV columns empty, as OED cannot say it.
 */
export function oedLocationRecord(l: ScheduleLocation): string {
  const v = l.values;
  return csvRecord([
    l.oed?.PortNumber, l.oed?.AccNumber, l.ref, l.oed?.LocName,
    l.address.street, l.address.city, l.address.area, l.address.postcode, l.address.country,
    l.latitude, l.longitude, coded(l.occupancy), coded(l.construction), l.year_built, l.storeys, l.perils_covered,
    v.buildings, v.other, v.contents, v.business_interruption, l.bi_period_days, l.currency,
  ]);
}
