// GEMA/HS county power-outage snapshots (archived ArcGIS feed rows, one per feed refresh listing
// the county). Timestamps are local wall time (America/New_York) without an offset.
// Decisions:
// - Each row is kept as a raw record with its UTC instant. Local times are resolved with the
//   time-zone rules; in the repeated fall-back hour the earlier reading is taken unless that
//   would step back in time from the previous row (rows are in archive-run order), in which
//   case the later (standard-time) reading is taken.
// - Daily value = the day's maximum outage_count over the snapshots of that local calendar day
//   (peak customers out, the quantity a parametric outage trigger needs), flags carry the
//   snapshot count and the local time of the peak.
// - A day with no snapshot is null ("not_listed"), not 0: the feed lists only counties with an
//   outage, so absence most likely means none, but archive gaps look the same and the manifest
//   says gaps are not zero-filled. Users may read null as 0 knowingly.
import { parse } from 'csv-parse/sync';
import { buildSeries, splitLines, type Entry, type ManifestFacts } from '../series.js';
import type { DailySeries } from '../../domain/hazard/records.js';
import { exclusionFlags, screenNative, type ExclusionReason } from '../../domain/quality.js';

export interface OutageRecord {
  objectid_1: string;
  county_id: string;
  global_id: string;
  name: string;
  outage_count: number;
  customer_count: number | null;
  percent_out: number | null;
  county_status: string;
  timestamp_local: string; // as written, YYYY-MM-DD HH:MM:SS
  edit_date_local: string;
  time_utc: string; // ISO UTC
  epoch_ms: number;
  utc_offset_min: number; // offset applied, e.g. -240 (EDT) or -300 (EST)
}

export interface OutageSeries extends DailySeries {
  records: OutageRecord[];
  timezone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

// Offset of the zone from UTC at an instant, in minutes (e.g. -240 for EDT).
export function tzOffsetMinutes(timeZone: string, epochMs: number): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(epochMs))) p[part.type] = part.value;
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

// All UTC instants whose wall time in the zone is `local`: 1 normally, 2 in a repeated hour,
// 0 in a skipped (spring-forward) hour.
const LOCAL = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d))?$/;

function wallEpoch(local: string): number | null {
  const m = LOCAL.exec(local.trim());
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)) : null;
}

// All UTC instants whose wall time in the zone is `local`: 1 normally, 2 in a repeated hour,
// 0 in a skipped (spring-forward) hour or for an unreadable time.
export function localToUtcCandidates(local: string, timeZone: string): number[] {
  const wall = wallEpoch(local);
  if (wall === null) return [];
  const offsets = new Set([tzOffsetMinutes(timeZone, wall - 86_400_000), tzOffsetMinutes(timeZone, wall + 86_400_000)]);
  return [...offsets]
    .map((o) => wall - o * 60_000)
    .filter((t) => tzOffsetMinutes(timeZone, t) === (wall - t) / 60_000)
    .sort((a, b) => a - b);
}

const num = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
};

