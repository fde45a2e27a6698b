// The lab's lanes in one table: for each lane, the spec members it reads and how it normalises them,
// what it reads from the pinned feeds (listed by GET /models), and the task it runs in a compute
// thread. The use cases of lab-runs.ts go through this table only, so a lane is added here (and its
// model in domain/lab/models.ts), not in the use cases.
import { parseAreaPerilGrid, parsePiwindModel, type GridExtent, type PiwindModel } from '../domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { readWindstormSpec, runWindstorm, type WindstormSpec } from '../domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { termsSpec } from '../domain/lab/engine/financial.js';
import { placesOf, readPoints, type PlaceExposure } from '../domain/lab/engine/places.js';
import { runSpecRefusal } from '../domain/lab/engine/spec-refusal.js';
import { readFloodSector, runFlood } from '../domain/lab/lanes/flood/flood-lane.js';
import { burnGrid, runWildfire } from '../domain/lab/lanes/wildfire/wildfire-lane.js';
import { readScenarioSpec, runScenarioQuake, type ScenarioPlace, type ScenarioSpec } from '../domain/lab/lanes/earthquake/scenario-lane.js';
import { VULNERABILITY_CURVES } from '../domain/lab/lanes/earthquake/vulnerability.js';
import { HISTORICAL_EVENTS, missingInput, readHistoricalSpec, runHistoricalQuake, type HistoricalPlace, type HistoricalSpec } from '../domain/lab/lanes/earthquake/historical-lane.js';
import { eventCatalog, gmpeLogicTree, structuralVulnerability, trackArchive } from '../feeds/readers.js';
import { BUILDING_CLASSES, ESHM20_MEMBERS, ESHM20_PLACES_MAX, readBuildingClass, runEshm20, type BuildingClassId } from '../domain/lab/lanes/earthquake/eshm20-lane.js';
import type { LabLocation } from '../domain/lab/engine/places.js';
import { ESHM20_INPUTS, HISTORICAL_SHAKEMAPS, TC_IMPACT_FUNCTION_TABLES, TC_TRACK_ARCHIVES, type LabLaneName, type LabModel } from '../domain/lab/models.js';
import { readTcHistoryMembers, runTcHistory, TC_BASINS, TC_HISTORY_CAPS, TC_HISTORY_MEMBERS, type TcBasin, type TcHistorySpec } from '../domain/lab/lanes/tropical-cyclone/history-lane.js';
import { readTcSyntheticMembers, runTcSynthetic, syntheticSample, TC_SYNTHETIC_CAPS, TC_SYNTHETIC_MEMBERS, type TcSyntheticSpec } from '../domain/lab/lanes/tropical-cyclone/synthetic-lane.js';
import { tcCalibration } from '../feeds/climada.js';
import type { FeedStore, Snapshot } from '../feeds/store.js';
import { fireListSnapshots, fireRegion, floodMaps, floodMapSnapshots, jrcSnapshot, jrcTables, shakeMap, shakeMapProduct } from '../feeds/lab-inputs.js';
import type { FloodMapKind } from '../feeds/catalog.js';
import { coverageBox } from '../feeds/manifest.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { ApiError, refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { counted, fractionOf, type Counted, type JobProgress, type ProgressCount } from './progress.js';

/** A spec's exposure as the lab reads it before the job: points, or the id of a stored object. */
export type SpecExposure = { byObject: true; object_id: string } | { byObject: false; value: unknown };

export interface LabLane {
  /** The spec's members besides model and exposure. */
  readonly members: readonly string[];
  /** The spec after defaults are filled in (model and version included): what the run's id is taken over. */
  normalize(spec: Readonly<Record<string, unknown>>, exposure: SpecExposure, model: LabModel): Result<Record<string, unknown>>;
  /** The pinned inputs it reads and its caps, for GET /models. */
  listing(store: FeedStore | undefined, model: LabModel): Promise<{ pinned_inputs: unknown; caps: Record<string, unknown> }>;
  /** Runs in a compute thread: the result as canonical JSON. The exposure is points or a schedule's locations. */
  run(spec: Record<string, unknown>, store: FeedStore, model: LabModel, progress?: ProgressCount): Promise<Result<string>>;
  /** The job's progress sentence over what run counts. */
  progress(c: Counted): JobProgress;
  /**
   * Checks of a normalised spec that need the pinned inputs, made in a compute thread while the
   * request waits: a refusal answers the POST at once. Specs whose exposure is a stored object are
   * checked on the job instead.
   */
  admit?(spec: Record<string, unknown>, store: FeedStore, model: LabModel): Promise<Result<unknown>>;
}

