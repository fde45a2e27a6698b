// Loader for the Oasis LMF PiWind model data pinned in the oasis-piwind feed (ktools CSV forms and
// the built-in lookup's JSON configuration). Pure: it parses the file TEXTS it is given; the caller
// reads the files. Formats (ktools "Data conversion components", OasisLMF built-in lookup):
//
//   events_p.csv            event_id
//   occurrence_lt.csv       event_id, period_no, occ_year, occ_month, occ_day
//   footprint.csv           event_id, areaperil_id, intensity_bin_id, probability
//   vulnerability.csv       vulnerability_id, intensity_bin_id, damage_bin_id, probability
//   damage_bin_dict.csv     bin_index, bin_from, bin_to, interpolation, damage_type
//   intensity_bin_dict.csv  bin_index, bin_from, bin_to, interpolation, interval_type (optional)
//   areaperil_dict.csv      PERIL_ID, COVERAGE_TYPE, LON1, LAT1 .. LON4, LAT4, AREA_PERIL_ID
//   vulnerability_dict.csv  PERIL_ID, COVERAGE_TYPE, OCCUPANCYCODE, VULNERABILITY_ID
//   lookup_config.json      the built-in ("new_lookup") step definitions and strategy
//   model_settings.json     optional: default samples, supported perils, correlation settings
//   PerilsCovered.csv       optional: the OED peril-group table (Peril, PerilsCovered); without it
//                           the groups of the pinned oed-spec 2026-07-08 that reach WTC/WSS are used
//
// The number of periods is the one the occurrence file states: ktools keeps it in the header of
// occurrence_lt.bin (date option, number of periods), not in the CSV. Pass it as options.periods,
// or the .bin bytes as options.occurrenceBin; with neither, the highest period_no is taken and the
// model says so in notes.

import type { DamageBins, EventFootprints, EventOccurrence, ModelData, ModelSettingsSummary, Vulnerabilities } from '../../engine/model-data.js';

export class PiwindModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PiwindModelError';
  }
}

/** The OED peril groups (pinned oed-spec 2026-07-08, PerilsCovered.csv) that contain WTC or WSS. */
export const OED_PERIL_GROUPS_WIND: Readonly<Record<string, readonly string[]>> = {
  WTC: ['WTC'],
  WSS: ['WSS'],
  WW1: ['WTC', 'WSS'],
  WW2: ['WTC'],
  AA1: ['WTC', 'WSS'],
};

export interface IntensityBin {
  bin_index: number;
  bin_from: number;
  bin_to: number;
  interpolation: number;
  interval_type: number;
}

/** One area-peril cell of areaperil_dict: its peril and its polygon (the four corners as given). */
export interface AreaPerilCell {
  areaperil_id: number;
  peril: string;
  coverage_types: number[];
  corners: [number, number][]; // [lon, lat]
  min_lon: number;
  max_lon: number;
  min_lat: number;
  max_lat: number;
  /** True when the four corners are the corners of their bounding box (axis-aligned rectangle). */
  rectangle: boolean;
}

export interface LookupPlan {
  strategy: string[];
  /** Perils the split step keeps (split_loc_perils_covered.model_perils_covered). */
  modelPerils: string[];
  /** Coverage types the pivot step creates, in order (simple_pivot new_cols.coverage_type). */
  coverageTypes: number[];
  /** rtree nearest_neighbor_min_distance; only values <= 0 (no nearest fallback) are supported. */
  nearestNeighborMinDistance: number;
  /** Columns the vulnerability merge keys on (lower case). */
  vulnerabilityColumns: string[];
  /** Steps defined in step_definition but not named in the strategy (not applied). */
  unusedSteps: string[];
}

/** The PiWind model: the kernel's model data plus what the lane's lookup and report read. */
export interface PiwindModel extends ModelData {
  occurrence: EventOccurrence & { periodsSource: 'stated' | 'occurrence_lt.bin header' | 'highest period_no' };
  intensityBins: IntensityBin[];
  /** Cells per peril, ascending area-peril id. */
  cells: Map<string, AreaPerilCell[]>;
  /** The model's grid: the extent of every cell of areaperil_dict (null when it has none). */
  extent: GridExtent | null;
  /** vulnerability_dict: `${peril}|${coverage_type}|${occupancy}` → vulnerability id. */
  vulnerabilityDict: Map<string, number>;
  lookup: LookupPlan;
  /** OED peril group code → perils it names. */
  perilGroups: Map<string, string[]>;
  version: string | null;
  notes: string[];
}

