// An object version's location digest: what accumulation reads of it, in flat typed arrays, written
// once when the version is written, so an accumulation never parses a location. Per location: its
// latitude and longitude (NaN when not a number), its total value in exact ten-thousandths (NaN when
// it has none; a value beyond 2^53 units sits in a side list of decimal strings), its own currency
// (an index into a small per-version list, 0 for none) and, once computed, its H3 cell at
// DEFAULT_H3_RESOLUTION (an index into the version's list of distinct cells). Plus the object's peril
// code, peril.region and exposure.currency. The figures read back are exactly those accumulate.ts
// reads from the JSON (amountUnits, the same `currency ?? object's` rule). Pure.
//
// The cells are lazy: a write stores the digest without them (the cell of each location was most of
// a digest's cost, paid on every ingest), its resolution word saying CELLS_NOT_COMPUTED and no cell
// section; the first accumulation at DEFAULT_H3_RESOLUTION computes them anyway, and withCells makes
// the completed digest it hands back to be stored for that version.
import { Buffer } from 'node:buffer';
import { h3IndexToSplitLong, latLngToCell, splitLongToH3Index } from 'h3-js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { perilCode } from '../list-summaries.js';
import { ObjectScanner } from '../risk-object/object-scan.js';
import type { ScheduleLocation } from '../exposure/types.js';
import type { LocationSink, Settled } from '../exposure/location-sink.js';
import { amountUnits } from './amounts.js';

/** H3 resolution of the concentration cells (average hexagon about 5.16 km², edge about 1.4 km). */
export const DEFAULT_H3_RESOLUTION = 7;
/** A location without a cell in its digest. */
export const NO_CELL = 0xffffffff;

/**
 * Bumped whenever what a digest holds, or how accumulation reads a location, changes. 2: the cells
 * may be absent (CELLS_NOT_COMPUTED); a format 1 digest is laid out as a format 2 one with cells, and
 * is still read.
 */
export const DIGEST_FORMAT = 2;
const READ_FORMATS = new Set([1, 2]);
/** The resolution word of a digest whose cells were not computed yet (it then has no cell section). */
export const CELLS_NOT_COMPUTED = 0xffffffff;
/** Above this the sums of accumulate.ts take units as a bigint; a double holds every integer up to 2^53. */
const EXACT = 2 ** 53;
/** Bytes before the header's JSON: format, locations, header bytes, cell resolution, distinct cells. */
const FIXED = 20;

/** What a digest says of its object, besides its locations. */
export interface DigestHeader {
  /** peril.code, or null. */
  readonly peril: string | null;
  /** peril.region as declared (absent when undeclared). */
  readonly region?: unknown;
  /** exposure.currency when a string, else null. */
  readonly currency: string | null;
  /** The locations' own currencies; a location's index 1 is the first. */
  readonly currencies: readonly string[];
  /** Locations whose units lie beyond 2^53 in magnitude: [location index, ten-thousandths as a decimal integer]. */
  readonly big: ReadonlyArray<readonly [number, string]>;
}

/** A digest read back: views over its bytes (nothing copied). */
export interface LocationDigest {
  readonly header: DigestHeader;
  readonly count: number;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  /** Ten-thousandths; NaN when unvalued or in header.big. */
  readonly units: Float64Array;
  /** Index into cells, or NO_CELL; null when the cells were not computed. */
  readonly cell: Uint32Array | null;
  /** 0: none (the object's currency applies); k: header.currencies[k - 1]. */
  readonly currency: Uint16Array;
  /** The resolution the cells are at; null when they were not computed. */
  readonly resolution: number | null;
  /** The distinct cells, in order of first appearance; null when not computed. */
  readonly cells: readonly string[] | null;
}

const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);
const pad8 = (n: number) => (n + 7) & ~7;

/** Little-endian platforms only: the typed arrays are written and read in the platform's order. */
function checkEndianness(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('location digests are little-endian; this platform is not');
}

/** Builds a digest a batch of locations at a time, in their order; the object's own members last. */
export class DigestWriter {
  private latitude = new Float64Array(1024);
  private longitude = new Float64Array(1024);
  private units = new Float64Array(1024);
  private cell = new Uint32Array(1024);
  private currency = new Uint16Array(1024);
  private count = 0;
  private readonly currencies = new Map<string, number>();
  private readonly cells = new Map<string, number>();
  private readonly big: Array<[number, string]> = [];

  /** Whether this digest carries cells: only when made with a previous version's. */
  private readonly withCells: boolean;

  /**
   * `previous`: the digest of the version this one replaces. When its cells were computed they are
   * taken for the locations at the same place with the same coordinates, and computed for the few
   * others (a PATCH rarely moves a location), so the next version is not left without them; else
   * this digest has none either, left to the first accumulation.
   */
  constructor(private readonly previous?: LocationDigest) {
    this.withCells = previous !== undefined && previous.cells !== null && previous.resolution === DEFAULT_H3_RESOLUTION;
  }

