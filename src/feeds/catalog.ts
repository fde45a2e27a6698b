// The feed catalog: what each pinned feed is (parser, dataset kind, units, coverage shape). It is
// the one place that knows the feed families; everything else asks it. A feed resolves to a family
// when its MANIFEST.json says the family's kind and names its publisher; the feed id is read only
// here, as the catalog's key, for what a manifest does not state as a field (which report type a
// storm-report extract holds, which quantity a station series measures).
import type { Manifest } from './manifest.js';
import type { CatalogPeril } from '../domain/hazard/records.js';
import { REPORT_UNITS } from '../domain/hazard/records.js';
import { BASE_UNITS } from '../kernel/units.js';
import { classifyFeed, type FeedClass } from '../domain/triggers/feed.js';
import { DEFAULT_WIND_ELEMENT, type ReportType, type SeriesType } from '../domain/triggers/vocabulary.js';

/** What a pinned feed holds, in the service's words. */
export type DatasetKind =
  | 'quake_catalog' | 'report_set' | 'fire_perimeters' | 'daily_series' | 'outage_series' | 'outage_events'
  | 'track_archive' | 'model_data' | 'reference_table';

/** The parser (src/feeds/parsers/) that reads a family's files; null where the API reads none. */
export type ParserName =
  | 'comcat' | 'spc' | 'ncei' | 'mtbs' | 'ghcnd' | 'nwis' | 'knmi' | 'bom'
  | 'gema' | 'hurdat2' | 'jtwc' | 'hazard-hdf5' | 'geotiff-raster' | 'depth-damage-tables' | 'gmpe-tables' | 'nrml-vulnerability'
  | 'climada' | 'tc-impact-functions' | 'shakemap' | 'oe417' | 'purdue';

export type CoverageShape = 'box' | 'point' | 'basin';

interface Family {
  readonly family: string;
  /** The catalog's key over feed ids; named groups carry the variant (report type, quantity). */
  readonly key: RegExp;
  /** MANIFEST.json `kind` and a phrase its `publisher` names: the manifest must agree with the key. */
  readonly manifest_kind: string;
  readonly publisher: RegExp;
  readonly dataset: DatasetKind;
  readonly parser: ParserName | null;
  readonly coverage: CoverageShape;
  /** The peril whose event catalog (GET /events) the family is, if any. */
  readonly catalog_peril?: CatalogPeril;
  /** Flood depth maps (one depth per cell and return period): river or coastal, read by the lab's flood lanes. */
  readonly flood_map?: FloodMapKind;
}

export type FloodMapKind = 'river' | 'coastal';