const snapshotListing = (s: Snapshot) => ({ feed_id: s.feed_id, version: s.version, sha256: s.sha256 });

// ---- windstorm (PiWind through the open loss framework) ----

/** PiWind parsed once per thread (its files checked against their pinned digests on reading). */
function piwind(store: FeedStore, feedId: string, version: string): Promise<PiwindModel> {
  const snapshot = store.get(feedId, version);
  if (!snapshot) throw ApiError.of(refusal(503, 'server_error', `The model data ${feedId} ${version} is not pinned here.`));
  return store.parsed(snapshot, 'piwind-model', (_s, files) => {
    const texts: Record<string, string> = {};
    for (const [name, bytes] of files) if (name.endsWith('.csv') || name.endsWith('.json')) texts[name] = bytes.toString('utf8');
    return parsePiwindModel(texts, { occurrenceBin: files.get('occurrence_lt.bin') });
  });
}

/**
 * The model's grid (the extent of the pinned areaperil_dict's cells, edges inclusive), read by the
 * same parser the lane keys points with; null when the model data is not pinned here.
 */
export async function piwindGridExtent(store: FeedStore | undefined, feedId: string, version: string): Promise<GridExtent | null> {
  const snapshot = store?.get(feedId, version);
  if (!store || !snapshot) return null;
  const text = (await store.readFile(snapshot, 'areaperil_dict.csv')).toString('utf8');
  return parseAreaPerilGrid({ 'areaperil_dict.csv': text }).extent;
}

// The grid is read from the pinned file once per feed store and model; a failed read is not kept.
const extentsRead = new WeakMap<object, Map<string, Promise<GridExtent | null>>>();

function gridExtent(store: FeedStore | undefined, feedId: string, version: string): Promise<GridExtent | null> {
  if (!store) return piwindGridExtent(store, feedId, version);
  let byModel = extentsRead.get(store);
  if (!byModel) extentsRead.set(store, (byModel = new Map()));
  const key = `${feedId}@${version}`;
  let extent = byModel.get(key);
  if (!extent) {
    const mine = piwindGridExtent(store, feedId, version);
    extent = mine;
    byModel.set(key, mine);
    mine.catch(() => { if (byModel!.get(key) === mine) byModel!.delete(key); });
  }
  return extent;
}

const windstorm: LabLane = {
  members: ['samples', 'terms', 'correlation'],
  normalize(spec, exposure, model) {
    const samples = spec.samples ?? 0;
    // Object exposure is read on the job; validate the rest with an empty schedule in its place.
    const read = readWindstormSpec({ samples, exposure: exposure.byObject ? { points: [] } : exposure.value, terms: spec.terms, correlation: spec.correlation }, model.revision);
    if (!read.ok) return read;
    return ok({
      model: model.id,
      version: model.version,
      samples,
      exposure: exposure.byObject ? { object_id: exposure.object_id } : { points: read.value.locations.map((l) => ({ lat: l.latitude, lon: l.longitude, value: l.buildings_value })) },
      terms: read.value.terms ? termsSpec(read.value.terms) : null,
      correlation: read.value.correlation,
    });
  },
  async listing(store, model) {
    const data = model.model_data!;
    const snapshot = store?.get(data.feed_id, data.version);
    return {
      pinned_inputs: snapshot
        ? { ...snapshotListing(snapshot), files: snapshot.manifest.files.map((f) => ({ name: f.name, sha256: f.sha256 })) }
        : { ...data, available: false },
      // footprint: the model's grid from the pinned area-peril dictionary (null when not pinned here).
      caps: { ...model.caps, footprint: (await gridExtent(store, data.feed_id, data.version)) ?? null },
    };
  },
  async run(spec, store, model, progress) {
    const data = model.model_data!;
    const snapshot = store.get(data.feed_id, data.version);
    if (!snapshot) return refused(refusal(503, 'server_error', 'The lab model data is not available here.'));
    const result = runWindstorm(await piwind(store, data.feed_id, data.version), spec as unknown as WindstormSpec, {
      modelData: { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, credit_line: snapshot.manifest.credit_line, license: snapshot.manifest.license },
      modelId: model.id,
      revision: model.revision,
      ...(progress ? { onEvents: (done: number, total: number) => progress.set(done, total, done) } : {}),
    });
    return ok(canonicalJson(result));
  },
  progress: (c) => ({ fraction: fractionOf(c), sentence: `Computed the losses of ${counted(c.done)} of the model's ${counted(c.total)} events.` }),
};

