// OpenQuake's ground-motion fields as files: gmf_data.csv (one row per site and event: a site
// column sid, site_id or custom_site_id; an event column eid or event_id; one column per intensity
// measure, gmv_<IMT> or <IMT>) with the sites.csv it refers to (site_id or custom_site_id, lon,
// lat; with lon and lat alone a site's id is its row's ordinal from 0), the layouts the engine
// reads as gmfs_file and sites_csv and writes as its gmf_data export. Lines opening with # (the
// engine's generated_by line) are skipped. Strict: an unknown site, a repeated site and event, a
// value that does not read or is negative, a missing column, is an error naming the line.
import type { OqGmfs, OqSite } from '../../domain/lab/lanes/openquake-scenario-risk/oq-inputs.js';

const SITE_COLUMNS = ['sid', 'site_id', 'custom_site_id'];
const EVENT_COLUMNS = ['eid', 'event_id'];
/** Columns of the engine's exports that are not intensity measures. */
const OTHER_COLUMNS = new Set(['rlz', 'rlzi', 'rlz_id', 'lon', 'lat']);

const cell = (c: string) => {
  const t = c.trim();
  return t.length > 1 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
};

/** Each data line's cells after the header (skipping blank lines and lines opening with #); the header. */
function eachRow(text: string, what: string, onRow: (cells: string[], line: number) => void): string[] {
  let header: string[] | null = null;
  let line = 0;
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const raw = text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end);
    at = end + 1;
    line++;
    if (raw.length === 0 || raw.charCodeAt(0) === 35 || raw.trim() === '') continue;
    const cells = raw.split(',');
    for (let i = 0; i < cells.length; i++) cells[i] = cell(cells[i]!);
    if (!header) { header = cells; continue; }
    if (cells.length !== header.length) throw new Error(`${what} line ${line}: ${cells.length} fields where the header has ${header.length}`);
    onRow(cells, line);
  }
  if (!header) throw new Error(`${what} is empty`);
  return header;
}

/** The header alone (the first line that is not blank or a # line). */
function headerOf(text: string, what: string): string[] {
  for (const raw of text.split(/\r?\n/, 50)) if (raw.trim() !== '' && !raw.startsWith('#')) return raw.split(',').map(cell);
  throw new Error(`${what} is empty`);
}

function column(header: readonly string[], names: readonly string[], what: string): number {
  const i = header.findIndex((h) => names.includes(h));
  if (i < 0) throw new Error(`${what} has no ${names.join(' or ')} column (its header is ${header.join(',')})`);
  return i;
}

function finite(text: string, what: string): number {
  const v = text === '' ? Number.NaN : +text;
  if (!Number.isFinite(v)) throw new Error(`${what}: ${JSON.stringify(text)} is not a number`);
  return v;
}

export function parseOqSites(text: string): OqSite[] {
  const header = headerOf(text, 'sites.csv');
  const lon = column(header, ['lon'], 'sites.csv');
  const lat = column(header, ['lat'], 'sites.csv');
  const idAt = header.findIndex((h) => SITE_COLUMNS.includes(h));
  const seen = new Set<string>();
  const sites: OqSite[] = [];
  eachRow(text, 'sites.csv', (cells, line) => {
    const id = idAt < 0 ? String(sites.length) : cells[idAt]!;
    if (seen.has(id)) throw new Error(`sites.csv line ${line}: site ${id} appears twice`);
    seen.add(id);
    const site = { id, lon: finite(cells[lon]!, `sites.csv line ${line}: lon`), lat: finite(cells[lat]!, `sites.csv line ${line}: lat`) };
    if (Math.abs(site.lat) > 90 || Math.abs(site.lon) > 180) throw new Error(`sites.csv line ${line}: ${site.lon} ${site.lat} is not a longitude and latitude`);
    sites.push(site);
  });
  return sites;
}

/** Site ids as the engine writes them: an integer id read as a number, so 01 and 1 are one site. */
function siteKey(id: string, numeric: boolean): string {
  return numeric ? String(Number(id)) : id;
}

/** A growable column of numbers. */
class Column<T extends Float64Array | Int32Array> {
  length = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  done(): T { return this.data.slice(0, this.length) as T; }
}