const FAMILIES: readonly Family[] = [
  { family: 'usgs-comcat', key: /^usgs-comcat-/, manifest_kind: 'event_catalog', publisher: /ComCat/, dataset: 'quake_catalog', parser: 'comcat', coverage: 'box', catalog_peril: 'earthquake' },
  { family: 'noaa-spc', key: /^noaa-spc-(?<report>hail|tornado|wind)-/, manifest_kind: 'storm_report_set', publisher: /Storm Prediction Center/, dataset: 'report_set', parser: 'spc', coverage: 'box', catalog_peril: 'severe_convective_storm' },
  { family: 'noaa-ncei-storm-events', key: /^noaa-ncei-storm-events-(?<report>hail|tornado|wind)-/, manifest_kind: 'storm_report_set', publisher: /Storm Events Database/, dataset: 'report_set', parser: 'ncei', coverage: 'box', catalog_peril: 'severe_convective_storm' },
  { family: 'usgs-mtbs', key: /^usgs-mtbs-/, manifest_kind: 'fire_extract', publisher: /Monitoring Trends in Burn Severity/, dataset: 'fire_perimeters', parser: 'mtbs', coverage: 'box', catalog_peril: 'wildfire' },
  { family: 'ghcnd', key: /^ghcnd-[a-z0-9]+-(?<series>prcp|wind)$/, manifest_kind: 'daily_series', publisher: /GHCN-Daily/, dataset: 'daily_series', parser: 'ghcnd', coverage: 'point' },
  { family: 'usgs-nwis', key: /^usgs-nwis-\d+-(?<series>discharge)$/, manifest_kind: 'daily_series', publisher: /National Water Information System/, dataset: 'daily_series', parser: 'nwis', coverage: 'point' },
  { family: 'knmi-neerslag', key: /^knmi-neerslaggeg-\d+-(?<series>prcp)$/, manifest_kind: 'daily_series', publisher: /KNMI/, dataset: 'daily_series', parser: 'knmi', coverage: 'point' },
  { family: 'bom-cdo', key: /^bom-cdo-\d+-(?<series>prcp)$/, manifest_kind: 'daily_series', publisher: /Bureau of Meteorology/, dataset: 'daily_series', parser: 'bom', coverage: 'point' },
  { family: 'gema-county-outages', key: /^gema-county-outages-\d+$/, manifest_kind: 'outage_series', publisher: /GEMA/, dataset: 'outage_series', parser: 'gema', coverage: 'point' },
  // State-level outage events: DOE's OE-417 annual summaries (read by the grid_outage state design)
  // and the Purdue table built from them (a second reading, for the cross-check). Both manifests say
  // kind outage_series; the catalog reads them as event records, not as daily series.
  { family: 'doe-oe417', key: /^doe-oe417-disturbance-events$/, manifest_kind: 'outage_series', publisher: /OE-417/, dataset: 'outage_events', parser: 'oe417', coverage: 'box' },
  { family: 'purdue-major-outages', key: /^purdue-major-power-outages-us$/, manifest_kind: 'outage_series', publisher: /Purdue/, dataset: 'outage_events', parser: 'purdue', coverage: 'box' },
  { family: 'noaa-nhc-hurdat2', key: /^noaa-nhc-hurdat2-/, manifest_kind: 'track_archive', publisher: /National Hurricane Center/, dataset: 'track_archive', parser: 'hurdat2', coverage: 'basin' },
  { family: 'jtwc-best-track', key: /^jtwc-best-track-/, manifest_kind: 'track_archive', publisher: /Joint Typhoon Warning Center/, dataset: 'track_archive', parser: 'jtwc', coverage: 'basin' },
  // Flood depth maps the lab's flood lanes read: a CLIMADA hazard file, or one GeoTIFF per return
  // period. A coastal map pinned later (catrisk feeds add) with an Aqueduct coastal manifest is read
  // by the coastal-flood lane without code changes.
  { family: 'climada-flood', key: /^climada-flood-/, manifest_kind: 'model_data', publisher: /CLIMADA/, dataset: 'model_data', parser: 'hazard-hdf5', coverage: 'box', flood_map: 'river' },
  { family: 'wri-aqueduct-inunriver', key: /^wri-aqueduct-inunriver-/, manifest_kind: 'model_data', publisher: /Aqueduct/, dataset: 'model_data', parser: 'geotiff-raster', coverage: 'box', flood_map: 'river' },
  { family: 'wri-aqueduct-inuncoast', key: /^wri-aqueduct-inuncoast-/, manifest_kind: 'model_data', publisher: /Aqueduct/, dataset: 'model_data', parser: 'geotiff-raster', coverage: 'box', flood_map: 'coastal' },
  { family: 'jrc-depth-damage', key: /^jrc-depth-damage$/, manifest_kind: 'reference_table', publisher: /Joint Research Centre/, dataset: 'reference_table', parser: 'depth-damage-tables', coverage: 'box' },
  // Pinned for the lab: CLIMADA's tropical-cyclone demo and test data (MAT v7.3 hazard and centroids,
  // entity workbook, processed track CSV) and the calibrated impact-function tables.
  { family: 'climada-demo-tc', key: /^climada-demo-tc$/, manifest_kind: 'model_data', publisher: /CLIMADA project/, dataset: 'model_data', parser: 'climada', coverage: 'box' },
  { family: 'tc-impact-functions', key: /^tc-impact-functions$/, manifest_kind: 'reference_table', publisher: /CLIMADA project/, dataset: 'reference_table', parser: 'tc-impact-functions', coverage: 'box' },
  // Pinned for the lab and ingest, not read by a hazard route: no parser here.
  { family: 'oed-spec', key: /^oed-spec$/, manifest_kind: 'reference_table', publisher: /Open Data Standards/, dataset: 'reference_table', parser: null, coverage: 'box' },
  // OpenQuake's GMPE verification tables: what the lab's ground-motion models are checked against.
  { family: 'oq-gmpe-verification', key: /^oq-gmpe-verification$/, manifest_kind: 'reference_table', publisher: /GEM Foundation/, dataset: 'reference_table', parser: 'gmpe-tables', coverage: 'box' },
  // GEM's vulnerability functions (NRML): the earthquake lanes' loss by curve. CC BY-NC-SA, not served.
  // USGS ShakeMaps of historical earthquakes (the historical earthquake lane): a ShakeMap 4 raster
  // product, a ShakeMap 3.5 grid.xml, or contour lines only (feeds/lab-inputs.ts tells them apart).
  { family: 'usgs-shakemap', key: /^usgs-shakemap-/, manifest_kind: 'model_data', publisher: /ShakeMap/, dataset: 'model_data', parser: 'shakemap', coverage: 'box' },
  { family: 'gem-vulnerability', key: /^gem-vulnerability-europe$/, manifest_kind: 'reference_table', publisher: /Global Vulnerability Model/, dataset: 'reference_table', parser: 'nrml-vulnerability', coverage: 'box' },
];

