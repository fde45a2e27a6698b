// Which parser reads which pinned snapshot, and the parsed views every consumer shares (events,
// hazard, backtests). Each view is parsed once per snapshot identity by the store's cache.
import type { FeedStore, Snapshot } from './store.js';
import { type CatalogPeril, type DailySeries, type EventCatalog, type QuakeEvent, type ReportEvent, type TrackArchive } from '../domain/hazard/records.js';
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
import { gmpeTableFacts, parseGmpeTable } from './parsers/gmpe-tables.js';
import type { VerificationTable } from '../domain/hazard/gmpe/verification.js';
import { parseNrmlVulnerability } from './parsers/nrml-vulnerability.js';
import { parseGmpeLogicTree } from './parsers/nrml-gmpe-logic-tree.js';
import type { GmpeLogicTree } from '../domain/lab/lanes/earthquake/eshm20-backbone.js';
import type { VulnerabilityFunction } from '../domain/lab/lanes/earthquake/vulnerability.js';
import { feedEntry } from './catalog.js';
import { parseOe417 } from './parsers/oe417.js';
import { parsePurdueOutages } from './parsers/purdue-outages.js';
import type { OutageEventSet } from '../domain/outages/records.js';

/** The peril whose event catalog a snapshot is, or undefined when it is not one. */
export function catalogPeril(snapshot: Snapshot): CatalogPeril | undefined {
  return feedEntry(snapshot.manifest)?.catalog_peril ?? undefined;
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
    const entry = feedEntry(m);
    const peril = entry?.catalog_peril;
    if (entry?.parser === 'comcat') {
      const parsed = parseComcat(text, comcatOptions(m));
      const floor = (m.raw.magnitude_floor as { value?: number } | undefined)?.value ?? null;
      return { kind: 'quake', peril: 'earthquake', events: [...parsed.records], quirks: [...parsed.quirks], magnitudeFloor: floor };
    }
    const parsed = entry?.parser === 'spc' ? parseSpcReports(text, spcOptions(m, entry.report))
      : entry?.parser === 'ncei' ? parseNceiStormEvents(text, nceiOptions(m))
        : entry?.parser === 'mtbs' ? parseMtbs(text, mtbsOptions(m)) : undefined;
    if (!parsed || !peril || peril === 'earthquake' || !entry?.native_unit) throw new Error(`${s.feed_id} is not an event catalog`);
    const unit = parsed.records[0]?.unit ?? entry.native_unit;
    return { kind: 'report', peril, events: [...parsed.records], quirks: [...parsed.quirks], unit };
  });
}

/** Daily series feeds: rainfall, wind and discharge stations, county outages (not the state outage event records). */
export function isDailySeries(snapshot: Snapshot): boolean {
  const dataset = feedEntry(snapshot.manifest)?.dataset;
  return dataset === 'daily_series' || dataset === 'outage_series';
}

/** A state outage event record: DOE's OE-417 workbooks, or the Purdue table. */
export function outageEvents(store: FeedStore, snapshot: Snapshot): Promise<OutageEventSet> {
  return store.parsed(snapshot, 'state-outage-records', (s, files) => {
    const parser = feedEntry(s.manifest)?.parser;
    if (parser === 'oe417') return parseOe417(files);
    if (parser === 'purdue') return parsePurdueOutages(files.get([...files.keys()].find((n) => n.endsWith('.xlsx'))!)!);
    throw new Error(`${s.feed_id} is not a state outage event record`);
  });
}


export function dailySeries(store: FeedStore, snapshot: Snapshot, element?: string): Promise<DailySeries> {
  const entry = feedEntry(snapshot.manifest);
  const chosen = element ?? entry?.default_element ?? undefined;
  return store.parsed(snapshot, `daily-series:${chosen ?? ''}`, (s, files) => {
    const m = s.manifest;
    const facts = { period_of_record: m.period_of_record, years_missing: m.years_missing, units: m.units } as never;
    switch (entry?.parser) {
      case 'ghcnd': {
        const name = [...files.keys()][0]!;
        const text = onlyFile(s, files);
        // The wind manifests state the union of all elements as their period: let the data speak.
        const ghcnFacts = entry.series === 'wind' ? { units: m.units } as never : facts;
        return name.endsWith('.dly') ? parseGhcnDly(text, chosen!, ghcnFacts) : parseGhcnCsv(text, chosen!, ghcnFacts);
      }
      case 'nwis': return parseNwisDaily(onlyFile(s, files, (n) => !n.startsWith('gage_metadata')), facts);
      case 'knmi': return parseKnmiNeerslag(onlyFile(s, files), facts);
      case 'bom': return parseBomCdo(onlyFile(s, files), facts);
      case 'gema': return parseGemaOutages(onlyFile(s, files), facts);
      default: throw new Error(`${s.feed_id} is not a daily series`);
    }
  });
}

export function trackArchive(store: FeedStore, snapshot: Snapshot): Promise<TrackArchive> {
  return store.parsed(snapshot, 'track-archive', (s, files) => {
    const parser = feedEntry(s.manifest)?.parser;
    if (parser === 'hurdat2') return parseHurdat2(onlyFile(s, files));
    if (parser === 'jtwc') {
      return parseJtwc([...files].map(([name, bytes]) => ({ name, text: bytes.toString('latin1') })));
    }
    throw new Error(`${s.feed_id} is not a track archive`);
  });
}

/** A GMPE verification snapshot's tables by file name, each with its model, arguments and tolerance from the manifest. */
export function gmpeVerificationTables(store: FeedStore, snapshot: Snapshot): Promise<ReadonlyMap<string, VerificationTable>> {
  return store.parsed(snapshot, 'verification-tables', (s, files) => {
    if (feedEntry(s.manifest)?.parser !== 'gmpe-tables') throw new Error(`${s.feed_id} is not a GMPE verification snapshot`);
    const tables = new Map<string, VerificationTable>();
    for (const f of s.manifest.files) {
      const facts = gmpeTableFacts(f.name, f.raw);
      if (facts) tables.set(f.name, parseGmpeTable(files.get(f.name)!.toString('utf8'), facts));
    }
    return tables;
  });
}

/** A vulnerability snapshot's structural functions by id (the file whose model's lossCategory is structural). */
export function structuralVulnerability(store: FeedStore, snapshot: Snapshot): Promise<ReadonlyMap<string, VulnerabilityFunction>> {
  return store.parsed(snapshot, 'structural-vulnerability', (s, files) => {
    if (feedEntry(s.manifest)?.parser !== 'nrml-vulnerability') throw new Error(`${s.feed_id} is not a vulnerability snapshot`);
    const structural = [...files].filter(([, bytes]) => /<vulnerabilityModel[^>]*lossCategory="structural"/.test(bytes.subarray(0, 4096).toString('utf8')));
    if (structural.length !== 1) throw new Error(`${s.feed_id}/${s.version}: expected one structural vulnerability model, found ${structural.length}`);
    return parseNrmlVulnerability(structural[0]![1].toString('utf8'));
  });
}

/** One GMPE logic tree (NRML) of a snapshot, by file name: read alone, not with the snapshot's other files. */
export async function gmpeLogicTree(store: FeedStore, snapshot: Snapshot, file: string): Promise<GmpeLogicTree> {
  return parseGmpeLogicTree((await store.readFile(snapshot, file)).toString('utf8'));
}
