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
import { keepAdmission, takeAdmission } from './lab-admissions.js';
import { admitLane, LAB_LANES, labLane, laneListing, laneProgress, runLane, type SpecExposure } from './lab-lanes.js';
import type { AppDeps } from './deps.js';
import { loadRunInputs, readRunInputs, type RunInput } from './lab-inputs.js';
import type { InputKind } from '../domain/lab/user-inputs.js';
import type { LabLane } from '../domain/lab/lane.js';
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
  const members = ['model', ...(lane && !lane.exposure ? [] : ['exposure']), ...(exchange ? EXCHANGE_SPEC_MEMBERS : Object.keys(lane?.members ?? {}))];
  faults.push(...Object.keys(spec).filter((k) => !members.includes(k)).map((k) => (k === 'object_id'
    ? 'object_id and exposure name the exposure twice: send one of them'
    : `unknown member ${k} (a ${lane?.id ?? 'run'} spec has ${members.join(', ')})`)));
  const exposure = spec.exposure as Record<string, unknown> | undefined;
  const byObject = exposure !== null && typeof exposure === 'object' && !Array.isArray(exposure) && 'object_id' in exposure;
  if (byObject && (Object.keys(exposure!).length !== 1 || typeof exposure!.object_id !== 'string')) faults.push('exposure {object_id} takes one member, the id of one of your objects');
  if (faults.length > 0) return refused(refusals.invalidRequest(422, `The run spec is not acceptable: ${faults.join('; ')}.`, faults));
  // Points may name the currency of their values (ISO 4217); the lane reads the points without it.
  const { currency, rest } = pointsCurrency(byObject ? undefined : exposure);
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))) {
    return refused(refusals.invalidRequest(422, 'The run spec is not acceptable: exposure.currency must be an ISO 4217 code such as USD.', ['exposure.currency must be an ISO 4217 code such as USD']));
  }
  const specExposure: SpecExposure = byObject ? { byObject: true, object_id: exposure!.object_id as string } : { byObject: false, value: rest };
  if (exchange) return normalizedExchangeSpec(spec, specExposure);
  const normalized = lane!.normalize(spec, specExposure);
  if (!normalized.ok || currency === undefined) return normalized;
  return ok({ ...normalized.value, exposure: { ...(normalized.value.exposure as object), currency } });
}

/** A points exposure's currency member, and the exposure without it (a spec naming none keeps its id). */
function pointsCurrency(exposure: unknown): { currency: unknown; rest: unknown } {
  if (exposure === null || typeof exposure !== 'object' || Array.isArray(exposure) || !('currency' in exposure)) return { currency: undefined, rest: exposure };
  const { currency, ...rest } = exposure as Record<string, unknown>;
  return { currency, rest };
}

/** Where a run's job is read: the lab host links it absolutely on the API host. */
export type JobLink = (jobId: string) => string;

/**
 * POST /runs: the run of a spec, owned by the caller and metered once per account and run however
 * often it is submitted (and after a lost answer). A stored result is read back; a run whose job
 * failed, or that has none yet, is queued.
 */
