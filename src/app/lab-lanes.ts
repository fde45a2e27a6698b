// The lab's lanes: one line per lane (each declared whole in domain/lab/lanes/<lane>/lane.ts), and
// the reading of what a lane declares it reads: its pinned inputs through feeds/lab-inputs.ts,
// parsed and handed to its run, and listed for GET /models. A lane is added by its folder and its
// line here; the use cases of lab-runs.ts and the lab's route schema follow the declarations.
import { windstorm } from '../domain/lab/lanes/windstorm/lane.js';
import { riverFlood } from '../domain/lab/lanes/river-flood/lane.js';
import { coastalFlood } from '../domain/lab/lanes/coastal-flood/lane.js';
import { wildfire } from '../domain/lab/lanes/wildfire/lane.js';
import { scenarioEarthquake } from '../domain/lab/lanes/scenario-earthquake/lane.js';
import { historicalEarthquake } from '../domain/lab/lanes/historical-earthquake/lane.js';
import { tropicalCycloneHistory } from '../domain/lab/lanes/tropical-cyclone-history/lane.js';
import { tropicalCycloneSynthetic } from '../domain/lab/lanes/tropical-cyclone-synthetic/lane.js';
import { eshm20Earthquake } from '../domain/lab/lanes/eshm20-earthquake/lane.js';
import { climadaImpact } from '../domain/lab/lanes/climada-impact/lane.js';
import { openquakeScenarioRisk } from '../domain/lab/lanes/openquake-scenario-risk/lane.js';
import { deterministicLoss } from '../domain/lab/lanes/deterministic-loss/lane.js';
import { specWords, type LabLane } from '../domain/lab/lane.js';
import { publishedResult, type LossCurrency } from '../domain/lab/engine/publication.js';
import type { UserInput } from '../domain/lab/user-inputs.js';
import type { FeedPin, FoundInputs, InputDeclaration, InputDeclarations, InputSource, LoadedInputs, PinnedSnapshot } from '../domain/lab/inputs.js';
import type { FeedStore, Snapshot } from '../feeds/store.js';
import { familySnapshots, LAB_INPUT_READERS, pinnedSnapshot } from '../feeds/lab-inputs.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { naturalEarthLand } from '../land.js';
import { refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { counted, fractionOf, type Counted, type JobProgress, type ProgressCount } from './progress.js';

export type { SpecExposure } from '../domain/lab/lane.js';

/** Every lane the lab runs, in the order GET /models lists them. */
export const LAB_LANES: readonly LabLane[] = [
  windstorm,
  riverFlood,
  coastalFlood,
  wildfire,
  scenarioEarthquake,
  historicalEarthquake,
  tropicalCycloneHistory,
  tropicalCycloneSynthetic,
  eshm20Earthquake,
  climadaImpact,
  openquakeScenarioRisk,
  deterministicLoss,
];

/** The lane that runs a lab model, by the model's id. */
export function labLane(modelId: unknown): LabLane | undefined {
  return LAB_LANES.find((lane) => lane.id === modelId);
}

/** An input read, of either shape: one snapshot's, or a family's. */
type Loaded = { value: unknown; snapshot: PinnedSnapshot } | { value: unknown; snapshots: PinnedSnapshot[] };
/** An input found for GET /models: one snapshot (or none), each pin's, or a family's. */
type Found = PinnedSnapshot | undefined | Record<string, PinnedSnapshot | undefined> | PinnedSnapshot[];

/** The snapshots an input reads for a spec: its pin's (none when not pinned here), the pin the spec picks, or its family's. */
function sourceSnapshots(store: FeedStore, source: InputSource, spec: unknown): { pin?: FeedPin; snapshots: Snapshot[] } {
  if ('family' in source) return { snapshots: familySnapshots(store, source.family) };
  const pin = 'pin' in source ? source.pin : source.pins[source.pick(spec as never)];
  const snapshot = pin ? store.get(pin.feed_id, pin.version) : undefined;
  return { ...(pin ? { pin } : {}), snapshots: snapshot ? [snapshot] : [] };
}

/** One declared input read: refused 503 when it is not pinned here. */
async function loadInput(store: FeedStore, name: string, input: InputDeclaration, spec: unknown): Promise<Result<Loaded>> {
  const found = sourceSnapshots(store, input.source, spec);
  // A family may be empty (no coastal map is pinned) unless its lane says what it refuses then.
  if (found.snapshots.length === 0 && (!('family' in input.source) || input.missing !== undefined)) {
    const what = found.pin ? `${found.pin.feed_id} ${found.pin.version}` : name;
    return refused(refusal(503, 'server_error', input.missing ?? `The lab input ${what} is not pinned here.`));
  }
  const reader = LAB_INPUT_READERS[input.reader] as { read(store: FeedStore, snapshots: readonly Snapshot[], pin: FeedPin | undefined): Promise<unknown> };
  const value = await reader.read(store, found.snapshots, found.pin);
  const snapshots = found.snapshots.map(pinnedSnapshot);
  return ok('family' in input.source ? { value, snapshots } : { value, snapshot: snapshots[0]! });
}

/** Every declared input of a lane, read for a spec. */
async function loadInputs(lane: LabLane, store: FeedStore, spec: unknown): Promise<Result<LoadedInputs<InputDeclarations>>> {
  const entries = Object.entries(lane.inputs as InputDeclarations);
  const loaded = await Promise.all(entries.map(([name, input]) => loadInput(store, name, input, spec)));
  const inputs: Record<string, Loaded> = {};
  for (const [i, [name]] of entries.entries()) {
    const one = loaded[i]!;
    if (!one.ok) return one;
    inputs[name] = one.value;
  }
  // Each input is read by the reader its declaration names, so the values are the lane's own.
  return ok(inputs as unknown as LoadedInputs<InputDeclarations>);
}

/** Runs in a compute thread: the lane over its inputs, its result as canonical JSON. The exposure is points or a schedule's locations. */
export async function runLane(
  lane: LabLane, store: FeedStore | undefined, spec: Record<string, unknown>, count?: ProgressCount,
  handed: { admitted?: unknown; userInputs?: Readonly<Record<string, UserInput>> } = {},
): Promise<Result<string>> {
  // A lane with no pinned inputs (one over inputs users bring) reads no feed store.
  const inputs = store ? await loadInputs(lane, store, spec) : ok({} as LoadedInputs<InputDeclarations>);
  if (!inputs.ok) return inputs;
  const result = lane.run(inputs.value, spec, {
    land: naturalEarthLand,
    ...(count ? { progress: (done: number, total: number) => count.set(done, total, done) } : {}),
    ...(handed.admitted !== undefined ? { admitted: handed.admitted } : {}),
    ...(handed.userInputs ? { userInputs: handed.userInputs } : {}),
  });
  return result.ok ? ok(canonicalJson(publishedResult(result.value, exposureCurrency(spec)))) : result;
}

/** The currency a run's losses are in: the stored object's (set on the job), or the one its points named. */
function exposureCurrency(spec: Record<string, unknown>): LossCurrency {
  const currency = (spec.exposure as { currency?: unknown } | undefined)?.currency;
  return typeof currency === 'string' ? currency : null;
}

/** The lane's checks of a spec against its parsed inputs (the request waits for them): what its admit answers, or null when it has none. */
export async function admitLane(lane: LabLane, store: FeedStore, spec: Record<string, unknown>): Promise<Result<unknown>> {
  if (!lane.admit) return ok(null);
  const inputs = await loadInputs(lane, store, spec);
  if (!inputs.ok) return inputs;
  return lane.admit(inputs.value, spec);
}

/** A snapshot found for GET /models, with what its reader adds to its facts. */
async function listedSnapshot(store: FeedStore | undefined, input: InputDeclaration, snapshot: Snapshot): Promise<PinnedSnapshot> {
  const reader = LAB_INPUT_READERS[input.reader] as { facts(store: FeedStore | undefined, s: Snapshot): Promise<object> };
  return { ...pinnedSnapshot(snapshot), ...(await reader.facts(store, snapshot)) };
}

/** What GET /models is handed for one input: the snapshot found here (or undefined), each pin's, or the family's. */
async function foundInput(store: FeedStore | undefined, input: InputDeclaration): Promise<Found> {
  const source = input.source;
  const listed = (pin: FeedPin | undefined) => {
    const snapshot = pin ? store?.get(pin.feed_id, pin.version) : undefined;
    return snapshot ? listedSnapshot(store, input, snapshot) : undefined;
  };
  if ('family' in source) return store ? Promise.all(familySnapshots(store, source.family).map((s) => listedSnapshot(store, input, s))) : [];
  if ('pin' in source) return listed(source.pin);
  const keys = Object.keys(source.pins);
  const found = await Promise.all(keys.map((key) => listed(source.pins[key])));
  return Object.fromEntries(keys.map((key, i) => [key, found[i]]));
}

/** GET /models: a lane's model, the pinned inputs it reads (as found here), its caps, its spec's words and its own tables (name → what it holds). */
export async function laneListing(lane: LabLane, store: FeedStore | undefined): Promise<Record<string, unknown>> {
  const entries = Object.entries(lane.inputs as InputDeclarations);
  const found = await Promise.all(entries.map(([, input]) => foundInput(store, input)));
  const listing = lane.listing(Object.fromEntries(entries.map(([name], i) => [name, found[i]])) as unknown as FoundInputs<InputDeclarations>);
  return {
    id: lane.id, lane: lane.lane, engine: lane.engine, version: lane.version, revision: lane.revision, label: lane.label,
    pinned_inputs: listing.pinned_inputs,
    caps: listing.caps ?? { ...lane.caps },
    spec: specWords(lane),
    ...(lane.tables ? { tables: Object.fromEntries(Object.entries(lane.tables).map(([name, t]) => [name, t.description])) } : {}),
  };
}

/** The job's progress over what a lane's run counts. */
export function laneProgress(lane: LabLane): (c: Counted) => JobProgress {
  return (c) => ({ fraction: fractionOf(c), sentence: lane.progress(counted(c.done), counted(c.total)) });
}
