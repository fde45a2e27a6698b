// CLIMADA's own files as users bring them to the lab (POST {lab_url}/inputs), read into the plain
// values of domain/lab/user-inputs.ts. Each reader throws an Error naming what it could not read.
//   - hazard: the HDF5 file Hazard.write_hdf5 writes (climada/hazard/base.py, read by
//     Hazard.from_hdf5), or a MATLAB v7.3 hazard (the legacy climada .mat, Hazard.from_mat);
//   - exposures: CSV, XLSX (climada/entity/exposures/base.py Exposures.from_excel reads the first
//     sheet; the entity workbook's sheet is `assets`) or the HDF5 file Exposures.write_hdf5 writes
//     (a pandas HDFStore frame in PyTables' fixed layout: axis0 names the columns, blockN_items and
//     blockN_values hold them; the metadata attribute, a pickle of protocol 0, holds value_unit);
//   - impact functions: the `impact_functions` sheet of an entity workbook, or the same columns as
//     CSV (climada/entity/impact_funcs/impact_func_set.py ImpactFuncSet.from_excel: impact_fun_id,
//     intensity, mdd, paa, peril_id, intensity_unit, name).
import { parse } from 'csv-parse/sync';
import { datasetAt, groupAt, withHdf5, type H5File } from './hdf5.js';
import { parseClimadaHazard } from './climada-hazard.js';
import { parseClimadaHazardMat } from './climada-mat.js';
import type { ClimadaExposuresInput, ClimadaHazardInput, ClimadaImpactFunction, ClimadaImpactFunctionsInput } from '../../domain/lab/user-inputs.js';

const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

/** HDF5 at the start, or after a 512-byte user block (MATLAB v7.3 files). */
export function isHdf5(bytes: Uint8Array): boolean {
  const at = (offset: number) => HDF5_SIGNATURE.every((b, i) => bytes[offset + i] === b);
  return at(0) || at(512);
}

/** A ZIP container (XLSX). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** MATLAB datenum to a proleptic Gregorian ordinal (Python's date.toordinal): datenum counts from year 0. */
const MATLAB_DATENUM_OFFSET = 366;

async function hasGroup(bytes: Uint8Array, path: string): Promise<boolean> {
  return withHdf5(bytes, (file) => groupAt(file, path) !== undefined);
}

/** A CLIMADA hazard: HDF5 as Hazard.write_hdf5 writes it, or a MATLAB v7.3 hazard struct. */
export async function readClimadaHazardInput(bytes: Uint8Array): Promise<ClimadaHazardInput & { format: string }> {
  if (!isHdf5(bytes)) throw new Error('not an HDF5 file (neither CLIMADA\'s Hazard.write_hdf5 nor a MATLAB v7.3 .mat)');
  if (await hasGroup(bytes, 'hazard')) {
    const mat = await parseClimadaHazardMat(bytes);
    const n = mat.hazard.event_ids.length;
    const s = mat.hazard.intensity as unknown as { rowStart: Int32Array; centroid: Int32Array; value: Float64Array };
    return {
      format: 'CLIMADA MATLAB v7.3',
      haz_type: mat.peril,
      units: mat.units,
      frequency_unit: '1/year',
      event_id: Array.from(mat.hazard.event_ids),
      // Hazard.from_mat takes the event ids as names when the file has none (as atl_prob_no_name.mat).
      event_name: Array.from(mat.hazard.event_ids, (id) => String(id)),
      date: mat.datenum.length === n ? Array.from(mat.datenum, (d) => d - MATLAB_DATENUM_OFFSET) : new Array<number>(n).fill(0),
      frequency: Float64Array.from(mat.hazard.frequency),
      lat: mat.lat, lon: mat.lon,
      intensity: { rowStart: s.rowStart, column: s.centroid, value: s.value },
      fraction: mat.fraction && mat.fraction.value.length > 0 ? mat.fraction : null,
    };
  }
  const h = await parseClimadaHazard(bytes);
  const n = h.event_ids.length;
  return {
    format: 'CLIMADA HDF5',
    haz_type: h.haz_type ?? '',
    units: h.units ?? '',
    frequency_unit: h.frequency_unit ?? '1/year',
    event_id: h.event_ids,
    event_name: h.event_names,
    date: h.date.length === n ? h.date : new Array<number>(n).fill(0),
    frequency: Float64Array.from(h.frequency),
    lat: h.lat, lon: h.lon,
    intensity: { rowStart: h.indptr, column: h.index, value: h.value },
    fraction: h.fraction ? { rowStart: h.fraction.indptr, column: h.fraction.index, value: h.fraction.value } : null,
  };
}

