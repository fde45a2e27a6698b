// The land under a map: Natural Earth's land polygons (handed in, as the lab's land mask reads
// them: src/land.ts) projected onto the map, clipped to its frame and thinned to its scale, so a
// map of one coast carries that coast's outline and not the world's. Each ring is clipped to the
// frame (Sutherland–Hodgman, which keeps a clipped ring closed along the frame's sides) and a
// vertex nearer than MIN_STEP pixels to the last one kept is dropped. Copies of the world 360°
// east and west are drawn where the map runs past the antimeridian. Pure.
import type { LandPolygons } from '../domain/land-mask.js';
import { num } from './svg.js';

/** Vertices closer together than this many pixels are drawn as one. */
const MIN_STEP = 0.75;

export interface Frame {
  /** The map's extent in degrees (longitudes as drawn: east may pass 180). */
  readonly west: number; readonly east: number; readonly south: number; readonly north: number;
  /** Degrees to pixels. */
  x(lon: number): number;
  y(lat: number): number;
}

type Point = readonly [number, number];

/** One side of the frame: whether a pixel is inside it, and where a segment crosses it. */
function clip(ring: Point[], inside: (p: Point) => boolean, cross: (a: Point, b: Point) => Point): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[(i + ring.length - 1) % ring.length]!;
    const b = ring[i]!;
    if (inside(b)) {
      if (!inside(a)) out.push(cross(a, b));
      out.push(b);
    } else if (inside(a)) {
      out.push(cross(a, b));
    }
  }
  return out;
}

function clipToRect(ring: Point[], left: number, right: number, top: number, bottom: number): Point[] {
  const atX = (x: number) => (a: Point, b: Point): Point => [x, a[1] + ((x - a[0]) * (b[1] - a[1])) / (b[0] - a[0])];
  const atY = (y: number) => (a: Point, b: Point): Point => [a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]), y];
  let r = clip(ring, (p) => p[0] >= left, atX(left));
  r = clip(r, (p) => p[0] <= right, atX(right));
  r = clip(r, (p) => p[1] >= top, atY(top));
  return clip(r, (p) => p[1] <= bottom, atY(bottom));
}

// Each ring's extent (west, east, south, north), found once per set of polygons: the land of a
// process is one set, drawn under every map.
const extents = new WeakMap<LandPolygons, Float64Array>();

function ringBoxes(polygons: LandPolygons): Float64Array {
  let boxes = extents.get(polygons);
  if (!boxes) {
    boxes = new Float64Array(4 * polygons.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const polygon of polygons) {
      for (const ring of polygon) {
        let minLon = Infinity, maxLon = -Infinity, minLat = Infinity, maxLat = -Infinity;
        for (const v of ring) {
          if (v[0]! < minLon) minLon = v[0]!;
          if (v[0]! > maxLon) maxLon = v[0]!;
          if (v[1]! < minLat) minLat = v[1]!;
          if (v[1]! > maxLat) maxLat = v[1]!;
        }
        boxes.set([minLon, maxLon, minLat, maxLat], 4 * at);
        at += 1;
      }
    }
    extents.set(polygons, boxes);
  }
  return boxes;
}

/**
 * The land inside the frame as one SVG path's data (even-odd: lakes are holes), and how many rings
 * it draws; an empty path when no land lies in the frame.
 */
export function landPath(polygons: LandPolygons, frame: Frame): { d: string; rings: number } {
  const left = frame.x(frame.west), right = frame.x(frame.east);
  const top = frame.y(frame.north), bottom = frame.y(frame.south);
  const shifts = [-360, 0, 360].filter((s) => frame.west < 180 + s && frame.east > -180 + s);
  const parts: string[] = [];
  const boxes = ringBoxes(polygons);
  let at = 0;
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const [minLon, maxLon, minLat, maxLat] = boxes.subarray(4 * at, 4 * at + 4) as unknown as [number, number, number, number];
      at += 1;
      if (maxLat < frame.south || minLat > frame.north) continue;
      for (const shift of shifts) {
        if (maxLon + shift < frame.west || minLon + shift > frame.east) continue;
        // Off the frame, a vertex is dropped when the last one kept and the next both lie beyond the
        // same side as it does: what is cut away lies beyond that side, so the clipped land is the
        // same, and a continent's far coasts cost nothing.
        const code = (v: readonly number[]) => (v[0]! + shift < frame.west ? 1 : 0) | (v[0]! + shift > frame.east ? 2 : 0) | (v[1]! < frame.south ? 4 : 0) | (v[1]! > frame.north ? 8 : 0);
        const projected: Point[] = [];
        let kept = -1;
        for (let i = 0; i < ring.length; i++) {
          const v = ring[i]!;
          const c = code(v);
          if (c !== 0 && kept >= 0 && i + 1 < ring.length && (c & kept & code(ring[i + 1]!)) !== 0) continue;
          const p: Point = [frame.x(v[0]! + shift), frame.y(v[1]!)];
          const last = projected[projected.length - 1];
          if (!last || Math.abs(p[0] - last[0]) >= MIN_STEP || Math.abs(p[1] - last[1]) >= MIN_STEP) { projected.push(p); kept = c; }
        }
        const clipped = clipToRect(projected, left, right, top, bottom);
        if (clipped.length < 3) continue;
        parts.push(`M${clipped.map((p) => `${num(p[0])} ${num(p[1])}`).join('L')}Z`);
      }
    }
  }
  return { d: parts.join(''), rings: parts.length };
}