// ---- lanes over places: flood and wildfire ----

/** The exposure of a places lane: points checked here, an object's schedule read on the job. */
function placeExposure(exposure: SpecExposure, details: string[]): Record<string, unknown> {
  if (exposure.byObject) return { object_id: exposure.object_id };
  return { points: readPoints(exposure.value, details).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value })) };
}

const placesProgress = (c: Counted): JobProgress => ({ fraction: fractionOf(c), sentence: `Modeled ${counted(c.done)} of ${counted(c.total)} places.` });

function placeCount(spec: Record<string, unknown>): number {
  const ex = spec.exposure as PlaceExposure;
  return 'points' in ex ? ex.points.length : ex.locations.length;
}

function floodLane(kind: FloodMapKind): LabLane {
  return {
    members: ['sector'],
    normalize(spec, exposure, model) {
      const details: string[] = [];
      const sector = readFloodSector(spec.sector, details);
      const ex = placeExposure(exposure, details);
      if (details.length > 0) return refused(runSpecRefusal(details));
      return ok({ model: model.id, version: model.version, sector, exposure: ex });
    },
    async listing(store, model) {
      const maps = store ? floodMapSnapshots(store, kind) : [];
      const jrc = store ? jrcSnapshot(store) : undefined;
      return {
        pinned_inputs: {
          maps: maps.map((s) => ({
            ...snapshotListing(s), title: s.manifest.title ?? null, coverage: coverageBox(s.manifest),
            return_periods: s.manifest.files.map((f) => f.raw.return_period_years).filter((v) => typeof v === 'number'),
          })),
          depth_damage: jrc ? { ...snapshotListing(jrc), title: jrc.manifest.title ?? null } : { available: false },
          reads: `every pinned ${kind} flood depth map the feed catalog recognises (by its manifest), so a map pinned with catrisk feeds add is read without code changes`,
        },
        caps: { ...model.caps },
      };
    },
    async run(spec, store, model, progress) {
      const jrc = jrcSnapshot(store);
      if (!jrc) return refused(refusal(503, 'server_error', 'The JRC depth-damage tables are not pinned here.'));
      const [maps, tables] = await Promise.all([floodMaps(store, kind), jrcTables(store, jrc)]);
      const total = placeCount(spec);
      progress?.set(0, total, 0);
      const result = runFlood({ sector: spec.sector as never, exposure: spec.exposure as PlaceExposure }, {
        lane: model.lane as 'river-flood' | 'coastal-flood', flood: kind,
        model: { id: model.id, version: model.version, label: model.label },
        maps, curves: tables.curves, countries: tables.countries, curveSource: tables.identity,
      });
      progress?.set(total, total, total);
      return ok(canonicalJson(result));
    },
    progress: placesProgress,
  };
}

// The burn grid is built once per feed store from the lists it holds.
const gridsBuilt = new WeakMap<object, Promise<{ regions: Awaited<ReturnType<typeof fireRegion>>[]; grid: ReturnType<typeof burnGrid> }>>();

