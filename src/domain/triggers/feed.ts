// What a trigger knows of a pinned feed: the facts of its manifest, what the feed catalog says it is
// (its class), its period of record and the box it covers.

import { coverageArea } from '../hazard/coverage-area.js';
import type { Box } from '../geo.js';
import type { Region } from './terms.js';
import { FEED_KIND_WORDS, type ReportType, type SeriesType } from './vocabulary.js';

// ---------------------------------------------------------------------------------------------
// Feed facts (a MANIFEST.json object, or the Manifest type of src/feeds/manifest.ts, fits)

export interface FeedFacts {
  readonly kind?: string;
  readonly perils?: readonly string[];
  readonly period_of_record?: { readonly from: string | null; readonly to: string | null };
  readonly years_missing?: readonly number[];
  readonly years_without_events?: readonly number[];
  readonly units?: Readonly<Record<string, string>>;
  readonly coverage?: object;
  readonly raw?: Readonly<Record<string, unknown>>;
  readonly served_columns?: readonly string[];
}

export interface FeedContext {
  readonly feed_id: string;
  readonly version: string;
  readonly manifest: FeedFacts;
  /** What the feed catalog says the feed is (src/feeds/catalog.ts feedClass). */
  readonly class?: FeedClass;
}

/** The snapshot a replay reads: the pinned feed and the digest of the exact bytes read. */
export interface FeedRead extends FeedContext {
  /** SHA-256 of the exact bytes read (the snapshot digest). */
  readonly sha256: string;
}

// ---------------------------------------------------------------------------------------------
// Feed classification: what the feed catalog (src/feeds/catalog.ts) says a feed is. Domain code
// never reads meaning from a feed id; callers pass the class, else only the manifest's kind is known.

export type FeedClass =
  | { readonly kind: 'event_catalog' }
  | { readonly kind: 'fire_extract' }
  | { readonly kind: 'storm_report_set'; readonly report: ReportType | null }
  /** elements: set for publishers whose files hold several elements (GHCN-Daily), with the one read by default. */
  | { readonly kind: 'daily_series'; readonly series: SeriesType | null; readonly elements?: { readonly default_element: string | null } }
  | { readonly kind: 'outage_series'; readonly series: 'outage' }
  /** State-level outage events: DOE's OE-417 rows (read by the state design) or the Purdue table built from them. */
  | { readonly kind: 'outage_event_set'; readonly reading: 'oe417' | 'purdue' }
  | { readonly kind: 'track_archive' }
  | { readonly kind: 'other'; readonly manifest_kind: string | null };

/** The class a manifest's kind alone gives (no report type, no series quantity). */
export function classifyFeed(manifestKind: string | undefined): FeedClass {
  const kind = manifestKind ?? '';
  if (kind === 'outage_series') return { kind: 'outage_series', series: 'outage' };
  if (kind === 'event_catalog') return { kind: 'event_catalog' };
  if (kind === 'fire_extract') return { kind: 'fire_extract' };
  if (kind === 'storm_report_set') return { kind: 'storm_report_set', report: null };
  if (kind === 'daily_series') return { kind: 'daily_series', series: null };
  if (kind === 'track_archive') return { kind: 'track_archive' };
  return { kind: 'other', manifest_kind: manifestKind ?? null };
}

/** The class of a feed in a validation or replay: the catalog's, passed in, else the manifest's kind. */
export function classOf(feed: { readonly class?: FeedClass; readonly manifest: FeedFacts }): FeedClass {
  return feed.class ?? classifyFeed(feed.manifest.kind);
}

/** The feed's kind in words, as refusals name it. */
export function kindWords(cls: FeedClass): string {
  return FEED_KIND_WORDS[cls.kind] ?? `a ${cls.kind === 'other' ? cls.manifest_kind ?? 'feed of unknown kind' : cls.kind}`;
}

// ---------------------------------------------------------------------------------------------
// Coverage and period of record

export function coverageBoxOf(manifest: FeedFacts): Box | null {
  return coverageArea(manifest.coverage).box;
}

export function regionBox(region: Region): Box {
  if (region.type === 'box') return region;
  const ring = (Array.isArray(region.coordinates[0]?.[0]) ? region.coordinates[0] : region.coordinates) as ReadonlyArray<readonly [number, number]>;
  const lats = ring.map((p) => p[1]);
  const lons = ring.map((p) => p[0]);
  return { min_latitude: Math.min(...lats), max_latitude: Math.max(...lats), min_longitude: Math.min(...lons), max_longitude: Math.max(...lons) };
}

export function boxesIntersect(a: Box, b: Box): boolean {
  if (a.max_latitude < b.min_latitude || a.min_latitude > b.max_latitude) return false;
  if (a.min_longitude > a.max_longitude || b.min_longitude > b.max_longitude) return true; // antimeridian: not screened
  return !(a.max_longitude < b.min_longitude || a.min_longitude > b.max_longitude);
}

const yearOf = (date: string | null | undefined): number | null => (typeof date === 'string' && /^\d{4}-/.test(date) ? Number(date.slice(0, 4)) : null);

/** First and last calendar year of the feed's period of record, or null. */
export function recordYears(manifest: FeedFacts): { from: number; to: number } | null {
  const from = yearOf(manifest.period_of_record?.from);
  const to = yearOf(manifest.period_of_record?.to);
  return from === null || to === null ? null : { from, to };
}
