// CLIMADA's tabular files: the entity workbook (exposures and impact functions, demo_today.xlsx),
// the processed IBTrACS track CSV (trac_brb_test.csv), and the calibrated tropical-cyclone impact
// function tables (regional v_half per calibration approach, country → calibration region).
import { parse } from 'csv-parse/sync';
import type { ImpactFunction } from '../../domain/lab/engine/impact.js';
import { trackPressures, type TcTrack } from '../../domain/lab/lanes/tropical-cyclone/track.js';

export interface EntityExposure {
  lat: number;
  lon: number;
  value: number;
  deductible: number;
  cover: number;
  /** The impf_TC column: which impact function of the workbook applies. */
  impf_id: number;
}

export interface ClimadaEntity {
  exposures: EntityExposure[];
  impact_functions: (ImpactFunction & { peril: string; name: string; unit: string })[];
}

type Cell = string | number | boolean | Date | null;

function table(rows: Cell[][], sheet: string, columns: readonly string[]): Record<string, Cell>[] {
  const header = (rows[0] ?? []).map((c) => String(c ?? '').trim());
  for (const c of columns) if (!header.includes(c)) throw new Error(`workbook sheet ${sheet}: no column ${c}`);
  return rows.slice(1).filter((r) => r.some((c) => c !== null && c !== '')).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? null])));
}

function num(v: Cell, where: string): number {
  const n = typeof v === 'number' ? v : Number(v);
  if (v === null || v === '' || !Number.isFinite(n)) throw new Error(`${where}: not a number (${String(v)})`);
  return n;
}

/** A CLIMADA entity workbook: sheet assets (latitude, longitude, value, deductible, cover, impf_TC) and impact_functions. */
export async function parseClimadaEntityXlsx(bytes: Uint8Array): Promise<ClimadaEntity> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  const sheets = await readXlsxFile(buffer);
  const sheet = (name: string) => {
    const s = sheets.find((x) => x.sheet === name);
    if (!s) throw new Error(`workbook: no sheet ${name}`);
    return s.data as Cell[][];
  };
  const assets = table(sheet('assets'), 'assets', ['latitude', 'longitude', 'value', 'impf_TC']);
  const exposures = assets.map((r, i) => ({
    lat: num(r.latitude!, `assets row ${i + 2} latitude`),
    lon: num(r.longitude!, `assets row ${i + 2} longitude`),
    value: num(r.value!, `assets row ${i + 2} value`),
    deductible: r.deductible === null || r.deductible === undefined ? 0 : num(r.deductible, `assets row ${i + 2} deductible`),
    cover: r.cover === null || r.cover === undefined ? num(r.value!, 'cover') : num(r.cover, `assets row ${i + 2} cover`),
    impf_id: num(r.impf_TC!, `assets row ${i + 2} impf_TC`),
  }));
  const rows = table(sheet('impact_functions'), 'impact_functions', ['impact_fun_id', 'intensity', 'mdd', 'paa', 'peril_id']);
  const byKey = new Map<string, ClimadaEntity['impact_functions'][number]>();
  rows.forEach((r, i) => {
    const id = num(r.impact_fun_id!, `impact_functions row ${i + 2} impact_fun_id`);
    const peril = String(r.peril_id ?? '');
    const key = `${peril}/${id}`;
    let f = byKey.get(key);
    if (!f) {
      f = { id, peril, name: String(r.name ?? ''), unit: String(r.intensity_unit ?? ''), intensity: [], mdd: [], paa: [] };
      byKey.set(key, f);
    }
    (f.intensity as number[]).push(num(r.intensity!, `impact_functions row ${i + 2} intensity`));
    (f.mdd as number[]).push(num(r.mdd!, `impact_functions row ${i + 2} mdd`));
    (f.paa as number[]).push(num(r.paa!, `impact_functions row ${i + 2} paa`));
  });
  return { exposures, impact_functions: [...byKey.values()] };
}

/**
 * A track in CLIMADA's processed IBTrACS CSV (one storm per file: cgps_lat, cgps_lon, isotime
 * YYYYMMDDHH, tint hours, pcen and penv hPa, vmax knots, rmax nm, gen_basin, ibtracsID). As CLIMADA
 * reads it: when any central pressure is missing (not > 0), every one is estimated from position and
 * wind.
 */
export function parseProcessedIbtracsCsv(text: string): TcTrack {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  if (rows.length === 0) throw new Error('track CSV: no rows');
  const n = (r: Record<string, string>, c: string) => {
    const v = Number(r[c]);
    if (r[c] === undefined || r[c] === '' || !Number.isFinite(v)) throw new Error(`track CSV: column ${c} is not a number (${r[c]})`);
    return v;
  };
  const time = rows.map((r) => {
    const t = n(r, 'isotime');
    const year = Math.trunc(t / 1e6), month = Math.trunc((t % 1e6) / 1e4), day = Math.trunc((t % 1e4) / 1e2), hour = t % 100;
    return Date.UTC(year, month - 1, day, hour);
  });
  const lat = rows.map((r) => n(r, 'cgps_lat'));
  const lon = rows.map((r) => n(r, 'cgps_lon'));
  const wind = rows.map((r) => n(r, 'vmax'));
  const pres = trackPressures(rows.map((r) => n(r, 'pcen')), lat, lon, wind);
  return {
    sid: rows[0]!.ibtracsID!,
    name: rows[0]!.ibtracsID!,
    basin: rows[0]!.gen_basin!,
    time, lat, lon,
    time_step_h: rows.map((r) => n(r, 'tint')),
    max_wind_kn: wind,
    central_pressure_hpa: pres,
    environmental_pressure_hpa: rows.map((r) => n(r, 'penv')),
    rmw_nm: rows.map((r) => n(r, 'rmax')),
  };
}

/** The calibration tables: v_half per region for each approach, and each country's region (ISO alpha-3). */
export interface TcCalibration {
  /** approach (TDR1.0, TDR1.5, RMSF) → region (NA1 … WP4, GLB) → v_half m/s, rounded to 5 decimals as CLIMADA does. */
  v_half: Record<string, Record<string, number>>;
  region_of_country: Record<string, string>;
}

export const CALIBRATION_FILES: Readonly<Record<string, string>> = {
  'TDR1.0': 'tc_impf_cal_v01_TDR1.0.csv',
  'TDR1.5': 'tc_impf_cal_v01_TDR1.5.csv',
  RMSF: 'tc_impf_cal_v01_RMSF.csv',
};
export const COUNTRY_OVERVIEW_FILE = 'tc_cal_202005_country_overview.csv';

export function parseTcCalibration(texts: Readonly<Record<string, string>>): TcCalibration {
  const v_half: TcCalibration['v_half'] = {};
  for (const [approach, file] of Object.entries(CALIBRATION_FILES)) {
    const text = texts[file];
    if (text === undefined) throw new Error(`impact-function tables: no ${file}`);
    const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    v_half[approach] = Object.fromEntries(rows.map((r) => {
      const v = Number(r.v_half);
      if (!r.cal_region2 || !Number.isFinite(v)) throw new Error(`${file}: bad row ${JSON.stringify(r)}`);
      return [r.cal_region2, Math.round(v * 1e5) / 1e5];
    }));
  }
  const overview = texts[COUNTRY_OVERVIEW_FILE];
  if (overview === undefined) throw new Error(`impact-function tables: no ${COUNTRY_OVERVIEW_FILE}`);
  const rows = parse(overview, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const region_of_country = Object.fromEntries(rows.filter((r) => r.alpha3 && r.region).map((r) => [r.alpha3!, r.region!]));
  return { v_half, region_of_country };
}
