// Land and sea as CLIMADA tells them apart (climada_python v6.1, climada/util/coordinates.py:
// coord_on_land over get_land_geometry): a point is on land when it lies inside the union of
// Natural Earth's countries at 1:10m (shapely's `contains`, so a point on a coastline is at sea).
// The same rule holds in every basin. This module is pure: it is handed the polygons (src/land.ts
// reads them from the installed world-atlas package) and answers points.
//
// Index: a grid of CELL_DEG cells. Each cell holds the edges that touch it and whether its
// south-east corner is on land (a ray east from the corner, counted once per grid line). A point's
// answer is its cell corner's, flipped by every edge crossed on the way from the point east to the
// cell's east side and then south to the corner: a few edges per point, not the world's.

/** A ring of [lon, lat] vertices (closed or not); a polygon is its outer ring then its holes (GeoJSON order). */
export type LandRing = readonly (readonly number[])[];
export type LandPolygons = readonly (readonly LandRing[])[];

/** Where the polygons came from, as a result names its inputs. */
export interface LandSource {
  readonly dataset: string;
  readonly package: string;
  readonly version: string;
  readonly file: string;
  readonly sha256: string;
}

export interface LandMask {
  /** Whether a point is on land: inside a land polygon (longitude in any turn). */
  isLand(lat: number, lon: number): boolean;
  readonly source: LandSource;
}

/** Cell size of the index, degrees: a power of two, so every cell side is an exact binary fraction. */
export const CELL_DEG = 0.25;

/** The land mask over the polygons: rings are read with the even-odd rule, so holes (lakes) are sea. */
export function landMask(polygons: LandPolygons, source: LandSource): LandMask {
  const edges = edgesOf(polygons);
  const cols = 360 / CELL_DEG, rows = 180 / CELL_DEG;
  const xEast = (c: number) => -180 + (c + 1) * CELL_DEG;
  const ySouth = (r: number) => -90 + r * CELL_DEG;
  const cells = cellEdges(edges, cols, rows);
  const corner = cornersOnLand(edges, cols, rows);

  function isLand(lat: number, lon: number): boolean {
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90) return false;
    const x = lon >= -180 && lon < 180 ? lon : ((((lon + 180) % 360) + 360) % 360) - 180;
    const c = Math.min(cols - 1, Math.floor((x + 180) / CELL_DEG));
    const r = Math.min(rows - 1, Math.floor((lat + 90) / CELL_DEG));
    const cell = r * cols + c;
    const x1 = xEast(c), y0 = ySouth(r);
    let inside = corner[cell] === 1;
    for (let k = cells.start[cell]!; k < cells.start[cell + 1]!; k++) {
      const e = 4 * cells.edge[k]!;
      const ax = edges[e]!, ay = edges[e + 1]!, bx = edges[e + 2]!, by = edges[e + 3]!;
      // East along the point's latitude, to the cell's east side.
      if ((ay > lat) !== (by > lat)) {
        const xc = ax + ((lat - ay) * (bx - ax)) / (by - ay);
        if (xc > x && (xc < x1 || (xc === x1 && !risesEast(ax, ay, bx, by)))) inside = !inside;
      }
      // South along the east side, to the corner.
      if ((ax > x1) !== (bx > x1)) {
        const yc = ay + ((x1 - ax) * (by - ay)) / (bx - ax);
        if (yc > y0 && yc <= lat) inside = !inside;
      }
    }
    return inside;
  }
  return { isLand, source };
}

/**
 * Every edge of every ring, [ax, ay, bx, by] in turn; edges of no length left out. A ring is read
 * with continuous longitudes (a step across ±180° is the short way round), so a ring drawn across the
 * antimeridian, as world-atlas stitches them, is one planar polygon reaching past 180°; its copy a
 * turn away is added where it reaches into [-180°, 180°], so each side of the antimeridian holds its
 * part, as Natural Earth's own polygons cut there do. A ring going once round a pole (Antarctica's)
 * is closed through the pole.
 */
function edgesOf(polygons: LandPolygons): Float64Array {
  const out: number[] = [];
  const wrap = (d: number) => d - 360 * Math.round(d / 360);
  for (const ring of polygons.flat()) {
    const closed = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1];
    const points = closed ? ring.slice(0, -1) : ring;
    if (points.length < 3) continue;
    const xs = [points[0]![0]!], ys = points.map((p) => p[1]!);
    for (let i = 1; i < points.length; i++) xs.push(xs[i - 1]! + wrap(points[i]![0]! - points[i - 1]![0]!));
    const xBack = xs.at(-1)! + wrap(points[0]![0]! - points.at(-1)![0]!);
    if (Math.round((xBack - xs[0]!) / 360) !== 0) {
      const pole = ys.reduce((a, y) => a + y, 0) < 0 ? -90 : 90;
      xs.push(xBack, xBack, xs[0]!);
      ys.push(ys[0]!, pole, pole);
    }
    const minX = Math.min(...xs), maxX = Math.max(...xs);
    for (const shift of [-360, 0, 360]) {
      if (minX + shift >= 180 || maxX + shift <= -180) continue;
      for (let i = 0; i < xs.length; i++) {
        const j = (i + 1) % xs.length;
        if (xs[i] === xs[j] && ys[i] === ys[j]) continue;
        out.push(xs[i]! + shift, ys[i]!, xs[j]! + shift, ys[j]!);
      }
    }
  }
  return Float64Array.from(out);
}