const wildfire: LabLane = {
  members: [],
  normalize(_spec, exposure, model) {
    const details: string[] = [];
    const ex = placeExposure(exposure, details);
    if (details.length > 0) return refused(runSpecRefusal(details));
    return ok({ model: model.id, version: model.version, exposure: ex });
  },
  async listing(store, model) {
    const lists = store ? fireListSnapshots(store) : [];
    return {
      pinned_inputs: {
        maps: lists.map((s) => ({ ...snapshotListing(s), title: s.manifest.title ?? null, coverage: coverageBox(s.manifest) })),
        burn_probability: 'derived from the mapped fires: no burn-probability raster is pinned',
      },
      caps: { ...model.caps },
    };
  },
  async run(spec, store, model, progress) {
    let built = gridsBuilt.get(store);
    if (!built) {
      const mine = Promise.all(fireListSnapshots(store).map((s) => fireRegion(store, s))).then((regions) => ({ regions, grid: burnGrid(regions) }));
      built = mine;
      gridsBuilt.set(store, mine);
      mine.catch(() => { if (gridsBuilt.get(store) === mine) gridsBuilt.delete(store); });
    }
    const { regions, grid } = await built;
    const total = placeCount(spec);
    progress?.set(0, total, 0);
    const result = runWildfire(spec.exposure as PlaceExposure, { model: { id: model.id, version: model.version, label: model.label }, regions }, grid);
    progress?.set(total, total, total);
    return ok(canonicalJson(result));
  },
  progress: placesProgress,
};

// ---- scenario earthquake ----

/** The earthquake lanes' vulnerability listing: the pinned GEM functions read and the five curves. */
function vulnerabilityListing(store: FeedStore | undefined, model: LabModel) {
  const data = model.model_data!;
  const snapshot = store?.get(data.feed_id, data.version);
  return {
    vulnerability: snapshot
      ? { ...snapshotListing(snapshot), license: snapshot.manifest.license ?? null, files_read: snapshot.manifest.files.filter((f) => /_structural\.xml$/.test(f.name)).map((f) => ({ name: f.name, sha256: f.sha256 })) }
      : { ...data, available: false },
    curves: VULNERABILITY_CURVES.map((c) => ({ id: c.id, function_id: c.function_id, label: c.label })),
  };
}

const scenarioEarthquake: LabLane = {
  members: ['rupture', 'vulnerability'],
  normalize(spec, exposure, model) {
    const read = readScenarioSpec({ rupture: spec.rupture, vulnerability: spec.vulnerability, exposure: exposure.byObject ? { object_id: exposure.object_id } : exposure.value });
    if (!read.ok) return read;
    const { rupture, vulnerability } = read.value;
    return ok({ model: model.id, version: model.version, rupture, vulnerability, exposure: read.value.exposure });
  },
  async listing(store, model) {
    return { pinned_inputs: vulnerabilityListing(store, model), caps: { ...model.caps } };
  },
  async run(spec, store, model, progress) {
    const data = model.model_data!;
    const snapshot = store.get(data.feed_id, data.version);
    if (!snapshot) return refused(refusal(503, 'server_error', 'The pinned vulnerability functions are not available here.'));
    const functions = await structuralVulnerability(store, snapshot);
    const ex = spec.exposure as { points: ScenarioPlace[] } | { locations: LabLocation[] };
    const places: ScenarioPlace[] = 'points' in ex ? ex.points : placesOf(ex).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value }));
    progress?.set(0, places.length, 0);
    const result = runScenarioQuake(spec as unknown as ScenarioSpec, places, {
      functions,
      vulnerabilityData: { feed_id: snapshot.feed_id, version: snapshot.version },
    });
    progress?.set(places.length, places.length, places.length);
    return ok(canonicalJson({ model: { id: model.id, version: model.version, label: model.label }, ...result }));
  },
  progress: placesProgress,
};

// ---- historical earthquake (ShakeMap-conditioned fields) ----