export function parseGemaOutages(text: string, facts: ManifestFacts & { timezone?: string } = {}): OutageSeries {
  const timezone = facts.timezone ?? 'America/New_York';
  const quirks: string[] = [`timestamps are ${timezone} local wall time without offset; converted to UTC with the zone's rules`];
  splitLines(text, quirks);
  const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
  const records: OutageRecord[] = [];
  let prev = -Infinity, skipped = 0, backward = 0, bad = 0, overCustomers = 0;
  const ambiguousDays = new Map<string, { rows: number; laterReading: boolean }>();
  const names = new Set<string>();
  for (const r of rows) {
    const local = r.timestamp ?? '';
    const wall = wallEpoch(local);
    const outage = num(r.outage_count);
    if (wall === null || outage === null || outage < 0) { bad++; continue; }
    const cands = localToUtcCandidates(local, timezone);
    let epoch: number;
    if (cands.length === 1) epoch = cands[0]!;
    else if (cands.length === 0) {
      skipped++; // inside the spring-forward gap: read with the offset in force before it
      epoch = wall - tzOffsetMinutes(timezone, wall - 86_400_000) * 60_000;
    } else {
      const day = local.slice(0, 10);
      const a = ambiguousDays.get(day) ?? { rows: 0, laterReading: false };
      ambiguousDays.set(day, a);
      a.rows++;
      epoch = cands.find((t) => t >= prev) ?? cands[cands.length - 1]!;
      if (epoch !== cands[0]) a.laterReading = true;
    }
    if (epoch < prev) backward++;
    prev = epoch;
    names.add(r.name ?? '');
    const customers = num(r.customer_count);
    if (customers !== null && outage > customers) overCustomers++;
    records.push({
      objectid_1: r.objectid_1 ?? '', county_id: r.county_id ?? '', global_id: r.global_id ?? '', name: r.name ?? '',
      outage_count: outage, customer_count: customers, percent_out: num(r.percent_out), county_status: r.county_status ?? '',
      timestamp_local: local, edit_date_local: r.edit_date ?? '', time_utc: new Date(epoch).toISOString(), epoch_ms: epoch,
      utc_offset_min: tzOffsetMinutes(timezone, epoch),
    });
  }

  // Daily peak over the local calendar day, of the snapshots the data-quality rule keeps
  // (src/domain/quality.ts: a count above the row's own customer_count is not a measurement).
  const byDay = new Map<string, { max: number | null; at: string; n: number; excluded: number; excludedMax: number; reason: string }>();
  for (const rec of records) {
    const day = rec.timestamp_local.slice(0, 10);
    let d = byDay.get(day);
    if (!d) byDay.set(day, (d = { max: null, at: '', n: 0, excluded: 0, excludedMax: -Infinity, reason: '' }));
    d.n++;
    const reason = screenNative('outage_count', 'customers', rec.outage_count, rec.customer_count);
    if (reason !== null) {
      d.excluded++;
      if (rec.outage_count > d.excludedMax) { d.excludedMax = rec.outage_count; d.reason = reason; }
      continue;
    }
    if (d.max === null || rec.outage_count > d.max) { d.max = rec.outage_count; d.at = rec.timestamp_local.slice(11); }
  }
  const entries = new Map<string, Entry>();
  for (const [day, d] of byDay) {
    const screened = d.excluded > 0 ? [`excluded_snapshots=${d.excluded}`, ...exclusionFlags(d.reason as ExclusionReason, d.excludedMax)] : [];
    entries.set(day, d.max === null
      ? { value: null, flags: [`snapshots=${d.n}`, ...screened].join(';') }
      : { value: d.max, flags: [`snapshots=${d.n}`, `max_at_local=${d.at}`, ...screened].join(';') });
  }

  quirks.push(`${records.length} snapshot rows kept as raw records; daily value = max outage_count per local calendar day`);
  for (const [day, a] of ambiguousDays) {
    quirks.push(a.laterReading
      ? `${a.rows} rows in the repeated fall-back hour of ${day} resolved by row order: before the backward step daylight time, after it standard time`
      : `${a.rows} rows in the repeated fall-back hour of ${day} with no backward step to tell the readings apart: earlier (daylight) reading taken, may be 1 h early`);
  }
  if (skipped > 0) quirks.push(`${skipped} rows with a wall time that does not exist (spring-forward gap)`);
  if (backward > 0) quirks.push(`${backward} rows step back in time after conversion (lagged feed refresh)`);
  if (bad > 0) quirks.push(`${bad} rows with an unreadable timestamp or outage_count ignored`);
  if (overCustomers > 0) quirks.push(`${overCustomers} rows with outage_count above customer_count excluded from the daily peak by the data-quality rule (listed per day)`);
  if (names.size > 1) quirks.push(`several county names in one file: ${[...names].join(', ')}`);
  const series = buildSeries({
    source_id: records[0]?.county_id ?? '', variable: 'outage_count', unit: 'customers',
    entries, facts, quirks,
  });
  const notListed = series.days.filter((d) => d.value === null && d.flags === undefined);
  for (const d of notListed) d.flags = 'not_listed';
  if (notListed.length > 0) quirks.push(`${notListed.length} days with no snapshot listing the county: null (flag not_listed), not zero-filled`);
  return { ...series, records, timezone };
}