/** The pinned OED reference tables (Open Data Standards) ingest maps schedules against. */
export const OED_REFERENCE_FEED = 'oed-spec';

/** The quantity a series family's id names, as the structure vocabulary calls it. */
const SERIES_OF_KEY: Readonly<Record<string, SeriesType>> = { prcp: 'rainfall', wind: 'wind', discharge: 'discharge' };
const SI_OF_SERIES: Readonly<Record<SeriesType, string>> = {
  rainfall: BASE_UNITS.length, wind: BASE_UNITS.speed, discharge: BASE_UNITS.discharge, outage: BASE_UNITS.count,
};
/** Report units and their SI unit; categories (EF) and areas (acres) are read as published. */
const SI_OF_REPORT_UNIT: Readonly<Record<string, string | null>> = { in: BASE_UNITS.length, kt: BASE_UNITS.speed, EF: null, acres: null };

/** What the catalog says of one pinned feed. */
export interface FeedEntry {
  readonly family: string;
  readonly dataset: DatasetKind;
  readonly parser: ParserName | null;
  readonly coverage: CoverageShape;
  readonly catalog_peril: CatalogPeril | null;
  /** Storm report extracts: which report type they hold. */
  readonly report: ReportType | null;
  /** Daily and outage series: the quantity measured. */
  readonly series: SeriesType | null;
  /** GHCN-Daily series: the element read when a trigger names none. */
  readonly default_element: string | null;
  /** The unit values are published in (reports; series units come from the parsed file), and its SI unit. */
  readonly native_unit: string | null;
  readonly si_unit: string | null;
  /** The structure vocabulary's view of the feed, passed to domain code that needs the kind. */
  readonly class: FeedClass;
  /** Flood depth maps: river or coastal; null for any other feed. */
  readonly flood_map: FloodMapKind | null;
}

type ManifestFacts = Pick<Manifest, 'feed_id' | 'kind' | 'publisher'>;

/** The catalog entry of a pinned feed, or undefined when no family claims it (the API does not read it). */
export function feedEntry(manifest: ManifestFacts): FeedEntry | undefined {
  const found = FAMILIES.flatMap((f) => {
    const m = f.key.exec(manifest.feed_id);
    return m && manifest.kind === f.manifest_kind && f.publisher.test(manifest.publisher ?? '') ? [{ f, groups: m.groups ?? {} }] : [];
  });
  if (found.length !== 1) return undefined;
  const { f, groups } = found[0]!;
  const report = (groups.report as ReportType | undefined) ?? null;
  const series: SeriesType | null = f.dataset === 'outage_series' ? 'outage' : groups.series ? SERIES_OF_KEY[groups.series]! : null;
  const defaultElement = f.parser === 'ghcnd' ? (series === 'rainfall' ? 'PRCP' : series === 'wind' ? DEFAULT_WIND_ELEMENT : null) : null;
  const native = report ? REPORT_UNITS[report] : f.dataset === 'fire_perimeters' ? REPORT_UNITS.fire : null;
  return {
    family: f.family, dataset: f.dataset, parser: f.parser, coverage: f.coverage, catalog_peril: f.catalog_peril ?? null,
    report, series,
    default_element: defaultElement,
    native_unit: native,
    si_unit: native ? SI_OF_REPORT_UNIT[native] ?? null : series ? SI_OF_SERIES[series] : null,
    class: classOf(f, report, series, defaultElement),
    flood_map: f.flood_map ?? null,
  };
}

