// ESHM20's seismic sources as OpenQuake reads them (NRML 0.4 area and simple-fault sources), and the
// rules OpenQuake's hazard library applies to turn a source into ruptures, each cited to the module
// of gem/oq-engine it follows (openquake/hazardlib/...):
//
//   - mfd/truncated_gr.py, TruncatedGRMFD: minMag and maxMag rounded to the bin width, bins centred
//     from minMag + w/2 to maxMag - w/2, each bin's annual rate 10^(a - b(m - w/2)) - 10^(a - b(m + w/2)).
//   - scalerel/point.py PointMSR (a 1e-4 km2 rupture whatever the magnitude) and scalerel/leonard2014.py
//     Leonard2014_Interplate / _SCR (10^(M - 3.99) / 10^(M - 4.18) km2 for strike-slip rakes,
//     10^(M - 4.00) / 10^(M - 4.19) for dip-slip), the only scaling relations the pinned branches name.
//   - source/area.py AreaSource.iter_ruptures over geo/polygon.py Polygon.discretize: the polygon as a
//     grid of points at area_source_discretization km, each with an equal share of the source's rate,
//     each rupture at a point taking a nodal plane and a hypocentral depth by their probabilities.
//   - source/point.py, the rupture of a point: area from the scaling relation, length sqrt(area x
//     aspect ratio), width area / length, the width capped by the seismogenic layer (the length then
//     area / width), the plane centred on the hypocentre and moved only as far as keeps it in the layer.
//   - source/simple_fault.py SimpleFaultSource.iter_ruptures and _get_rupture_dimensions: the fault a
//     mesh at rupture_mesh_spacing km, each magnitude's rupture sized by the scaling relation and
//     aspect ratio (reshaped to the fault's width or length, the whole fault when larger), floated over
//     every mesh position, each position an equal share of the bin's rate, hypocentre mid-rupture.
//
// OpenQuake resamples a fault trace and projects its mesh; here a floating rupture is the plane on
// the chord of the trace it spans (the trace's bends inside one rupture are not followed). Pure.
import { EARTH_MEAN_RADIUS_KM } from '../../../geo.js';
import type { PlanarRupture } from '../../../hazard/gmpe/rupture.js';

export interface TruncatedGr {
  readonly a: number;
  readonly b: number;
  readonly min_mag: number;
  readonly max_mag: number;
}

interface SourceCommon {
  readonly id: string;
  readonly name: string;
  readonly tectonic_region: string;
  /** OpenQuake's class name of the magnitude scaling relation, e.g. PointMSR. */
  readonly msr: string;
  readonly aspect_ratio: number;
  readonly upper_depth_km: number;
  readonly lower_depth_km: number;
  readonly mfd: TruncatedGr;
}

export interface AreaSource extends SourceCommon {
  readonly kind: 'area';
  /** The polygon's vertices, [longitude, latitude]. */
  readonly polygon: readonly (readonly [number, number])[];
  readonly nodal_planes: readonly { readonly strike: number; readonly dip: number; readonly rake: number; readonly probability: number }[];
  readonly hypo_depths: readonly { readonly depth_km: number; readonly probability: number }[];
}

export interface SimpleFaultSource extends SourceCommon {
  readonly kind: 'simple_fault';
  /** The fault trace, [longitude, latitude]. */
  readonly trace: readonly (readonly [number, number])[];
  readonly dip: number;
  readonly rake: number;
}

/** One NRML source-model file as read: its name, and its area and simple-fault sources. */
export interface SourceModel {
  readonly name: string;
  readonly area: readonly AreaSource[];
  readonly faults: readonly SimpleFaultSource[];
}

/** The discretisation OpenQuake's job file sets; ESHM20's own job settings are not pinned, these are ours. */
export const DISCRETISATION = {
  /** width_of_mfd_bin (ESHM20's MFDs are given at 0.1 magnitude units). */
  mfd_bin: 0.1,
  /** area_source_discretization, km. */
  area_km: 10,
  /** rupture_mesh_spacing, km. */
  fault_mesh_km: 5,
} as const;

/** The magnitude bins of a truncated Gutenberg-Richter MFD with their annual rates (TruncatedGRMFD). */
export function truncatedGrBins(mfd: TruncatedGr, width: number = DISCRETISATION.mfd_bin): { mag: number; rate: number }[] {
  // Python's round halves to even; magnitudes here are never exactly half a bin, so Math.round agrees.
  let lo = Math.round(mfd.min_mag / width) * width;
  let hi = Math.round(mfd.max_mag / width) * width;
  if (lo !== hi) { lo += width / 2; hi -= width / 2; }
  const count = Math.round((hi - lo) / width) + 1;
  return Array.from({ length: count }, (_, i) => {
    const mag = lo + i * width;
    return { mag, rate: 10 ** (mfd.a - mfd.b * (mag - width / 2)) - 10 ** (mfd.a - mfd.b * (mag + width / 2)) };
  });
}

const strikeSlip = (rake: number) => (rake >= -45 && rake <= 45) || rake >= 135 || rake <= -135;