  add(locations: readonly unknown[]): void {
    this.reserve(this.count + locations.length);
    for (const item of locations) {
      const l = (record(item) ?? {}) as Partial<ScheduleLocation>;
      const i = this.count;
      this.count += 1;
      this.put(i, l.currency, record(l.values)?.total);
      const lat = typeof l.latitude === 'number' ? l.latitude : NaN;
      const lon = typeof l.longitude === 'number' ? l.longitude : NaN;
      this.latitude[i] = lat;
      this.longitude[i] = lon;
      this.cell[i] = NO_CELL;
      if (!this.withCells || lat !== lat || lon !== lon) continue;
      let cell: string;
      const before = this.previous!;
      if (i < before.count && before.latitude[i] === lat && before.longitude[i] === lon) {
        const c = before.cell![i]!;
        if (c === NO_CELL) continue;
        cell = before.cells![c]!;
      } else {
        try {
          cell = latLngToCell(lat, lon, DEFAULT_H3_RESOLUTION);
        } catch {
          // Left to the accumulation, which answers as it always did for such a point.
          continue;
        }
      }
      let c = this.cells.get(cell);
      if (c === undefined) this.cells.set(cell, c = this.cells.size);
      this.cell[i] = c;
    }
  }

  /** How many locations were added. */
  get size(): number {
    return this.count;
  }

  /** Sets location i's own currency and total value again (a location whose values were known late). */
  value(i: number, own: unknown, total: unknown): void {
    const b = this.big.findIndex(([at]) => at === i);
    if (b >= 0) this.big.splice(b, 1);
    this.put(i, own, total);
  }

  private put(i: number, own: unknown, total: unknown): void {
    const units = amountUnits(total);
    if (units === null) this.units[i] = NaN;
    else if (typeof units === 'number' || (units <= EXACT && units >= -EXACT)) this.units[i] = Number(units);
    else {
      this.units[i] = NaN;
      this.big.push([i, units.toString()]);
    }
    if (typeof own === 'string') {
      let k = this.currencies.get(own);
      if (k === undefined) this.currencies.set(own, k = this.currencies.size + 1);
      this.currency[i] = k;
    } else this.currency[i] = 0;
  }

  /** The digest, given the object's members (a document whose locations may be left out). */
  finish(document: Record<string, unknown>): Uint8Array {
    checkEndianness();
    const header: DigestHeader = {
      ...headerMembers(document),
      currencies: [...this.currencies.keys()],
      big: this.big.sort((a, b) => a[0] - b[0]),
    };
    // Canonical, so a digest made from a document and one scanned from its stored bytes are the same bytes.
    const json = Buffer.from(canonicalJson(header), 'utf8');
    const n = this.count;
    const m = this.cells.size;
    const at = layout(n, m, json.byteLength, this.withCells);
    const bytes = new Uint8Array(at.end);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, DIGEST_FORMAT, true);
    view.setUint32(4, n, true);
    view.setUint32(8, json.byteLength, true);
    view.setUint32(12, this.withCells ? DEFAULT_H3_RESOLUTION : CELLS_NOT_COMPUTED, true);
    view.setUint32(16, m, true);
    bytes.set(json, FIXED);
    new Float64Array(bytes.buffer, at.latitude, n).set(this.latitude.subarray(0, n));
    new Float64Array(bytes.buffer, at.longitude, n).set(this.longitude.subarray(0, n));
    new Float64Array(bytes.buffer, at.units, n).set(this.units.subarray(0, n));
    if (this.withCells) writeCells(bytes, at, this.cells.keys(), this.cell.subarray(0, n));
    new Uint16Array(bytes.buffer, at.currency, n).set(this.currency.subarray(0, n));
    return bytes;
  }

  private reserve(size: number): void {
    if (size <= this.latitude.length) return;
    const grown = Math.max(size, this.latitude.length * 2);
    const grow = <A extends Float64Array | Uint32Array | Uint16Array>(a: A, make: (n: number) => A): A => { const b = make(grown); b.set(a); return b; };
    this.latitude = grow(this.latitude, (k) => new Float64Array(k));
    this.longitude = grow(this.longitude, (k) => new Float64Array(k));
    this.units = grow(this.units, (k) => new Float64Array(k));
    this.cell = grow(this.cell, (k) => new Uint32Array(k));
    this.currency = grow(this.currency, (k) => new Uint16Array(k));
  }
}

/**
 * Where each array starts: the doubles first (8-aligned), then the 4-byte, then the 2-byte ones.
 * Without cells there is no cell section (m is 0 and no location's cell index is stored).
 */