type Cell = string | number | boolean | Date | null | undefined;
/** A table read from any of the formats: column name → cells. */
type Columns = Map<string, Cell[]>;

function numbersOf(columns: Columns, name: string, rows: number, faults: string[]): Float64Array {
  const cells = columns.get(name)!;
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = cells[i];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) {
      faults.push(`row ${i + 1} ${name}: not a number (${v === null || v === undefined ? 'empty' : String(v).slice(0, 40)})`);
      if (faults.length >= 10) break;
    }
    out[i] = n;
  }
  return out;
}

function tableColumns(rows: Cell[][], where: string): Columns {
  const header = (rows[0] ?? []).map((c) => String(c ?? '').trim());
  if (header.length === 0 || header.every((h) => h === '')) throw new Error(`${where}: no header row`);
  const body = rows.slice(1).filter((r) => r.some((c) => c !== null && c !== undefined && c !== ''));
  return new Map(header.filter((h) => h !== '').map((h) => [h, body.map((r) => r[header.indexOf(h)] ?? null)]));
}

function csvColumns(bytes: Uint8Array): Columns {
  let rows: string[][];
  try {
    rows = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (error) {
    throw new Error(`CSV: ${(error as Error).message}`);
  }
  return tableColumns(rows, 'CSV');
}

async function xlsxColumns(bytes: Uint8Array, sheetName: string | undefined): Promise<{ columns: Columns; sheet: string }> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readXlsxFile(buffer) as never;
  } catch (error) {
    throw new Error(`XLSX: ${(error as Error).message}`);
  }
  const sheet = sheetName === undefined ? sheets[0] : sheets.find((s) => s.sheet === sheetName) ?? (sheetName === 'assets' ? sheets[0] : undefined);
  if (!sheet) throw new Error(`XLSX: no sheet ${sheetName}`);
  return { columns: tableColumns(sheet.data as Cell[][], `XLSX sheet ${sheet.sheet}`), sheet: sheet.sheet };
}

/** The frame Exposures.write_hdf5 stores under `exposures` (pandas fixed layout), as columns. */
function pandasFrame(file: H5File): { columns: Columns; valueUnit: string | null } {
  const group = groupAt(file, 'exposures');
  if (!group) throw new Error('HDF5: no group exposures (as Exposures.write_hdf5 writes)');
  const columns: Columns = new Map();
  const blocks = Number(group.attrs.nblocks?.value ?? 0);
  for (let b = 0; b < blocks; b++) {
    const items = datasetAt(file, `exposures/block${b}_items`)?.value as string[] | undefined;
    const values = datasetAt(file, `exposures/block${b}_values`);
    if (!items || !values) continue;
    const shape = values.shape ?? [];
    const v = values.value as unknown;
    // Object blocks (geometry) are pickled: not read, latitude and longitude are columns of their own.
    if (!ArrayBuffer.isView(v) || shape.length !== 2) continue;
    const flat = Array.from(v as unknown as ArrayLike<number | bigint>, Number);
    const rows = shape[0]!, width = shape[1]!;
    items.forEach((name, j) => columns.set(String(name), Array.from({ length: rows }, (_, i) => flat[i * width + j]!)));
  }
  const metadata = String(group.attrs.metadata?.value ?? '');
  const unit = /Vvalue_unit\np\d+\nV([^\n]*)\n/.exec(metadata);
  return { columns, valueUnit: unit ? unit[1]! : null };
}

const IMPF_COLUMN = /^(?:impf|if)_([A-Za-z0-9]*)$/;

