// A map of an object's locations: an equirectangular projection (longitude and latitude on the
// same scale) fitted to the locations' extent, and the structure's region when one is asked for
// (a cat-in-a-box box, or a track gate's box or polygon), with a margin. At most MAP_POINT_CAP
// points are drawn: past the cap every other point kept is dropped and the stride doubles, so the
// points drawn are every k-th location in schedule order (k a power of two), spread over the whole
// schedule; the extent is still that of every location. Locations on both sides of the
// antimeridian (a Fiji schedule at 179.9° and -179.9°) are drawn together: the map starts east of
// the widest stretch of longitude holding no location, and longitudes west of that start are drawn
// 360° further east, labelled as written. Pure.
import type { Region } from '../domain/triggers/terms.js';
import { el, linear, niceTicks, num, svgDocument, text, tooltip } from './svg.js';

/** The most points a map draws (a documented cap: the SVG stays under about a megabyte). */
export const MAP_POINT_CAP = 20_000;

/** One-degree bands of longitude, in which MapPoints finds the widest gap between locations. */
const LONGITUDE_BANDS = 360;
const WIDTH = 800;
const HEIGHT = 600;
const PLOT = { left: 60, right: 20, top: 56, bottom: 44 } as const;

/** The locations a map draws, gathered as they are read (bounded memory whatever the schedule's size). */
export class MapPoints {
  readonly points: Array<readonly [number, number]> = [];
  /** Every `stride`-th location with coordinates is kept. */
  stride = 1;
  total = 0;
  withCoordinates = 0;
  extent: { minLon: number; maxLon: number; minLat: number; maxLat: number } | null = null;

  /**
   * The westmost and eastmost longitude seen in each one-degree band from -180° (NaN: none), so
   * the widest gap between locations is found in bounded memory whatever the schedule's size.
   */
  private readonly bandWest = new Float64Array(LONGITUDE_BANDS).fill(Number.NaN);
  private readonly bandEast = new Float64Array(LONGITUDE_BANDS).fill(Number.NaN);

  constructor(private readonly cap = MAP_POINT_CAP) {}

  add(latitude: number | null | undefined, longitude: number | null | undefined): void {
    this.total += 1;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return;
    const band = Math.min(LONGITUDE_BANDS - 1, Math.max(0, Math.floor(longitude + 180)));
    if (!(this.bandWest[band]! <= longitude)) this.bandWest[band] = longitude;
    if (!(this.bandEast[band]! >= longitude)) this.bandEast[band] = longitude;
    const e = this.extent;
    this.extent = e
      ? { minLon: Math.min(e.minLon, longitude), maxLon: Math.max(e.maxLon, longitude), minLat: Math.min(e.minLat, latitude), maxLat: Math.max(e.maxLat, latitude) }
      : { minLon: longitude, maxLon: longitude, minLat: latitude, maxLat: latitude };
    if (this.withCoordinates % this.stride === 0) this.points.push([longitude, latitude]);
    this.withCoordinates += 1;
    if (this.points.length > this.cap) {
      // Keep points 0, 2, 4... of those kept: every (2 × stride)-th location from the first.
      const kept = this.points.filter((_, i) => i % 2 === 0);
      this.points.length = 0;
      this.points.push(...kept);
      this.stride *= 2;
    }
  }

  /**
   * The locations' span of longitude as drawn when they lie closer together across the
   * antimeridian: from the first location east of the widest gap between locations to the last one
   * west of it, 360° further east; null when the widest gap is the one the antimeridian lies in
   * (the map spans the extent as written). Gaps are measured between locations in different
   * one-degree bands, so a gap narrower than a degree is never chosen.
   */
  wrapped(): { west: number; east: number } | null {
    const e = this.extent;
    if (e === null) return null;
    // The gap the antimeridian lies in: from the eastmost location round to the westmost.
    let widest = 360 - (e.maxLon - e.minLon);
    let span: { west: number; east: number } | null = null;
    let east: number | null = null;
    for (let band = 0; band < LONGITUDE_BANDS; band += 1) {
      const west = this.bandWest[band]!;
      if (Number.isNaN(west)) continue;
      if (east !== null && west - east > widest) {
        widest = west - east;
        span = { west, east: east + 360 };
      }
      east = this.bandEast[band]!;
    }
    return span;
  }
}

/** A longitude as written, from one drawn up to 360° further east. */
function asWritten(lon: number): number {
  return lon > 180 ? Number((lon - 360).toPrecision(12)) : lon;
}

export interface MapInput {
  readonly heading: string;
  readonly points: MapPoints;
  /** The structure's region, drawn over the points; null when none was asked for or it has none. */
  readonly region: Region | null;
  /** A sentence about the region (which structure, or why none is drawn). */
  readonly regionNote: string | null;
}

/** The region's outline as [lon, lat] vertices (a box crossing the antimeridian is unwrapped eastward). */
function regionRing(region: Region): Array<readonly [number, number]> {
  if (region.type === 'box') {
    const east = region.max_longitude < region.min_longitude ? region.max_longitude + 360 : region.max_longitude;
    return [[region.min_longitude, region.min_latitude], [east, region.min_latitude], [east, region.max_latitude], [region.min_longitude, region.max_latitude]];
  }
  const c = region.coordinates;
  const ring = (Array.isArray(c[0]?.[0]) ? c[0] : c) as ReadonlyArray<readonly [number, number]>;
  return ring.map(([lon, lat]) => [lon, lat] as const);
}

