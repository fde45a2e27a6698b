// The model lab (SPEC: Model lab): the models listed, a run submitted (content-addressed by its
// normalised spec, owned per account, metered once) and read back, and the lab_run job: the model's
// lane (app/lab-lanes.ts, each declared in domain/lab/lanes/<lane>/lane.ts) in a compute thread.
import type { LabLocation } from '../domain/lab/engine/places.js';
import type { FeedStore } from '../feeds/store.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { LAB_RUN_SCHEMA_VERSION } from '../kernel/versions.js';
import { requireActive } from './accounts.js';
import { jobView, queueJob } from './jobs.js';
import { ProgressCount, recordingProgress } from './progress.js';
import { admitLane, LAB_LANES, labLane, laneListing, laneProgress, runLane, type SpecExposure } from './lab-lanes.js';
import type { AppDeps } from './deps.js';
import { EXCHANGE_RUN_LABEL, EXCHANGE_SPEC_MEMBERS, exchangeRunJob, isExchangeModel, normalizedExchangeSpec, objectPoints } from './exchange-runs.js';

/**
 * The spec after defaults are filled in: what the run's content address is taken over, so member
 * order, spelled-out defaults and equivalent terms give one run. The model's lane reads its members.
 */
export function normalizedSpec(body: unknown): Result<Record<string, unknown>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refused(refusals.invalidRequest(422, 'A run spec is a JSON object: {model, exposure, ...} (GET /models lists each model\'s members).'));
  let spec = body as Record<string, unknown>;
  // {object_id} at the top is short for exposure {object_id} (oasislmf's run of a stored portfolio).
  if ('object_id' in spec && !('exposure' in spec)) {
    const { object_id: objectId, ...rest } = spec;
    spec = { ...rest, exposure: { object_id: objectId } };
  }
  // An exchange model (xm_…) runs on its provider's platform: its spec is the exchange's (exchange-runs.ts).
  const exchange = isExchangeModel(spec.model);
  const lane = labLane(spec.model);
  const faults: string[] = [];
  if (!lane && !exchange) faults.push(`model must be one of ${LAB_LANES.map((m) => m.id).join(', ')} (GET /models lists them), or an exchange model's id xm_… (GET {base_url}/exchange/models lists them)`);
  const members = ['model', 'exposure', ...(exchange ? EXCHANGE_SPEC_MEMBERS : Object.keys(lane?.members ?? {}))];
  faults.push(...Object.keys(spec).filter((k) => !members.includes(k)).map((k) => (k === 'object_id'
    ? 'object_id and exposure name the exposure twice: send one of them'
    : `unknown member ${k} (a ${lane?.id ?? 'run'} spec has ${members.join(', ')})`)));
  const exposure = spec.exposure as Record<string, unknown> | undefined;
  const byObject = exposure !== null && typeof exposure === 'object' && !Array.isArray(exposure) && 'object_id' in exposure;
  if (byObject && (Object.keys(exposure!).length !== 1 || typeof exposure!.object_id !== 'string')) faults.push('exposure {object_id} takes one member, the id of one of your objects');
  if (faults.length > 0) return refused(refusals.invalidRequest(422, `The run spec is not acceptable: ${faults.join('; ')}.`, faults));
  const specExposure: SpecExposure = byObject ? { byObject: true, object_id: exposure!.object_id as string } : { byObject: false, value: exposure };
  if (exchange) return normalizedExchangeSpec(spec, specExposure);
  return lane!.normalize(spec, specExposure);
}

/** Where a run's job is read: the lab host links it absolutely on the API host. */
export type JobLink = (jobId: string) => string;

/**
 * POST /runs: the run of a spec, owned by the caller and metered once per account and run however
 * often it is submitted (and after a lost answer). A stored result is read back; a run whose job
 * failed, or that has none yet, is queued.
 */
export async function submitRun(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'labRuns' | 'jobs' | 'wakeWorker' | 'now' | 'compute' | 'config' | 'exchangeConnectors'>,
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
  // An exchange model: the internal route says whether this account may run it (listed or its own,
  // granted when by grant, credentials stored), before the run is owned or metered.
  if (isExchangeModel(spec.model)) {
    const connector = await deps.exchangeConnectors.connector(spec.model, accountId);
    if (!connector.ok) return connector;
  }
  // A lane that checks a spec against its pinned inputs does so in a compute thread, before the run is owned or metered.
  const lane = labLane(spec.model);
  if (lane?.admit && exposure.object_id === undefined && (await deps.labRuns.result(id)) === undefined) {
    const admitted = await deps.compute('lab-run', { model: spec.model as string, spec, feedsDir: deps.config.feedsDir, admit: true });
    if (!admitted.ok) return admitted;
  }
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
  // The job before the result: a job read as succeeded stored its result first, so a result read
  // after it is there (read the other way round, a job ending between the reads showed no result).
  const job = owner.job_id ? await deps.jobs.get(owner.job_id, accountId) : undefined;
  const stored = await deps.labRuns.result(id);
  const document: Record<string, unknown> = {
    schema_version: LAB_RUN_SCHEMA_VERSION,
    id,
    model: { id: spec.model, version: spec.version },
    spec,
    status: stored !== undefined ? 'succeeded' : job?.status ?? 'queued',
    label: isExchangeModel(spec.model) ? EXCHANGE_RUN_LABEL : labLane(spec.model)?.label,
    // A run's chart is drawn from its exceedance curves (result.metrics): linked once it has them.
    links: { self: `/runs/${id}`, ...(job ? { job: jobLink(job.id) } : {}) },
  };
  if (stored !== undefined) {
    document.result = JSON.parse(stored);
    if ((document.result as { metrics?: unknown }).metrics) (document.links as Record<string, string>).chart = `/runs/${id}/chart.svg`;
  }
  else if (job?.status === 'failed') document.error = jobView(job).error;
  return document;
}

