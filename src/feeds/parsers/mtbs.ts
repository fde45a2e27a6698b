// MTBS mapped-fire list as compiled by Higuera et al. (Event_ID, irwinID, Incid_Name, Incid_Type,
// BurnBndAc, Ig_Date, Ig_Year, Ig_Month, STUSPS; written by R: CRLF, NA for missing).
// There are no coordinate columns: per the manifests, Event_ID = 2-letter state + latitude*1000
// (5 digits) + west longitude*1000 (6 digits) + YYYYMMDD, and that encoded point is the fire's point.
// Only a date is published: time is null and epoch_ms is 00:00 UTC of Ig_Date.
import type { Manifest } from '../manifest.js';
import { coverageBox } from '../manifest.js';
import { dateMs, finish, lineEndingQuirk, num, outsideBoxQuirk, readCsv, record, sample, tally, type Box, type ParseResult, type Unusable } from '../records.js';
import type { ReportEvent } from '../../domain/hazard/records.js';

export interface MtbsOptions {
  readonly box?: Box | null;
}

export function mtbsOptions(m: Manifest): MtbsOptions {
  return { box: coverageBox(m) };
}

export interface MtbsEventId {
  readonly state: string;
  readonly latitude: number;
  readonly longitude: number;
  /** YYYY-MM-DD, the date MTBS built the id from. */
  readonly date: string;
}

/** Decodes an MTBS Event_ID ("CO4060910587920200813" -> CO, 40.609, -105.879, 2020-08-13); null if malformed. */
export function decodeMtbsEventId(id: string): MtbsEventId | null {
  const m = /^([A-Z]{2})(\d{5})(\d{6})(\d{4})(\d\d)(\d\d)$/.exec(id);
  if (!m) return null;
  const latitude = Number(m[2]) / 1000;
  const longitude = -Number(m[3]) / 1000;
  if (latitude > 90 || longitude < -180 || dateMs(Number(m[4]), Number(m[5]), Number(m[6])) === null) return null;
  return { state: m[1]!, latitude, longitude, date: `${m[4]}-${m[5]}-${m[6]}` };
}

const COLUMNS = ['Event_ID', 'irwinID', 'Incid_Name', 'Incid_Type', 'BurnBndAc', 'Ig_Date', 'Ig_Year', 'Ig_Month', 'STUSPS'];

