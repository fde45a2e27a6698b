// JTWC best tracks: ATCF b-deck comma text, one file per storm (bwp012021.dat, bsh062003.txt...).
// Fields: BASIN, CY, YYYYMMDDHH, TECHNUM, TECH, TAU, LatN/S, LonE/W (tenths), VMAX, MSLP, TY,
// RAD, WINDCODE, RAD1-4, RADP, RRP, MRD, GUSTS, EYE, SUBREGION, MAXSEAS, INITIALS, DIR, SPEED, STORMNAME...
// Decisions:
// - storm_id = basin + number + year from the file name (bwp262013.txt -> WP262013), the JTWC/ATCF
//   id that IBTrACS USA_ATCF_ID also uses; SH files carry the season (ending) year. Lines whose
//   own BASIN/CY disagree with the file name are disclosed, not re-labelled.
// - Lines repeating a fix time (one per wind-radii threshold) become one fix: position, pressure
//   and status from the first line (disagreements disclosed), max_wind_kt = the highest known VMAX among them (conflicts
//   disclosed), radii collected per threshold.
// - VMAX 0, negative or blank = unknown (null); MSLP 0, 9999, negative or outside 850-1100 = null.
// - name = the most frequent real STORMNAME (placeholders INVEST, NONAME, number words ignored).
import { splitLines } from '../series.js';
import { isoUtc, isPlaceholderName, parseLatLon, wrapLongitude } from '../tracks.js';
import type { Storm, TrackArchive, TrackFix, WindRadii } from '../../domain/hazard/records.js';

export interface NamedText {
  name: string; // file name, optionally with its folder (bwp2021/bwp012021.dat)
  text: string;
}

const FILE = /^b([a-z]{2})(\d{2})(\d{4})\.(dat|txt)$/i;
const GAP_DAYS = 5; // consecutive fixes further apart than this are reported (e.g. year typos)

const intOrNull = (s: string | undefined): number | null => {
  if (s === undefined || !/^-?\d+$/.test(s)) return null;
  return Number(s);
};

