// Accumulation over a set of objects: exposure per peril, per declared region, per country and
// concentration in H3 cells. Fed a batch of locations at a time (never a whole schedule at once).
// Values are summed exactly (ten-thousandths, as ingest reads them) per currency and never
// converted: every figure is a list of {currency, ...}. Pure.
import { cellToLatLng, getHexagonAreaAvg, latLngToCell } from 'h3-js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { formatUnits, minorUnits } from '../exposure/minor-units.js';
import { PERIL_CODES, type ScheduleLocation } from '../exposure/types.js';
import { gateContains, type Gate } from '../tracks/gate.js';
import { readRegion } from '../triggers/read.js';
import { Faults } from '../triggers/faults.js';
import { regionBox } from '../triggers/feed.js';
import type { GeoPoint } from '../geo.js';
import { amountUnits } from './amounts.js';
import { NO_CELL, type LocationDigest } from './digest.js';

/** The cells listed with their objects, per currency. */
export const TOP_CELLS = 10;

export interface AccumulatedObject {
  readonly id: string;
  readonly peril: string | null;
  /** peril.region as declared, or undefined. */
  readonly region: unknown;
  /** exposure.currency, the currency of rows that state none. */
  readonly currency: string | null;
}

export interface AccumulationOptions {
  readonly resolution: number;
  /** The country of a point, or null where coordinates do not tell. */
  readonly countryOf: (point: GeoPoint) => string | null;
}

interface Sums { locations: number; values: Map<string, Sum> }
interface ObjectSums extends Sums { located: number; unvalued: number }
interface Cell { value: Sum; locations: number; objects: Map<number, { locations: number; value: Sum }> }
interface RegionTally { region: unknown; gate: Gate; minLat: number; maxLat: number; declaredBy: number[]; objects: Map<number, Sums> }

const NO_CURRENCY = '';

/** An exact sum of ten-thousandths: a double while it stays below 2^52, carried into a bigint beyond. */
class Sum {
  private small = 0;
  private big = 0n;
  add(units: number | bigint): void {
    if (typeof units === 'bigint') { this.big += units; return; }
    // A digest's units reach 2^53: past 2^52 they go to the bigint, so the double's sum stays exact.
    if (units > 2 ** 52 || units < -(2 ** 52)) { this.big += BigInt(units); return; }
    this.small += units;
    if (this.small > 2 ** 52 || this.small < -(2 ** 52)) { this.big += BigInt(this.small); this.small = 0; }
  }
  value(): bigint {
    return this.big + BigInt(this.small);
  }
}

function add(map: Map<string, Sum>, currency: string, units: number | bigint): void {
  let sum = map.get(currency);
  if (!sum) map.set(currency, sum = new Sum());
  sum.add(units);
}

function addAll(into: Map<string, Sum>, from: Map<string, Sum>): void {
  for (const [c, v] of from) add(into, c, v.value());
}

function money(map: Map<string, Sum>): Array<{ currency: string | null; total: string }> {
  return [...map.keys()].sort().map((c) => ({ currency: c === NO_CURRENCY ? null : c, total: formatUnits(map.get(c)!.value(), minorUnits(c || null)) }));
}

export class Accumulator {
  private readonly objects: ObjectSums[];
  private readonly regions: RegionTally[] = [];
  private readonly countries = new Map<string, Sums>();
  /** Per currency, per H3 cell. */
  private readonly cells = new Map<string, Map<string, Cell>>();
  private readonly countryOfCell = new Map<string, string | null>();
  private readonly undeclared: Array<{ object_id: string; reason: string }> = [];

  constructor(private readonly declared: readonly AccumulatedObject[], private readonly options: AccumulationOptions) {
    this.objects = declared.map(() => ({ locations: 0, located: 0, unvalued: 0, values: new Map() }));
    const byKey = new Map<string, RegionTally>();
    declared.forEach((o, index) => {
      if (o.region === undefined || o.region === null) return;
      const faults = new Faults();
      const read = readRegion(faults, o.region, 'peril.region');
      if (!read) {
        this.undeclared.push({ object_id: o.id, reason: faults.list.map((f) => f.message).join('; ') });
        return;
      }
      const key = canonicalJson(read.region);
      let tally = byKey.get(key);
      if (!tally) {
        const box = regionBox(read.region);
        tally = { region: read.region, gate: read.gate, minLat: box.min_latitude, maxLat: box.max_latitude, declaredBy: [], objects: new Map() };
        byKey.set(key, tally);
        this.regions.push(tally);
      }
      tally.declaredBy.push(index);
    });
  }

