// CLIMADA's MATLAB v7.3 files (HDF5 underneath), read with h5wasm from bytes already verified
// against the manifest:
//   a hazard (struct "hazard"): intensity and fraction as MATLAB sparse matrices, events × centroids,
//     stored column-compressed (data, ir = event row of each value, jc = where each centroid's
//     column starts; attribute MATLAB_sparse = number of rows), frequency, event_ID, centroid lat/lon,
//     yyyy/mm/dd and orig_event_flag per event;
//   centroids (struct "centroids"): centroid_ID, lat, lon, distance2coast_km, onLand.
// The column-compressed matrix is turned into rows (one per event) here, the shape the impact
// kernel reads (domain/lab/engine/impact.ts).
import { datasetAt, groupAt, withHdf5, type H5Dataset, type H5File } from './hdf5.js';
import type { Hazard } from '../../domain/lab/engine/impact.js';

function dataset(file: H5File, path: string): H5Dataset {
  const d = datasetAt(file, path);
  if (!d) throw new Error(`MAT file: no dataset ${path}`);
  return d;
}

/** A MATLAB numeric array as plain numbers (column vectors and scalars flattened). */
function numbers(file: H5File, path: string): Float64Array {
  const v = dataset(file, path).value as ArrayLike<number | bigint> | number;
  if (typeof v === 'number') return Float64Array.of(v);
  return Float64Array.from(v as ArrayLike<number | bigint>, Number);
}

/** A MATLAB char array (UTF-16 code units). */
function chars(file: H5File, path: string): string {
  const v = dataset(file, path).value as ArrayLike<number>;
  return String.fromCharCode(...Array.from(v));
}

function has(file: H5File, path: string): boolean {
  return file.get(path) !== null && file.get(path) !== undefined;
}

/** A MATLAB sparse matrix (rows × columns, column-compressed) as compressed rows. */
function sparseRows(file: H5File, group: string, rows: number): { rowStart: Int32Array; column: Int32Array; value: Float64Array } {
  const g = groupAt(file, group);
  if (!g) throw new Error(`MAT file: no sparse matrix ${group}`);
  const stated = Number(g.attrs.MATLAB_sparse?.value);
  if (stated !== rows) throw new Error(`MAT file: ${group} has ${stated} rows, expected ${rows}`);
  const data = numbers(file, `${group}/data`);
  const ir = numbers(file, `${group}/ir`);
  const jc = numbers(file, `${group}/jc`);
  const columns = jc.length - 1;
  const rowStart = new Int32Array(rows + 1);
  for (let k = 0; k < ir.length; k++) rowStart[ir[k]! + 1]!++;
  for (let r = 0; r < rows; r++) rowStart[r + 1]! += rowStart[r]!;
  const fill = rowStart.slice(0, rows);
  const column = new Int32Array(data.length);
  const value = new Float64Array(data.length);
  // Columns are visited in order, so each row's entries come out sorted by column.
  for (let c = 0; c < columns; c++) {
    for (let k = jc[c]!; k < jc[c + 1]!; k++) {
      const at = fill[ir[k]!]!++;
      column[at] = c;
      value[at] = data[k]!;
    }
  }
  return { rowStart, column, value };
}

export interface ClimadaHazardFile {
  hazard: Hazard;
  /** Centroid coordinates, one per intensity column. */
  lat: Float64Array;
  lon: Float64Array;
  units: string;
  peril: string;
  /** Event dates (UTC calendar day) and whether each event is a historical track (1) or a synthetic member (0). */
  year: Float64Array;
  month: Float64Array;
  day: Float64Array;
  orig_event_flag: Float64Array;
  /** Largest departure of any stored fraction from 1 (0 when the file's fraction is 1 wherever it is stored). */
  fraction_departure: number;
  /** The fraction as compressed rows, as the intensity; null when the file has none. */
  fraction: { rowStart: Int32Array; column: Int32Array; value: Float64Array } | null;
  /** MATLAB datenum of each event (empty when the file has none). */
  datenum: Float64Array;
  reference_year: number | null;
}

/** A CLIMADA hazard saved by MATLAB (v7.3), such as the probabilistic Atlantic demo hazard. */
export function parseClimadaHazardMat(bytes: Uint8Array): Promise<ClimadaHazardFile> {
  return withHdf5(bytes, (file) => {
    const eventIds = numbers(file, 'hazard/event_ID');
    const n = eventIds.length;
    const lat = numbers(file, 'hazard/lat');
    const lon = numbers(file, 'hazard/lon');
    const intensity = sparseRows(file, 'hazard/intensity', n);
    let departure = 0;
    const fraction = has(file, 'hazard/fraction') ? sparseRows(file, 'hazard/fraction', n) : null;
    if (fraction) for (const v of fraction.value) departure = Math.max(departure, Math.abs(v - 1));
    const frequency = numbers(file, 'hazard/frequency');
    return {
      hazard: {
        event_ids: Int32Array.from(eventIds),
        frequency,
        centroidCount: lat.length,
        intensity: { kind: 'sparse', rowStart: intensity.rowStart, centroid: intensity.column, value: intensity.value },
      },
      lat, lon,
      units: has(file, 'hazard/units') ? chars(file, 'hazard/units') : '',
      peril: has(file, 'hazard/peril_ID') ? chars(file, 'hazard/peril_ID') : '',
      year: numbers(file, 'hazard/yyyy'),
      month: numbers(file, 'hazard/mm'),
      day: numbers(file, 'hazard/dd'),
      orig_event_flag: numbers(file, 'hazard/orig_event_flag'),
      fraction_departure: departure,
      fraction,
      datenum: has(file, 'hazard/datenum') ? numbers(file, 'hazard/datenum') : new Float64Array(0),
      reference_year: has(file, 'hazard/reference_year') ? numbers(file, 'hazard/reference_year')[0]! : null,
    };
  });
}

export interface ClimadaCentroidsFile {
  id: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  distance_to_coast_km: Float64Array | null;
  on_land: Float64Array | null;
}

/** CLIMADA centroids saved by MATLAB (v7.3), such as the Barbados test centroids. */
export function parseClimadaCentroidsMat(bytes: Uint8Array): Promise<ClimadaCentroidsFile> {
  return withHdf5(bytes, (file) => ({
    id: numbers(file, 'centroids/centroid_ID'),
    lat: numbers(file, 'centroids/lat'),
    lon: numbers(file, 'centroids/lon'),
    distance_to_coast_km: has(file, 'centroids/distance2coast_km') ? numbers(file, 'centroids/distance2coast_km') : null,
    on_land: has(file, 'centroids/onLand') ? numbers(file, 'centroids/onLand') : null,
  }));
}
