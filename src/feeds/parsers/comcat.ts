// USGS ComCat earthquake-search CSV (22 columns: time, latitude, ..., id, updated, place, type, ...).
// Times are ISO 8601 UTC as published; ids are ComCat preferred event ids.
import type { Manifest } from '../manifest.js';
import { coverageBox } from '../manifest.js';
import { finish, lineEndingQuirk, num, outsideBoxQuirk, readCsv, record, sample, tally, type Box, type ParseResult, type Unusable } from '../records.js';
import type { QuakeEvent } from '../../domain/hazard/records.js';

export interface ComcatOptions {
  /** Coverage box: rows outside are disclosed. */
  readonly box?: Box | null;
  /** Magnitude floor of the query: rows below are disclosed. */
  readonly magnitudeFloor?: number | null;
}

/** Options from a ComCat snapshot's manifest (coverage box, magnitude_floor). */
export function comcatOptions(m: Manifest): ComcatOptions {
  const floor = (m.raw.magnitude_floor as { value?: unknown } | undefined)?.value;
  return { box: coverageBox(m), magnitudeFloor: typeof floor === 'number' ? floor : null };
}

const REQUIRED = ['time', 'latitude', 'longitude', 'depth', 'mag', 'magType', 'id', 'type', 'place', 'net', 'status'];
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function parseComcat(text: string, options: ComcatOptions = {}): ParseResult<QuakeEvent> {
  const csv = readCsv(text);
  const missing = REQUIRED.filter((c) => !csv.header.includes(c));
  if (missing.length > 0) throw new Error(`not a ComCat CSV: header lacks ${missing.join(', ')}`);

  const quirks: string[] = [];
  const unusable: Unusable[] = [];
  const records: QuakeEvent[] = [];
  const noDepth: string[] = [];
  const noMag: string[] = [];
  const noPlace: string[] = [];
  const lossyPlace: string[] = [];
  const belowFloor: string[] = [];
  const aboveSurface: string[] = [];

  for (const row of csv.rows) {
    const f = record(csv.header, row.values);
    const id = f.id!.trim();
    const drop = (reason: string): void => void unusable.push({ line: row.line, id: id || null, reason });
    if (row.values.length !== csv.header.length) { drop(`${row.values.length} fields, header has ${csv.header.length}`); continue; }
    if (id === '') { drop('no event id'); continue; }
    const t = f.time!.trim();
    const epoch = ISO_UTC.test(t) ? Date.parse(t) : NaN;
    if (!Number.isFinite(epoch)) { drop(`time ${JSON.stringify(t)} is not ISO 8601 UTC`); continue; }
    const lat = num(f.latitude);
    const lon = num(f.longitude);
    if (lat === null || lon === null || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
      drop(`no usable epicentre (latitude ${JSON.stringify(f.latitude)}, longitude ${JSON.stringify(f.longitude)})`);
      continue;
    }
    let depth = num(f.depth);
    if (depth === null || Number.isNaN(depth)) { noDepth.push(id); depth = null; } else if (depth < 0) aboveSurface.push(id);
    let mag = num(f.mag);
    if (mag === null || Number.isNaN(mag)) { noMag.push(id); mag = null; }
    else if (options.magnitudeFloor != null && mag < options.magnitudeFloor) belowFloor.push(id);
    const place = f.place!;
    if (place.trim() === '') noPlace.push(id);
    else if (place.includes('?')) lossyPlace.push(`${id} ${JSON.stringify(place)}`);
    records.push({
      event_id: id, time: new Date(epoch).toISOString(), epoch_ms: epoch, latitude: lat, longitude: lon,
      depth_km: depth, magnitude: mag, mag_type: f.magType!, type: f.type!,
      ...(place.trim() !== '' && { place }), net: f.net!, status: f.status!, line: row.line, fields: f,
    });
  }

  const le = lineEndingQuirk(csv);
  if (le) quirks.push(le);
  if (unusable.length > 0) quirks.push(`${unusable.length} rows unusable and left out: ${unusable.map((u) => `line ${u.line}${u.id ? ` (${u.id})` : ''}: ${u.reason}`).join('; ')}`);
  if (noDepth.length > 0) quirks.push(`${noDepth.length} rows have a blank depth (historical locations): depth_km null for ${sample(noDepth)}`);
  if (aboveSurface.length > 0) quirks.push(`${aboveSurface.length} rows have a negative depth (above sea level, kept): ${sample(aboveSurface)}`);
  if (noMag.length > 0) quirks.push(`${noMag.length} rows have a blank or non-numeric magnitude: magnitude null for ${sample(noMag)}`);
  if (belowFloor.length > 0) quirks.push(`${belowFloor.length} rows are below the magnitude floor ${options.magnitudeFloor}: ${sample(belowFloor)}`);
  const others = records.filter((r) => r.type !== 'earthquake');
  if (others.length > 0) {
    quirks.push(`${others.length} rows are not earthquakes (kept; filter type === "earthquake" for pricing): ` +
      `${tally(others.map((r) => r.type))}: ${sample(others.map((r) => r.event_id))}`);
  }
  const magTypes = new Set(records.map((r) => r.mag_type));
  if (magTypes.size > 1) quirks.push(`magnitudes mix ${magTypes.size} magnitude types (${tally(records.map((r) => r.mag_type))})`);
  const uk = records.filter((r) => r.mag_type === 'uk');
  if (uk.length > 0) quirks.push(`${uk.length} rows have magType "uk" (magnitude type unknown): ${sample(uk.map((r) => r.event_id))}`);
  if (noPlace.length > 0) quirks.push(`${noPlace.length} rows have a blank place: ${sample(noPlace)}`);
  if (lossyPlace.length > 0) {
    quirks.push(`${lossyPlace.length} place names hold "?" where the export lost a non-ASCII letter (kept as published): ${sample(lossyPlace, 5)}`);
  }
  const box = outsideBoxQuirk(records, options.box);
  if (box) quirks.push(box);
  return { records: finish(records, quirks), quirks, rows: csv.rows.length, unusable };
}