export function parseMtbs(text: string, options: MtbsOptions = {}): ParseResult<ReportEvent> {
  const csv = readCsv(text);
  const missing = COLUMNS.filter((c) => !csv.header.includes(c));
  if (missing.length > 0) throw new Error(`not an MTBS fire list: header lacks ${missing.join(', ')}`);

  const quirks: string[] = [];
  const unusable: Unusable[] = [];
  const records: ReportEvent[] = [];
  const badId: string[] = [];
  const idDateDiffers: string[] = [];
  const stateDiffers: string[] = [];
  const yearMonthDiffers: string[] = [];
  const noAcres: string[] = [];
  const naIrwin: string[] = [];
  const igDateFromId: string[] = [];

  for (const row of csv.rows) {
    const f = record(csv.header, row.values, true);
    const id = f.Event_ID!;
    const drop = (reason: string): void => void unusable.push({ line: row.line, id: id === '' || id === 'NA' ? null : id, reason });
    if (row.values.length !== csv.header.length) { drop(`${row.values.length} fields, header has ${csv.header.length}`); continue; }
    if (id === '' || id === 'NA') { drop('no Event_ID'); continue; }
    const decoded = decodeMtbsEventId(id);
    if (!decoded) badId.push(id);
    const ig = /^(\d{4})-(\d\d)-(\d\d)$/.exec(f.Ig_Date!);
    let date = ig && dateMs(Number(ig[1]), Number(ig[2]), Number(ig[3])) !== null ? f.Ig_Date! : null;
    if (date === null && decoded) { igDateFromId.push(`${id} (Ig_Date ${JSON.stringify(f.Ig_Date)})`); date = decoded.date; }
    if (date === null) { drop(`no usable date (Ig_Date ${JSON.stringify(f.Ig_Date)}, Event_ID undecodable)`); continue; }
    if (decoded && decoded.date !== date) idDateDiffers.push(`${id} (Ig_Date ${date})`);
    if (decoded && decoded.state !== f.STUSPS) stateDiffers.push(`${id} (STUSPS ${f.STUSPS})`);
    if (Number(f.Ig_Year) !== Number(date.slice(0, 4)) || Number(f.Ig_Month) !== Number(date.slice(5, 7))) {
      yearMonthDiffers.push(`${id} (Ig_Year ${f.Ig_Year}, Ig_Month ${f.Ig_Month}, date ${date})`);
    }
    let acres = num(f.BurnBndAc);
    if (acres === null || Number.isNaN(acres) || acres <= 0) { noAcres.push(`${id} (${JSON.stringify(f.BurnBndAc)})`); acres = null; }
    if (f.irwinID === 'NA') naIrwin.push(id);
    const epoch = dateMs(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8)))!;
    records.push({
      kind: 'fire', event_id: id, date, time: null, epoch_ms: epoch, local_time: null, utc_offset: null,
      latitude: decoded?.latitude ?? null, longitude: decoded?.longitude ?? null,
      value: acres, unit: 'acres', line: row.line, fields: f,
    });
  }

  const le = lineEndingQuirk(csv);
  if (le) quirks.push(le);
  if (unusable.length > 0) quirks.push(`${unusable.length} rows unusable and left out: ${unusable.map((u) => `line ${u.line}${u.id ? ` (${u.id})` : ''}: ${u.reason}`).join('; ')}`);
  quirks.push('no coordinate columns: latitude/longitude decoded from Event_ID (3 decimals, the point MTBS built the id from)');
  quirks.push('date-only records (Ig_Date): time null, epoch_ms = 00:00 UTC of Ig_Date (no time of day or zone published)');
  if (badId.length > 0) quirks.push(`${badId.length} Event_IDs do not follow the state+lat+lon+date pattern: latitude/longitude null for ${sample(badId)}`);
  if (igDateFromId.length > 0) quirks.push(`${igDateFromId.length} rows have no valid Ig_Date; the Event_ID date is used: ${sample(igDateFromId)}`);
  if (idDateDiffers.length > 0) quirks.push(`${idDateDiffers.length} rows have an Event_ID date different from Ig_Date (MTBS revised the ignition date; Ig_Date used): ${sample(idDateDiffers)}`);
  if (stateDiffers.length > 0) quirks.push(`${stateDiffers.length} rows have an Event_ID state different from STUSPS (majority-area state): ${sample(stateDiffers)}`);
  if (yearMonthDiffers.length > 0) quirks.push(`${yearMonthDiffers.length} rows have Ig_Year/Ig_Month disagreeing with Ig_Date: ${sample(yearMonthDiffers)}`);
  if (noAcres.length > 0) quirks.push(`${noAcres.length} rows have no positive BurnBndAc: value null for ${sample(noAcres)}`);
  if (naIrwin.length > 0) quirks.push(`${naIrwin.length} rows have irwinID "NA" (R's missing value; kept as published in fields)`);
  const quoted = text.split('\n').filter((l) => l.includes('"')).length;
  if (quoted > 0) quirks.push(`${quoted} rows quote Incid_Name (R quotes names beginning with "NA"); read unquoted`);
  const types = records.map((r) => r.fields.Incid_Type!);
  if (types.some((t) => t !== 'Wildfire')) quirks.push(`Incid_Type mixes ${tally(types)}: filter "Wildfire" (and optionally "Wildland Fire Use") for wildfire frequency`);
  const box = outsideBoxQuirk(records, options.box);
  if (box) quirks.push(box);
  return { records: finish(records, quirks), quirks, rows: csv.rows.length, unusable };
}
