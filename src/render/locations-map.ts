// A map of an object's locations: an equirectangular projection (longitude and latitude on the
// same scale) fitted to the locations' extent, and the structure's region when one is asked for
// (a cat-in-a-box box, or a track gate's box or polygon), with a margin. At most MAP_POINT_CAP
// points are drawn: past the cap every other point kept is dropped and the stride doubles, so the
// points drawn are every k-th location in schedule order (k a power of two), spread over the whole
// schedule; the extent is still that of every location. Locations on both sides of the
// antimeridian (a Fiji schedule at 179.9° and -179.9°) are drawn together: the map starts east of
// the widest stretch of longitude holding no location, and longitudes west of that start are drawn
// 360° further east, labelled as written. Under the points, Natural Earth's land and its coastline
// (basemap.ts) when the land is handed in; each point is coloured and sized by its total value, in
// four classes at the drawn values' quartiles, named in a legend. Pure.
import type { LandPolygons } from '../domain/land-mask.js';
import type { Region } from '../domain/triggers/terms.js';
import { landPath } from './basemap.js';
import { el, linear, niceTicks, num, shortAmount, svgDocument, text, tooltip } from './svg.js';
import { headingLines, textWidth } from './text-width.js';

/** The most points a map draws (a documented cap: the SVG stays under about a megabyte). */
export const MAP_POINT_CAP = 20_000;

/** One-degree bands of longitude, in which MapPoints finds the widest gap between locations. */
const LONGITUDE_BANDS = 360;
const WIDTH = 800;
const HEIGHT = 600;
const PLOT = { left: 60, right: 20, top: 56, bottom: 64 } as const;
/** The value classes' colours, light to dark, and the colour of a point without a value in the map's currency. */
const CLASS_COLOURS = ['#fdae61', '#f46d43', '#d73027', '#7f0000'] as const;
const NO_VALUE = '#7f8c8d';

/** The locations a map draws, gathered as they are read (bounded memory whatever the schedule's size). */
export class MapPoints {
  readonly points: Array<readonly [number, number]> = [];
  /** Each kept point's total value in `currency`, null when it has none (or states another currency). */
  readonly values: Array<number | null> = [];
  /** The currency of the values: the first a location names; locations naming none are taken to be in it. */
  currency: string | null = null;
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

