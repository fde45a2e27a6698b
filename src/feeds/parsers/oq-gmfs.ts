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

interface Lines { header: string[]; rows: { line: number; cells: string[] }[] }

function lines(text: string, what: string): Lines {
  let header: string[] | null = null;
  const rows: Lines['rows'] = [];
  const all = text.split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const raw = all[i]!;
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const cells = raw.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (!header) { header = cells; continue; }
    if (cells.length !== header.length) throw new Error(`${what} line ${i + 1}: ${cells.length} fields where the header has ${header.length}`);
    rows.push({ line: i + 1, cells });
  }
  if (!header) throw new Error(`${what} is empty`);
  return { header, rows };
}

function column(header: readonly string[], names: readonly string[], what: string): number {
  const i = header.findIndex((h) => names.includes(h));
  if (i < 0) throw new Error(`${what} has no ${names.join(' or ')} column (its header is ${header.join(',')})`);
  return i;
}

function finite(text: string, what: string): number {
  const v = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(v)) throw new Error(`${what}: ${JSON.stringify(text)} is not a number`);
  return v;
}

export function parseOqSites(text: string): OqSite[] {
  const { header, rows } = lines(text, 'sites.csv');
  const lon = column(header, ['lon'], 'sites.csv');
  const lat = column(header, ['lat'], 'sites.csv');
  const idAt = header.findIndex((h) => SITE_COLUMNS.includes(h));
  const seen = new Set<string>();
  return rows.map(({ line, cells }, ordinal) => {
    const id = idAt < 0 ? String(ordinal) : cells[idAt]!;
    if (seen.has(id)) throw new Error(`sites.csv line ${line}: site ${id} appears twice`);
    seen.add(id);
    const site = { id, lon: finite(cells[lon]!, `sites.csv line ${line}: lon`), lat: finite(cells[lat]!, `sites.csv line ${line}: lat`) };
    if (Math.abs(site.lat) > 90 || Math.abs(site.lon) > 180) throw new Error(`sites.csv line ${line}: ${site.lon} ${site.lat} is not a longitude and latitude`);
    return site;
  });
}

/** Site ids as the engine writes them: an integer id read as a number, so 01 and 1 are one site. */
function siteKey(id: string, numeric: boolean): string {
  return numeric ? String(Number(id)) : id;
}

export function parseOqGmfs(gmfCsv: string, sitesCsv: string): OqGmfs {
  const sites = parseOqSites(sitesCsv);
  const { header, rows } = lines(gmfCsv, 'gmf_data.csv');
  const siteAt = column(header, SITE_COLUMNS, 'gmf_data.csv');
  const eventAt = column(header, EVENT_COLUMNS, 'gmf_data.csv');
  const numeric = header[siteAt] !== 'custom_site_id';
  const imtCols = header.map((h, i) => ({ h, i })).filter(({ h, i }) => i !== siteAt && i !== eventAt && !OTHER_COLUMNS.has(h) && !SITE_COLUMNS.includes(h));
  if (imtCols.length === 0) throw new Error('gmf_data.csv has no intensity measure column (gmv_PGA, gmv_SA(0.3), ...)');
  const bySite = new Map(sites.map((s, i) => [siteKey(s.id, numeric), i]));
  const n = rows.length;
  const siteIndex = new Int32Array(n);
  const eventIds = new Float64Array(n);
  const values = imtCols.map(() => new Float64Array(n));
  rows.forEach(({ line, cells }, r) => {
    const s = bySite.get(siteKey(cells[siteAt]!, numeric));
    if (s === undefined) throw new Error(`gmf_data.csv line ${line}: site ${cells[siteAt]} is not in sites.csv`);
    siteIndex[r] = s;
    const e = finite(cells[eventAt]!, `gmf_data.csv line ${line}: event id`);
    if (!Number.isInteger(e) || e < 0) throw new Error(`gmf_data.csv line ${line}: event id ${cells[eventAt]} is not a whole number from 0`);
    eventIds[r] = e;
    imtCols.forEach(({ h, i }, k) => {
      const v = finite(cells[i]!, `gmf_data.csv line ${line}: ${h}`);
      if (v < 0) throw new Error(`gmf_data.csv line ${line}: ${h} ${v} is negative`);
      values[k]![r] = v;
    });
  });
  const events = [...new Set(eventIds)].sort((a, b) => a - b);
  const eventOf = new Map(events.map((e, i) => [e, i]));
  const eventIndex = new Int32Array(n);
  const pairs = new Set<number>();
  for (let r = 0; r < n; r++) {
    const e = eventOf.get(eventIds[r]!)!;
    eventIndex[r] = e;
    const pair = siteIndex[r]! * events.length + e;
    if (pairs.has(pair)) throw new Error(`gmf_data.csv line ${rows[r]!.line}: site ${rows[r]!.cells[siteAt]} and event ${eventIds[r]} appear twice`);
    pairs.add(pair);
  }
  return { sites, events, imts: imtCols.map(({ h }) => h.replace(/^gmv_/, '')), site_index: siteIndex, event_index: eventIndex, values };
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
