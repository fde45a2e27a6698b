// The model lab (SPEC: Model lab): the models listed, a run submitted (content-addressed by its
// normalised spec, owned per account, metered once) and read back, and the lab_run job: the
// windstorm lane over pinned PiWind model data, in a compute thread.
import { parseAreaPerilGrid, parsePiwindModel, type GridExtent, type PiwindModel } from '../domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { readWindstormSpec, runWindstorm, type WindstormSpec } from '../domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { LAB_MODELS, labModel } from '../domain/lab/models.js';
import { termsSpec } from '../domain/lab/kernel/financial.js';
import type { LabLocation } from '../domain/lab/lanes/windstorm-piwind/lookup.js';
import type { FeedStore } from '../feeds/store.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { ApiError, refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { LAB_RUN_SCHEMA_VERSION } from '../kernel/versions.js';
import { requireActive } from './accounts.js';
import { jobView, queueJob } from './jobs.js';
import { counted, fractionOf, ProgressCount, recordingProgress, type Counted, type JobProgress } from './progress.js';
import type { AppDeps } from './deps.js';

const SPEC_MEMBERS = ['model', 'samples', 'exposure', 'terms', 'correlation'];

/**
 * The spec after defaults are filled in: what the run's content address is taken over, so member
 * order, spelled-out defaults and equivalent terms give one run.
 */
export function normalizedSpec(body: unknown): Result<Record<string, unknown>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refused(refusals.invalidRequest(422, 'A run spec is a JSON object: {model, samples, exposure, terms?, correlation?}.'));
  const spec = body as Record<string, unknown>;
  const faults = Object.keys(spec).filter((k) => !SPEC_MEMBERS.includes(k)).map((k) => `unknown member ${k} (a spec has ${SPEC_MEMBERS.join(', ')})`);
  const model = labModel(spec.model);
  if (!model) faults.push(`model must be one of ${LAB_MODELS.map((m) => m.id).join(', ')} (GET /models lists them)`);
  const exposure = spec.exposure as Record<string, unknown> | undefined;
  const byObject = exposure !== null && typeof exposure === 'object' && !Array.isArray(exposure) && 'object_id' in exposure;
  if (byObject && (Object.keys(exposure!).length !== 1 || typeof exposure!.object_id !== 'string')) faults.push('exposure {object_id} takes one member, the id of one of your objects');
  if (faults.length > 0) return refused(refusals.invalidRequest(422, `The run spec is not acceptable: ${faults.join('; ')}.`, faults));
  const samples = spec.samples ?? 0;
  // Object exposure is read on the job; validate the rest with an empty schedule in its place.
  const read = readWindstormSpec({ samples, exposure: byObject ? { points: [] } : exposure, terms: spec.terms, correlation: spec.correlation }, model!.revision);
  if (!read.ok) return read;
  return ok({
    model: model!.id,
    version: model!.version,
    samples,
    exposure: byObject ? { object_id: exposure!.object_id } : { points: read.value.locations.map((l) => ({ lat: l.latitude, lon: l.longitude, value: l.buildings_value })) },
    terms: read.value.terms ? termsSpec(read.value.terms) : null,
    correlation: read.value.correlation,
  });
}

/** Where a run's job is read: the lab host links it absolutely on the API host. */
export type JobLink = (jobId: string) => string;

/**
 * POST /runs: the run of a spec, owned by the caller and metered once per account and run however
 * often it is submitted (and after a lost answer). A stored result is read back; a run whose job
 * failed, or that has none yet, is queued.
 */
