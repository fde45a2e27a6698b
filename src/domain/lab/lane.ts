// A lab lane as one declaration (src/domain/lab/lanes/<lane>/lane.ts): the model it runs, its spec
// members with their JSON Schema and words, its caps, its pinned inputs as data, and its pure steps:
// normalize a spec, list what is pinned, run over the parsed inputs. The registry
// (app/lab-lanes.ts) reads the inputs; the lab route's body, GET /models, the contract's result
// shapes and the docs page's member tables are generated from these declarations.
import { ok, refused, type Result } from '../../kernel/result.js';
import { readPoints, type PlaceExposure } from './engine/places.js';
import { runSpecRefusal } from './engine/spec-refusal.js';
import type { FoundInputs, InputDeclarations, LoadedInputs } from './inputs.js';
import type { LandMask } from '../land-mask.js';
import type { InputKind, UserInput } from './user-inputs.js';
import type { Cell } from '../exports/csv.js';

/** A JSON Schema fragment (draft 2020-12), as data. */
export type JsonSchemaFragment = Readonly<Record<string, unknown>>;

/** A spec member: the JSON Schema it is read against, and what GET /models says of it. */
export interface SpecMember {
  readonly schema: JsonSchemaFragment;
  readonly description: string;
}

/** A spec's exposure as the lab reads it before the job: points, or the id of a stored object. */
export type SpecExposure = { byObject: true; object_id: string } | { byObject: false; value: unknown };

/** The model a lane runs, as GET /models and the results name it. */
export interface LabModelIdentity {
  /** <engine>-<lane> for third-party engine lanes. */
  readonly id: string;
  /** The lane's name, its folder under domain/lab/lanes/. */
  readonly lane: string;
  readonly engine: string;
  /** Version string with its revision: behaviour such as financial terms is tied to the revision. */
  readonly version: string;
  readonly revision: string;
  readonly label: string;
}

/**
 * Runs work that counts nothing as it goes (a lane over its places in one pass): its progress is
 * none of `total` before and all of it after.
 */
export function wholeRun<T>(total: number, progress: LaneRunContext['progress'], work: () => T): T {
  progress?.(0, total);
  const result = work();
  progress?.(total, total);
  return result;
}

/** What a run is told besides its inputs and spec. */
export interface LaneRunContext {
  /** Told how much is done, of all, now and then (a job's progress). */
  readonly progress?: (done: number, total: number) => void;
  /** Natural Earth's land at 1:10m, read when first asked (the synthetic cyclones' decay over land). */
  readonly land: () => LandMask;
  /** The inputs users brought that the spec names (its userInputs members), read by their kinds' readers. */
  readonly userInputs?: Readonly<Record<string, UserInput>>;
}

/** A table of a lane's result, served as CSV by GET /runs/{id}?format=csv&table=<name>. */
export interface LaneTable {
  readonly description: string;
  /** The header and rows from the run's result; undefined when the result has no such table (a view the spec did not ask for). */
  rows(result: Readonly<Record<string, unknown>>): { header: readonly string[]; rows: Iterable<readonly Cell[]> } | undefined;
}

export interface LabLaneDeclaration<S = never, I extends InputDeclarations = InputDeclarations> extends LabModelIdentity {
  /** The spec's members besides model and exposure. */
  readonly members: Readonly<Record<string, SpecMember>>;
  /** The spec's exposure (points or a stored object); absent for a lane whose exposures are an input users bring. */
  readonly exposure?: SpecMember;
  /**
   * Members that name an input users brought (POST /inputs) by its id, and the kind each takes: the
   * submission checks each is the caller's and of that kind (404, 422), and the run is handed them
   * read (context.userInputs). The ids are content addresses, so the same spec over the same bytes
   * is the same run.
   */
  readonly userInputs?: Readonly<Record<string, InputKind>>;
  /** The lane's own CSV tables of its result, by name (the ORD tables read result.metrics instead). */
  readonly tables?: Readonly<Record<string, LaneTable>>;
  /** What GET /models states beside the members: the method, the result. */
  readonly notes?: Readonly<Record<string, string>>;
  readonly caps: Readonly<Record<string, unknown>>;
  readonly inputs: I;
  /** The spec after defaults are filled in (model and version included): what the run's id is taken over. */
  normalize(spec: Readonly<Record<string, unknown>>, exposure: SpecExposure): Result<Record<string, unknown>>;
  /** GET /models: the pinned inputs found here, as the lane lists them, and its caps when they read an input. */
  listing(found: FoundInputs<I>): { pinned_inputs: unknown; caps?: Record<string, unknown> };
  /**
   * Checks of a normalised spec against the parsed inputs, made in a compute thread while the
   * request waits: a refusal answers the POST at once. Specs whose exposure is a stored object are
   * checked on the job instead.
   */
  admit?(inputs: LoadedInputs<I>, spec: S): Result<unknown>;
  /** The result: the normalised spec, its exposure points or a stored schedule's locations. */
  run(inputs: LoadedInputs<I>, spec: S, context: LaneRunContext): Result<Record<string, unknown>>;
  /** The job's progress sentence over the counts run reports, written as numbers in words' places. */
  progress(done: string, total: string): string;
  /** The result's JSON Schema: the contract's shape of this lane's result. */
  readonly result: JsonSchemaFragment;
}

/** A lane of any spec and inputs, as the registry holds them (each lane's types hold inside its declaration). */
export type LabLane = LabLaneDeclaration<any, any>;

/** A lane's declaration, its spec and inputs types read from its run. */
export function labLane<S, I extends InputDeclarations>(declaration: LabLaneDeclaration<S, I>): LabLaneDeclaration<S, I> {
  return declaration;
}

/** GET /models' words for a lane's spec: each member's, the exposure's and the notes. */
export function specWords(lane: LabLane): Record<string, string> {
  return {
    model: 'this identifier',
    ...Object.fromEntries(Object.entries(lane.members).map(([name, m]) => [name, m.description])),
    ...(lane.exposure ? { exposure: lane.exposure.description } : {}),
    ...lane.notes,
  };
}

/** A places lane's exposure: points checked here, an object's schedule read on the job. */
export function placeExposure(exposure: SpecExposure, details: string[]): { object_id: string } | { points: { lat: number; lon: number; value: number }[] } {
  if (exposure.byObject) return { object_id: exposure.object_id };
  return { points: readPoints(exposure.value, details).map((p) => ({ lat: p.lat, lon: p.lon, value: p.value })) };
}

/** A places lane's spec with at most placesMax points, its members read by readMembers. */
export function placesSpec<M extends object>(
  exposure: SpecExposure,
  placesMax: number,
  readMembers: (details: string[]) => M,
): Result<M & { exposure: ReturnType<typeof placeExposure> }> {
  const details: string[] = [];
  const members = readMembers(details);
  const ex = placeExposure(exposure, details);
  const count = 'points' in ex ? ex.points.length : 0;
  if (count > placesMax) details.push(`exposure may hold up to ${placesMax} places; it holds ${count}`);
  if (details.length > 0) return refused(runSpecRefusal(details));
  return ok({ ...members, exposure: ex });
}

/** How many places a run's exposure holds: points, or a stored schedule's locations. */
export function placeCount(exposure: PlaceExposure): number {
  return 'points' in exposure ? exposure.points.length : exposure.locations.length;
}

/** Members of the model's identity every normalised spec opens with. */
export function modelOf(lane: Pick<LabModelIdentity, 'id' | 'version'>): { model: string; version: string } {
  return { model: lane.id, version: lane.version };
}
