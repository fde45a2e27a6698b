// NOAA SPC severe-weather database rows (hail, tornado, wind), two layouts met in the pinned feeds:
// the WCM hail files (28 columns, no header row: names are the manifest's `columns` keys) and the
// SVRGIS tornado attribute table (22 columns with a header). Times are local standard time per the
// `tz` code (3 = CST = UTC-6, 9 = GMT). `om` is unique only within a year, so event_id = "<yr>-<om>"
// (the manifests say: cite as yr+om).
import type { Manifest } from '../manifest.js';
import { coverageBox } from '../manifest.js';
import { feedEntry } from '../catalog.js';
import { clock, finish, isoDate, lineEndingQuirk, localToEpoch, num, offsetText, outsideBoxQuirk, readCsv, record, sample, tally, type Box, type ParseResult, type Unusable } from '../records.js';
import { REPORT_UNITS, type ReportEvent } from '../../domain/hazard/records.js';

export type SpcKind = 'hail' | 'tornado' | 'wind';

export interface SpcOptions {
  readonly kind: SpcKind;
  /** Column names for a file without a header row (manifest `columns` keys). */
  readonly columns?: readonly string[];
  readonly box?: Box | null;
}

/** SPC severe-database column order (hail/wind/tornado files without a header). */
export const SPC_COLUMNS = ['om', 'yr', 'mo', 'dy', 'date', 'time', 'tz', 'st', 'stf', 'stn', 'mag', 'inj', 'fat', 'loss', 'closs',
  'slat', 'slon', 'elat', 'elon', 'len', 'wid', 'ns', 'sn', 'sg', 'f1', 'f2', 'f3', 'f4'] as const;

/** Options from an SPC manifest: report type from the feed catalog, columns when header_row is false, box. */
export function spcOptions(m: Manifest, kind: SpcKind | null | undefined = feedEntry(m)?.report): SpcOptions {
  if (!kind) throw new Error(`${m.feed_id} is not an SPC hail, tornado or wind feed`);
  return { kind, box: coverageBox(m), ...(m.header_row === false && m.columns && { columns: Object.keys(m.columns) }) };
}

/** SPC time-zone codes -> minutes east of UTC (SPC: 3 = CST; 9 = GMT). */
const TZ: Record<string, number> = { '3': -360, '9': 0 };
const TZ_NAME: Record<string, string> = { '3': 'CST', '9': 'GMT' };