export async function submitRun(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'labRuns' | 'jobs' | 'wakeWorker' | 'now'>,
  input: { accountId: string; body: unknown; jobLink: JobLink },
): Promise<Result<Record<string, unknown>>> {
  const { accountId } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  const normalized = normalizedSpec(input.body);
  if (!normalized.ok) return normalized;
  const spec = normalized.value;
  const exposure = spec.exposure as { object_id?: string };
  if (exposure.object_id !== undefined && !(await deps.objects.head(exposure.object_id, accountId))) {
    return refused(refusals.notFound(`No object ${exposure.object_id} for this key`));
  }
  const id = `run_${contentAddress(spec).slice(0, 32)}`;
  await deps.labRuns.addOwner({
    run_id: id, account_id: accountId, job_id: null, spec: canonicalJson(spec), created_at: deps.now().toISOString(), model: spec.model as string,
  });
  await deps.accounts.recordUsage(accountId, 'model_run', id);
  const owner = (await deps.labRuns.owner(id, accountId))!;
  const stored = await deps.labRuns.result(id);
  if (stored === undefined && (owner.job_id === null || (await deps.jobs.get(owner.job_id, accountId))?.status === 'failed')) {
    const job = await queueJob(deps, { accountId, verb: 'lab_run', subject: { run_id: id, model: spec.model }, input: { run_id: id, model: spec.model, spec } });
    await deps.labRuns.setJob(id, accountId, job.id);
  }
  return ok(await runDocument(deps, id, accountId, input.jobLink));
}

/** GET /runs/{id}: a run the caller submitted. */
export async function readRun(
  deps: Pick<AppDeps, 'labRuns' | 'jobs'>,
  input: { accountId: string; id: string; jobLink: JobLink },
): Promise<Result<Record<string, unknown>>> {
  const { id, accountId } = input;
  if (!(await deps.labRuns.owner(id, accountId))) return refused(refusals.notFound(`No run ${id} for this key`));
  return ok(await runDocument(deps, id, accountId, input.jobLink));
}

async function runDocument(deps: Pick<AppDeps, 'labRuns' | 'jobs'>, id: string, accountId: string, jobLink: JobLink) {
  const owner = (await deps.labRuns.owner(id, accountId))!;
  const spec = JSON.parse(owner.spec) as Record<string, unknown>;
  const stored = await deps.labRuns.result(id);
  const job = owner.job_id ? await deps.jobs.get(owner.job_id, accountId) : undefined;
  const document: Record<string, unknown> = {
    schema_version: LAB_RUN_SCHEMA_VERSION,
    id,
    model: { id: spec.model, version: spec.version },
    spec,
    status: stored !== undefined ? 'succeeded' : job?.status ?? 'queued',
    label: labModel(spec.model)?.label,
    // A run's chart is drawn from its results: linked once it has some.
    links: { self: `/runs/${id}`, ...(job ? { job: jobLink(job.id) } : {}), ...(stored !== undefined ? { chart: `/runs/${id}/chart.svg` } : {}) },
  };
  if (stored !== undefined) document.result = JSON.parse(stored);
  else if (job?.status === 'failed') document.error = jobView(job).error;
  return document;
}

// The grid is read from the pinned file once per feed store; a failed read is not kept.
const extentsRead = new WeakMap<object, Promise<(GridExtent | null)[]>>();

function gridExtents(store: AppDeps['feeds']): Promise<(GridExtent | null)[]> {
  const read = () => Promise.all(LAB_MODELS.map((m) => piwindGridExtent(store, m.model_data.feed_id, m.model_data.version)));
  if (!store) return read();
  let extents = extentsRead.get(store);
  if (!extents) {
    const mine = read();
    extents = mine;
    extentsRead.set(store, mine);
    mine.catch(() => { if (extentsRead.get(store) === mine) extentsRead.delete(store); });
  }
  return extents;
}

/** GET /models: the lab's models, each with its pinned inputs and the grid it answers for. */
export async function labModels(deps: Pick<AppDeps, 'feeds'>): Promise<Result<Record<string, unknown>>> {
  const footprints = await gridExtents(deps.feeds);
  return ok({
    schema_version: LAB_RUN_SCHEMA_VERSION,
    models: LAB_MODELS.map((m, i) => {
      const snapshot = deps.feeds?.get(m.model_data.feed_id, m.model_data.version);
      return {
        id: m.id, lane: m.lane, engine: m.engine, version: m.version, revision: m.revision, label: m.label,
        pinned_inputs: snapshot
          ? { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, files: snapshot.manifest.files.map((f) => ({ name: f.name, sha256: f.sha256 })) }
          : { ...m.model_data, available: false },
        // footprint: the model's grid from the pinned area-peril dictionary (null when not pinned here).
        caps: { ...m.caps, footprint: footprints[i] ?? null },
        spec: m.spec,
      };
    }),
    note: 'Lab results come from externally built open models, labelled as such; they are distinct from the registry\'s validated models.',
  });
}

