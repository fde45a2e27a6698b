// The pinned inputs a lab lane declares, as data: which snapshot (or which family of snapshots the
// feed catalog recognises) and which reader of feeds/ parses it, and what that reader hands the
// lane. app/lab-lanes.ts reads the declared inputs through feeds/lab-inputs.ts; a lane reads none.
import type { Box } from '../geo.js';
import type { EventCatalog, Storm } from '../hazard/records.js';
import type { PiwindModel, GridExtent } from './lanes/windstorm-piwind/piwind-model.js';
import type { VulnerabilityFunction } from './lanes/earthquake/vulnerability.js';
import type { GmpeLogicTree } from './lanes/earthquake/eshm20-backbone.js';
import type { SourceModel } from './lanes/earthquake/eshm20-sources.js';
import type { ShakeMap } from './lanes/earthquake/shakemap.js';
import type { ShakeMapStations } from './lanes/earthquake/station-data.js';
import type { Calibration } from './lanes/tropical-cyclone/impact-functions.js';
import type { DepthMap, MapIdentity } from './lanes/flood/depth-map.js';
import type { CountryMaxDamage, DepthDamageCurve } from './lanes/flood/depth-damage.js';
import type { BurnGrid, FireRegion } from './lanes/wildfire/wildfire-lane.js';

/** One pinned snapshot, and the one file read of it when a lane reads one file. */
export interface FeedPin {
  readonly feed_id: string;
  readonly version: string;
  readonly file?: string;
}

/** Snapshots the feed catalog recognises by their manifests, the newest version of each feed. */
export type InputFamily = 'river_flood_maps' | 'coastal_flood_maps' | 'depth_damage_tables' | 'fire_lists';

/** The JRC depth-damage tables as the flood lanes read them. */
export interface DepthDamageTables {
  readonly identity: MapIdentity;
  readonly curves: DepthDamageCurve[];
  readonly countries: CountryMaxDamage[];
}

/** A quake catalog with the facts of its manifest the probabilistic lane reads: its box and the end of its period of record. */
export interface QuakeCatalog {
  readonly catalog: EventCatalog;
  readonly box: Box | null;
  readonly period_end: unknown;
}

/**
 * Each reader of feeds/lab-inputs.ts by name: what it hands a run (value), and what it adds to the
 * snapshot's facts GET /models lists (facts).
 */
export interface LabInputReaders {
  'piwind-model': { value: PiwindModel; facts: { footprint: GridExtent | null } };
  'structural-vulnerability': { value: ReadonlyMap<string, VulnerabilityFunction>; facts: object };
  'quake-catalog': { value: QuakeCatalog; facts: object };
  'gmpe-logic-tree': { value: GmpeLogicTree; facts: object };
  /** An NRML 0.4 source model's area and simple-fault sources (one file of the pin). */
  'source-model': { value: SourceModel; facts: object };
  /** A ShakeMap grid, or the station data of an event that has none. */
  'shakemap': { value: ShakeMap | ShakeMapStations; facts: { holds: string | null } };
  'track-archive': { value: { readonly storms: readonly Storm[] }; facts: object };
  'impact-calibration': { value: Calibration; facts: object };
  /** Every map of the family. */
  'flood-maps': { value: DepthMap[]; facts: { return_periods: number[] } };
  /** The first tables of the family. */
  'depth-damage-tables': { value: DepthDamageTables; facts: object };
  /** Every fire list of the family and the burn grid built over them. */
  'burn-grid': { value: { regions: FireRegion[]; grid: BurnGrid }; facts: object };
  /** OED's peril groups (the pinned spec's PerilsCovered.csv): code → the single perils it covers. */
  'peril-groups': { value: ReadonlyMap<string, readonly string[]>; facts: object };
}

export type LabReader = keyof LabInputReaders;

/** Where an input is pinned: one snapshot, one of several chosen by the spec, or every snapshot of a family. */
export type InputSource =
  | { readonly pin: FeedPin }
  | { readonly pins: Readonly<Partial<Record<string, FeedPin>>>; readonly pick: (spec: never) => string }
  | { readonly family: InputFamily };

export interface InputDeclaration<R extends LabReader = LabReader> {
  readonly reader: R;
  readonly source: InputSource;
  /** The message of the run's refusal (503) when the input is not pinned here; a family declaring it may not be empty. */
  readonly missing?: string;
}

export type InputDeclarations = Readonly<Record<string, InputDeclaration>>;

/** A pinned snapshot as plain facts: its identity and the manifest's words a lane lists or cites. */
export interface PinnedSnapshot {
  readonly feed_id: string;
  readonly version: string;
  readonly sha256: string;
  readonly title?: string;
  readonly license?: string;
  readonly credit_line?: string;
  readonly coverage: Box | null;
  readonly files: readonly { readonly name: string; readonly sha256: string }[];
}

type ReaderOf<D> = D extends InputDeclaration<infer R> ? R : never;
type Listed<D> = PinnedSnapshot & LabInputReaders[ReaderOf<D>]['facts'];

/** What a run is handed for one input: the parsed value, and the snapshot it came from (each of a family's). */
export type LoadedInput<D extends InputDeclaration> = D['source'] extends { family: InputFamily }
  ? { readonly value: LabInputReaders[ReaderOf<D>]['value']; readonly snapshots: readonly PinnedSnapshot[] }
  : { readonly value: LabInputReaders[ReaderOf<D>]['value']; readonly snapshot: PinnedSnapshot };

export type LoadedInputs<I extends InputDeclarations> = { readonly [K in keyof I]: LoadedInput<I[K]> };

/** What GET /models is handed for one input: the pinned snapshot found here (undefined when absent), each pin's, or the family's. */
export type FoundInput<D extends InputDeclaration> = D['source'] extends { family: InputFamily }
  ? readonly Listed<D>[]
  : D['source'] extends { pins: infer P }
    ? { readonly [K in keyof P]: Listed<D> | undefined }
    : Listed<D> | undefined;

export type FoundInputs<I extends InputDeclarations> = { readonly [K in keyof I]: FoundInput<I[K]> };

/** A snapshot's identity as listings and results name it. */
export function snapshotListing(s: PinnedSnapshot): { feed_id: string; version: string; sha256: string } {
  return { feed_id: s.feed_id, version: s.version, sha256: s.sha256 };
}

/** A pin listed when its snapshot is not in this feed store. */
export function unavailable<P extends FeedPin>(pin: P): P & { available: false } {
  return { ...pin, available: false };
}