export function locationsMap(input: MapInput): string {
  const { points } = input;
  const wrapped = points.wrapped();
  // Longitudes as drawn: west of the map's start, 360° further east.
  const drawn = (lon: number): number => (wrapped !== null && lon < wrapped.west ? lon + 360 : lon);
  // A region's vertex is drawn in the turn of the world nearest the locations (a box across the
  // antimeridian is already unwrapped eastward).
  const centre = wrapped ? (wrapped.west + wrapped.east) / 2 : 0;
  const nearest = (lon: number): number => [lon - 360, lon, lon + 360].reduce((a, b) => (Math.abs(b - centre) < Math.abs(a - centre) ? b : a));
  const ring = (input.region ? regionRing(input.region) : []).map(([lon, lat]) => [wrapped ? nearest(lon) : lon, lat] as const);
  const span = wrapped ?? (points.extent ? { west: points.extent.minLon, east: points.extent.maxLon } : null);
  const lons = [...(span ? [span.west, span.east] : []), ...ring.map((p) => p[0])];
  const lats = [...(points.extent ? [points.extent.minLat, points.extent.maxLat] : []), ...ring.map((p) => p[1])];
  // The extent with a 5% margin (at least 0.05°), so a single point or a tight cluster is still a map.
  const pad = (lo: number, hi: number): [number, number] => {
    const margin = Math.max((hi - lo) * 0.05, 0.05);
    return [lo - margin, hi + margin];
  };
  const [west, east] = lons.length > 0 ? pad(Math.min(...lons), Math.max(...lons)) : [-180, 180];
  const [south, north] = lats.length > 0 ? pad(Math.min(...lats), Math.max(...lats)) : [-90, 90];
  const plotW = WIDTH - PLOT.left - PLOT.right;
  const plotH = HEIGHT - PLOT.top - PLOT.bottom;
  // One scale for both axes (equirectangular), centred in the plot.
  const scale = Math.min(plotW / (east - west), plotH / (north - south));
  const x0 = PLOT.left + (plotW - (east - west) * scale) / 2;
  const y0 = PLOT.top + (plotH - (north - south) * scale) / 2;
  const x = linear([west, east], [x0, x0 + (east - west) * scale]);
  const y = linear([south, north], [y0 + (north - south) * scale, y0]);

  const body: string[] = [];
  body.push(text(PLOT.left, 24, input.heading, { 'font-size': 15, 'font-weight': 'bold', class: 'title' }));
  const drawnWords = `${points.points.length} of ${points.total} locations drawn` +
    (wrapped ? ', across the antimeridian' : '') +
    (points.stride > 1 ? ` (one in ${points.stride}, in schedule order: at most ${MAP_POINT_CAP} are drawn)` : '') +
    (points.total > points.withCoordinates ? `; ${points.total - points.withCoordinates} without coordinates` : '');
  body.push(text(PLOT.left, 44, `${drawnWords}. Equirectangular, longitude and latitude in degrees.`, { 'font-size': 11, fill: '#555555' }));
  body.push(el('rect', { x: x0, y: y0, width: (east - west) * scale, height: (north - south) * scale, fill: '#f4f8fb', stroke: '#999999' }));
  for (const t of niceTicks(west, east, 6).filter((v) => v >= west && v <= east)) {
    body.push(el('line', { x1: x(t), x2: x(t), y1: y0, y2: y(south), stroke: '#e0e6ec' }));
    body.push(text(x(t), y(south) + 16, `${asWritten(t)}°`, { 'text-anchor': 'middle', class: 'tick' }));
  }
  for (const t of niceTicks(south, north, 6).filter((v) => v >= south && v <= north)) {
    body.push(el('line', { x1: x0, x2: x(east), y1: y(t), y2: y(t), stroke: '#e0e6ec' }));
    body.push(text(x0 - 6, y(t) + 4, `${t}°`, { 'text-anchor': 'end', class: 'tick' }));
  }
  if (ring.length > 0) {
    body.push(el('polygon', {
      class: `region ${input.region!.type}`, points: ring.map(([lon, lat]) => `${num(x(lon))},${num(y(lat))}`).join(' '),
      fill: '#c0392b', 'fill-opacity': 0.12, stroke: '#c0392b', 'stroke-width': 2,
    }, tooltip(input.regionNote ?? 'the structure\'s region')));
  }
  body.push(el('g', { class: 'locations', fill: '#2f6db5', 'fill-opacity': 0.7 },
    ...points.points.map(([lon, lat]) => el('circle', { cx: x(drawn(lon)), cy: y(lat), r: 2.5 }))));

  const desc = `${drawnWords}.${input.regionNote ? ` ${input.regionNote}` : ''}`;
  return svgDocument({ width: WIDTH, height: HEIGHT }, input.heading, desc, body);
}