function layout(n: number, m: number, headerBytes: number, withCells: boolean) {
  const latitude = pad8(FIXED + headerBytes);
  const longitude = latitude + 8 * n;
  const units = longitude + 8 * n;
  const cellsLower = units + 8 * n;
  const cellsUpper = cellsLower + 4 * m;
  const cell = cellsUpper + 4 * m;
  const currency = cell + (withCells ? 4 * n : 0);
  return { latitude, longitude, units, cellsLower, cellsUpper, cell, currency, end: currency + 2 * n };
}

type Layout = ReturnType<typeof layout>;

/** The cell section: the distinct cells as split 64-bit indexes, then each location's index into them. */
function writeCells(bytes: Uint8Array, at: Layout, cells: Iterable<string>, cell: Uint32Array): void {
  const lower = new Uint32Array(bytes.buffer, bytes.byteOffset + at.cellsLower, (at.cellsUpper - at.cellsLower) / 4);
  const upper = new Uint32Array(bytes.buffer, bytes.byteOffset + at.cellsUpper, (at.cell - at.cellsUpper) / 4);
  let c = 0;
  for (const h of cells) {
    const [lo, hi] = h3IndexToSplitLong(h);
    lower[c] = lo;
    upper[c] = hi;
    c += 1;
  }
  new Uint32Array(bytes.buffer, bytes.byteOffset + at.cell, cell.length).set(cell);
}

/**
 * A digest without cells completed with them, at DEFAULT_H3_RESOLUTION: the same bytes a writer
 * computing them would make (same header, cells in order of first appearance). undefined when the
 * digest already has cells. A point h3-js cannot index throws, as accumulating it always has.
 */
export function withCells(bytes: Uint8Array): Uint8Array | undefined {
  // Told by the fixed words, before any cell is read back (the warm path of every accumulation).
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (words.getUint32(0, true) < 2 || words.getUint32(12, true) !== CELLS_NOT_COMPUTED) return undefined;
  const digest = readDigest(bytes);
  const n = digest.count;
  const { latitude, longitude } = digest;
  const cell = new Uint32Array(n);
  const cells = new Map<string, number>();
  for (let i = 0; i < n; i += 1) {
    const lat = latitude[i]!;
    const lon = longitude[i]!;
    if (lat !== lat || lon !== lon) {
      cell[i] = NO_CELL;
      continue;
    }
    const h = latLngToCell(lat, lon, DEFAULT_H3_RESOLUTION);
    let c = cells.get(h);
    if (c === undefined) cells.set(h, c = cells.size);
    cell[i] = c;
  }
  const headerBytes = words.getUint32(8, true);
  const before = layout(n, 0, headerBytes, false);
  const at = layout(n, cells.size, headerBytes, true);
  const out = new Uint8Array(at.end);
  // The fixed words, the header and the three arrays of doubles are unchanged.
  out.set(bytes.subarray(0, before.cellsLower));
  const fixed = new DataView(out.buffer);
  fixed.setUint32(0, DIGEST_FORMAT, true);
  fixed.setUint32(12, DEFAULT_H3_RESOLUTION, true);
  fixed.setUint32(16, cells.size, true);
  writeCells(out, at, cells.keys(), cell);
  out.set(bytes.subarray(before.currency, before.end), at.currency);
  return out;
}

/** The members a digest's header takes from its document (the rest of it is its locations'). */
function headerMembers(document: Record<string, unknown>): Pick<DigestHeader, 'peril' | 'region' | 'currency'> {
  const peril = record(document.peril);
  const currency = record(document.exposure)?.currency;
  return {
    peril: perilCode(document),
    ...(peril && peril.region !== undefined ? { region: peril.region } : {}),
    currency: typeof currency === 'string' ? currency : null,
  };
}

/** Whether a digest made for `before` would need its header written anew for `after` (same locations). */
export function digestMembersMoved(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return canonicalJson(headerMembers(before)) !== canonicalJson(headerMembers(after));
}

/**
 * A stored digest for a document whose locations are those the digest was made from (a write of
 * other members): the same bytes when the header's members (peril code, region, exposure currency)
 * did not move, else the header written anew and the arrays copied as they are; the same bytes a
 * DigestWriter fed the document would make, cells included when the digest had them.
 */