/** CLIMADA exposures from CSV, XLSX or HDF5 (see the header for the layouts). */
export async function readClimadaExposuresInput(bytes: Uint8Array): Promise<ClimadaExposuresInput & { format: string }> {
  let columns: Columns;
  let format: string;
  let valueUnit: string | null = null;
  if (isHdf5(bytes)) {
    const frame = await withHdf5(bytes, pandasFrame);
    columns = frame.columns;
    valueUnit = frame.valueUnit;
    format = 'CLIMADA HDF5';
  } else if (isZip(bytes)) {
    const read = await xlsxColumns(bytes, 'assets');
    columns = read.columns;
    format = `xlsx (sheet ${read.sheet})`;
  } else {
    columns = csvColumns(bytes);
    format = 'csv';
  }
  const missing = ['latitude', 'longitude', 'value'].filter((c) => !columns.has(c));
  if (missing.length > 0) throw new Error(`no column ${missing.join(', no column ')} (columns read: ${[...columns.keys()].join(', ') || 'none'})`);
  const rows = columns.get('value')!.length;
  if (rows === 0) throw new Error('no exposure rows');
  const faults: string[] = [];
  const optional = (name: string) => (columns.has(name) ? numbersOf(columns, name, rows, faults) : null);
  const impf: Record<string, Float64Array> = {};
  for (const name of columns.keys()) {
    const m = IMPF_COLUMN.exec(name);
    if (m) impf[m[1]!] = numbersOf(columns, name, rows, faults);
  }
  const units = columns.get('value_unit');
  if (units) {
    const distinct = [...new Set(units.map((u) => String(u ?? '').trim()).filter((u) => u !== ''))];
    if (distinct.length > 1) faults.push(`value_unit holds more than one unit (${distinct.slice(0, 5).join(', ')})`);
    valueUnit = distinct[0] ?? valueUnit;
  }
  const value: ClimadaExposuresInput = {
    value_unit: valueUnit ?? '',
    latitude: numbersOf(columns, 'latitude', rows, faults),
    longitude: numbersOf(columns, 'longitude', rows, faults),
    value: numbersOf(columns, 'value', rows, faults),
    deductible: optional('deductible'),
    cover: optional('cover'),
    region_id: optional('region_id'),
    impf,
  };
  value.latitude.forEach((lat, i) => { if (Math.abs(lat) > 90 && faults.length < 10) faults.push(`row ${i + 1} latitude ${lat} is outside -90..90`); });
  if (faults.length > 0) throw new Error(faults.join('; '));
  return { ...value, format };
}

/** CLIMADA impact functions: the impact_functions sheet of a workbook, or its columns as CSV. */
export async function readClimadaImpactFunctionsInput(bytes: Uint8Array): Promise<ClimadaImpactFunctionsInput & { format: string }> {
  let columns: Columns;
  let format: string;
  if (isZip(bytes)) {
    const read = await xlsxColumns(bytes, 'impact_functions');
    columns = read.columns;
    format = `xlsx (sheet ${read.sheet})`;
  } else {
    columns = csvColumns(bytes);
    format = 'csv';
  }
  const alias = (name: string, other: string) => (columns.has(name) ? name : columns.has(other) ? other : name);
  const idCol = alias('impact_fun_id', 'id');
  const perilCol = alias('peril_id', 'haz_type');
  const missing = [idCol, 'intensity', 'mdd', 'paa', perilCol].filter((c) => !columns.has(c));
  if (missing.length > 0) throw new Error(`no column ${missing.join(', no column ')} (columns read: ${[...columns.keys()].join(', ') || 'none'})`);
  const rows = columns.get('intensity')!.length;
  const faults: string[] = [];
  const ids = numbersOf(columns, idCol, rows, faults);
  const intensity = numbersOf(columns, 'intensity', rows, faults);
  const mdd = numbersOf(columns, 'mdd', rows, faults);
  const paa = numbersOf(columns, 'paa', rows, faults);
  if (faults.length > 0) throw new Error(faults.join('; '));
  const text = (name: string, i: number) => String(columns.get(name)?.[i] ?? '').trim();
  const byKey = new Map<string, { haz_type: string; id: number; name: string; intensity_unit: string; intensity: number[]; mdd: number[]; paa: number[] }>();
  for (let i = 0; i < rows; i++) {
    const key = `${text(perilCol, i)}/${ids[i]}`;
    let f = byKey.get(key);
    if (!f) {
      f = { haz_type: text(perilCol, i), id: ids[i]!, name: text('name', i), intensity_unit: text('intensity_unit', i), intensity: [], mdd: [], paa: [] };
      byKey.set(key, f);
    }
    f.intensity.push(intensity[i]!);
    f.mdd.push(mdd[i]!);
    f.paa.push(paa[i]!);
  }
  const functions: ClimadaImpactFunction[] = [...byKey.values()];
  for (const f of functions) {
    if (f.haz_type === '') faults.push(`impact function ${f.id} has no ${perilCol}`);
    for (let k = 1; k < f.intensity.length; k++) {
      if (!(f.intensity[k]! >= f.intensity[k - 1]!)) { faults.push(`impact function ${f.haz_type} ${f.id}: intensities do not ascend (row order is the curve's)`); break; }
    }
  }
  if (faults.length > 0) throw new Error(faults.join('; '));
  if (functions.length === 0) throw new Error('no impact function rows');
  return { functions, format };
}
