// An ESRI "EHdr" float grid: a .hdr text header (BYTEORDER, LAYOUT BIL, NROWS, NCOLS, NBANDS 1,
// NBITS 32, PIXELTYPE FLOAT, ULXMAP/ULYMAP the centre of the upper-left cell, XDIM/YDIM, NODATA) and a
// .flt file of raw 32-bit floats, row by row from the north. ShakeMap 4's raster product is written
// this way. Pure: bytes in, the grid out as the lab's Raster (outer corner, north-up, negative lat step).
import type { Raster } from '../../domain/lab/lanes/flood/depth-map.js';

export interface EsriFloatGrid extends Raster {
  readonly values: Float32Array;
}

export interface EsriHeader {
  readonly nrows: number;
  readonly ncols: number;
  readonly littleEndian: boolean;
  readonly ulxmap: number;
  readonly ulymap: number;
  readonly xdim: number;
  readonly ydim: number;
  readonly nodata: number | null;
}

/** The header's keys (case-insensitive), with what a single-band float grid must say. */
export function parseEsriHeader(text: string): EsriHeader {
  const keys = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(line);
    if (m) keys.set(m[1]!.toUpperCase(), m[2]!);
  }
  const field = (k: string) => {
    const v = keys.get(k);
    if (v === undefined) throw new Error(`ESRI header: no ${k}`);
    return v;
  };
  const num = (k: string) => {
    const v = Number(field(k));
    if (!Number.isFinite(v)) throw new Error(`ESRI header: ${k} is not a number`);
    return v;
  };
  const order = field('BYTEORDER').toUpperCase();
  if (order !== 'LSBFIRST' && order !== 'I' && order !== 'MSBFIRST' && order !== 'M') throw new Error(`ESRI header: byte order ${order}`);
  const layout = (keys.get('LAYOUT') ?? 'BIL').toUpperCase();
  if (layout !== 'BIL') throw new Error(`ESRI header: layout ${layout} is not BIL`);
  if (Number(keys.get('NBANDS') ?? 1) !== 1) throw new Error('ESRI header: more than one band');
  if (num('NBITS') !== 32 || (keys.get('PIXELTYPE') ?? 'FLOAT').toUpperCase() !== 'FLOAT') throw new Error('ESRI header: not 32-bit float pixels');
  const nrows = num('NROWS');
  const ncols = num('NCOLS');
  if (!Number.isInteger(nrows) || !Number.isInteger(ncols) || nrows < 1 || ncols < 1) throw new Error('ESRI header: NROWS and NCOLS must be positive integers');
  const xdim = num('XDIM');
  const ydim = num('YDIM');
  if (!(xdim > 0) || !(ydim > 0)) throw new Error('ESRI header: XDIM and YDIM must be positive');
  return {
    nrows, ncols, littleEndian: order === 'LSBFIRST' || order === 'I',
    ulxmap: num('ULXMAP'), ulymap: num('ULYMAP'), xdim, ydim,
    nodata: keys.has('NODATA') ? num('NODATA') : null,
  };
}

export function parseEsriFloatGrid(header: string, bytes: Uint8Array): EsriFloatGrid {
  const h = parseEsriHeader(header);
  const cells = h.nrows * h.ncols;
  if (bytes.byteLength !== cells * 4) throw new Error(`ESRI float grid: ${bytes.byteLength} bytes, expected ${cells * 4} (${h.nrows} x ${h.ncols} x 4)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(cells);
  for (let i = 0; i < cells; i++) values[i] = view.getFloat32(i * 4, h.littleEndian);
  return {
    width: h.ncols,
    height: h.nrows,
    // ULXMAP/ULYMAP name the upper-left cell's centre: the outer corner is half a cell out.
    origin_lon: h.ulxmap - h.xdim / 2,
    origin_lat: h.ulymap + h.ydim / 2,
    step_lon: h.xdim,
    step_lat: -h.ydim,
    nodata: h.nodata,
    values,
  };
}