export function parseOqGmfs(gmfCsv: string, sitesCsv: string): OqGmfs {
  const sites = parseOqSites(sitesCsv);
  const header = headerOf(gmfCsv, 'gmf_data.csv');
  const siteAt = column(header, SITE_COLUMNS, 'gmf_data.csv');
  const eventAt = column(header, EVENT_COLUMNS, 'gmf_data.csv');
  const numeric = header[siteAt] !== 'custom_site_id';
  const imtCols = header.map((h, i) => ({ h, i })).filter(({ h, i }) => i !== siteAt && i !== eventAt && !OTHER_COLUMNS.has(h) && !SITE_COLUMNS.includes(h));
  if (imtCols.length === 0) throw new Error('gmf_data.csv has no intensity measure column (gmv_PGA, gmv_SA(0.3), ...)');
  const bySite = new Map(sites.map((s, i) => [siteKey(s.id, numeric), i]));
  const guess = Math.max(16, Math.ceil(gmfCsv.length / 24));
  const siteIndex = new Column(new Int32Array(guess));
  const eventIds = new Column(new Float64Array(guess));
  const lines = new Column(new Int32Array(guess));
  const values = imtCols.map(() => new Column(new Float64Array(guess)));
  eachRow(gmfCsv, 'gmf_data.csv', (cells, line) => {
    const s = bySite.get(siteKey(cells[siteAt]!, numeric));
    if (s === undefined) throw new Error(`gmf_data.csv line ${line}: site ${cells[siteAt]} is not in sites.csv`);
    const e = finite(cells[eventAt]!, `gmf_data.csv line ${line}: event id`);
    if (!Number.isInteger(e) || e < 0) throw new Error(`gmf_data.csv line ${line}: event id ${cells[eventAt]} is not a whole number from 0`);
    for (let k = 0; k < imtCols.length; k++) {
      const { h, i } = imtCols[k]!;
      const v = finite(cells[i]!, `gmf_data.csv line ${line}: ${h}`);
      if (v < 0) throw new Error(`gmf_data.csv line ${line}: ${h} ${v} is negative`);
      values[k]!.push(v);
    }
    siteIndex.push(s);
    eventIds.push(e);
    lines.push(line);
  });
  const ids = eventIds.done();
  const events = [...new Set(ids)].sort((a, b) => a - b);
  const eventOf = new Map(events.map((e, i) => [e, i]));
  const n = ids.length;
  const sitesOf = siteIndex.done();
  const eventIndex = new Int32Array(n);
  // A site and event twice: a bit per pair when they fit in 64 MB of bits, else a set.
  const pairs = sites.length * events.length;
  const bits = pairs <= 512_000_000 ? new Uint8Array(Math.ceil(pairs / 8)) : null;
  const seen = bits ? null : new Set<number>();
  for (let r = 0; r < n; r++) {
    const e = eventOf.get(ids[r]!)!;
    eventIndex[r] = e;
    const pair = sitesOf[r]! * events.length + e;
    const twice = bits ? (bits[pair >> 3]! & (1 << (pair & 7))) !== 0 : seen!.has(pair);
    if (twice) throw new Error(`gmf_data.csv line ${lines.data[r]}: site ${sites[sitesOf[r]!]!.id} and event ${ids[r]} appear twice`);
    if (bits) bits[pair >> 3]! |= 1 << (pair & 7); else seen!.add(pair);
  }
  return { sites, events, imts: imtCols.map(({ h }) => h.replace(/^gmv_/, '')), site_index: sitesOf, event_index: eventIndex, values: values.map((v) => v.done()) };
}

/** What an upload's summary says of ground-motion fields: sites, events, measures and their ranges. */
export function oqGmfsSummary(g: OqGmfs): Record<string, unknown> {
  const ranges = Object.fromEntries(g.imts.map((imt, i) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of g.values[i]!) { if (v < lo) lo = v; if (v > hi) hi = v; }
    return [imt, g.values[i]!.length ? { min: lo, max: hi } : null];
  }));
  return { sites: g.sites.length, events: g.events.length, rows: g.site_index.length, imts: g.imts, ranges, first_event: g.events[0] ?? null, last_event: g.events.at(-1) ?? null };
}
