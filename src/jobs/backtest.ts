// The backtest verb: validate the structure against its pinned feed, replay it, store the artifact
// under the content address of its inputs (a replay over the same snapshot gives the same bytes).
import type { Services } from '../services.js';
import { backtestData, runBacktest, type BacktestArtifact } from '../domain/backtest/artifact.js';
import { dataRequest, faultAnswer, validateStructure, type StructureTerms } from '../domain/backtest/structure.js';
import { canonicalJson, contentAddress } from '../http/canonical-json.js';
import { ApiError } from '../http/errors.js';
import { dailySeries, eventCatalog, trackArchive } from '../feeds/readers.js';
import type { Snapshot } from '../feeds/store.js';
import type { JobHandler } from './worker.js';

export interface BacktestRun {
  artifact: BacktestArtifact & { id: string; links: { self: string } };
  json: string;
  snapshot: Snapshot;
}

/** Terms of a structure or object as the engine reads them. */
export function termsOf(document: Record<string, unknown>): StructureTerms {
  const { peril, trigger, financial_structure, period } = document;
  return { peril, trigger, financial_structure, period } as StructureTerms;
}

/** Replays terms over their pinned feed; refusals come back as ApiErrors with the verb's code. */
export async function replay(services: Services, terms: StructureTerms, window: { from_year?: number; to_year?: number } | null, verb: 'backtest' | 'price'): Promise<BacktestRun> {
  const shape = validateStructure(terms);
  const early = faultAnswer(shape, verb);
  if (early) throw new ApiError(422, early.code, early.message, early.details);
  const request = dataRequest(shape.structure!);
  const snapshot = request.version === null ? undefined : services.feeds?.get(request.feed_id, request.version);
  const validation = validateStructure(terms, {
    feed: snapshot ? { feed_id: snapshot.feed_id, version: snapshot.version, manifest: snapshot.manifest } : null,
    window,
  });
  const fault = faultAnswer(validation, verb);
  if (fault) throw new ApiError(422, fault.code, fault.message, fault.details);
  const store = services.feeds!;
  const read = request.reader === 'event_catalog' ? await eventCatalog(store, snapshot!)
    : request.reader === 'track_archive' ? await trackArchive(store, snapshot!)
      : await dailySeries(store, snapshot!, request.element ?? undefined);
  const feed = { feed_id: snapshot!.feed_id, version: snapshot!.version, sha256: snapshot!.sha256, manifest: snapshot!.manifest };
  const outcome = runBacktest(terms, backtestData(read), feed, window);
  if ('fault' in outcome) {
    const code = verb === 'price' && outcome.fault.code === 'unbacktestable_structure' ? 'unpriceable_object' : outcome.fault.code;
    throw new ApiError(422, code, outcome.fault.message, outcome.fault.details);
  }
  const id = `bt_${contentAddress({
    structure: outcome.structure, feed: outcome.feed, window: { from_year: outcome.window.from_year, to_year: outcome.window.to_year }, engine: outcome.engine,
  }).slice(0, 32)}`;
  const artifact = { ...outcome, id, links: { self: `/backtests/${id}` } };
  return { artifact, json: canonicalJson(artifact), snapshot: snapshot! };
}

export function backtestHandler(services: Services): JobHandler {
  return async (job) => {
    const { structure_id: structureId, window } = job.input as { structure_id: string; window: { from_year?: number; to_year?: number } | null };
    const structure = await services.structures.get(structureId, job.accountId);
    if (!structure) throw new ApiError(404, 'not_found', `Structure ${structureId} no longer exists.`);
    const run = await replay(services, termsOf(structure), window, 'backtest');
    await services.structures.putBacktest(job.accountId, run.artifact.id, run.json);
    return run.artifact;
  };
}
