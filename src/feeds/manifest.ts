// MANIFEST.json of a pinned feed snapshot (format: feeds/README.md), typed from what the manifests
// really hold. The typed members are views; `raw` keeps the whole parsed object so nothing is lost
// (check, per_file, magnitude_floor, supersedes, record_counts, ... differ from feed to feed).
import { readFile } from 'node:fs/promises';
import { coverageArea } from '../domain/hazard/coverage-area.js';
import type { Box } from '../domain/geo.js';

export interface ManifestFile {
  /** Path relative to the snapshot folder; may hold '/' (e.g. JTWC "bio1980/bio011980.txt"). */
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly media_type: string | null;
  /** Data rows where the manifest states them (`rows` or `data_rows`). */
  readonly rows: number | null;
  readonly raw: Readonly<Record<string, unknown>>;
}

export type Coverage =
  | { readonly type: 'box'; readonly min_latitude: number; readonly max_latitude: number;
      readonly min_longitude: number; readonly max_longitude: number; readonly name?: string;
      readonly raw: Readonly<Record<string, unknown>> }
  | { readonly type: 'point'; readonly latitude: number; readonly longitude: number;
      readonly station_id?: string; readonly station_name?: string; readonly raw: Readonly<Record<string, unknown>> }
  | { readonly type: 'basin'; readonly basin: string; readonly raw: Readonly<Record<string, unknown>> }
  | { readonly type: string; readonly raw: Readonly<Record<string, unknown>> };

/**
 * Identity (feed_id, version) and files are required. The other README members are present in every
 * pinned manifest but optional here, so `feeds add` can take a folder whose manifest names only
 * feed_id and version; when present they are type-checked.
 */
export interface Manifest {
  readonly feed_id: string;
  readonly version: string;
  readonly files: readonly ManifestFile[];
  readonly title?: string;
  readonly perils?: readonly string[];
  readonly kind?: string;
  readonly publisher?: string;
  readonly publisher_url?: string;
  readonly license?: string;
  readonly credit_line?: string;
  readonly derived?: boolean;
  /** null where the bytes are the publisher's own file. */
  readonly derivation?: string | null;
  readonly coverage?: Coverage;
  /** `from` is null in one reference table (jrc-depth-damage). */
  readonly period_of_record?: { readonly from: string | null; readonly to: string | null };
  readonly aggregation_level?: string;
  readonly content_servable?: boolean;
  readonly units?: Readonly<Record<string, string>>;
  /** Column meanings; a value is an object where a multi-file snapshot describes columns per file. */
  readonly columns?: Readonly<Record<string, string | Readonly<Record<string, unknown>>>>;
  /** True gaps, never to be filled. */
  readonly years_missing: readonly number[];
  readonly data_gaps: readonly number[];
  /** Covered years with no qualifying row: zeros, not gaps. */
  readonly years_without_events: readonly number[];
  /** `notes` is a string in some manifests and a list in others: normalised to a list. */
  readonly notes: readonly string[];
  readonly row_count: number | null;
  /** false where the file has no header row (SPC hail): column names are the keys of `columns`. */
  readonly header_row: boolean | null;
  readonly raw: Readonly<Record<string, unknown>>;
}

const SHA256 = /^[0-9a-f]{64}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file name that stays inside the snapshot folder: relative, no '..', no backslash, no empty part. */
export function isSafeFileName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

class ManifestError extends Error {}

function fail(where: string, msg: string): never {
  throw new ManifestError(`${where}: ${msg}`);
}

