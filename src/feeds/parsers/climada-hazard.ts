// CLIMADA Hazard HDF5 (h5py layout, as Hazard.write_hdf5 writes it): event_id, event_name, date
// (proleptic Gregorian ordinals), frequency (per frequency_unit, 1/year by default), centroids
// (centroids/lat and lon, or latitude and longitude since CLIMADA 4), and the intensity and fraction
// as compressed-sparse-row matrices (groups intensity and fraction: data, indices, indptr; one row
// per event, 0-based centroid indices; an empty fraction means 1 everywhere, Hazard._get_fraction).
// Read with h5wasm from the verified bytes; the record is plain arrays, no HDF5 object escapes.
import { withHdf5, type H5File } from './hdf5.js';

export interface ClimadaHazardRecord {
  readonly haz_type: string | null;
  readonly units: string | null;
  readonly frequency_unit: string | null;
  readonly event_ids: number[];
  readonly event_names: string[];
  readonly frequency: number[];
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** CSR rows: event e holds value[k] at centroid index[k] for k = indptr[e] .. indptr[e+1]-1. */
  readonly indptr: Int32Array;
  readonly index: Int32Array;
  readonly value: Float64Array;
  /** Each event's date (ordinal day), empty when the file has none. */
  readonly date: number[];
  /** The fraction's CSR rows, or null when the file's fraction is empty or absent. */
  readonly fraction: { indptr: Int32Array; index: Int32Array; value: Float64Array } | null;
}

function scalarText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.length > 0 ? String(v[0]) : null;
  return String(v);
}

/** Reads a CLIMADA hazard file's bytes; throws naming what is missing when the layout is not CLIMADA's. */
export async function parseClimadaHazard(bytes: Uint8Array): Promise<ClimadaHazardRecord> {
  return withHdf5(bytes, (file) => readHazard(file));
}

function readHazard(file: H5File): ClimadaHazardRecord {
  const read = (name: string): unknown => {
    const d = file.get(name) as { value?: unknown } | null;
    if (!d || !('value' in d)) throw new Error(`not a CLIMADA hazard file: no dataset ${name}`);
    return d.value;
  };
  const exists = (name: string) => {
    const d = file.get(name) as { value?: unknown } | null;
    return d !== null && d !== undefined && 'value' in d;
  };
  const optional = (name: string): unknown => (exists(name) ? read(name) : null);
  const length = (name: string) => (exists(name) ? (read(name) as ArrayLike<unknown>).length : 0);
  // CLIMADA 4 writes centroids/latitude and longitude, and leaves the older lat and lon empty.
  const latName = length('centroids/lat') > 0 || !exists('centroids/latitude') ? 'centroids/lat' : 'centroids/latitude';
  const lonName = latName === 'centroids/lat' ? 'centroids/lon' : 'centroids/longitude';
  const numbers = (name: string): number[] => Array.from(read(name) as ArrayLike<number | bigint>, Number);
  const names = read('event_name');
  const record: ClimadaHazardRecord = {
    haz_type: scalarText(optional('haz_type')),
    units: scalarText(optional('units')),
    frequency_unit: scalarText(optional('frequency_unit')),
    event_ids: numbers('event_id'),
    event_names: Array.isArray(names) ? names.map(String) : [String(names)],
    frequency: numbers('frequency'),
    lat: Float64Array.from(read(latName) as ArrayLike<number>),
    lon: Float64Array.from(read(lonName) as ArrayLike<number>),
    indptr: Int32Array.from(numbers('intensity/indptr')),
    index: Int32Array.from(numbers('intensity/indices')),
    value: Float64Array.from(read('intensity/data') as ArrayLike<number>),
    date: exists('date') ? numbers('date') : [],
    fraction: length('fraction/data') > 0
      ? { indptr: Int32Array.from(numbers('fraction/indptr')), index: Int32Array.from(numbers('fraction/indices')), value: Float64Array.from(read('fraction/data') as ArrayLike<number>) }
      : null,
  };
  const events = record.event_ids.length;
  const faults: string[] = [];
  if (record.frequency.length !== events) faults.push(`${events} events but ${record.frequency.length} frequencies`);
  if (record.event_names.length !== events) faults.push(`${events} events but ${record.event_names.length} names`);
  if (record.lat.length !== record.lon.length) faults.push('centroids/lat and centroids/lon differ in length');
  if (record.indptr.length !== events + 1 || record.indptr[events] !== record.index.length) faults.push('intensity/indptr is not one row per event over the stored values');
  if (record.index.length !== record.value.length) faults.push('intensity/indices and intensity/data differ in length');
  if (record.date.length !== 0 && record.date.length !== events) faults.push(`${events} events but ${record.date.length} dates`);
  const f = record.fraction;
  if (f && (f.indptr.length !== events + 1 || f.indptr[events] !== f.index.length || f.index.length !== f.value.length)) faults.push('fraction is not one row per event over its stored values');
  if (faults.length > 0) throw new Error(`not a usable CLIMADA hazard file: ${faults.join('; ')}`);
  return record;
}