const historicalEarthquake: LabLane = {
  members: ['event', 'vulnerability'],
  normalize(spec, exposure, model) {
    const read = readHistoricalSpec({ event: spec.event, vulnerability: spec.vulnerability, exposure: exposure.byObject ? { object_id: exposure.object_id } : exposure.value }, HISTORICAL_SHAKEMAPS);
    if (!read.ok) return read;
    const { event, vulnerability } = read.value;
    return ok({ model: model.id, version: model.version, event, vulnerability, exposure: read.value.exposure });
  },
  async listing(store, model) {
    // Each event: runnable when its ShakeMap grid is pinned (and held by this store), else the missing input.
    const events = HISTORICAL_EVENTS.map((event) => {
      const pin = HISTORICAL_SHAKEMAPS[event];
      const snapshot = pin ? store?.get(pin.feed_id, pin.version) : undefined;
      const missing = missingInput(event, HISTORICAL_SHAKEMAPS) ?? (snapshot ? null : `event ${event} cannot run here: its ShakeMap ${pin!.feed_id} ${pin!.version} is not in this feed store`);
      return {
        event, runnable: missing === null,
        shakemap: pin ? (snapshot ? { ...snapshotListing(snapshot), holds: shakeMapProduct(snapshot) } : { ...pin, available: false }) : null,
        ...(missing ? { missing } : {}),
      };
    });
    return { pinned_inputs: { events, ...vulnerabilityListing(store, model) }, caps: { ...model.caps } };
  },
  async run(spec, store, model, progress) {
    const s = spec as unknown as HistoricalSpec;
    const data = model.model_data!;
    const pin = HISTORICAL_SHAKEMAPS[s.event];
    if (!pin || pin.holds !== 'grid') throw new Error(`event ${s.event} has no pinned ShakeMap grid`);
    const [functions, map] = await Promise.all([structuralVulnerability(store, pinned(store, data)), shakeMap(store, pinned(store, pin))]);
    const ex = spec.exposure as { points: HistoricalPlace[] } | { locations: LabLocation[] };
    const places: HistoricalPlace[] = 'points' in ex ? ex.points : placesOf(ex).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value }));
    progress?.set(0, places.length, 0);
    const result = runHistoricalQuake(s, places, { map, functions, vulnerabilityData: { feed_id: data.feed_id, version: data.version } });
    progress?.set(places.length, places.length, places.length);
    return ok(canonicalJson({ model: { id: model.id, version: model.version, label: model.label }, ...result }));
  },
  progress: placesProgress,
};

// ---- tropical-cyclone history (CLIMADA's method over the pinned best tracks) ----

function pinned(store: FeedStore, input: { feed_id: string; version: string }): Snapshot {
  const snapshot = store.get(input.feed_id, input.version);
  if (!snapshot) throw ApiError.of(refusal(503, 'server_error', `The lab input ${input.feed_id} ${input.version} is not pinned here.`));
  return snapshot;
}

/** Both tropical-cyclone lanes: their members read by the lane's reader, places as points or a schedule, at most placesMax. */
function tropicalCycloneNormalize(
  readMembers: (spec: Readonly<Record<string, unknown>>, details: string[]) => { impact_function: unknown; hazard: unknown },
  placesMax: number,
): LabLane['normalize'] {
  return (spec, exposure, model) => {
    const details: string[] = [];
    const members = readMembers(spec, details);
    const ex = placeExposure(exposure, details);
    const count = 'points' in ex ? (ex.points as unknown[]).length : 0;
    if (count > placesMax) details.push(`exposure may hold up to ${placesMax} places; it holds ${count}`);
    if (details.length > 0) return refused(runSpecRefusal(details));
    return ok({ model: model.id, version: model.version, impact_function: members.impact_function, hazard: members.hazard, exposure: ex });
  };
}