export interface ParseOptions {
  /** The number of periods the occurrence file states (e.g. from the manifest or the .bin). */
  periods?: number;
  /** The bytes of occurrence_lt.bin: its header (date option, number of periods) is read. */
  occurrenceBin?: Uint8Array;
}

interface Table {
  file: string;
  header: string[];
  rows: string[][];
  lines: number[];
}

function table(texts: Record<string, string>, file: string, required = true): Table | null {
  const text = texts[file];
  if (text === undefined) {
    if (required) throw new PiwindModelError(`${file} is missing`);
    return null;
  }
  const all = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let h = 0;
  while (h < all.length && all[h]!.trim() === '') h++;
  if (h >= all.length) throw new PiwindModelError(`${file} is empty`);
  const header = splitCsv(all[h]!).map((c) => c.trim().toLowerCase());
  const rows: string[][] = [];
  const lines: number[] = [];
  for (let i = h + 1; i < all.length; i++) {
    const line = all[i]!;
    if (line.trim() === '') continue;
    rows.push(splitCsv(line));
    lines.push(i + 1);
  }
  return { file, header, rows, lines };
}

function splitCsv(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

function column(t: Table, name: string): number {
  const i = t.header.indexOf(name.toLowerCase());
  if (i < 0) throw new PiwindModelError(`${t.file} has no column ${name} (columns: ${t.header.join(', ')})`);
  return i;
}

function num(t: Table, r: number, c: number): number {
  const cell = t.rows[r]![c];
  const v = cell === undefined ? NaN : Number(cell.trim());
  if (cell === undefined || cell.trim() === '' || !Number.isFinite(v)) {
    throw new PiwindModelError(`${t.file} line ${t.lines[r]}: "${cell ?? ''}" in column ${t.header[c]} is not a number`);
  }
  return v;
}

function int(t: Table, r: number, c: number): number {
  const v = num(t, r, c);
  if (!Number.isInteger(v)) throw new PiwindModelError(`${t.file} line ${t.lines[r]}: ${v} in column ${t.header[c]} is not an integer`);
  return v;
}

function str(t: Table, r: number, c: number): string {
  return (t.rows[r]![c] ?? '').trim();
}

function json(texts: Record<string, string>, file: string, required: boolean): Record<string, unknown> | null {
  const text = texts[file];
  if (text === undefined) {
    if (required) throw new PiwindModelError(`${file} is missing`);
    return null;
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new PiwindModelError(`${file} is not a JSON object: ${(e as Error).message}`);
  }
}

/** Reads the ktools occurrence_lt.bin header: int32 date option, int32 number of periods (little endian). */
export function readOccurrenceBinHeader(bytes: Uint8Array): { dateOption: number; periods: number } {
  if (bytes.byteLength < 8) throw new PiwindModelError('occurrence_lt.bin is shorter than its 8-byte header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { dateOption: view.getInt32(0, true), periods: view.getInt32(4, true) };
}

/** The OED peril-group table (PerilsCovered.csv: Peril, PerilsCovered) as group → perils. */
export function parsePerilGroups(text: string): Map<string, string[]> {
  const t = table({ 'PerilsCovered.csv': text }, 'PerilsCovered.csv')!;
  const peril = column(t, 'Peril');
  const group = column(t, 'PerilsCovered');
  const out = new Map<string, string[]>();
  for (let r = 0; r < t.rows.length; r++) {
    const g = str(t, r, group);
    const p = str(t, r, peril);
    if (g === '' || p === '') continue;
    const list = out.get(g) ?? [];
    if (!list.includes(p)) list.push(p);
    out.set(g, list);
  }
  return out;
}

function parseLookupConfig(cfg: Record<string, unknown>): LookupPlan {
  const steps = (cfg.step_definition ?? {}) as Record<string, { type?: string; columns?: string[]; parameters?: Record<string, unknown> }>;
  const strategy = cfg.strategy;
  if (!Array.isArray(strategy) || strategy.some((s) => typeof s !== 'string')) {
    throw new PiwindModelError('lookup_config.json has no strategy list');
  }
  if (cfg.builtin_lookup_type !== undefined && cfg.builtin_lookup_type !== 'new_lookup') {
    throw new PiwindModelError(`lookup_config.json builtin_lookup_type ${String(cfg.builtin_lookup_type)} is not supported (new_lookup is)`);
  }
  let modelPerils: string[] | null = null;
  let coverageTypes: number[] | null = null;
  let nearest: number | null = null;
  let vulnerabilityColumns: string[] | null = null;
  const seen: string[] = [];
  for (const name of strategy as string[]) {
    const step = steps[name];
    if (!step) throw new PiwindModelError(`lookup_config.json strategy names ${name}, which step_definition lacks`);
    const params = step.parameters ?? {};
    switch (step.type) {
      case 'split_loc_perils_covered': {
        const perils = params.model_perils_covered;
        if (!Array.isArray(perils) || perils.length === 0) throw new PiwindModelError('split_loc_perils_covered has no model_perils_covered');
        modelPerils = (perils as unknown[]).map(String);
        break;
      }
      case 'rtree': {
        if (!seen.includes('split_loc_perils_covered')) {
          throw new PiwindModelError('the rtree step runs before the perils are split; only the split-then-rtree order is supported');
        }
        nearest = Number(params.nearest_neighbor_min_distance ?? -1);
        if (nearest > 0) throw new PiwindModelError(`rtree nearest_neighbor_min_distance ${nearest} (a nearest-cell fallback) is not supported`);
        break;
      }
      case 'simple_pivot': {
        const pivots = params.pivots;
        if (!Array.isArray(pivots)) throw new PiwindModelError('simple_pivot has no pivots');
        coverageTypes = (pivots as { on?: unknown; new_cols?: Record<string, unknown> }[]).map((p) => {
          if (p.on !== undefined) throw new PiwindModelError('simple_pivot "on" renames are not supported');
          const ct = Number(p.new_cols?.coverage_type);
          if (!Number.isInteger(ct)) throw new PiwindModelError('simple_pivot pivot without an integer coverage_type');
          return ct;
        });
        break;
      }
      case 'merge': {
        const cols = (step.columns ?? []).map((c) => c.toLowerCase());
        const idCols = (params.id_columns as string[] | undefined) ?? [];
        if (!idCols.includes('vulnerability_id')) {
          throw new PiwindModelError(`merge step ${name} maps to ${idCols.join(', ')}; only the vulnerability merge is supported in the strategy`);
        }
        const supported = ['peril_id', 'coverage_type', 'occupancycode'];
        const extra = cols.filter((c) => !supported.includes(c));
        if (extra.length > 0) throw new PiwindModelError(`vulnerability merge on ${extra.join(', ')} is not supported`);
        vulnerabilityColumns = cols;
        break;
      }
      default:
        throw new PiwindModelError(`lookup step ${name} of type ${String(step.type)} is not supported`);
    }
    seen.push(step.type!);
  }
  if (!modelPerils) throw new PiwindModelError('lookup_config.json strategy has no split_loc_perils_covered step');
  if (nearest === null) throw new PiwindModelError('lookup_config.json strategy has no rtree (area-peril) step');
  if (!vulnerabilityColumns) throw new PiwindModelError('lookup_config.json strategy has no vulnerability merge step');
  return {
    strategy: strategy as string[],
    modelPerils,
    coverageTypes: coverageTypes ?? [1],
    nearestNeighborMinDistance: nearest,
    vulnerabilityColumns,
    unusedSteps: Object.keys(steps).filter((s) => !(strategy as string[]).includes(s)),
  };
}

function parseSettings(s: Record<string, unknown> | null): ModelSettingsSummary | null {
  if (!s) return null;
  const lookup = (s.lookup_settings ?? {}) as { supported_perils?: { id?: unknown; desc?: unknown; peril_correlation_group?: unknown }[] };
  const corr = Array.isArray(s.correlation_settings) ? (s.correlation_settings as Record<string, unknown>[]) : [];
  return {
    defaultSamples: typeof s.model_default_samples === 'number' ? s.model_default_samples : null,
    supportedPerils: (lookup.supported_perils ?? []).map((p) => ({
      id: String(p.id ?? ''),
      desc: String(p.desc ?? ''),
      peril_correlation_group: Number.isInteger(p.peril_correlation_group) ? (p.peril_correlation_group as number) : null,
    })),
    correlation: corr.map((c) => ({
      peril_correlation_group: Number(c.peril_correlation_group),
      damage_correlation_value: Number(c.damage_correlation_value),
      hazard_correlation_value: Number(c.hazard_correlation_value),
    })),
  };
}

/** The bounding box of a model's area-peril cells, edges inclusive (degrees). */
export interface GridExtent {
  min_lat: number;
  max_lat: number;
  min_lon: number;
  max_lon: number;
}

/**
 * The area-peril cells of areaperil_dict.csv per peril (ascending id) and the model's grid: the
 * extent of all its cells. Every cell lies inside the extent, so a point outside it is in no cell.
 */
export function parseAreaPerilGrid(texts: Record<string, string>): { cells: Map<string, AreaPerilCell[]>; extent: GridExtent | null; maxAreaperilId: number } {
  let maxAp = 0;
  const ap = table(texts, 'areaperil_dict.csv')!;
  const aPeril = column(ap, 'PERIL_ID');
  const aCov = ap.header.indexOf('coverage_type');
  const aId = column(ap, 'AREA_PERIL_ID');
  const corners = [1, 2, 3, 4].map((k) => [column(ap, `LON${k}`), column(ap, `LAT${k}`)] as const);
  const byKey = new Map<string, AreaPerilCell>();
  for (let r = 0; r < ap.rows.length; r++) {
    const peril = str(ap, r, aPeril);
    const id = int(ap, r, aId);
    if (id < 1) throw new PiwindModelError(`areaperil_dict.csv line ${ap.lines[r]}: AREA_PERIL_ID ${id} is below 1`);
    const pts = corners.map(([x, y]) => [num(ap, r, x), num(ap, r, y)] as [number, number]);
    const key = `${peril}|${id}`;
    const cov = aCov >= 0 ? int(ap, r, aCov) : 0;
    const have = byKey.get(key);
    if (have) {
      if (have.corners.some((c, i) => c[0] !== pts[i]![0] || c[1] !== pts[i]![1])) {
        throw new PiwindModelError(`areaperil_dict.csv gives ${peril} area-peril ${id} two different polygons`);
      }
      if (!have.coverage_types.includes(cov)) have.coverage_types.push(cov);
      continue;
    }
    const lons = pts.map((p) => p[0]);
    const lats = pts.map((p) => p[1]);
    const minLon = Math.min(...lons);
    const maxLon = Math.max(...lons);
    const minLat = Math.min(...lats);
    const maxLat = Math.max(...lats);
    const combos = new Set(pts.map((p) => `${p[0] === minLon ? 'a' : p[0] === maxLon ? 'b' : 'x'}${p[1] === minLat ? 'a' : p[1] === maxLat ? 'b' : 'x'}`));
    const rectangle = combos.size === 4 && !['xa', 'xb', 'ax', 'bx', 'xx'].some((c) => combos.has(c));
    byKey.set(key, {
      areaperil_id: id, peril, coverage_types: [cov], corners: pts,
      min_lon: minLon, max_lon: maxLon, min_lat: minLat, max_lat: maxLat, rectangle,
    });
    if (id > maxAp) maxAp = id;
  }
  const cells = new Map<string, AreaPerilCell[]>();
  const idOwner = new Map<number, string>();
  for (const cell of byKey.values()) {
    const owner = idOwner.get(cell.areaperil_id);
    if (owner !== undefined && owner !== cell.peril) {
      throw new PiwindModelError(`areaperil_dict.csv uses area-peril id ${cell.areaperil_id} for both ${owner} and ${cell.peril}`);
    }
    idOwner.set(cell.areaperil_id, cell.peril);
    const list = cells.get(cell.peril) ?? [];
    list.push(cell);
    cells.set(cell.peril, list);
  }
  for (const list of cells.values()) list.sort((a, b) => a.areaperil_id - b.areaperil_id);

  let extent: GridExtent | null = null;
  for (const cell of byKey.values()) {
    if (extent === null) extent = { min_lat: cell.min_lat, max_lat: cell.max_lat, min_lon: cell.min_lon, max_lon: cell.max_lon };
    else {
      if (cell.min_lat < extent.min_lat) extent.min_lat = cell.min_lat;
      if (cell.max_lat > extent.max_lat) extent.max_lat = cell.max_lat;
      if (cell.min_lon < extent.min_lon) extent.min_lon = cell.min_lon;
      if (cell.max_lon > extent.max_lon) extent.max_lon = cell.max_lon;
    }
  }
  return { cells, extent, maxAreaperilId: maxAp };
}

/** Parses the PiWind files (texts keyed by file name) into the in-memory model, file by file. */
export function parsePiwindModel(texts: Record<string, string>, options: ParseOptions = {}): PiwindModel {
  const notes: string[] = [];
  const damageBins = parseDamageBins(texts);
  const intensityBins = parseIntensityBins(texts);
  const events = parseEvents(texts);
  const eventSet = new Set(events);
  const occurrence = parseOccurrence(texts, eventSet, options, notes);
  const { footprint, maxAreaperilId } = parseFootprint(texts, eventSet, notes);
  const vulnerability = parseVulnerability(texts, damageBins.count, footprint.binId);
  const grid = parseAreaPerilGrid(texts);
  const vulnerabilityDict = parseVulnerabilityDict(texts, vulnerability.index, notes);
  const { lookup, perilGroups } = parseLookupAndPerilGroups(texts, grid.cells, notes);
  return {
    events,
    occurrence,
    footprint,
    vulnerability,
    damageBins,
    intensityBins,
    cells: grid.cells,
    extent: grid.extent,
    maxAreaperilId: Math.max(maxAreaperilId, grid.maxAreaperilId),
    vulnerabilityDict,
    lookup,
    perilGroups,
    settings: parseSettings(json(texts, 'model_settings.json', false)),
    version: texts['ModelVersion.csv']?.trim() || null,
    notes,
  };
}

/** damage_bin_dict.csv: every bin 1..n once, 0 <= bin_from <= interpolation <= bin_to <= 1. */
function parseDamageBins(texts: Record<string, string>): DamageBins {
  const db = table(texts, 'damage_bin_dict.csv')!;
  const dbIdx = column(db, 'bin_index');
  const dbFrom = column(db, 'bin_from');
  const dbTo = column(db, 'bin_to');
  const dbInterp = column(db, 'interpolation');
  const nD = db.rows.length;
  const damageBins: DamageBins = {
    count: nD,
    from: new Float64Array(nD),
    to: new Float64Array(nD),
    interpolation: new Float64Array(nD),
  };
  const seenBin = new Uint8Array(nD);
  for (let r = 0; r < nD; r++) {
    const b = int(db, r, dbIdx);
    if (b < 1 || b > nD || seenBin[b - 1]) throw new PiwindModelError(`damage_bin_dict.csv line ${db.lines[r]}: bin_index ${b} is not one of 1..${nD} once each`);
    seenBin[b - 1] = 1;
    const from = num(db, r, dbFrom);
    const to = num(db, r, dbTo);
    const interp = num(db, r, dbInterp);
    if (!(from >= 0 && to >= from && to <= 1 && interp >= from && interp <= to)) {
      throw new PiwindModelError(`damage_bin_dict.csv line ${db.lines[r]}: bin ${b} needs 0 <= bin_from <= interpolation <= bin_to <= 1`);
    }
    damageBins.from[b - 1] = from;
    damageBins.to[b - 1] = to;
    damageBins.interpolation[b - 1] = interp;
  }
  return damageBins;
}

/** intensity_bin_dict.csv, optional and informative. */
function parseIntensityBins(texts: Record<string, string>): IntensityBin[] {
  const ib = table(texts, 'intensity_bin_dict.csv', false);
  const intensityBins: IntensityBin[] = [];
  if (!ib) return intensityBins;
  const c = ['bin_index', 'bin_from', 'bin_to', 'interpolation'].map((n) => column(ib, n));
  const it = ib.header.indexOf('interval_type');
  for (let r = 0; r < ib.rows.length; r++) {
    intensityBins.push({
      bin_index: int(ib, r, c[0]!),
      bin_from: num(ib, r, c[1]!),
      bin_to: num(ib, r, c[2]!),
      interpolation: num(ib, r, c[3]!),
      interval_type: it >= 0 ? num(ib, r, it) : 0,
    });
  }
  return intensityBins;
}

/** events_p.csv: the event set, ascending, each event once. */
function parseEvents(texts: Record<string, string>): Int32Array {
  const ev = table(texts, 'events_p.csv')!;
  const evCol = column(ev, 'event_id');
  const events = new Int32Array(ev.rows.length);
  for (let r = 0; r < ev.rows.length; r++) events[r] = int(ev, r, evCol);
  events.sort();
  for (let i = 1; i < events.length; i++) {
    if (events[i] === events[i - 1]) throw new PiwindModelError(`events_p.csv lists event ${events[i]} twice`);
  }
  return events;
}

/** occurrence_lt.csv and the number of periods: stated, read from the .bin header, or the highest period_no. */
function parseOccurrence(texts: Record<string, string>, eventSet: ReadonlySet<number>, options: ParseOptions, notes: string[]): PiwindModel['occurrence'] {
  const oc = table(texts, 'occurrence_lt.csv')!;
  const ocEv = column(oc, 'event_id');
  const ocPer = column(oc, 'period_no');
  const occEvent = new Int32Array(oc.rows.length);
  const occPeriod = new Int32Array(oc.rows.length);
  let maxPeriod = 0;
  let notInEvents = 0;
  for (let r = 0; r < oc.rows.length; r++) {
    occEvent[r] = int(oc, r, ocEv);
    const p = int(oc, r, ocPer);
    if (p < 1) throw new PiwindModelError(`occurrence_lt.csv line ${oc.lines[r]}: period_no ${p} is below 1`);
    occPeriod[r] = p;
    if (p > maxPeriod) maxPeriod = p;
    if (!eventSet.has(occEvent[r]!)) notInEvents++;
  }
  let periods: number;
  let periodsSource: PiwindModel['occurrence']['periodsSource'];
  if (options.periods !== undefined) {
    periods = options.periods;
    periodsSource = 'stated';
  } else if (options.occurrenceBin) {
    periods = readOccurrenceBinHeader(options.occurrenceBin).periods;
    periodsSource = 'occurrence_lt.bin header';
  } else {
    periods = maxPeriod;
    periodsSource = 'highest period_no';
    notes.push(`The number of periods (${periods}) was taken from the highest period_no of occurrence_lt.csv; the file's header states it in the .bin form.`);
  }
  if (!Number.isInteger(periods) || periods < 1) throw new PiwindModelError(`number of periods ${periods} is not a positive integer`);
  if (maxPeriod > periods) throw new PiwindModelError(`occurrence_lt.csv names period ${maxPeriod}, beyond the stated ${periods} periods`);
  if (notInEvents > 0) {
    notes.push(`${notInEvents} occurrence row(s) name events outside events_p.csv; those events are not in the event set and are not run.`);
  }
  const date = occurrenceDates(oc);
  return { periods, periodsSource, eventId: occEvent, period: occPeriod, ...(date ? { date } : {}) };
}

/** The dates of occurrence_lt.csv when it has occ_year, occ_month and occ_day (hour and minute 0 unless given). */
function occurrenceDates(oc: Table): Int32Array | undefined {
  const has = (name: string) => oc.header.includes(name);
  if (!has('occ_year') || !has('occ_month') || !has('occ_day')) return undefined;
  const cols = ['occ_year', 'occ_month', 'occ_day', 'occ_hour', 'occ_minute'].map((c) => (has(c) ? column(oc, c) : -1));
  const date = new Int32Array(oc.rows.length * 5);
  for (let r = 0; r < oc.rows.length; r++) {
    for (let k = 0; k < 5; k++) date[r * 5 + k] = cols[k]! < 0 ? 0 : int(oc, r, cols[k]!);
  }
  return date;
}

/**
 * footprint.csv as the hazard stage reads it: rows sorted by event, area-peril and intensity bin,
 * grouped into events and (event, area-peril) entries; each triple once.
 */
function parseFootprint(texts: Record<string, string>, eventSet: ReadonlySet<number>, notes: string[]): { footprint: EventFootprints; maxAreaperilId: number } {
  const fp = table(texts, 'footprint.csv')!;
  const [fE, fA, fB, fP] = ['event_id', 'areaperil_id', 'intensity_bin_id', 'probability'].map((c) => column(fp, c)) as [number, number, number, number];
  const n = fp.rows.length;
  const rowE = new Int32Array(n);
  const rowA = new Int32Array(n);
  const rowB = new Int32Array(n);
  const rowP = new Float64Array(n);
  let maxAp = 0;
  for (let r = 0; r < n; r++) {
    rowE[r] = int(fp, r, fE);
    rowA[r] = int(fp, r, fA);
    rowB[r] = int(fp, r, fB);
    rowP[r] = num(fp, r, fP);
    if (rowA[r]! < 1) throw new PiwindModelError(`footprint.csv line ${fp.lines[r]}: areaperil_id ${rowA[r]} is below 1`);
    if (rowP[r]! < 0 || rowP[r]! > 1) throw new PiwindModelError(`footprint.csv line ${fp.lines[r]}: probability ${rowP[r]} outside 0..1`);
    if (rowA[r]! > maxAp) maxAp = rowA[r]!;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => rowE[a]! - rowE[b]! || rowA[a]! - rowA[b]! || rowB[a]! - rowB[b]!);
  const fpEventIds: number[] = [];
  const fpEventStart: number[] = [];
  const entryAp: number[] = [];
  const entryStart: number[] = [];
  const binId = new Int32Array(n);
  const binProb = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const r = order[k]!;
    if (k > 0) {
      const q = order[k - 1]!;
      if (rowE[q] === rowE[r] && rowA[q] === rowA[r] && rowB[q] === rowB[r]) {
        throw new PiwindModelError(`footprint.csv gives event ${rowE[r]}, areaperil ${rowA[r]}, intensity bin ${rowB[r]} twice`);
      }
    }
    const newEvent = k === 0 || rowE[order[k - 1]!] !== rowE[r];
    if (newEvent) {
      fpEventIds.push(rowE[r]!);
      fpEventStart.push(entryAp.length);
    }
    if (newEvent || rowA[order[k - 1]!] !== rowA[r]) {
      entryAp.push(rowA[r]!);
      entryStart.push(k);
    }
    binId[k] = rowB[r]!;
    binProb[k] = rowP[r]!;
  }
  fpEventStart.push(entryAp.length);
  entryStart.push(n);
  footprintNotes(fpEventIds, entryStart, binProb, eventSet, notes);
  const eventIndex = new Map<number, number>();
  fpEventIds.forEach((e, i) => eventIndex.set(e, i));
  const footprint: EventFootprints = {
    eventId: Int32Array.from(fpEventIds),
    eventStart: Int32Array.from(fpEventStart),
    entryAreaperil: Int32Array.from(entryAp),
    entryStart: Int32Array.from(entryStart),
    binId,
    binProb,
    eventIndex,
  };
  return { footprint, maxAreaperilId: maxAp };
}

/** What the footprint holds that the framework uses as given or leaves out: said in the model's notes. */
function footprintNotes(fpEventIds: readonly number[], entryStart: readonly number[], binProb: Float64Array, eventSet: ReadonlySet<number>, notes: string[]): void {
  let offSum = 0;
  for (let j = 0; j + 1 < entryStart.length; j++) {
    let s = 0;
    for (let k = entryStart[j]!; k < entryStart[j + 1]!; k++) s += binProb[k]!;
    if (Math.abs(s - 1) > 1e-6) offSum++;
  }
  if (offSum > 0) notes.push(`${offSum} footprint (event, area-peril) entries have intensity probabilities not summing to 1 (within 1e-6); used as given, as the framework does.`);
  let footprintOutside = 0;
  for (const e of fpEventIds) if (!eventSet.has(e)) footprintOutside++;
  if (footprintOutside > 0) notes.push(`${footprintOutside} footprint event(s) are not in events_p.csv and are not run.`);
}

/**
 * vulnerability.csv as the vulnerability stage reads it: damage-bin probabilities per
 * (vulnerability, intensity bin), the stride covering every intensity bin the footprint names.
 */
function parseVulnerability(texts: Record<string, string>, nD: number, footprintBins: Int32Array): Vulnerabilities {
  const vu = table(texts, 'vulnerability.csv')!;
  const [vId, vI, vD, vP] = ['vulnerability_id', 'intensity_bin_id', 'damage_bin_id', 'probability'].map((c) => column(vu, c)) as [number, number, number, number];
  const ids: number[] = [];
  const vIndex = new Map<number, number>();
  let maxI = 0;
  for (let r = 0; r < vu.rows.length; r++) {
    const id = int(vu, r, vId);
    if (!vIndex.has(id)) { vIndex.set(id, ids.length); ids.push(id); }
    const i = int(vu, r, vI);
    if (i < 1) throw new PiwindModelError(`vulnerability.csv line ${vu.lines[r]}: intensity_bin_id ${i} is below 1`);
    if (i > maxI) maxI = i;
  }
  for (let k = 0; k < footprintBins.length; k++) if (footprintBins[k]! > maxI) maxI = footprintBins[k]!;
  const stride = maxI + 1;
  const prob = new Float64Array(ids.length * stride * nD);
  const present = new Uint8Array(ids.length * stride);
  for (let r = 0; r < vu.rows.length; r++) {
    const v = vIndex.get(int(vu, r, vId))!;
    const i = int(vu, r, vI);
    const d = int(vu, r, vD);
    if (d < 1 || d > nD) throw new PiwindModelError(`vulnerability.csv line ${vu.lines[r]}: damage_bin_id ${d} is not one of 1..${nD}`);
    const p = num(vu, r, vP);
    if (p < 0 || p > 1) throw new PiwindModelError(`vulnerability.csv line ${vu.lines[r]}: probability ${p} outside 0..1`);
    const at = (v * stride + i) * nD + (d - 1);
    if (prob[at] !== 0) throw new PiwindModelError(`vulnerability.csv gives vulnerability ${ids[v]}, intensity bin ${i}, damage bin ${d} twice`);
    prob[at] = p;
    present[v * stride + i] = 1;
  }
  return { ids: Int32Array.from(ids), index: vIndex, intensityStride: stride, prob, present };
}

/** vulnerability_dict.csv: (peril, coverage type, occupancy) → vulnerability id, one id per key. */
function parseVulnerabilityDict(texts: Record<string, string>, vIndex: ReadonlyMap<number, number>, notes: string[]): Map<string, number> {
  const vd = table(texts, 'vulnerability_dict.csv')!;
  const [dPeril, dCov, dOcc, dV] = ['PERIL_ID', 'COVERAGE_TYPE', 'OCCUPANCYCODE', 'VULNERABILITY_ID'].map((c) => column(vd, c)) as [number, number, number, number];
  const vulnerabilityDict = new Map<string, number>();
  let dictUnknown = 0;
  for (let r = 0; r < vd.rows.length; r++) {
    const key = `${str(vd, r, dPeril)}|${int(vd, r, dCov)}|${int(vd, r, dOcc)}`;
    const v = int(vd, r, dV);
    const prior = vulnerabilityDict.get(key);
    if (prior !== undefined && prior !== v) throw new PiwindModelError(`vulnerability_dict.csv maps ${key} to both ${prior} and ${v}`);
    vulnerabilityDict.set(key, v);
    if (!vIndex.has(v)) dictUnknown++;
  }
  if (dictUnknown > 0) notes.push(`${dictUnknown} vulnerability_dict row(s) name vulnerability ids absent from vulnerability.csv; such items have no damage.`);
  return vulnerabilityDict;
}

/** The lookup's plan and the OED peril groups it expands LocPerilsCovered by. */
function parseLookupAndPerilGroups(texts: Record<string, string>, cells: ReadonlyMap<string, AreaPerilCell[]>, notes: string[]): { lookup: LookupPlan; perilGroups: Map<string, string[]> } {
  const lookup = parseLookupConfig(json(texts, 'lookup_config.json', true)!);
  if (lookup.unusedSteps.length > 0) {
    notes.push(`lookup_config.json defines step(s) not in its strategy, not applied by the framework nor here: ${lookup.unusedSteps.join(', ')}.`);
  }
  let perilGroups: Map<string, string[]>;
  if (texts['PerilsCovered.csv'] !== undefined) {
    perilGroups = parsePerilGroups(texts['PerilsCovered.csv']);
  } else {
    perilGroups = new Map(Object.entries(OED_PERIL_GROUPS_WIND).map(([k, v]) => [k, [...v]]));
    if (lookup.modelPerils.some((p) => !['WTC', 'WSS'].includes(p))) {
      throw new PiwindModelError('PerilsCovered.csv is needed: the model perils go beyond the built-in WTC/WSS peril groups');
    }
  }
  for (const p of lookup.modelPerils) {
    if (!cells.has(p)) notes.push(`Model peril ${p} has no cell in areaperil_dict.csv; no location is keyed for it.`);
  }
  return { lookup, perilGroups };
}