export interface LabRunTaskInput {
  model: string;
  spec: WindstormSpec;
  feedsDir: string | undefined;
  /** Where the lane counts the model's events done, of all (a ProgressCount's buffer). */
  progress?: SharedArrayBuffer;
}

/** PiWind parsed once per thread (its files checked against their pinned digests on reading). */
function piwind(store: FeedStore, feedId: string, version: string): Promise<PiwindModel> {
  const snapshot = store.get(feedId, version);
  if (!snapshot) throw new ApiError(503, 'server_error', `The model data ${feedId} ${version} is not pinned here.`);
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

/** Runs in a compute thread: the lane's result as canonical JSON. */
export async function labRunTask(input: LabRunTaskInput, store: FeedStore | undefined): Promise<Result<string>> {
  const model = labModel(input.model);
  if (!model || !store) throw new ApiError(503, 'server_error', 'The lab model data is not available here.');
  const snapshot = store.get(model.model_data.feed_id, model.model_data.version)!;
  const count = input.progress ? new ProgressCount(input.progress) : undefined;
  const result = runWindstorm(await piwind(store, model.model_data.feed_id, model.model_data.version), input.spec, {
    modelData: { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, credit_line: snapshot.manifest.credit_line, license: snapshot.manifest.license },
    modelId: model.id,
    revision: model.revision,
    ...(count ? { onEvents: (done: number, total: number) => count.set(done, total, done) } : {}),
  });
  return ok(canonicalJson(result));
}

/** A lab run's progress: the model's events whose losses are computed. */
function eventsDone(c: Counted): JobProgress {
  return { fraction: fractionOf(c), sentence: `Computed the losses of ${counted(c.done)} of the model's ${counted(c.total)} events.` };
}

/** A stored object's schedule as the lab's lookup reads it. */
export function objectLocations(exposure: { locations: Array<Record<string, any>> }): LabLocation[] {
  return exposure.locations.map((l) => ({
    ref: l.ref ?? null,
    latitude: l.latitude ?? null,
    longitude: l.longitude ?? null,
    perils_covered: l.perils_covered ?? null,
    occupancy_code: l.occupancy?.code ?? null,
    buildings_value: l.values?.buildings !== undefined ? Number(l.values.buildings) : null,
    contents_value: l.values?.contents !== undefined ? Number(l.values.contents) : null,
  }));
}

/** The lab_run job: the lane's result stored with the run (once: a stored run is not run again). */
export async function labRunJob(
  deps: Pick<AppDeps, 'labRuns' | 'objects' | 'jobs' | 'compute' | 'config' | 'now'>,
  job: { id: string; accountId: string; input: { run_id: string; model: string; spec: Record<string, unknown> & { exposure: Record<string, unknown> } } },
): Promise<Result<unknown>> {
  const { run_id: runId, model, spec } = job.input;
  const stored = await deps.labRuns.result(runId);
  if (stored !== undefined) return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
  let exposure = spec.exposure;
  if (typeof exposure.object_id === 'string') {
    const object = await deps.objects.get(exposure.object_id, job.accountId);
    if (!object) return refused(refusal(404, 'not_found', `Object ${exposure.object_id} no longer exists.`));
    exposure = { locations: objectLocations(object.exposure as never) };
  }
  const count = new ProgressCount();
  const input: LabRunTaskInput = { model, spec: { ...spec, exposure } as unknown as WindstormSpec, feedsDir: deps.config.feedsDir, progress: count.buffer };
  const result = await recordingProgress(deps, job.id, count, eventsDone, () => deps.compute<string>('lab-run', input));
  if (!result.ok) return result;
  await deps.labRuns.putResult(runId, model, result.value);
  return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
}