export function parseSpcReports(text: string, options: SpcOptions): ParseResult<ReportEvent> {
  const headed = /^\uFEFF?om,/.test(text);
  if (!headed && !options.columns) options = { ...options, columns: SPC_COLUMNS };
  const csv = readCsv(text, headed ? undefined : options.columns);
  const missing = ['om', 'yr', 'mo', 'dy', 'date', 'time', 'tz', 'mag', 'slat', 'slon'].filter((c) => !csv.header.includes(c));
  if (missing.length > 0) throw new Error(`not an SPC severe-database file: columns lack ${missing.join(', ')}`);

  const quirks: string[] = [];
  const unusable: Unusable[] = [];
  const records: ReportEvent[] = [];
  const tzSeen: string[] = [];
  const unknownTz: string[] = [];
  const shortTime: string[] = [];
  const dateMismatch: string[] = [];
  const noPoint: string[] = [];
  const noValue: string[] = [];
  const longDecimals: string[] = [];

  for (const row of csv.rows) {
    const f = record(csv.header, row.values, true);
    const id = `${f.yr}-${f.om}`;
    const drop = (reason: string): void => void unusable.push({ line: row.line, id, reason });
    if (row.values.length !== csv.header.length) { drop(`${row.values.length} fields, expected ${csv.header.length}`); continue; }
    const [y, mo, d] = [Number(f.yr), Number(f.mo), Number(f.dy)];
    const tm = /^(\d{1,2}):(\d\d):(\d\d)$/.exec(f.time!);
    if (!tm) { drop(`time ${JSON.stringify(f.time)} is not H:MM:SS`); continue; }
    if (tm[1]!.length === 1) shortTime.push(id);
    const tz = f.tz!;
    tzSeen.push(tz);
    let offset = TZ[tz];
    if (offset === undefined) { unknownTz.push(id); offset = -360; }
    const [hh, mm, ss] = [Number(tm[1]), Number(tm[2]), Number(tm[3])];
    const epoch = localToEpoch(y, mo, d, hh, mm, ss, offset);
    if (epoch === null) { drop(`no real date/time in yr/mo/dy/time ${f.yr}/${f.mo}/${f.dy} ${f.time}`); continue; }
    const date = isoDate(y, mo, d);
    if (f.date !== date) dateMismatch.push(`${id} (date ${f.date}, yr/mo/dy ${date})`);

    let lat = num(f.slat);
    let lon = num(f.slon);
    // SPC writes 0 for an unknown point.
    if (lat === null || lon === null || Number.isNaN(lat) || Number.isNaN(lon) || lat === 0 || lon === 0 || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      noPoint.push(id);
      lat = lon = null;
    }
    let value = num(f.mag);
    // Tornado -9 = unknown rating; hail size or wind speed of 0 or less is no measurement.
    if (value === null || Number.isNaN(value) || value === -9 || (options.kind !== 'tornado' && value <= 0) || (options.kind === 'tornado' && value < 0)) {
      noValue.push(`${id} (mag ${JSON.stringify(f.mag)})`);
      value = null;
    }
    const noisy = row.values.find((v) => /\.\d{10,}/.test(v));
    if (noisy !== undefined) longDecimals.push(noisy);
    records.push({
      kind: options.kind, event_id: id, date, time: new Date(epoch).toISOString(), epoch_ms: epoch,
      local_time: clock(hh, mm, ss), utc_offset: offsetText(offset), latitude: lat, longitude: lon,
      value, unit: REPORT_UNITS[options.kind], line: row.line, fields: f,
    });
  }

  const le = lineEndingQuirk(csv);
  if (le) quirks.push(le);
  if (!headed) quirks.push(`no header row: column names taken from ${options.columns === SPC_COLUMNS ? 'the SPC database layout' : 'the manifest'} (${csv.header.length} columns)`);
  if (unusable.length > 0) quirks.push(`${unusable.length} rows unusable and left out: ${unusable.map((u) => `line ${u.line} (${u.id}): ${u.reason}`).join('; ')}`);
  quirks.push(`times are local standard time without offset; tz codes ${tally(tzSeen)} read as ` +
    `${[...new Set(tzSeen)].map((t) => `${t} = ${TZ[t] === undefined ? 'unknown code, assumed CST (UTC-06:00)' : `${TZ_NAME[t]} (UTC${offsetText(TZ[t]!)})`}`).join(', ')}; no daylight time`);
  if (unknownTz.length > 0) quirks.push(`${unknownTz.length} rows have an unknown tz code, read as CST: ${sample(unknownTz)}`);
  if (shortTime.length > 0) quirks.push(`${shortTime.length} rows write the hour with one digit (H:MM:SS), e.g. ${sample(shortTime, 3)}`);
  if (dateMismatch.length > 0) quirks.push(`${dateMismatch.length} rows have a date column that disagrees with yr/mo/dy (yr/mo/dy used): ${sample(dateMismatch)}`);
  if (noPoint.length > 0) quirks.push(`${noPoint.length} rows have no usable start point (blank or 0): latitude/longitude null for ${sample(noPoint)}`);
  if (noValue.length > 0) {
    const what = options.kind === 'tornado' ? '(E)F rating unknown (-9) or invalid' : 'magnitude blank, zero or invalid';
    quirks.push(`${noValue.length} rows: ${what}, value null: ${sample(noValue)}`);
  }
  if (longDecimals.length > 0) quirks.push(`${longDecimals.length} rows carry DBF float noise (long decimals, e.g. ${longDecimals[0]}); read as the nearest double`);
  if (csv.header.includes('elat')) {
    const noEnd = records.filter((r) => num(r.fields.elat) === 0).length;
    if (noEnd > 0) quirks.push(`${noEnd} rows have elat/elon 0 (end point not given; kept as published)`);
  }
  if (options.kind === 'tornado') {
    // The SPC loss field changed unit twice; the value is kept raw in fields.loss.
    const maxLoss = (from: number, to: number): number => Math.max(0, ...records.filter((r) => Number(r.fields.yr) >= from && Number(r.fields.yr) <= to).map((r) => num(r.fields.loss) ?? 0));
    quirks.push(`fields.loss changes unit by year (kept raw): before 1996 SPC loss category (max here ${maxLoss(0, 1995)}), ` +
      `1996-2015 millions USD (max ${maxLoss(1996, 2015)}), from 2016 whole USD (max ${maxLoss(2016, 9999)}); ` +
      'the manifest mentions only "millions USD from 1996"');
  }
  const box = outsideBoxQuirk(records, options.box);
  if (box) quirks.push(box);
  return { records: finish(records, quirks), quirks, rows: csv.rows.length, unusable };
}