/** GET /models: the lab's models, each with its lane, the pinned inputs it reads and its caps. */
export async function labModels(deps: Pick<AppDeps, 'feeds'>): Promise<Result<Record<string, unknown>>> {
  return ok({
    schema_version: LAB_RUN_SCHEMA_VERSION,
    models: await Promise.all(LAB_LANES.map((lane) => laneListing(lane, deps.feeds))),
    note: 'Lab results come from externally built open models, labelled as such; they are distinct from the registry\'s validated models.',
  });
}

export interface LabRunTaskInput {
  model: string;
  /** The normalised spec, its exposure points or a stored schedule's locations. */
  spec: Record<string, unknown>;
  feedsDir: string | undefined;
  /** Where the lane counts its work done, of all (a ProgressCount's buffer). */
  progress?: SharedArrayBuffer;
  /** Only the lane's admission checks of the spec (its declaration's admit), not the run. */
  admit?: boolean;
}

/** Runs in a compute thread: the model's lane, its result as canonical JSON. */
export async function labRunTask(input: LabRunTaskInput, store: FeedStore | undefined): Promise<Result<string>> {
  const lane = labLane(input.model);
  if (!lane || !store) return refused(refusal(503, 'server_error', 'The lab model data is not available here.'));
  if (input.admit) return (await admitLane(lane, store, input.spec)) as Result<string>;
  return runLane(lane, store, input.spec, input.progress ? new ProgressCount(input.progress) : undefined);
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
    ...(l.oed !== undefined ? {
      oed: l.oed,
      other_value: l.values?.other !== undefined ? Number(l.values.other) : null,
      bi_value: l.values?.business_interruption !== undefined ? Number(l.values.business_interruption) : null,
    } : {}),
  }));
}

/** A stored object as a lab run's exposure: its locations, and its OED set when it has one (the terms every loss lane applies). */
export function objectExposure(object: { exposure: unknown; oed?: unknown }): { locations: LabLocation[]; oed?: unknown } {
  const locations = objectLocations(object.exposure as never);
  return object.oed !== undefined ? { locations, oed: object.oed } : { locations };
}

/** The lab_run job: the lane's result stored with the run (once: a stored run is not run again). */
export async function labRunJob(
  deps: Pick<AppDeps, 'labRuns' | 'objects' | 'jobs' | 'compute' | 'config' | 'now' | 'exchangeConnectors' | 'targets'>,
  job: { id: string; accountId: string; signal?: AbortSignal; input: { run_id: string; model: string; spec: Record<string, unknown> & { exposure: Record<string, unknown> } } },
): Promise<Result<unknown>> {
  const { run_id: runId, model, spec } = job.input;
  const stored = await deps.labRuns.result(runId);
  if (stored !== undefined) return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
  if (isExchangeModel(model)) {
    return exchangeRunJob(deps, job, async (objectId) => {
      const object = await deps.objects.get(objectId, job.accountId);
      if (!object) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
      return ok(objectPoints({ locations: objectLocations(object.exposure as never) }));
    });
  }
  let exposure = spec.exposure;
  if (typeof exposure.object_id === 'string') {
    const object = await deps.objects.get(exposure.object_id, job.accountId);
    if (!object) return refused(refusal(404, 'not_found', `Object ${exposure.object_id} no longer exists.`));
    exposure = objectExposure(object as unknown as { exposure: unknown; oed?: unknown });
  }
  const lane = labLane(model);
  if (!lane) return refused(refusal(422, 'unrunnable_object', `The lab has no model ${model}.`));
  const count = new ProgressCount();
  const input: LabRunTaskInput = { model, spec: { ...spec, exposure }, feedsDir: deps.config.feedsDir, progress: count.buffer };
  const result = await recordingProgress(deps, job.id, count, laneProgress(lane), () => deps.compute('lab-run', input));
  if (!result.ok) return result;
  await deps.labRuns.putResult(runId, model, result.value);
  return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
}