/** Median rupture area (km2) of the scaling relations the pinned branches name; undefined for another. */
export function medianArea(msr: string, mag: number, rake: number): number | undefined {
  switch (msr) {
    case 'PointMSR': return 1e-4;
    case 'Leonard2014_Interplate': return 10 ** (mag - (strikeSlip(rake) ? 3.99 : 4.0));
    case 'Leonard2014_SCR': return 10 ** (mag - (strikeSlip(rake) ? 4.18 : 4.19));
    default: return undefined;
  }
}

const RAD = Math.PI / 180;
const KM_PER_DEG = EARTH_MEAN_RADIUS_KM * RAD;

/** A local flat projection about a point (km east, km north), as hazard/gmpe/rupture.ts measures distances. */
function projection(lat0: number, lon0: number) {
  const cos0 = Math.cos(lat0 * RAD);
  return {
    toXY: (lon: number, lat: number) => ({ x: (lon - lon0) * KM_PER_DEG * cos0, y: (lat - lat0) * KM_PER_DEG }),
    toLonLat: (x: number, y: number) => ({ lon: lon0 + x / (KM_PER_DEG * cos0), lat: lat0 + y / KM_PER_DEG }),
  };
}

function inside(x: number, y: number, xs: readonly number[], ys: readonly number[]): boolean {
  let odd = false;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
    if ((ys[i]! > y) !== (ys[j]! > y) && x < ((xs[j]! - xs[i]!) * (y - ys[i]!)) / (ys[j]! - ys[i]!) + xs[i]!) odd = !odd;
  }
  return odd;
}

/**
 * The points an area source's rate is shared over: a square grid of the spacing (km) in a flat
 * projection about the polygon's mean vertex, those inside the polygon; a polygon too small to hold
 * one keeps its mean vertex. (OpenQuake's grid is laid in its own projection, so its points sit
 * elsewhere by up to a spacing; the rate a place within reach sees differs only at the source's edges.)
 */
export function areaSourcePoints(source: AreaSource, spacingKm: number = DISCRETISATION.area_km): { lat: Float64Array; lon: Float64Array } {
  // NRML closes a ring by repeating its first vertex; the mean is over the distinct ones.
  const [firstVertex, lastVertex] = [source.polygon[0]!, source.polygon[source.polygon.length - 1]!];
  const closed = source.polygon.length > 3 && firstVertex[0] === lastVertex[0] && firstVertex[1] === lastVertex[1];
  const ring = closed ? source.polygon.slice(0, -1) : source.polygon;
  const lon0 = ring.reduce((s, p) => s + p[0], 0) / ring.length;
  const lat0 = ring.reduce((s, p) => s + p[1], 0) / ring.length;
  const proj = projection(lat0, lon0);
  const xy = ring.map(([lon, lat]) => proj.toXY(lon, lat));
  const xs = xy.map((p) => p.x);
  const ys = xy.map((p) => p.y);
  const lats: number[] = [];
  const lons: number[] = [];
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (let y = Math.ceil(y0 / spacingKm) * spacingKm; y <= y1; y += spacingKm) {
    for (let x = Math.ceil(x0 / spacingKm) * spacingKm; x <= x1; x += spacingKm) {
      if (!inside(x, y, xs, ys)) continue;
      const p = proj.toLonLat(x, y);
      lats.push(p.lat);
      lons.push(p.lon);
    }
  }
  if (lats.length === 0) { lats.push(lat0); lons.push(lon0); }
  return { lat: Float64Array.from(lats), lon: Float64Array.from(lons) };
}

/** The rupture at a point (source/point.py): sized by the scaling relation, kept in the seismogenic layer. */
export function pointRupture(p: {
  mag: number; lat: number; lon: number; depth_km: number; strike: number; dip: number; rake: number;
  area_km2: number; aspect_ratio: number; upper_depth_km: number; lower_depth_km: number;
}): PlanarRupture {
  const sinDip = Math.sin(p.dip * RAD);
  let length = Math.sqrt(p.area_km2 * p.aspect_ratio);
  let width = p.area_km2 / length;
  const maxWidth = (p.lower_depth_km - p.upper_depth_km) / sinDip;
  if (width > maxWidth) { width = maxWidth; length = p.area_km2 / width; }
  const vertical = width * sinDip;
  let ztor = p.depth_km - vertical / 2;
  if (ztor < p.upper_depth_km) ztor = p.upper_depth_km;
  if (ztor + vertical > p.lower_depth_km) ztor = p.lower_depth_km - vertical;
  const horizontal = ((p.depth_km - ztor) / sinDip) * Math.cos(p.dip * RAD);
  const s = p.strike * RAD;
  return {
    mag: p.mag, rake: p.rake, strike: p.strike, dip: p.dip,
    hypocentre: { lat: p.lat, lon: p.lon, depth_km: p.depth_km },
    length_km: length, width_km: width, ztor_km: ztor,
    top_centre: { x: -Math.cos(s) * horizontal, y: Math.sin(s) * horizontal },
  };
}

