// Which parser reads which pinned snapshot, and the parsed views every consumer shares (events,
// hazard, backtests). Each view is parsed once per snapshot identity by the store's cache.
import type { FeedStore, Snapshot } from './store.js';
import { REPORT_UNITS, type CatalogPeril, type DailySeries, type EventCatalog, type QuakeEvent, type ReportEvent, type TrackArchive } from '../domain/hazard/records.js';
import { comcatOptions, parseComcat } from './parsers/comcat.js';
import { parseSpcReports, spcOptions } from './parsers/spc-reports.js';
import { nceiOptions, parseNceiStormEvents } from './parsers/ncei-storm-events.js';
import { mtbsOptions, parseMtbs } from './parsers/mtbs.js';
import { parseGhcnCsv, parseGhcnDly } from './parsers/ghcnd.js';
import { parseNwisDaily } from './parsers/nwis.js';
import { parseKnmiNeerslag } from './parsers/knmi.js';
import { parseBomCdo } from './parsers/bom.js';
import { parseGemaOutages } from './parsers/gema-outages.js';
import { parseHurdat2 } from './parsers/hurdat2.js';
import { parseJtwc } from './parsers/jtwc.js';
import { DEFAULT_WIND_ELEMENT } from '../domain/backtest/structure.js';

/** The peril whose event catalog a snapshot is, or undefined when it is not one. */
export function catalogPeril(snapshot: Snapshot): CatalogPeril | undefined {
  const id = snapshot.feed_id;
  if (id.startsWith('usgs-comcat-')) return 'earthquake';
  if (id.startsWith('noaa-spc-') || id.startsWith('noaa-ncei-storm-events-')) return 'severe_convective_storm';
  if (id.startsWith('usgs-mtbs-')) return 'wildfire';
  return undefined;
}

function onlyFile(snapshot: Snapshot, files: ReadonlyMap<string, Buffer>, accept: (name: string) => boolean = () => true): string {
  const names = [...files.keys()].filter(accept);
  if (names.length !== 1) throw new Error(`${snapshot.feed_id}/${snapshot.version}: expected one data file, found ${names.join(', ')}`);
  return files.get(names[0]!)!.toString('utf8');
}


export function eventCatalog(store: FeedStore, snapshot: Snapshot): Promise<EventCatalog> {
  return store.parsed(snapshot, 'event-catalog', (s, files): EventCatalog => {
    const m = s.manifest;
    const text = onlyFile(s, files);
    const peril = catalogPeril(s);
    if (peril === 'earthquake') {
      const parsed = parseComcat(text, comcatOptions(m));
      const floor = (m.raw.magnitude_floor as { value?: number } | undefined)?.value ?? null;
      return { kind: 'quake', peril, events: [...parsed.records], quirks: [...parsed.quirks], magnitudeFloor: floor };
    }
    const parsed = s.feed_id.startsWith('noaa-spc-') ? parseSpcReports(text, spcOptions(m))
      : s.feed_id.startsWith('noaa-ncei-') ? parseNceiStormEvents(text, nceiOptions(m))
        : s.feed_id.startsWith('usgs-mtbs-') ? parseMtbs(text, mtbsOptions(m)) : undefined;
    if (!parsed || !peril) throw new Error(`${s.feed_id} is not an event catalog`);
    const unit = parsed.records[0]?.unit ?? REPORT_UNITS[s.feed_id.includes('hail') ? 'hail' : s.feed_id.includes('tornado') ? 'tornado' : s.feed_id.includes('mtbs') ? 'fire' : 'wind']!;
    return { kind: 'report', peril, events: [...parsed.records], quirks: [...parsed.quirks], unit };
  });
}

/** Daily series feeds: rainfall, wind and discharge stations, county outages. */
export function isDailySeries(snapshot: Snapshot): boolean {
  return snapshot.manifest.kind === 'daily_series' || snapshot.manifest.kind === 'outage_series';
}


export function dailySeries(store: FeedStore, snapshot: Snapshot, element?: string): Promise<DailySeries> {
  const id = snapshot.feed_id;
  const chosen = element ?? (id.endsWith('-prcp') ? 'PRCP' : id.endsWith('-wind') ? DEFAULT_WIND_ELEMENT : undefined);
  return store.parsed(snapshot, `daily-series:${chosen ?? ''}`, (s, files) => {
    const m = s.manifest;
    const facts = { period_of_record: m.period_of_record, years_missing: m.years_missing, units: m.units } as never;
    if (id.startsWith('ghcnd-')) {
      const name = [...files.keys()][0]!;
      const text = onlyFile(s, files);
      // The wind manifests state the union of all elements as their period: let the data speak.
      const ghcnFacts = id.endsWith('-wind') ? { units: m.units } as never : facts;
      return name.endsWith('.dly') ? parseGhcnDly(text, chosen!, ghcnFacts) : parseGhcnCsv(text, chosen!, ghcnFacts);
    }
    if (id.startsWith('usgs-nwis-')) return parseNwisDaily(onlyFile(s, files, (n) => !n.startsWith('gage_metadata')), facts);
    if (id.startsWith('knmi-')) return parseKnmiNeerslag(onlyFile(s, files), facts);
    if (id.startsWith('bom-')) return parseBomCdo(onlyFile(s, files), facts);
    if (id.startsWith('gema-county-outages-')) return parseGemaOutages(onlyFile(s, files), facts);
    throw new Error(`${id} is not a daily series`);
  });
}

export function trackArchive(store: FeedStore, snapshot: Snapshot): Promise<TrackArchive> {
  return store.parsed(snapshot, 'track-archive', (s, files) => {
    if (s.feed_id.startsWith('noaa-nhc-hurdat2-')) return parseHurdat2(onlyFile(s, files));
    if (s.feed_id.startsWith('jtwc-')) {
      return parseJtwc([...files].map(([name, bytes]) => ({ name, text: bytes.toString('latin1') })));
    }
    throw new Error(`${s.feed_id} is not a track archive`);
  });
}