export async function submitRun(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'labRuns' | 'labInputs' | 'jobs' | 'wakeWorker' | 'now' | 'compute' | 'config' | 'exchangeConnectors'>,
  input: { accountId: string; body: unknown; jobLink: JobLink },
): Promise<Result<Record<string, unknown>>> {
  const { accountId } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  const normalized = normalizedSpec(input.body);
  if (!normalized.ok) return normalized;
  const spec = normalized.value;
  const exposure = (spec.exposure ?? {}) as { object_id?: string };
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
  const lane = labLane(spec.model);
  // The inputs a spec names are the caller's own and of the kinds its members take, before the run is owned or metered.
  if (lane?.userInputs) {
    const named = await loadRunInputs(deps, accountId, namedInputs(lane, spec), false);
    if (!named.ok) return named;
  }
  // A lane that checks a spec against its pinned inputs does so in a compute thread, before the run is owned or metered.
  if (lane?.admit && exposure.object_id === undefined && (await deps.labRuns.result(id)) === undefined) {
    const admitted = await deps.compute('lab-admit', { model: spec.model as string, spec, feedsDir: deps.config.feedsDir });
    if (!admitted.ok) return admitted;
    keepAdmission(id, admitted.value);
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
  /** What the lane's admission answered for this spec in this process (lab-admissions.ts). */
  admitted?: unknown;
  /** The inputs users brought that the spec names, with their files (a lane's userInputs members). */
  inputs?: Record<string, RunInput>;
}

export type LabAdmitTaskInput = Pick<LabRunTaskInput, 'model' | 'spec' | 'feedsDir'>;

/** Runs in a compute thread: the lane's admission checks of the spec (its declaration's admit), not the run. */
export async function labAdmitTask(input: LabAdmitTaskInput, store: FeedStore | undefined): Promise<Result<unknown>> {
  const lane = labLane(input.model);
  if (!lane || !store) return refused(refusal(503, 'server_error', 'The lab model data is not available here.'));
  return admitLane(lane, store, input.spec);
}

/**
 * The input ids a spec names, by member, with the kind each member takes. A member the normalised
 * spec leaves out names no input (the lane's normalize says which it requires).
 */
function namedInputs(lane: LabLane, spec: Record<string, unknown>): Record<string, { id: string; kind: InputKind }> {
  return Object.fromEntries(Object.entries(lane.userInputs ?? {}).filter(([member]) => spec[member] !== undefined).map(([member, kind]) => [member, { id: String(spec[member]), kind }]));
}

/** Runs in a compute thread: the model's lane, its result as canonical JSON. */
export async function labRunTask(input: LabRunTaskInput, store: FeedStore | undefined): Promise<Result<string>> {
  const lane = labLane(input.model);
  const pinned = lane !== undefined && Object.keys(lane.inputs).length > 0;
  if (!lane || (pinned && !store)) return refused(refusal(503, 'server_error', 'The lab model data is not available here.'));
  if (Object.keys(lane.userInputs ?? {}).some((member) => input.spec[member] !== undefined && !input.inputs?.[member])) {
    return refused(refusal(503, 'server_error', 'The inputs this run reads were not handed to it.'));
  }
  const userInputs = await readRunInputs(input.inputs ?? {});
  if (!userInputs.ok) return userInputs;
  return runLane(lane, store, input.spec, input.progress ? new ProgressCount(input.progress) : undefined, { admitted: input.admitted, userInputs: userInputs.value });
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
export function objectExposure(object: { exposure: unknown; oed?: unknown }): { locations: LabLocation[]; currency: string | null; oed?: unknown } {
  const locations = objectLocations(object.exposure as never);
  // The losses are published in the object's currency (domain/lab/engine/publication.ts).
  const currency = (object.exposure as { currency?: string }).currency ?? null;
  return object.oed !== undefined ? { locations, currency, oed: object.oed } : { locations, currency };
}

/** The lab_run job: the lane's result stored with the run (once: a stored run is not run again). */
export async function labRunJob(
  deps: Pick<AppDeps, 'labRuns' | 'labInputs' | 'objects' | 'jobs' | 'compute' | 'config' | 'now' | 'exchangeConnectors' | 'targets'>,
  job: { id: string; accountId: string; signal?: AbortSignal; input: { run_id: string; model: string; spec: Record<string, unknown> & { exposure?: Record<string, unknown> } } },
): Promise<Result<unknown>> {
  const { run_id: runId, model, spec } = job.input;
  const stored = await deps.labRuns.result(runId);
  if (stored !== undefined) return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
  if (isExchangeModel(model)) {
    return exchangeRunJob(deps, job as typeof job & { input: { spec: { exposure: Record<string, unknown> } } }, async (objectId) => {
      const object = await deps.objects.get(objectId, job.accountId);
      if (!object) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
      return ok(objectPoints({ locations: objectLocations(object.exposure as never) }));
    });
  }
  let exposure = spec.exposure;
  if (typeof exposure?.object_id === 'string') {
    const object = await deps.objects.get(exposure.object_id, job.accountId);
    if (!object) return refused(refusal(404, 'not_found', `Object ${exposure.object_id} no longer exists.`));
    exposure = objectExposure(object as unknown as { exposure: unknown; oed?: unknown });
  }
  const lane = labLane(model);
  if (!lane) return refused(refusal(422, 'unrunnable_object', `The lab has no model ${model}.`));
  let inputs: Record<string, RunInput> | undefined;
  if (lane.userInputs) {
    const loaded = await loadRunInputs(deps, job.accountId, namedInputs(lane, spec), true);
    if (!loaded.ok) return loaded;
    inputs = loaded.value;
  }
  const count = new ProgressCount();
  const admitted = takeAdmission(runId);
  const input: LabRunTaskInput = {
    model, spec: exposure === undefined ? spec : { ...spec, exposure }, feedsDir: deps.config.feedsDir, progress: count.buffer,
    ...(admitted !== undefined ? { admitted } : {}), ...(inputs ? { inputs } : {}),
  };
  const result = await recordingProgress(deps, job.id, count, laneProgress(lane), () => deps.compute('lab-run', input));
  if (!result.ok) return result;
  await deps.labRuns.putResult(runId, model, result.value);
  return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
}
