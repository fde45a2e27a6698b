// NOAA NCEI Storm Events CSV, two layouts:
//  - "details": the bulk StormEvents_details-ftp_v1.0 files (BEGIN_YEARMONTH, BEGIN_DAY, BEGIN_TIME hhmm,
//    BEGIN_DATE_TIME "DD-MON-YY HH:MM:SS", CZ_TIMEZONE), quoted, one row per EVENT_ID;
//  - "search": the web-search export (BEGIN_DATE MM/DD/YYYY, BEGIN_TIME hhmm, CZ_TIMEZONE "CST" or
//    "CST-6", blanks written as one space, ABSOLUTE_ROWNUMBER, at most 500 rows).
// Times are local standard time in CZ_TIMEZONE; EVENT_ID is the publisher id in both layouts.
import type { Manifest } from '../manifest.js';
import { coverageBox } from '../manifest.js';
import { clock, finish, isoDate, lineEndingQuirk, localToEpoch, num, offsetText, outsideBoxQuirk, readCsv, record, sample, tally, type Box, type ParseResult, type Unusable } from '../records.js';
import { REPORT_UNITS, type ReportEvent, type ReportKind } from '../../domain/hazard/records.js';

export interface NceiOptions {
  readonly box?: Box | null;
  /**
   * Trust a "PST" label on pre-1996 rows from states outside the Pacific zone. Default false: such
   * rows are read as CST (see the quirk this parser writes when it meets them).
   */
  readonly honourPstLabel?: boolean;
}

export function nceiOptions(m: Manifest): NceiOptions {
  return { box: coverageBox(m) };
}

export type NceiLayout = 'details' | 'search';

/** Standard-time offsets (minutes) of NCEI zone labels; a numeric suffix ("CST-6") wins. */
const ZONES: Record<string, number> = {
  EST: -300, CST: -360, MST: -420, PST: -480, AKST: -540, HST: -600, AST: -240, SST: -660, GST: 600, UTC: 0, GMT: 0,
};
const PACIFIC_STATES = new Set(['CALIFORNIA', 'OREGON', 'WASHINGTON', 'NEVADA']);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function zoneOffset(label: string): number | undefined {
  const m = /^([A-Z]+)(?:-?(\d{1,2}))?$/.exec(label);
  if (!m) return undefined;
  return m[2] !== undefined ? -Number(m[2]) * 60 : ZONES[m[1]!];
}

function kindOf(eventType: string): ReportKind | null {
  const t = eventType.toLowerCase();
  if (t.startsWith('hail')) return 'hail';
  if (t.startsWith('thunderstorm wind')) return 'wind';
  if (t.startsWith('tornado')) return 'tornado';
  return null;
}

export function detectNceiLayout(header: readonly string[]): NceiLayout {
  if (header.includes('BEGIN_YEARMONTH') && header.includes('BEGIN_DATE_TIME')) return 'details';
  if (header.includes('BEGIN_DATE') && header.includes('BEGIN_TIME')) return 'search';
  throw new Error('not an NCEI Storm Events CSV (neither the details nor the search-export header)');
}

