// An exchange model run from the lab (POST {lab_url}/runs with {"model": "xm_…", exposure,
// parameters?}): the spec is normalised and content-addressed like any lab run, the connector is
// read through the internal route (which refuses an account not granted), and the job submits the
// run to the provider's platform, polls it and fetches its result, stored labelled as run by the
// provider on its own platform. Nothing runs in a compute thread: the model is not here.
import { readPoints } from '../domain/lab/engine/places.js';
import { placesOf } from '../domain/lab/engine/places.js';
import { runSpecRefusal } from '../domain/lab/engine/spec-refusal.js';
import { LISTING_ID } from '../domain/exchange/listing.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import type { ExchangeConnector } from '../providers/ports.js';
import { fetchResult, pollRun, submitRun, type PlatformRun } from './exchange-platform.js';
import type { SpecExposure } from './lab-lanes.js';
import type { AppDeps } from './deps.js';

/** An exchange model's id in a run spec. */
export const isExchangeModel = (model: unknown): model is string => typeof model === 'string' && LISTING_ID.test(model);

/** The spec members an exchange model reads besides model and exposure. */
export const EXCHANGE_SPEC_MEMBERS = ['parameters'] as const;

/** The label every exchange run carries. */
export const EXCHANGE_RUN_LABEL = 'Run by its provider on the provider\'s own platform and listed on the catrisk model exchange: catrisk does not hold this model, has not validated it, and only passes on the exposure and the result.';

/** The normalised spec: the model, the points (or an object's id, read on the job) and the parameters passed to the provider ({} when absent). */
export function normalizedExchangeSpec(spec: Readonly<Record<string, unknown>>, exposure: SpecExposure): Result<Record<string, unknown>> {
  const details: string[] = [];
  const points = exposure.byObject ? undefined : readPoints(exposure.value, details);
  const parameters = spec.parameters ?? {};
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) details.push('parameters must be a JSON object (passed to the provider\'s platform as written)');
  if (details.length > 0) return refused(runSpecRefusal(details));
  return ok({
    model: spec.model,
    exposure: exposure.byObject ? { object_id: exposure.object_id } : { points: points!.map((p) => ({ lat: p.lat, lon: p.lon, value: p.value })) },
    parameters,
  });
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

const platformFailure = (message: string) => refusal(502, 'server_error', message);

/**
 * The job's half: the run submitted to the provider's platform, polled until it ends (at most
 * config.exchange.runTimeoutMs), its result stored with the run. The connector is read again here,
 * so a grant taken back or a listing withdrawn since the POST stops the run.
 */
export async function exchangeRunJob(
  deps: Pick<AppDeps, 'labRuns' | 'exchangeConnectors' | 'targets' | 'config'>,
  job: { accountId: string; signal?: AbortSignal; input: { run_id: string; model: string; spec: Record<string, unknown> & { exposure: Record<string, unknown> } } },
  locations: (objectId: string) => Promise<Result<Array<{ lat: number; lon: number; value: number }>>>,
): Promise<Result<unknown>> {
  const { run_id: runId, model, spec } = job.input;
  const read = await deps.exchangeConnectors.connector(model, job.accountId);
  if (!read.ok) return read;
  const connector: ExchangeConnector = read.value;
  let points = spec.exposure.points as Array<{ lat: number; lon: number; value: number }> | undefined;
  if (typeof spec.exposure.object_id === 'string') {
    const located = await locations(spec.exposure.object_id);
    if (!located.ok) return located;
    points = located.value;
  }
  try {
    let run: PlatformRun = await submitRun(deps.targets, connector, { run_id: runId, exposure: { points: points ?? [] }, parameters: spec.parameters ?? {} });
    const until = Date.now() + deps.config.exchange.runTimeoutMs;
    for (let pause = 200; run.status === 'queued' || run.status === 'running'; pause = Math.min(2000, pause * 1.5)) {
      if (job.signal?.aborted) return refused(platformFailure('The run was stopped before the provider\'s platform finished it.'));
      if (Date.now() > until) return refused(refusal(504, 'server_error', `The provider's platform did not finish the run within ${Math.round(deps.config.exchange.runTimeoutMs / 1000)} s (its run ${run.run_ref} was ${run.status}).`));
      await sleep(pause, job.signal);
      run = await pollRun(deps.targets, connector, run.run_ref);
    }
    if (run.status === 'failed') {
      return refused(refusal(422, 'unrunnable_object', `The provider's platform failed the run${run.message ? `: ${run.message}` : ''}.`));
    }
    const result = await fetchResult(deps.targets, connector, run.run_ref);
    const platform = new URL(connector.base_url).host;
    await deps.labRuns.putResult(runId, model, canonicalJson({
      model: { id: connector.model_id, name: connector.name, kind: 'exchange_model' },
      label: EXCHANGE_RUN_LABEL,
      run_by: { provider: connector.provider.name, platform, model_ref: connector.model_ref, run_ref: run.run_ref },
      places: points?.length ?? 0,
      provider_result: result,
    }));
    return ok({ run_id: runId, links: { self: `/runs/${runId}` } });
  } catch (error) {
    // The outbound client's and the protocol's messages name the step, never the credentials.
    const name = (error as Error).name;
    if (name === 'OutboundError' || name === 'PlatformError') return refused(platformFailure((error as Error).message));
    throw error;
  }
}

/** A stored object's located places as the points an exchange model is sent. */
export function objectPoints(locations: Parameters<typeof placesOf>[0]): Array<{ lat: number; lon: number; value: number }> {
  return placesOf(locations).filter((p) => p.lat !== null && p.lon !== null).map((p) => ({ lat: p.lat!, lon: p.lon!, value: p.value ?? 0 }));
}