const tropicalCycloneHistory: LabLane = {
  members: TC_HISTORY_MEMBERS,
  normalize: tropicalCycloneNormalize(readTcHistoryMembers, TC_HISTORY_CAPS.places_max),
  async listing(store, model) {
    const listed = (input: { feed_id: string; version: string }) => {
      const s = store?.get(input.feed_id, input.version);
      return s ? snapshotListing(s) : { ...input, available: false };
    };
    return {
      pinned_inputs: {
        tracks: Object.fromEntries(TC_BASINS.map((b) => [b, listed(TC_TRACK_ARCHIVES[b])])),
        impact_functions: listed(TC_IMPACT_FUNCTION_TABLES),
      },
      caps: { ...model.caps },
    };
  },
  async run(spec, store, model, progress) {
    const s = spec as unknown as TcHistorySpec;
    const { tracks, tables, archive, calibration } = await tropicalCycloneInputs(store, s.hazard.basin);
    const result = runTcHistory({
      spec: s, storms: archive.storms, calibration,
      identities: { tracks: snapshotListing(tracks), impact_functions: snapshotListing(tables) },
      model: { id: model.id, version: model.version, label: model.label },
      ...(progress ? { onStorms: (done: number, total: number) => progress.set(done, total, done) } : {}),
    });
    if (!result.ok) return result;
    return ok(canonicalJson(result.value));
  },
  progress: (c) => ({ fraction: fractionOf(c), sentence: `Replayed ${counted(c.done)} of ${counted(c.total)} storms.` }),
};

/** The pinned inputs both tropical-cyclone lanes read: the basin's best tracks and the impact-function tables. */
async function tropicalCycloneInputs(store: FeedStore, basin: TcBasin) {
  const tracks = pinned(store, TC_TRACK_ARCHIVES[basin]);
  const tables = pinned(store, TC_IMPACT_FUNCTION_TABLES);
  const [archive, calibration] = await Promise.all([trackArchive(store, tracks), tcCalibration(store, tables)]);
  return { tracks, tables, archive, calibration };
}

const tropicalCycloneSynthetic: LabLane = {
  members: TC_SYNTHETIC_MEMBERS,
  normalize: tropicalCycloneNormalize(readTcSyntheticMembers, TC_SYNTHETIC_CAPS.places_max),
  listing: (store, model) => tropicalCycloneHistory.listing(store, model),
  async run(spec, store, model, progress) {
    const s = spec as unknown as TcSyntheticSpec;
    const { tracks, tables, archive, calibration } = await tropicalCycloneInputs(store, s.hazard.basin);
    const result = runTcSynthetic({
      spec: s, storms: archive.storms, calibration,
      ...(progress ? { onTracks: (done: number, total: number) => progress.set(done, total, done) } : {}),
    });
    if (!result.ok) return result;
    return ok(canonicalJson({ ...result.value, model: { id: model.id, version: model.version, engine: model.engine, label: model.label }, inputs: { tracks: snapshotListing(tracks), impact_functions: snapshotListing(tables) } }));
  },
  progress: (c) => ({ fraction: fractionOf(c), sentence: `Computed the winds of ${counted(c.done)} of ${counted(c.total)} near tracks.` }),
  // The near-track budget: the sample years and the screening are drawn as the run will draw them.
  async admit(spec, store) {
    const s = spec as unknown as TcSyntheticSpec;
    const [archive, calibration] = await Promise.all([
      trackArchive(store, pinned(store, TC_TRACK_ARCHIVES[s.hazard.basin])), tcCalibration(store, pinned(store, TC_IMPACT_FUNCTION_TABLES)),
    ]);
    const sampled = syntheticSample({ spec: s, storms: archive.storms, calibration });
    return sampled.ok ? ok({ near_tracks: sampled.value.near.length }) : sampled;
  },
};

// ---- probabilistic European and Turkish earthquake (demonstration source model) ----