export function parseNceiStormEvents(text: string, options: NceiOptions = {}): ParseResult<ReportEvent> & { layout: NceiLayout } {
  const csv = readCsv(text);
  const layout = detectNceiLayout(csv.header);
  for (const c of ['EVENT_ID', 'EVENT_TYPE', 'MAGNITUDE', 'CZ_TIMEZONE', 'BEGIN_LAT', 'BEGIN_LON']) {
    if (!csv.header.includes(c)) throw new Error(`NCEI ${layout} CSV lacks column ${c}`);
  }
  const quirks: string[] = [];
  const unusable: Unusable[] = [];
  const records: ReportEvent[] = [];
  const zones: string[] = [];
  const pstAsCst: string[] = [];
  const pstStates: string[] = [];
  const noPoint: string[] = [];
  const zeroOrBlank: string[] = [];
  const shortTime: string[] = [];
  const stampMismatch: string[] = [];
  const spaceBlanks = new Set<string>();
  const noEpisode: string[] = [];
  const noCounty: string[] = [];

  for (const row of csv.rows) {
    const raw = record(csv.header, row.values);
    for (const [k, v] of Object.entries(raw)) if (v !== '' && v.trim() === '') spaceBlanks.add(k);
    const f = record(csv.header, row.values, true);
    const id = f.EVENT_ID!;
    const drop = (reason: string): void => void unusable.push({ line: row.line, id: id || null, reason });
    if (row.values.length !== csv.header.length) { drop(`${row.values.length} fields, header has ${csv.header.length}`); continue; }
    if (!/^\d+$/.test(id)) { drop(`EVENT_ID ${JSON.stringify(id)} is not a number`); continue; }
    const kind = kindOf(f.EVENT_TYPE!);
    if (!kind) { drop(`EVENT_TYPE ${JSON.stringify(f.EVENT_TYPE)} is not hail, thunderstorm wind or tornado`); continue; }

    // Local date and clock time. Details: 4-digit year from BEGIN_YEARMONTH (BEGIN_DATE_TIME has a 2-digit year).
    let y: number, mo: number, d: number;
    if (layout === 'details') {
      [y, mo, d] = [Number(f.BEGIN_YEARMONTH!.slice(0, 4)), Number(f.BEGIN_YEARMONTH!.slice(4)), Number(f.BEGIN_DAY)];
    } else {
      const m = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(f.BEGIN_DATE!);
      if (!m) { drop(`BEGIN_DATE ${JSON.stringify(f.BEGIN_DATE)} is not MM/DD/YYYY`); continue; }
      [y, mo, d] = [Number(m[3]), Number(m[1]), Number(m[2])];
    }
    const t = f.BEGIN_TIME!;
    if (!/^\d{1,4}$/.test(t)) { drop(`BEGIN_TIME ${JSON.stringify(t)} is not hhmm`); continue; }
    if (t.length < 4) shortTime.push(`${id} (${t})`);
    const [hh, mm] = [Math.floor(Number(t) / 100), Number(t) % 100];
    if (layout === 'details') {
      const s = /^(\d\d)-([A-Z]{3})-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(f.BEGIN_DATE_TIME!);
      if (!s || Number(s[1]) !== d || MONTHS.indexOf(s[2]!) + 1 !== mo || s[3] !== String(y).slice(2) || Number(s[4]) !== hh || Number(s[5]) !== mm) {
        stampMismatch.push(`${id} (${f.BEGIN_DATE_TIME} vs ${f.BEGIN_YEARMONTH}/${f.BEGIN_DAY} ${t})`);
      }
    }

    // Zone: the label, except the pre-1996 "PST" artefact (see quirk below).
    const label = f.CZ_TIMEZONE!;
    zones.push(label);
    let offset = zoneOffset(label);
    if (offset === undefined) { drop(`CZ_TIMEZONE ${JSON.stringify(label)} is not a known zone`); continue; }
    const state = f.STATE ?? f.STATE_ABBR ?? '';
    if (label === 'PST' && layout === 'details' && y < 1996 && !PACIFIC_STATES.has(state) && !options.honourPstLabel) {
      pstAsCst.push(id);
      pstStates.push(`${state} ${y}`);
      offset = ZONES.CST!;
    }
    const epoch = localToEpoch(y, mo, d, hh, mm, 0, offset);
    if (epoch === null) { drop(`no real date/time in ${y}-${mo}-${d} ${t}`); continue; }

    let lat = num(f.BEGIN_LAT);
    let lon = num(f.BEGIN_LON);
    if (lat === null || lon === null || Number.isNaN(lat) || Number.isNaN(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      noPoint.push(id);
      lat = lon = null;
    }
    let value: number | null;
    if (kind === 'tornado') {
      const r = /^E?F(\d)$/.exec(f.TOR_F_SCALE ?? '');
      value = r ? Number(r[1]) : null;
      if (value === null) zeroOrBlank.push(`${id} (TOR_F_SCALE ${JSON.stringify(f.TOR_F_SCALE)})`);
    } else {
      value = num(f.MAGNITUDE);
      // Pre-1996 rows write 0 where no speed/size was given: a 0 kt wind or 0 in hail is not a measurement.
      if (value === null || Number.isNaN(value) || value <= 0) {
        zeroOrBlank.push(`${id} (MAGNITUDE ${JSON.stringify(f.MAGNITUDE)})`);
        value = null;
      }
    }
    if (layout === 'details' && f.EPISODE_ID === '') noEpisode.push(id);
    if ((f.CZ_NAME ?? f.CZ_NAME_STR) === '') noCounty.push(`${id} (CZ_FIPS ${f.CZ_FIPS})`);
    records.push({
      kind, event_id: id, date: isoDate(y, mo, d), time: new Date(epoch).toISOString(), epoch_ms: epoch,
      local_time: clock(hh, mm, 0), utc_offset: offsetText(offset), latitude: lat, longitude: lon,
      value, unit: REPORT_UNITS[kind], line: row.line, fields: f,
    });
  }

  quirks.push(`layout: NCEI ${layout === 'details' ? 'bulk details file' : 'web-search export'}`);
  const le = lineEndingQuirk(csv);
  if (le) quirks.push(le);
  if (unusable.length > 0) quirks.push(`${unusable.length} rows unusable and left out: ${unusable.map((u) => `line ${u.line}${u.id ? ` (EVENT_ID ${u.id})` : ''}: ${u.reason}`).join('; ')}`);
  quirks.push(`local standard times without offset, read per CZ_TIMEZONE (${tally(zones)}): ` +
    `${[...new Set(zones)].map((z) => `${z} = UTC${zoneOffset(z) === undefined ? '?' : offsetText(zoneOffset(z)!)}`).join(', ')}; no daylight time`);
  if (pstAsCst.length > 0) {
    const years = [...new Set(pstStates.map((s) => s.slice(-4)))];
    const all = years.every((yr) => records.every((r) => !r.date.startsWith(yr) || r.fields.CZ_TIMEZONE === 'PST'));
    quirks.push(`${pstAsCst.length} pre-1996 rows from states outside the Pacific zone are labelled PST (${tally(pstStates)})` +
      `${all ? `; every row of ${years.join(', ')} carries that label` : ''}. PST is no zone of these states and the ` +
      'other pre-1996 rows carry one label whatever the state (CST, even in Mountain-time states), so these are read ' +
      `as CST (UTC-06:00), not UTC-08:00 (option honourPstLabel reads them as labelled): ${sample(pstAsCst)}`);
  }
  if (layout === 'details') {
    const mountain = records.filter((r) => r.fields.CZ_TIMEZONE === 'CST' && /COLORADO|WYOMING|MONTANA|NEW MEXICO|UTAH|ARIZONA|IDAHO/.test(r.fields.STATE ?? ''));
    if (mountain.length > 0) quirks.push(`${mountain.length} rows from Mountain-time states are labelled CST (SPC-era all-CST convention) and read as CST`);
  }
  if (shortTime.length > 0) quirks.push(`${shortTime.length} rows write BEGIN_TIME without leading zeros (read as hhmm padded): ${sample(shortTime)}`);
  if (stampMismatch.length > 0) quirks.push(`${stampMismatch.length} rows have BEGIN_DATE_TIME disagreeing with BEGIN_YEARMONTH/BEGIN_DAY/BEGIN_TIME (the latter used): ${sample(stampMismatch)}`);
  if (noPoint.length > 0) quirks.push(`${noPoint.length} rows have no BEGIN_LAT/BEGIN_LON: latitude/longitude null for EVENT_ID ${sample(noPoint)}`);
  if (zeroOrBlank.length > 0) quirks.push(`${zeroOrBlank.length} rows have no magnitude (blank, 0 = not given before 1996, or no F-scale): value null for ${sample(zeroOrBlank)}`);
  if (spaceBlanks.size > 0) quirks.push(`blank values written as spaces in columns ${[...spaceBlanks].join(', ')} (read as empty)`);
  if (noEpisode.length > 0) quirks.push(`${noEpisode.length} rows have no EPISODE_ID (none assigned before 1996)`);
  if (noCounty.length > 0) quirks.push(`${noCounty.length} rows have a blank county name: ${sample(noCounty)}`);
  if (layout === 'search') {
    const nums = records.map((r) => Number(r.fields.ABSOLUTE_ROWNUMBER));
    const max = Math.max(0, ...nums);
    if (max >= 500) quirks.push(`ABSOLUTE_ROWNUMBER reaches ${max}: the NCEI web search stops at 500 rows, so reports after the last date (${records.map((r) => r.date).sort().at(-1)}) are cut off and that day may be incomplete`);
    if (!nums.every((n, i) => n === i + 1)) quirks.push('ABSOLUTE_ROWNUMBER is not 1..n in file order');
  }
  const box = outsideBoxQuirk(records, options.box);
  if (box) quirks.push(box);
  return { records: finish(records, quirks), quirks, rows: csv.rows.length, unusable, layout };
}