export function parseJtwc(files: NamedText[]): TrackArchive {
  const quirks: string[] = [];
  const storms: Storm[] = [];
  const lineEndings = new Map<string, number>();
  const skipped: string[] = [];
  const idMismatch: string[] = [];
  const windConflicts: string[] = [];
  const positionConflicts: string[] = [];
  const pressureConflicts: string[] = [];
  const gaps: string[] = [];
  const multiName: string[] = [];
  const badLines: string[] = [];
  let lines = 0, controlNames = 0, repeatLines = 0, fixesTotal = 0, windZero = 0, windMissing = 0, presMissing = 0, lonWrapped = 0;
  const presOdd: string[] = [];

  for (const file of files) {
    const base = file.name.split('/').pop() ?? file.name;
    const m = FILE.exec(base);
    if (!m) { skipped.push(file.name); continue; }
    const basin = m[1]!.toUpperCase();
    const storm_id = `${basin}${m[2]}${m[3]}`;
    const fileQuirks: string[] = [];
    const rows = splitLines(file.text, fileQuirks).filter((l) => l.trim() !== '');
    for (const q of fileQuirks) {
      const kind = q.startsWith('CRLF') ? 'CRLF' : q.startsWith('mixed') ? 'mixed CRLF/LF' : q;
      lineEndings.set(kind, (lineEndings.get(kind) ?? 0) + 1);
    }
    lines += rows.length;

    const groups = new Map<number, string[][]>();
    const names = new Map<string, number>();
    const lineIds = new Set<string>();
    for (const row of rows) {
      const c = row.split(',').map((x) => x.trim());
      const t = c[2] ?? '';
      if (!/^\d{10}$/.test(t) || c.length < 8) { badLines.push(`${file.name}: ${row.slice(0, 40)}`); continue; }
      lineIds.add(`${c[0]}${c[1]}`);
      const epoch = Date.UTC(+t.slice(0, 4), +t.slice(4, 6) - 1, +t.slice(6, 8), +t.slice(8, 10));
      const g = groups.get(epoch);
      if (g) g.push(c); else groups.set(epoch, [c]);
      const rawName = c[27] ?? '';
      const nm = rawName.replace(/[\x00-\x1f]/g, '').trim(); // some files pad the name with NUL bytes
      if (nm !== rawName) controlNames++;
      if (nm !== '' && !isPlaceholderName(nm)) names.set(nm, (names.get(nm) ?? 0) + 1);
    }
    const own = `${basin}${m[2]}`;
    const foreign = [...lineIds].filter((x) => x !== own);
    if (foreign.length > 0) idMismatch.push(`${file.name} (lines say ${foreign.join('/')})`);

    const fixes: TrackFix[] = [];
    for (const [epoch, g] of [...groups].sort((a, b) => a[0] - b[0])) {
      const first = g[0]!;
      repeatLines += g.length - 1;
      const lat = parseLatLon(first[6] ?? '', true);
      let lon = parseLatLon(first[7] ?? '', true);
      if (lat === null || lon === null) { badLines.push(`${file.name}: ${first.slice(0, 9).join(',')}`); continue; }
      if (lon > 180 || lon < -180) { lonWrapped++; lon = wrapLongitude(lon); }
      const time = isoUtc(epoch);
      const winds: number[] = [];
      for (const c of g) {
        const v = intOrNull(c[8]);
        if (v === null || v < 0) windMissing++;
        else if (v === 0) windZero++;
        else winds.push(v);
      }
      if (new Set(winds).size > 1) windConflicts.push(`${storm_id} ${time} ${[...new Set(winds)].join('/')}`);
      if (g.some((c) => c[6] !== first[6] || c[7] !== first[7])) positionConflicts.push(`${storm_id} ${time}`);
      if (g.some((c) => c[9] !== first[9])) pressureConflicts.push(`${storm_id} ${time} ${[...new Set(g.map((c) => c[9]))].join('/')}`);
      let pres = intOrNull(first[9]);
      if (pres !== null && (pres <= 0 || pres === 9999 || pres < 850 || pres > 1100)) {
        if (pres !== 0) presOdd.push(`${storm_id} ${time} ${pres}`);
        pres = null;
      }
      if (pres === null) presMissing++;
      const fix: TrackFix = {
        time, epoch_ms: epoch, latitude: lat, longitude: lon,
        max_wind_kt: winds.length > 0 ? Math.max(...winds) : null, min_pressure_mb: pres,
      };
      if (first[10]) fix.status = first[10];
      const radii: WindRadii[] = [];
      for (const c of g) {
        const kt = intOrNull(c[11]);
        const r = c.slice(13, 17).map(intOrNull);
        if (kt === null || kt <= 0 || radii.some((x) => x.threshold_kt === kt) || !r.some((v) => v !== null && v > 0)) continue;
        radii.push({ threshold_kt: kt, code: c[12] ?? '', radii_nm: [r[0] ?? null, r[1] ?? null, r[2] ?? null, r[3] ?? null] });
      }
      if (radii.length > 0) fix.wind_radii = radii;
      const mrd = intOrNull(first[19]);
      if (mrd !== null && mrd > 0) fix.rmw_nm = mrd;
      const prev = fixes[fixes.length - 1];
      if (prev && epoch - prev.epoch_ms > GAP_DAYS * 86_400_000) gaps.push(`${storm_id} ${prev.time} -> ${time}`);
      fixes.push(fix);
    }
    fixesTotal += fixes.length;

    const ranked = [...names].sort((a, b) => b[1] - a[1]);
    const storm: Storm = { storm_id, name: ranked[0]?.[0] ?? null, basin, source: file.name, fixes };
    if (ranked.length > 1) {
      storm.name_raw = ranked.map(([n]) => n).join('/');
      multiName.push(`${storm_id} ${storm.name_raw}`);
    }
    storms.push(storm);
  }
  storms.sort((a, b) => (a.fixes[0]?.epoch_ms ?? Infinity) - (b.fixes[0]?.epoch_ms ?? Infinity) || a.storm_id.localeCompare(b.storm_id));

  const ids = new Map<string, number>();
  for (const s of storms) ids.set(s.storm_id, (ids.get(s.storm_id) ?? 0) + 1);
  const repeated = [...ids].filter(([, n]) => n > 1).map(([id]) => id);
  const empty = storms.filter((s) => s.fixes.length === 0).map((s) => s.storm_id);
  const list = (xs: string[]) => xs.slice(0, 10).join('; ') + (xs.length > 10 ? '; ...' : '');
  quirks.push(`${storms.length} storm files, ${lines} best-track lines, ${fixesTotal} fixes after merging lines that repeat a time (${repeatLines} lines repeat a time)`);
  quirks.push(`storm_id = basin + number + year from the file name; name null for ${storms.filter((s) => s.name === null).length} storms without a real STORMNAME`);
  if (skipped.length > 0) quirks.push(`${skipped.length} files that are not storm tracks skipped: ${list(skipped)}`);
  if (idMismatch.length > 0) quirks.push(`${idMismatch.length} files whose lines carry another basin/number than the file name (id kept from the file name): ${list(idMismatch)}`);
  if (windZero + windMissing > 0) quirks.push(`VMAX unknown on ${windMissing} lines (-999/blank) and 0 on ${windZero} lines, read as null`);
  quirks.push(`${presMissing} fixes without a usable MSLP (blank, 0, 9999 or impossible)`);
  if (presOdd.length > 0) quirks.push(`${presOdd.length} impossible MSLP values read as null: ${list(presOdd)}`);
  if (windConflicts.length > 0) quirks.push(`${windConflicts.length} fix times whose lines disagree on VMAX (max kept): ${list(windConflicts)}`);
  if (positionConflicts.length > 0) quirks.push(`${positionConflicts.length} fix times whose lines disagree on position (first kept): ${list(positionConflicts)}`);
  if (pressureConflicts.length > 0) quirks.push(`${pressureConflicts.length} fix times whose lines disagree on MSLP (first kept): ${list(pressureConflicts)}`);
  if (gaps.length > 0) quirks.push(`${gaps.length} tracks with consecutive fixes more than ${GAP_DAYS} days apart (possible date typos, left as written): ${list(gaps)}`);
  if (lonWrapped > 0) quirks.push(`${lonWrapped} longitudes beyond 180 wrapped into [-180, 180]`);
  if (multiName.length > 0) quirks.push(`${multiName.length} storms with more than one real STORMNAME (most frequent used): ${list(multiName)}`);
  if (controlNames > 0) quirks.push(`${controlNames} lines with control characters (NUL) in STORMNAME, removed`);
  if (lineEndings.size > 0) quirks.push(`line endings: ${[...lineEndings].map(([q, n]) => `${q} in ${n} files`).join('; ')}`);
  if (repeated.length > 0) quirks.push(`storm ids given by more than one file: ${repeated.join(', ')}`);
  if (empty.length > 0) quirks.push(`${empty.length} storm files with no fix: ${list(empty)}`);
  if (badLines.length > 0) quirks.push(`${badLines.length} unreadable lines ignored: ${list(badLines)}`);
  return { storms, quirks };
}
