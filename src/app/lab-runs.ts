// The lab run verb: the windstorm lane over pinned PiWind model data, in a compute thread.
import type { Services } from '../services.js';
import { parseAreaPerilGrid, parsePiwindModel, type GridExtent, type PiwindModel } from '../domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { runWindstorm, type WindstormSpec } from '../domain/lab/lanes/windstorm-piwind/windstorm-lane.js';
import { labModel } from '../domain/lab/models.js';
import type { LabLocation } from '../domain/lab/lanes/windstorm-piwind/lookup.js';
import type { FeedStore } from '../feeds/store.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { ApiError } from '../kernel/refusal.js';
import { runTask } from '../jobs/threads.js';
import type { JobHandler } from '../jobs/worker.js';

export interface LabRunTaskInput {
  model: string;
  spec: WindstormSpec;
  feedsDir: string | undefined;
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
export async function labRunTask(input: LabRunTaskInput, store: FeedStore | undefined): Promise<string> {
  const model = labModel(input.model);
  if (!model || !store) throw new ApiError(503, 'server_error', 'The lab model data is not available here.');
  const snapshot = store.get(model.model_data.feed_id, model.model_data.version)!;
  const result = runWindstorm(await piwind(store, model.model_data.feed_id, model.model_data.version), input.spec, {
    modelData: { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, credit_line: snapshot.manifest.credit_line, license: snapshot.manifest.license },
    modelId: model.id,
    revision: model.revision,
  });
  return canonicalJson(result);
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

export function labRunHandler(services: Services): JobHandler {
  return async (job) => {
    const { run_id: runId, model, spec } = job.input as { run_id: string; model: string; spec: Record<string, unknown> & { exposure: Record<string, unknown> } };
    const stored = await services.labRuns.result(runId);
    if (stored !== undefined) return { run_id: runId, links: { self: `/runs/${runId}` } };
    let exposure = spec.exposure;
    if (typeof exposure.object_id === 'string') {
      const object = await services.objects.get(exposure.object_id, job.accountId);
      if (!object) throw new ApiError(404, 'not_found', `Object ${exposure.object_id} no longer exists.`);
      exposure = { locations: objectLocations(object.exposure as never) };
    }
    const input: LabRunTaskInput = { model, spec: { ...spec, exposure } as unknown as WindstormSpec, feedsDir: services.config.feedsDir };
    await services.labRuns.putResult(runId, model, await runTask<string>('lab-run', input));
    return { run_id: runId, links: { self: `/runs/${runId}` } };
  };
}