  /** One batch of the locations of object `index` (its position in the declared list). */
  add(index: number, locations: readonly ScheduleLocation[]): void {
    const fallback = this.declared[index]!.currency ?? NO_CURRENCY;
    for (const l of locations) {
      const lat = l.latitude;
      const lon = l.longitude;
      this.one(index, amountUnits(l.values?.total), l.currency ?? fallback, typeof lat === 'number' && typeof lon === 'number' ? lat : NaN, lon as number, undefined);
    }
  }

  /**
   * Every location of object `index` from its digest (digest.ts), in their order: the same figures
   * as `add` over the same locations, without a location ever parsed. The digest's cells are used
   * when it has them at this accumulation's resolution, else each cell is computed from coordinates.
   */
  addDigest(index: number, digest: LocationDigest): void {
    const fallback = this.declared[index]!.currency ?? NO_CURRENCY;
    const own = digest.header.currencies;
    const big = digest.header.big;
    const cells = digest.cells !== null && digest.resolution === this.options.resolution ? digest.cells : undefined;
    const { latitude, longitude, units, cell, currency } = digest;
    let b = 0;
    for (let i = 0; i < digest.count; i += 1) {
      let u: number | bigint | null = units[i]!;
      if (u !== u) u = b < big.length && big[b]![0] === i ? BigInt(big[b++]![1]) : null;
      const k = currency[i]!;
      const c = cells ? cell![i]! : NO_CELL;
      this.one(index, u, k === 0 ? fallback : own[k - 1]!, latitude[i]!, longitude[i]!, c !== NO_CELL ? cells![c] : undefined);
    }
  }

  /** One location: `lat` NaN when it has no coordinates; `known` its cell when already known. */
  private one(index: number, units: number | bigint | null, currency: string, lat: number, lon: number, known: string | undefined): void {
    const sums = this.objects[index]!;
    sums.locations += 1;
    if (units === null) sums.unvalued += 1;
    else add(sums.values, currency, units);
    if (lat !== lat || lon !== lon) return;
    sums.located += 1;
    if (this.regions.length > 0) {
      const point = { latitude: lat, longitude: lon };
      for (const r of this.regions) {
        if (lat < r.minLat || lat > r.maxLat || !gateContains(r.gate, point)) continue;
        let inside = r.objects.get(index);
        if (!inside) r.objects.set(index, inside = { locations: 0, values: new Map() });
        inside.locations += 1;
        if (units !== null) add(inside.values, currency, units);
      }
    }
    const cell = known ?? latLngToCell(lat, lon, this.options.resolution);
    let country = this.countryOfCell.get(cell);
    if (country === undefined) {
      const [clat, clon] = cellToLatLng(cell);
      country = this.options.countryOf({ latitude: clat, longitude: clon });
      this.countryOfCell.set(cell, country);
    }
    const countryKey = country ?? NO_CURRENCY;
    let c = this.countries.get(countryKey);
    if (!c) this.countries.set(countryKey, c = { locations: 0, values: new Map() });
    c.locations += 1;
    if (units !== null) add(c.values, currency, units);
    if (units === null) return;
    let byCell = this.cells.get(currency);
    if (!byCell) this.cells.set(currency, byCell = new Map());
    let tally = byCell.get(cell);
    if (!tally) byCell.set(cell, tally = { value: new Sum(), locations: 0, objects: new Map() });
    tally.value.add(units);
    tally.locations += 1;
    let mine = tally.objects.get(index);
    if (!mine) tally.objects.set(index, mine = { locations: 0, value: new Sum() });
    mine.locations += 1;
    mine.value.add(units);
  }

