// NHC HURDAT2 (Atlantic and Northeast/North Central Pacific): per storm a header line
// "AL122005,            KATRINA,     34," then that many fix lines
// "YYYYMMDD, hhmm, R, ST, 23.1N,  75.1W, wind, pres, 12 x radii (34/50/64 kt NE,SE,SW,NW), rmw".
// Missing codes: wind -99, pressure/radii/rmw -999 -> null/omitted. Storm id = the header's ATCF id.
import { splitLines } from '../series.js';
import { isPlaceholderName, parseLatLon, wrapLongitude } from '../tracks.js';
import type { Storm, TrackArchive, TrackFix, WindRadii } from '../../domain/hazard/records.js';

const HEADER = /^([A-Z]{2})(\d{2})(\d{4})$/;
const THRESHOLDS = [34, 50, 64];

function missing(v: number): boolean {
  return v === -99 || v === -999;
}

// parseInt skips the padding and gives NaN for a blank field (Number('  ') would give 0).
const int = (s: string | undefined): number => Number.parseInt(s ?? '', 10);

export function parseHurdat2(text: string): TrackArchive {
  const quirks: string[] = [];
  const lines = splitLines(text, quirks);
  const storms: Storm[] = [];
  const countMismatch: string[] = [];
  const badLines: string[] = [];
  const duplicates: string[] = [];
  const outOfOrder = new Set<string>();
  const recordIds = new Map<string, number>();
  let storm: Storm | null = null;
  let expected = 0, fixes = 0, noWind = 0, noPressure = 0, offSynoptic = 0, blank = 0, unnamed = 0;

  const close = () => {
    if (storm && storm.fixes.length !== expected) countMismatch.push(`${storm.storm_id} header ${expected} lines ${storm.fixes.length}`);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') { blank++; continue; }
    const f = line.split(','); // numeric fields are read with int(); text fields trimmed on use
    for (let j = 0; j < 6 && j < f.length; j++) f[j] = f[j]!.trim();
    if (HEADER.test(f[0] ?? '')) {
      close();
      const id = f[0]!;
      const raw = f[1] ?? '';
      const placeholder = isPlaceholderName(raw);
      if (placeholder) unnamed++;
      storm = { storm_id: id, name: placeholder ? null : raw, basin: id.slice(0, 2), fixes: [] };
      if (placeholder) storm.name_raw = raw;
      expected = int(f[2]);
      storms.push(storm);
      continue;
    }
    const date = f[0] ?? '', hhmm = f[1] ?? '';
    const lat = parseLatLon(f[4] ?? '', false), lon = parseLatLon(f[5] ?? '', false);
    if (!storm || !/^\d{8}$/.test(date) || !/^\d{4}$/.test(hhmm) || lat === null || lon === null) {
      badLines.push(`line ${i + 1}`);
      continue;
    }
    const epoch = Date.UTC(+date.slice(0, 4), +date.slice(4, 6) - 1, +date.slice(6, 8), +hhmm.slice(0, 2), +hhmm.slice(2, 4));
    const wind = int(f[6]), pres = int(f[7]);
    // ISO string built from the fields: Date#toISOString is the hot spot on 55k fixes.
    const time = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${hhmm.slice(0, 2)}:${hhmm.slice(2, 4)}:00Z`;
    const fix: TrackFix = {
      time, epoch_ms: epoch, latitude: lat, longitude: wrapLongitude(lon),
      max_wind_kt: missing(wind) || Number.isNaN(wind) ? null : wind,
      min_pressure_mb: missing(pres) || Number.isNaN(pres) ? null : pres,
      status: f[3] ?? '',
    };
    if (f[2]) { fix.record_id = f[2]; recordIds.set(f[2], (recordIds.get(f[2]) ?? 0) + 1); }
    let radii: WindRadii[] | undefined; // allocated only when a radius is present (2004 onward)
    for (let k = 0; k < 3; k++) {
      let q: WindRadii['radii_nm'] | undefined;
      for (let j = 0; j < 4; j++) {
        const v = int(f[8 + k * 4 + j]);
        if (!Number.isNaN(v) && !missing(v)) (q ??= [null, null, null, null])[j] = v;
      }
      if (q) (radii ??= []).push({ threshold_kt: THRESHOLDS[k]!, code: 'NEQ', radii_nm: q });
    }
    if (radii) fix.wind_radii = radii;
    const rmw = int(f[20]);
    if (!Number.isNaN(rmw) && !missing(rmw)) fix.rmw_nm = rmw;
    if (fix.max_wind_kt === null) noWind++;
    if (fix.min_pressure_mb === null) noPressure++;
    if (!/^(00|06|12|18)00$/.test(hhmm)) offSynoptic++;
    const last = storm.fixes[storm.fixes.length - 1];
    if (last && last.epoch_ms === epoch) { duplicates.push(`${storm.storm_id} ${fix.time}`); continue; }
    if (last && last.epoch_ms > epoch) outOfOrder.add(storm.storm_id);
    storm.fixes.push(fix);
    fixes++;
  }
  close();
  for (const id of outOfOrder) storms.find((s) => s.storm_id === id)!.fixes.sort((a, b) => a.epoch_ms - b.epoch_ms);

  const ids = new Map<string, number>();
  for (const s of storms) ids.set(s.storm_id, (ids.get(s.storm_id) ?? 0) + 1);
  const repeated = [...ids].filter(([, n]) => n > 1).map(([id]) => id);
  quirks.push(`${storms.length} storms, ${fixes} fixes`);
  quirks.push(`${noPressure} fixes with missing pressure (-999), ${noWind} with unknown wind (-99)`);
  quirks.push(`${unnamed} storms unnamed (UNNAMED or a depression number word): name null, name_raw kept`);
  quirks.push(`${offSynoptic} fixes off the 00/06/12/18 UTC synoptic times (special records)`);
  if (recordIds.size > 0) quirks.push(`record identifiers: ${[...recordIds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (countMismatch.length > 0) quirks.push(`${countMismatch.length} headers whose entry count differs from the lines that follow: ${countMismatch.slice(0, 10).join('; ')}`);
  if (duplicates.length > 0) quirks.push(`${duplicates.length} repeated fix times ignored (first kept): ${duplicates.slice(0, 10).join(', ')}`);
  if (outOfOrder.size > 0) quirks.push(`fixes out of time order (sorted): ${[...outOfOrder].join(', ')}`);
  if (repeated.length > 0) quirks.push(`storm ids used by more than one header: ${repeated.join(', ')}`);
  if (badLines.length > 0) quirks.push(`${badLines.length} unreadable lines ignored: ${badLines.slice(0, 10).join(', ')}`);
  if (blank > 0) quirks.push(`${blank} blank lines`);
  return { storms, quirks };
}
