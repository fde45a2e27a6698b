// The model lab host: GET /models, POST /runs (content-addressed, run as jobs), GET /runs/{id}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { LAB_MODELS, labModel } from '../domain/lab/models.js';
import { readWindstormSpec } from '../domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { termsSpec } from '../domain/lab/kernel/financial.js';
import { unwrap } from '../kernel/result.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { refusals } from '../kernel/refusal.js';
import { callerOf, requireActive } from './api/accounts.js';
import { jobView } from '../jobs/view.js';
import type { HostDirectory } from './servers.js';
import { piwindGridExtent } from '../jobs/lab-run.js';
import { LAB_RUN_SCHEMA_VERSION } from '../kernel/versions.js';
import { listModels, readRun, submitRun } from './schemas/lab.js';

/**
 * The spec after defaults are filled in: what the run's content address is taken over, so member
 * order, spelled-out defaults and equivalent terms give one run.
 */
function normalizedSpec(spec: Record<string, unknown>): Record<string, unknown> {
  // The schema admits only the spec's members and a listed model.
  const model = labModel(spec.model);
  const faults: string[] = [];
  const exposure = spec.exposure as Record<string, unknown> | undefined;
  const byObject = exposure !== null && typeof exposure === 'object' && !Array.isArray(exposure) && 'object_id' in exposure;
  if (byObject && (Object.keys(exposure!).length !== 1 || typeof exposure!.object_id !== 'string')) faults.push('exposure {object_id} takes one member, the id of one of your objects');
  if (faults.length > 0) throw refusals.invalidRequest(422, `The run spec is not acceptable: ${faults.join('; ')}.`, faults);
  const samples = spec.samples ?? 0;
  // Object exposure is read on the job; validate the rest with an empty schedule in its place.
  const read = unwrap(readWindstormSpec({ samples, exposure: byObject ? { points: [] } : exposure, terms: spec.terms, correlation: spec.correlation }, model!.revision));
  return {
    model: model!.id,
    version: model!.version,
    samples,
    exposure: byObject ? { object_id: exposure!.object_id } : { points: read.locations.map((l) => ({ lat: l.latitude, lon: l.longitude, value: l.buildings_value })) },
    terms: read.terms ? termsSpec(read.terms) : null,
    correlation: read.correlation,
  };
}

export function labRoutes(app: FastifyInstance, services: Services, directory: HostDirectory) {
  // A run's job lives on the API host: its link is absolute.
  const jobUrl = (request: FastifyRequest, jobId: string) => `${directory.baseUrl('api', request)}/jobs/${jobId}`;
  // The grid is read from the pinned file once; a failed read is not kept.
  let extents: Promise<unknown[]> | null = null;
  const gridExtents = () => {
    if (!extents) {
      const mine = Promise.all(LAB_MODELS.map((m) => piwindGridExtent(services.feeds, m.model_data.feed_id, m.model_data.version)));
      extents = mine;
      mine.catch(() => { if (extents === mine) extents = null; });
    }
    return extents;
  };

  app.get('/models', listModels, async () => {
    const footprints = await gridExtents();
    return {
      schema_version: LAB_RUN_SCHEMA_VERSION,
      models: LAB_MODELS.map((m, i) => {
        const snapshot = services.feeds?.get(m.model_data.feed_id, m.model_data.version);
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
    };
  });

  app.post('/runs', submitRun, async (request, reply) => {
    await requireActive(services, request);
    const { accountId } = callerOf(request);
    const spec = normalizedSpec(request.body as Record<string, unknown>);
    const exposure = spec.exposure as { object_id?: string };
    if (exposure.object_id !== undefined && !(await services.objects.head(exposure.object_id, accountId))) {
      throw refusals.notFound(`No object ${exposure.object_id} for this key`);
    }
    const id = `run_${contentAddress(spec).slice(0, 32)}`;
    await services.labRuns.addOwner({ run_id: id, account_id: accountId, job_id: null, spec: canonicalJson(spec), created_at: new Date().toISOString() });
    // Recorded once per account and run however often it is submitted (and after a lost answer).
    await services.accounts.recordUsage(accountId, 'model_run', id);
    const owner = (await services.labRuns.owner(id, accountId))!;
    const stored = await services.labRuns.result(id);
    if (stored === undefined && (owner.job_id === null || (await services.jobs.get(owner.job_id, accountId))?.status === 'failed')) {
      const job = await services.jobs.create({ accountId, verb: 'lab_run', subject: { run_id: id, model: spec.model }, input: { run_id: id, model: spec.model, spec } });
      await services.labRuns.setJob(id, accountId, job.id);
      services.worker?.nudge();
    }
    const document = await runDocument(services, id, accountId, (jobId) => jobUrl(request, jobId));
    return reply.code(document.status === 'succeeded' ? 200 : 202).header('location', `/runs/${id}`).send(document);
  });

  app.get('/runs/:id', readRun, async (request) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    if (!(await services.labRuns.owner(id, accountId))) throw refusals.notFound(`No run ${id} for this key`);
    return runDocument(services, id, accountId, (jobId) => jobUrl(request, jobId));
  });
}

async function runDocument(services: Services, id: string, accountId: string, jobUrl: (jobId: string) => string) {
  const owner = (await services.labRuns.owner(id, accountId))!;
  const spec = JSON.parse(owner.spec) as Record<string, unknown>;
  const stored = await services.labRuns.result(id);
  const job = owner.job_id ? await services.jobs.get(owner.job_id, accountId) : undefined;
  const document: Record<string, unknown> = {
    schema_version: LAB_RUN_SCHEMA_VERSION,
    id,
    model: { id: spec.model, version: spec.version },
    spec,
    status: stored !== undefined ? 'succeeded' : job?.status ?? 'queued',
    label: labModel(spec.model)?.label,
    links: { self: `/runs/${id}`, ...(job ? { job: jobUrl(job.id) } : {}) },
  };
  if (stored !== undefined) document.result = JSON.parse(stored);
  else if (job?.status === 'failed') document.error = jobView(job).error;
  return document;
}