  result(): Record<string, unknown> {
    const ids = this.declared.map((o) => o.id);
    const objects = this.declared.map((o, i) => {
      const s = this.objects[i]!;
      return { id: o.id, peril: o.peril, currency: o.currency, locations: s.locations, located_locations: s.located, unvalued_locations: s.unvalued, values: money(s.values), links: { self: `/objects/${o.id}` } };
    });
    const total = new Map<string, Sum>();
    for (const s of this.objects) addAll(total, s.values);
    const perils = [...PERIL_CODES, null].map((code) => {
      const members = this.declared.flatMap((o, i) => (o.peril === code || (code === null && !(PERIL_CODES as readonly string[]).includes(o.peril ?? ''))) ? [i] : []);
      const values = new Map<string, Sum>();
      for (const i of members) addAll(values, this.objects[i]!.values);
      return {
        peril: code,
        objects: members.map((i) => ids[i]!),
        locations: members.reduce((n, i) => n + this.objects[i]!.locations, 0),
        located_locations: members.reduce((n, i) => n + this.objects[i]!.located, 0),
        values: money(values),
      };
    });
    const regions = this.regions.map((r) => {
      const values = new Map<string, Sum>();
      const inside = [...r.objects.entries()].sort((a, b) => a[0] - b[0]).map(([i, s]) => {
        addAll(values, s.values);
        return { object_id: ids[i]!, locations: s.locations, values: money(s.values) };
      });
      return {
        region: r.region,
        declared_by: r.declaredBy.map((i) => ({ object_id: ids[i]!, peril: this.declared[i]!.peril })),
        locations: inside.reduce((n, o) => n + o.locations, 0),
        values: money(values),
        objects: inside,
      };
    });
    const countries = [...this.countries.keys()].sort((a, b) => (a === NO_CURRENCY ? 1 : b === NO_CURRENCY ? -1 : a < b ? -1 : a > b ? 1 : 0)).map((k) => ({
      country: k === NO_CURRENCY ? null : k, locations: this.countries.get(k)!.locations, values: money(this.countries.get(k)!.values),
    }));
    return {
      objects,
      totals: {
        objects: objects.length,
        locations: objects.reduce((n, o) => n + o.locations, 0),
        located_locations: objects.reduce((n, o) => n + o.located_locations, 0),
        unvalued_locations: objects.reduce((n, o) => n + o.unvalued_locations, 0),
        values: money(total),
      },
      perils,
      regions,
      ...(this.undeclared.length > 0 ? { unread_regions: this.undeclared } : {}),
      countries,
      concentration: this.concentration(ids),
    };
  }

  private concentration(ids: readonly string[]): Record<string, unknown> {
    const resolution = this.options.resolution;
    const currencies = [...this.cells.keys()].sort().map((currency) => {
      const byCell = new Map([...this.cells.get(currency)!].map(([cell, c]) => [cell, {
        value: c.value.value(), locations: c.locations, objects: new Map([...c.objects].map(([i, o]) => [i, { locations: o.locations, value: o.value.value() }])),
      }]));
      const decimals = minorUnits(currency || null);
      let total = 0n;
      for (const c of byCell.values()) total += c.value;
      const t = Number(total);
      let hhi = 0;
      for (const c of byCell.values()) {
        const share = t > 0 ? Number(c.value) / t : 0;
        hhi += share * share;
      }
      const ranked = [...byCell.entries()].sort((a, b) => (b[1].value > a[1].value ? 1 : b[1].value < a[1].value ? -1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const top = ranked.slice(0, TOP_CELLS).map(([cell, c]) => {
        const [lat, lon] = cellToLatLng(cell);
        return {
          cell,
          center: { latitude: lat, longitude: lon },
          value: formatUnits(c.value, decimals),
          share: t > 0 ? Number(c.value) / t : 0,
          locations: c.locations,
          objects: [...c.objects.entries()]
            .sort((a, b) => (b[1].value > a[1].value ? 1 : b[1].value < a[1].value ? -1 : a[0] - b[0]))
            .map(([i, o]) => ({ object_id: ids[i]!, locations: o.locations, value: formatUnits(o.value, decimals) })),
        };
      });
      const largest = top[0];
      return {
        currency: currency === NO_CURRENCY ? null : currency,
        total: formatUnits(total, decimals),
        cells: byCell.size,
        largest_cell: largest ? { cell: largest.cell, value: largest.value, share: largest.share } : null,
        hhi: t > 0 ? hhi : null,
        top_cells: top,
      };
    });
    return {
      h3_resolution: resolution,
      cell_area_km2_average: getHexagonAreaAvg(resolution, 'km2'),
      method: 'each located location with a value falls in the H3 cell (h3-js latLngToCell) holding its coordinates; a cell\'s value is the sum of its locations\' total values in one currency; share is the cell\'s value over the currency\'s located total; hhi is the Herfindahl–Hirschman index, the sum of the squared shares (1 = everything in one cell; 1/n for n equal cells)',
      by_currency: currencies,
    };
  }
}