const eshm20Earthquake: LabLane = {
  members: ESHM20_MEMBERS,
  normalize(spec, exposure, model) {
    const details: string[] = [];
    const building_class = readBuildingClass(spec, details);
    const ex = placeExposure(exposure, details);
    const count = 'points' in ex ? (ex.points as unknown[]).length : 0;
    if (count > ESHM20_PLACES_MAX) details.push(`exposure may hold up to ${ESHM20_PLACES_MAX} places; it holds ${count}`);
    if (details.length > 0) return refused(runSpecRefusal(details));
    return ok({ model: model.id, version: model.version, building_class, exposure: ex });
  },
  async listing(store, model) {
    const data = model.model_data!;
    const vulnerability = store?.get(data.feed_id, data.version);
    const catalog = store?.get(ESHM20_INPUTS.catalog.feed_id, ESHM20_INPUTS.catalog.version);
    const tree = ESHM20_INPUTS.gmpe_logic_tree;
    const esrm20 = store?.get(tree.feed_id, tree.version);
    return {
      pinned_inputs: {
        vulnerability: vulnerability
          ? { ...snapshotListing(vulnerability), license: vulnerability.manifest.license ?? null, files_read: vulnerability.manifest.files.filter((f) => /_structural\.xml$/.test(f.name)).map((f) => ({ name: f.name, sha256: f.sha256 })) }
          : { ...data, available: false },
        catalog: catalog ? { ...snapshotListing(catalog), title: catalog.manifest.title ?? null, coverage: coverageBox(catalog.manifest) } : { ...ESHM20_INPUTS.catalog, available: false },
        gmpe_logic_tree: esrm20
          ? { ...snapshotListing(esrm20), license: esrm20.manifest.license ?? null, file: tree.file, sha256_file: esrm20.manifest.files.find((f) => f.name === tree.file)?.sha256 ?? null }
          : { ...tree, available: false },
        building_classes: BUILDING_CLASSES.map((c) => ({ id: c.id, taxonomy: c.taxonomy, label: c.label })),
      },
      caps: { ...model.caps },
    };
  },
  async run(spec, store, model, progress) {
    const places = placesOf(spec.exposure as PlaceExposure);
    // A stored schedule is counted here, on the job; points were counted on the request.
    if (places.length > ESHM20_PLACES_MAX) return refused(runSpecRefusal([`exposure may hold up to ${ESHM20_PLACES_MAX} places; the object holds ${places.length}`]));
    const vulnerability = pinned(store, model.model_data!);
    const catalog = pinned(store, ESHM20_INPUTS.catalog);
    const esrm20 = pinned(store, ESHM20_INPUTS.gmpe_logic_tree);
    const [functions, events, gmpeTree] = await Promise.all([
      structuralVulnerability(store, vulnerability), eventCatalog(store, catalog), gmpeLogicTree(store, esrm20, ESHM20_INPUTS.gmpe_logic_tree.file),
    ]);
    const cls = BUILDING_CLASSES.find((c) => c.id === spec.building_class)!;
    const fn = functions.get(cls.taxonomy);
    const box = coverageBox(catalog.manifest);
    const periodEnd = (catalog.manifest.raw.period_of_record as { to?: unknown } | undefined)?.to;
    if (!fn || events.kind !== 'quake' || !box || typeof periodEnd !== 'string') return refused(refusal(503, 'server_error', 'The pinned inputs of the probabilistic earthquake lane are not as the lane reads them.'));
    const result = runEshm20({
      places, buildingClass: spec.building_class as BuildingClassId, vulnerability: fn,
      catalog: events.events, box, periodEnd, gmpeTree,
      ...(progress ? { onRuptures: (done: number, total: number) => progress.set(done, total, done) } : {}),
    });
    return ok(canonicalJson({
      model: { id: model.id, version: model.version, engine: model.engine, label: model.label },
      inputs: { vulnerability: snapshotListing(vulnerability), catalog: snapshotListing(catalog), gmpe_logic_tree: { ...snapshotListing(esrm20), file: ESHM20_INPUTS.gmpe_logic_tree.file, credit_line: esrm20.manifest.credit_line ?? null } },
      ...result,
    }));
  },
  progress: (c) => ({ fraction: fractionOf(c), sentence: `Computed the ground motion and losses of ${counted(c.done)} of ${counted(c.total)} sampled ruptures.` }),
};

export const LAB_LANES: Readonly<Record<LabLaneName, LabLane>> = {
  windstorm,
  'river-flood': floodLane('river'),
  'coastal-flood': floodLane('coastal'),
  wildfire,
  'scenario-earthquake': scenarioEarthquake,
  'historical-earthquake': historicalEarthquake,
  'tropical-cyclone-history': tropicalCycloneHistory,
  'tropical-cyclone-synthetic': tropicalCycloneSynthetic,
  'eshm20-earthquake': eshm20Earthquake,
};