// Crossings exactly at a cell's east side are decided as if the side lay an infinitesimal δ east of
// it and the horizontal line an ε ≫ δ north of its latitude: an edge rising eastwards through the
// side's point crosses the horizontal line east of the side, any other edge west of it.
function risesEast(ax: number, ay: number, bx: number, by: number): boolean {
  return ax !== bx && (by - ay) / (bx - ax) > 0;
}

/** Each cell's edges (those whose bounding box touches the cell's closed box), as start offsets into one list. */
function cellEdges(edges: Float64Array, cols: number, rows: number): { start: Int32Array; edge: Int32Array } {
  const n = edges.length / 4;
  const range = (lo: number, hi: number, origin: number, count: number): [number, number] => [
    Math.max(0, Math.floor((lo - origin) / CELL_DEG) - 1),
    Math.min(count - 1, Math.floor((hi - origin) / CELL_DEG)),
  ];
  const visit = (each: (cell: number, edge: number) => void) => {
    for (let i = 0; i < n; i++) {
      const ax = edges[4 * i]!, ay = edges[4 * i + 1]!, bx = edges[4 * i + 2]!, by = edges[4 * i + 3]!;
      const minX = Math.min(ax, bx), maxX = Math.max(ax, bx), minY = Math.min(ay, by), maxY = Math.max(ay, by);
      const [c0, c1] = range(minX, maxX, -180, cols);
      const [r0, r1] = range(minY, maxY, -90, rows);
      for (let r = r0; r <= r1; r++) {
        if (-90 + r * CELL_DEG > maxY || -90 + (r + 1) * CELL_DEG < minY) continue;
        for (let c = c0; c <= c1; c++) {
          if (-180 + c * CELL_DEG > maxX || -180 + (c + 1) * CELL_DEG < minX) continue;
          each(r * cols + c, i);
        }
      }
    }
  };
  const start = new Int32Array(cols * rows + 1);
  visit((cell) => { start[cell + 1]!++; });
  for (let k = 0; k < cols * rows; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, cols * rows);
  const edge = new Int32Array(start[cols * rows]!);
  visit((cell, i) => { edge[fill[cell]!++] = i; });
  return { start, edge };
}

/** Whether each cell's south-east corner is on land: the parity of the edges a ray east from it crosses. */
function cornersOnLand(edges: Float64Array, cols: number, rows: number): Uint8Array {
  const n = edges.length / 4;
  // The crossings of each grid line (the south side of row r) by the edges, as longitudes.
  const crossings: number[][] = Array.from({ length: rows }, () => []);
  const rising: boolean[][] = Array.from({ length: rows }, () => []);
  for (let i = 0; i < n; i++) {
    const ax = edges[4 * i]!, ay = edges[4 * i + 1]!, bx = edges[4 * i + 2]!, by = edges[4 * i + 3]!;
    const r0 = Math.max(0, Math.floor((Math.min(ay, by) + 90) / CELL_DEG));
    const r1 = Math.min(rows - 1, Math.floor((Math.max(ay, by) + 90) / CELL_DEG));
    for (let r = r0; r <= r1; r++) {
      const y = -90 + r * CELL_DEG;
      if ((ay > y) === (by > y)) continue;
      crossings[r]!.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
      rising[r]!.push(risesEast(ax, ay, bx, by));
    }
  }
  const corner = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    const xs = crossings[r]!, up = rising[r]!;
    const order = xs.map((_, k) => k).sort((a, b) => xs[a]! - xs[b]!);
    // Columns from the east: the crossings beyond each corner are counted once over the row.
    let p = order.length - 1, beyond = 0;
    for (let c = cols - 1; c >= 0; c--) {
      const x1 = -180 + (c + 1) * CELL_DEG;
      while (p >= 0 && xs[order[p]!]! > x1) { beyond++; p--; }
      let ties = 0;
      for (let q = p; q >= 0 && xs[order[q]!] === x1; q--) if (up[order[q]!]) ties++;
      corner[r * cols + c] = (beyond + ties) % 2;
    }
  }
  return corner;
}