  add(latitude: number | null | undefined, longitude: number | null | undefined, value: number | null = null, currency?: string): void {
    this.total += 1;
    if (currency !== undefined && this.currency === null) this.currency = currency;
    const worth = value !== null && Number.isFinite(value) && (currency === undefined || currency === this.currency) ? value : null;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return;
    const band = Math.min(LONGITUDE_BANDS - 1, Math.max(0, Math.floor(longitude + 180)));
    if (!(this.bandWest[band]! <= longitude)) this.bandWest[band] = longitude;
    if (!(this.bandEast[band]! >= longitude)) this.bandEast[band] = longitude;
    const e = this.extent;
    this.extent = e
      ? { minLon: Math.min(e.minLon, longitude), maxLon: Math.max(e.maxLon, longitude), minLat: Math.min(e.minLat, latitude), maxLat: Math.max(e.maxLat, latitude) }
      : { minLon: longitude, maxLon: longitude, minLat: latitude, maxLat: latitude };
    if (this.withCoordinates % this.stride === 0) { this.points.push([longitude, latitude]); this.values.push(worth); }
    this.withCoordinates += 1;
    if (this.points.length > this.cap) {
      // Keep points 0, 2, 4... of those kept: every (2 × stride)-th location from the first.
      const kept = this.points.filter((_, i) => i % 2 === 0);
      const values = this.values.filter((_, i) => i % 2 === 0);
      this.points.length = 0;
      this.points.push(...kept);
      this.values.length = 0;
      this.values.push(...values);
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
  /** Natural Earth's land polygons, drawn under the points; null draws no land. */
  readonly land?: LandPolygons | null;
}

/** Class breaks at the quartiles of the values drawn, two significant digits, each above the last. */
export function valueBreaks(values: readonly (number | null)[]): number[] {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const breaks: number[] = [];
  for (const q of [0.25, 0.5, 0.75]) {
    const b = Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toPrecision(2));
    if (b > 0 && (breaks.length === 0 || b > breaks[breaks.length - 1]!)) breaks.push(b);
  }
  return breaks;
}

/** The class of a value: the number of breaks at or below it. */
function classOf(value: number, breaks: readonly number[]): number {
  let k = 0;
  while (k < breaks.length && value >= breaks[k]!) k += 1;
  return k;
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
  const drawnWords = `${points.points.length} of ${points.total} locations drawn` +
    (wrapped ? ', across the antimeridian' : '') +
    (points.stride > 1 ? ` (one in ${points.stride}, in schedule order: at most ${MAP_POINT_CAP} are drawn)` : '') +
    (points.total > points.withCoordinates ? `; ${points.total - points.withCoordinates} without coordinates` : '');
  const subtitle = `${drawnWords}. Equirectangular, longitude and latitude in degrees${input.land ? '; land and coastline from Natural Earth' : ''}.`;
  // The heading wraps to the picture's width; the frame moves down by what its extra lines take.
  const heading = headingLines(input.heading, subtitle, WIDTH - PLOT.left - PLOT.right, { title: 15, subtitle: 11 });
  const plotTop = heading.bottom + 14;
  const height = HEIGHT + plotTop - PLOT.top;
  const plotW = WIDTH - PLOT.left - PLOT.right;
  const plotH = HEIGHT - PLOT.top - PLOT.bottom;
  // One scale for both axes (equirectangular), centred in the plot.
  const scale = Math.min(plotW / (east - west), plotH / (north - south));
  const x0 = PLOT.left + (plotW - (east - west) * scale) / 2;
  const y0 = plotTop + (plotH - (north - south) * scale) / 2;
  const x = linear([west, east], [x0, x0 + (east - west) * scale]);
  const y = linear([south, north], [y0 + (north - south) * scale, y0]);

  const body: string[] = [];
  for (const line of heading.title) body.push(text(PLOT.left, line.y, line.text, { 'font-size': 15, 'font-weight': 'bold', class: 'title' }));
  for (const line of heading.subtitle) body.push(text(PLOT.left, line.y, line.text, { 'font-size': 11, fill: '#555555', class: 'subtitle' }));
  // The frame names its extent, so a reader (or a test) can turn a pixel back into degrees.
  body.push(el('rect', {
    class: 'frame', x: x0, y: y0, width: (east - west) * scale, height: (north - south) * scale, fill: input.land ? '#dcebf5' : '#f4f8fb', stroke: '#999999',
    'data-west': String(west), 'data-east': String(east), 'data-south': String(south), 'data-north': String(north),
  }));
  if (input.land) {
    const land = landPath(input.land, { west, east, south, north, x, y });
    if (land.d !== '') body.push(el('path', { class: 'land', d: land.d, fill: '#efeadf', stroke: '#8c8c7a', 'stroke-width': 0.6, 'fill-rule': 'evenodd' }, tooltip('Land: Natural Earth 1:10m (public domain)')));
  }
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
  // Points by value: larger and darker the higher the class; those without a value grey and small.
  const breaks = valueBreaks(points.values);
  const classes = breaks.length + 1;
  const colourOf = (k: number) => CLASS_COLOURS[Math.round((k * (CLASS_COLOURS.length - 1)) / Math.max(classes - 1, 1))]!;
  const radiusOf = (k: number) => 3 + (k * 2.5) / Math.max(classes - 1, 1);
  body.push(el('g', { class: 'locations', 'fill-opacity': 0.9, stroke: '#4d4d4d', 'stroke-width': 0.5 },
    ...points.points.map(([lon, lat], i) => {
      const v = points.values[i]!;
      const k = v === null || breaks.length === 0 ? -1 : classOf(v, breaks);
      return el('circle', { cx: x(drawn(lon)), cy: y(lat), r: k < 0 ? 2 : radiusOf(k), fill: k < 0 ? NO_VALUE : colourOf(k) });
    })));

  // The legend under the frame: one swatch per class, then the points without a value.
  const unit = points.currency ?? 'the schedule\'s currency';
  const words = breaks.length === 0 ? [] : Array.from({ length: classes }, (_, k) => k === 0 ? `under ${shortAmount(breaks[0]!)}`
    : k === classes - 1 ? `${shortAmount(breaks[k - 1]!)} or more` : `${shortAmount(breaks[k - 1]!)} to ${shortAmount(breaks[k]!)}`);
  // No location with a value: no legend (every point is drawn grey, the same size).
  const legendY = height - 14;
  const legend: string[] = [text(PLOT.left, legendY + 4, `Total value (${unit}):`, { 'font-weight': 'bold' })];
  let lx = PLOT.left + 150;
  const swatch = (fill: string, r: number, label: string) => {
    legend.push(el('circle', { cx: lx + 5, cy: legendY, r, fill }), text(lx + 14, legendY + 4, label));
    lx += 24 + textWidth(label, 12);
  };
  words.forEach((label, k) => swatch(colourOf(k), radiusOf(k), label));
  if (points.values.some((v) => v === null)) swatch(NO_VALUE, 2, 'no value');
  if (breaks.length > 0) body.push(el('g', { class: 'legend' }, ...legend));

  const desc = `${drawnWords}.${input.regionNote ? ` ${input.regionNote}` : ''}${breaks.length > 0 ? ` Points coloured by total value (${unit}), breaks at ${breaks.map(shortAmount).join(', ')}.` : ''}`;
  return svgDocument({ width: WIDTH, height }, input.heading, desc, body);
}