function classOf(f: Family, report: ReportType | null, series: SeriesType | null, defaultElement: string | null): FeedClass {
  switch (f.dataset) {
    case 'quake_catalog': return { kind: 'event_catalog' };
    case 'fire_perimeters': return { kind: 'fire_extract' };
    case 'report_set': return { kind: 'storm_report_set', report };
    case 'daily_series': return { kind: 'daily_series', series, ...(f.parser === 'ghcnd' && { elements: { default_element: defaultElement } }) };
    case 'outage_series': return { kind: 'outage_series', series: 'outage' };
    case 'outage_events': return { kind: 'outage_event_set', reading: f.parser === 'purdue' ? 'purdue' : 'oe417' };
    case 'track_archive': return { kind: 'track_archive' };
    default: return { kind: 'other', manifest_kind: f.manifest_kind };
  }
}

/** The structure vocabulary's view of any manifest: the catalog's entry, else its stated kind alone. */
export function feedClass(manifest: ManifestFacts): FeedClass {
  return feedEntry(manifest)?.class ?? classifyFeed(manifest.kind);
}

/** Where a flood depth map lies and what conditions it stands for: the country, JRC continent and scenario. */
export interface FloodMapFacts {
  readonly iso_a3: string | null;
  readonly continent: string | null;
  readonly scenario: string;
  readonly basis: string;
  /** The manifest's own statement of the map's limitations, when it makes one. */
  readonly limitations: string | null;
}

/**
 * The pinned maps' country and JRC continent, decided from their manifests (title, coverage and
 * description name the place): every cell of each map lies in one country (the Aqueduct Djibouti
 * window masks cells outside the country boundary as no data).
 */
const FLOOD_MAP_PLACES: Readonly<Record<string, { iso_a3: string; continent: string; scenario?: string; basis: string }>> = {
  'climada-flood-san-salvador': {
    iso_a3: 'SLV', continent: 'central america', scenario: '2015 conditions (modelled depths, not observations)',
    basis: 'the manifest names San Salvador, El Salvador (Acelhuate river); El Salvador lies in the JRC Central America region',
  },
  'wri-aqueduct-inunriver-djibouti': {
    iso_a3: 'DJI', continent: 'africa',
    basis: 'the manifest names the Djibouti country window; cells outside the country boundary are no data, so every depth lies in Djibouti (Africa)',
  },
};

/**
 * A flood map's facts: for the pinned maps from the table above; for a map pinned later from its
 * manifest members country_iso_a3 and jrc_continent when it states them, else unknown (the global
 * curve, with a warning). The scenario is the manifest's `scenario` member when it has one.
 */
export function floodMapFacts(manifest: { readonly feed_id: string; readonly raw?: Readonly<Record<string, unknown>> }): FloodMapFacts {
  // A parsed manifest keeps every member in raw; the JSON object itself is read as it is.
  const raw = (manifest.raw ?? manifest) as Record<string, unknown>;
  const known = FLOOD_MAP_PLACES[manifest.feed_id];
  const sc = raw.scenario as Record<string, unknown> | undefined;
  const stated = sc && typeof sc === 'object'
    ? `${sc.year ?? ''} ${typeof sc.year === 'number' && sc.year > 2020 ? 'projection' : 'conditions'} (${[sc.hazard, sc.climate, sc.gcm ? `GCM ${String(sc.gcm)}` : null, sc.sea_level ? `sea level ${String(sc.sea_level)}` : null].filter(Boolean).join(', ')})`.trim()
    : null;
  const scenario = stated ?? known?.scenario ?? 'as published (the manifest states no scenario)';
  const limitations = typeof raw.limitations === 'string' ? raw.limitations : null;
  if (known) return { iso_a3: known.iso_a3, continent: known.continent, scenario, basis: known.basis, limitations };
  const iso = typeof raw.country_iso_a3 === 'string' ? raw.country_iso_a3 : null;
  const continent = typeof raw.jrc_continent === 'string' ? raw.jrc_continent : null;
  return { iso_a3: iso, continent, scenario, limitations, basis: continent ? 'the manifest\'s country_iso_a3 and jrc_continent members' : 'the manifest states no country or JRC continent' };
}