function str(m: Obj, key: string, where: string): string | undefined {
  const v = m[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail(where, `${key} must be a string`);
  return v;
}

function years(m: Obj, key: string, where: string): number[] {
  const v = m[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((y) => Number.isInteger(y))) fail(where, `${key} must be a list of years`);
  return v as number[];
}

function parseFile(v: unknown, i: number, where: string): ManifestFile {
  if (!isObj(v)) fail(where, `files[${i}] must be an object`);
  const name = v.name;
  if (typeof name !== 'string' || !isSafeFileName(name)) fail(where, `files[${i}].name is missing or leaves the folder`);
  if (typeof v.sha256 !== 'string' || !SHA256.test(v.sha256)) fail(where, `files[${i}] (${name}) sha256 must be 64 lowercase hex digits`);
  if (!Number.isSafeInteger(v.bytes) || (v.bytes as number) < 0) fail(where, `files[${i}] (${name}) bytes must be a non-negative integer`);
  const rows = v.rows ?? v.data_rows;
  return {
    name,
    sha256: v.sha256,
    bytes: v.bytes as number,
    media_type: typeof v.media_type === 'string' ? v.media_type : null,
    rows: Number.isInteger(rows) ? (rows as number) : null,
    raw: v,
  };
}

function parseCoverage(v: unknown, where: string): Coverage {
  if (!isObj(v) || typeof v.type !== 'string') fail(where, 'coverage must be an object with a type');
  const n = (k: string): number => {
    if (typeof v[k] !== 'number') fail(where, `coverage.${k} must be a number`);
    return v[k] as number;
  };
  const s = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  switch (v.type) {
    case 'box':
      return { type: 'box', min_latitude: n('min_latitude'), max_latitude: n('max_latitude'),
        min_longitude: n('min_longitude'), max_longitude: n('max_longitude'), ...(s('name') !== undefined && { name: s('name') }), raw: v };
    case 'point':
      return { type: 'point', latitude: n('latitude'), longitude: n('longitude'),
        ...(s('station_id') !== undefined && { station_id: s('station_id') }),
        ...(s('station_name') !== undefined && { station_name: s('station_name') }), raw: v };
    case 'basin':
      return { type: 'basin', basin: s('basin') ?? fail(where, 'coverage.basin must be a string'), raw: v };
    default:
      return { type: v.type, raw: v };
  }
}

/** Validates parsed MANIFEST.json content; `where` names the source in error messages. */
export function parseManifest(json: unknown, where = 'MANIFEST.json'): Manifest {
  if (!isObj(json)) fail(where, 'not a JSON object');
  const m = json;
  const feed_id = str(m, 'feed_id', where) ?? fail(where, 'feed_id is required');
  const version = str(m, 'version', where) ?? fail(where, 'version is required');
  if (!Array.isArray(m.files) || m.files.length === 0) fail(where, 'files must be a non-empty list');
  const files = m.files.map((f, i) => parseFile(f, i, where));
  const names = new Set(files.map((f) => f.name));
  if (names.size !== files.length) fail(where, 'files lists a name twice');

  const out: { -readonly [K in keyof Manifest]: Manifest[K] } = {
    feed_id, version, files,
    years_missing: years(m, 'years_missing', where),
    data_gaps: years(m, 'data_gaps', where),
    years_without_events: years(m, 'years_without_events', where),
    notes: typeof m.notes === 'string' ? [m.notes]
      : Array.isArray(m.notes) && m.notes.every((x) => typeof x === 'string') ? (m.notes as string[])
      : m.notes === undefined ? [] : fail(where, 'notes must be a string or a list of strings'),
    row_count: m.row_count === undefined ? null
      : Number.isInteger(m.row_count) ? (m.row_count as number) : fail(where, 'row_count must be an integer'),
    header_row: m.header_row === undefined ? null
      : typeof m.header_row === 'boolean' ? m.header_row : fail(where, 'header_row must be a boolean'),
    raw: m,
  };
  for (const key of ['title', 'kind', 'publisher', 'publisher_url', 'license', 'credit_line', 'aggregation_level'] as const) {
    const v = str(m, key, where);
    if (v !== undefined) out[key] = v;
  }
  if (m.perils !== undefined) {
    if (!Array.isArray(m.perils) || !m.perils.every((p) => typeof p === 'string')) fail(where, 'perils must be a list of strings');
    out.perils = m.perils as string[];
  }
  for (const key of ['derived', 'content_servable'] as const) {
    if (m[key] === undefined) continue;
    if (typeof m[key] !== 'boolean') fail(where, `${key} must be a boolean`);
    out[key] = m[key] as boolean;
  }
  if (m.derivation !== undefined) {
    if (m.derivation !== null && typeof m.derivation !== 'string') fail(where, 'derivation must be a string or null');
    out.derivation = m.derivation as string | null;
  }
  if (m.coverage !== undefined) out.coverage = parseCoverage(m.coverage, where);
  if (m.period_of_record !== undefined) {
    const p = m.period_of_record;
    const ok = (x: unknown): x is string | null => x === null || typeof x === 'string';
    if (!isObj(p) || !ok(p.from) || !ok(p.to)) fail(where, 'period_of_record must be {from, to}');
    out.period_of_record = { from: p.from, to: p.to };
  }
  if (m.units !== undefined) {
    if (!isObj(m.units) || !Object.values(m.units).every((u) => typeof u === 'string')) fail(where, 'units must map names to strings');
    out.units = m.units as Record<string, string>;
  }
  if (m.columns !== undefined) {
    if (!isObj(m.columns) || !Object.values(m.columns).every((c) => typeof c === 'string' || isObj(c))) {
      fail(where, 'columns must map names to strings (or per-file objects)');
    }
    out.columns = m.columns as Record<string, string | Obj>;
  }
  return out;
}

/** Reads and validates a MANIFEST.json file. */
export async function loadManifest(path: string): Promise<Manifest> {
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    fail(path, `not valid JSON (${(e as Error).message})`);
  }
  return parseManifest(json, path);
}

/** The box a manifest covers, when it is a box (parsers use it to flag points outside). */
export function coverageBox(m: Manifest): Box | null {
  const area = coverageArea(m.coverage);
  return area.type === 'box' ? area.box : null;
}