export function digestWithMembers(bytes: Uint8Array, document: Record<string, unknown>): Uint8Array {
  checkEndianness();
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerBytes = words.getUint32(8, true);
  const old = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + FIXED, headerBytes).toString('utf8')) as DigestHeader;
  const members = headerMembers(document);
  const header: DigestHeader = { ...members, currencies: old.currencies, big: old.big };
  const json = Buffer.from(canonicalJson(header), 'utf8');
  if (json.equals(Buffer.from(bytes.buffer, bytes.byteOffset + FIXED, headerBytes))) return bytes;
  const arraysFrom = pad8(FIXED + headerBytes);
  const arraysTo = pad8(FIXED + json.byteLength);
  const out = new Uint8Array(arraysTo + bytes.byteLength - arraysFrom);
  out.set(bytes.subarray(0, FIXED));
  new DataView(out.buffer).setUint32(8, json.byteLength, true);
  out.set(json, FIXED);
  out.set(bytes.subarray(arraysFrom), arraysTo);
  return out;
}

/** The digest of a document held whole (a write of one); `previous` as for DigestWriter. */
export function digestOfDocument(document: Record<string, unknown>, previous?: LocationDigest): Uint8Array {
  const writer = new DigestWriter(previous);
  const locations = record(document.exposure)?.locations;
  if (Array.isArray(locations)) writer.add(locations);
  return writer.finish(document);
}

/** The digest of a version's stored bytes, fed a chunk at a time (never parsed whole). */
export class DigestScanner {
  private readonly writer = new DigestWriter();
  private readonly scanner = new ObjectScanner((locations) => this.writer.add(locations));

  feed(chunk: Uint8Array): void {
    this.scanner.feed(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }

  finish(): Uint8Array {
    return this.writer.finish(this.scanner.skeleton().document);
  }
}

/**
 * A schedule reader's location sink that also writes the digest of what it is handed: an ingest
 * makes the digest as it reads, without scanning the document it writes. A pending location's
 * currency and values are those it is settled with (as the stored JSON holds them).
 */
export class DigestingSink<L> implements LocationSink<L> {
  readonly writer = new DigestWriter();
  /** The digest index of each pending location, in order. */
  private readonly pending: number[] = [];

  constructor(private readonly inner: LocationSink<L>) {}

  add(location: ScheduleLocation): void {
    this.inner.add(location);
    this.writer.add([location]);
  }

  addPending(location: ScheduleLocation): void {
    this.inner.addPending(location);
    this.pending.push(this.writer.size);
    this.writer.add([location]);
  }

  finish(settle: (pending: number) => Settled): L {
    return this.inner.finish((i) => {
      const settled = settle(i);
      this.writer.value(this.pending[i]!, settled.currency, settled.values.total);
      return settled;
    });
  }
}

/** Reads a digest's bytes in place (8-byte aligned, as stored and as copied for a thread). */
export function readDigest(bytes: Uint8Array): LocationDigest {
  checkEndianness();
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint32(0, true);
  if (!READ_FORMATS.has(format)) throw new Error(`location digest format ${format}; this service reads ${[...READ_FORMATS].join(' and ')}`);
  const n = view.getUint32(4, true);
  const headerBytes = view.getUint32(8, true);
  const resolution = view.getUint32(12, true);
  const m = view.getUint32(16, true);
  const computed = !(format >= 2 && resolution === CELLS_NOT_COMPUTED);
  if (!computed && m !== 0) throw new Error(`location digest without cells listing ${m} cells`);
  const at = layout(n, m, headerBytes, computed);
  if (at.end !== bytes.byteLength) throw new Error(`location digest of ${bytes.byteLength} bytes; its counts need ${at.end}`);
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + FIXED, headerBytes).toString('utf8')) as DigestHeader;
  const base = bytes.byteOffset;
  let cells: string[] | null = null;
  if (computed) {
    const lower = new Uint32Array(bytes.buffer, base + at.cellsLower, m);
    const upper = new Uint32Array(bytes.buffer, base + at.cellsUpper, m);
    cells = new Array<string>(m);
    for (let c = 0; c < m; c += 1) cells[c] = splitLongToH3Index(lower[c]!, upper[c]!);
  }
  return {
    header,
    count: n,
    latitude: new Float64Array(bytes.buffer, base + at.latitude, n),
    longitude: new Float64Array(bytes.buffer, base + at.longitude, n),
    units: new Float64Array(bytes.buffer, base + at.units, n),
    cell: computed ? new Uint32Array(bytes.buffer, base + at.cell, n) : null,
    currency: new Uint16Array(bytes.buffer, base + at.currency, n),
    resolution: computed ? resolution : null,
    cells,
  };
}

/** Location i's units as accumulation reads them: a number, a bigint beyond 2^53, or null (unvalued). */
export function* digestUnits(digest: LocationDigest): Generator<number | bigint | null> {
  const big = digest.header.big;
  let b = 0;
  for (let i = 0; i < digest.count; i += 1) {
    const u = digest.units[i]!;
    if (u === u) yield u;
    else if (b < big.length && big[b]![0] === i) yield BigInt(big[b++]![1]);
    else yield null;
  }
}