/** A simple fault as a mesh: its trace projected, the trace's length and the fault's down-dip width (km). */
export interface FaultMesh {
  readonly source: SimpleFaultSource;
  readonly cols: number;
  readonly rows: number;
  readonly length_km: number;
  readonly width_km: number;
  readonly along: Float64Array;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly toLonLat: (x: number, y: number) => { lon: number; lat: number };
}

export function faultMesh(source: SimpleFaultSource, spacingKm: number = DISCRETISATION.fault_mesh_km): FaultMesh {
  const [lon0, lat0] = source.trace[0]!;
  const proj = projection(lat0, lon0);
  const xy = source.trace.map(([lon, lat]) => proj.toXY(lon, lat));
  const along = new Float64Array(xy.length);
  for (let i = 1; i < xy.length; i++) along[i] = along[i - 1]! + Math.hypot(xy[i]!.x - xy[i - 1]!.x, xy[i]!.y - xy[i - 1]!.y);
  const length = along[along.length - 1]!;
  const width = (source.lower_depth_km - source.upper_depth_km) / Math.sin(source.dip * RAD);
  return {
    source, length_km: length, width_km: width,
    cols: Math.max(2, Math.round(length / spacingKm) + 1), rows: Math.max(2, Math.round(width / spacingKm) + 1),
    along, xs: Float64Array.from(xy, (p) => p.x), ys: Float64Array.from(xy, (p) => p.y), toLonLat: proj.toLonLat,
  };
}

/** A magnitude's floating rupture on the mesh (_get_rupture_dimensions): its mesh columns and rows, and how many positions it floats over. */
export function floatingRupture(mesh: FaultMesh, mag: number, spacingKm: number = DISCRETISATION.fault_mesh_km): { cols: number; rows: number; along: number; down: number } {
  const f = mesh.source;
  const area = medianArea(f.msr, mag, f.rake)!;
  const faultLength = (mesh.cols - 1) * spacingKm;
  const faultWidth = (mesh.rows - 1) * spacingKm;
  let length = Math.sqrt(area * f.aspect_ratio);
  let width = area / length;
  if (area >= faultLength * faultWidth) { length = faultLength; width = faultWidth; }
  else if (width > faultWidth) { length *= width / faultWidth; width = faultWidth; }
  else if (length > faultLength) { width *= length / faultLength; length = faultLength; }
  const cols = Math.min(mesh.cols, Math.max(2, Math.round(length / spacingKm) + 1));
  const rows = Math.min(mesh.rows, Math.max(2, Math.round(width / spacingKm) + 1));
  return { cols, rows, along: mesh.cols - cols + 1, down: mesh.rows - rows + 1 };
}

function traceAt(mesh: FaultMesh, s: number): { x: number; y: number } {
  const a = mesh.along;
  let i = 1;
  while (i < a.length - 1 && a[i]! < s) i++;
  const t = a[i]! > a[i - 1]! ? (s - a[i - 1]!) / (a[i]! - a[i - 1]!) : 0;
  return { x: mesh.xs[i - 1]! + t * (mesh.xs[i]! - mesh.xs[i - 1]!), y: mesh.ys[i - 1]! + t * (mesh.ys[i]! - mesh.ys[i - 1]!) };
}

/**
 * The plane of one floating position (first column and row of the mesh), on the chord of the trace
 * it spans, its hypocentre at its middle; the mesh's steps stretched to the trace's length and the
 * fault's width, so the first and last positions reach the fault's ends.
 */
export function faultRupture(mesh: FaultMesh, mag: number, size: { cols: number; rows: number }, firstCol: number, firstRow: number): PlanarRupture {
  const f = mesh.source;
  const stepAlong = mesh.length_km / (mesh.cols - 1);
  const stepDown = mesh.width_km / (mesh.rows - 1);
  const p0 = traceAt(mesh, firstCol * stepAlong);
  const p1 = traceAt(mesh, (firstCol + size.cols - 1) * stepAlong);
  const strike = ((Math.atan2(p1.x - p0.x, p1.y - p0.y) / RAD) + 360) % 360;
  const s = strike * RAD;
  const [dipX, dipY] = [Math.cos(s), -Math.sin(s)];
  const width = (size.rows - 1) * stepDown;
  const cosDip = Math.cos(f.dip * RAD);
  const sinDip = Math.sin(f.dip * RAD);
  const ztor = f.upper_depth_km + firstRow * stepDown * sinDip;
  // The hypocentre: mid-chord, moved down dip to the rupture's mid-width.
  const out = (firstRow * stepDown + width / 2) * cosDip;
  const h = mesh.toLonLat((p0.x + p1.x) / 2 + dipX * out, (p0.y + p1.y) / 2 + dipY * out);
  const half = (width / 2) * cosDip;
  return {
    mag, rake: f.rake, strike, dip: f.dip,
    hypocentre: { lat: h.lat, lon: h.lon, depth_km: ztor + (width / 2) * sinDip },
    length_km: Math.hypot(p1.x - p0.x, p1.y - p0.y), width_km: width, ztor_km: ztor,
    top_centre: { x: -dipX * half, y: -dipY * half },
  };
}
