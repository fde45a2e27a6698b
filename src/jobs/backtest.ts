// The backtest verb: validate the structure against its pinned feed, replay it, store the artifact
// under the content address of its inputs (a replay over the same snapshot gives the same bytes).
// The replay runs in a compute thread, so a burst of backtests never stalls the API.
import type { Services } from '../services.js';
import { backtestData, runBacktest, type BacktestArtifact, type BacktestData } from '../domain/backtest/artifact.js';
import { faultAnswer, type StructureValidation } from '../domain/triggers/faults.js';
import { checkStructure, dataRequest, validateStructure } from '../domain/triggers/index.js';
import { seriesElement } from '../domain/triggers/index-series.js';
import type { StructureTerms } from '../domain/triggers/terms.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { ApiError } from '../kernel/refusal.js';
import { dailySeries, eventCatalog, trackArchive } from '../feeds/readers.js';
import { feedClass } from '../feeds/catalog.js';
import type { FeedStore, Snapshot } from '../feeds/store.js';
import { runTask } from './threads.js';
import type { JobHandler } from './worker.js';

export type Window = { from_year?: number; to_year?: number } | null;

export interface Replay {
  artifact: BacktestArtifact & { id: string; links: { self: string } };
  data: BacktestData;
  snapshot: Snapshot;
  /** The terms as read and checked once; the price reads them from here. */
  validation: StructureValidation;
}

/** Terms of a structure or object as the engine reads them. */
export function termsOf(document: Record<string, unknown>): StructureTerms {
  const { peril, trigger, financial_structure, period } = document;
  return { peril, trigger, financial_structure, period } as StructureTerms;
}

/** Replays terms over their pinned feed; refusals are ApiErrors carrying the verb's code. */
export async function replay(store: FeedStore | undefined, terms: StructureTerms, window: Window, verb: 'backtest' | 'price'): Promise<Replay> {
  const shape = validateStructure(terms);
  const early = faultAnswer(shape, verb);
  if (early) throw ApiError.of(early);
  const request = dataRequest(shape.structure!);
  const snapshot = request.version === null ? undefined : store?.get(request.feed_id, request.version);
  const cls = snapshot ? feedClass(snapshot.manifest) : undefined;
  const validation = checkStructure(shape.structure!, {
    feed: snapshot ? { feed_id: snapshot.feed_id, version: snapshot.version, manifest: snapshot.manifest, class: cls } : null,
    window,
  });
  const fault = faultAnswer(validation, verb);
  if (fault) throw ApiError.of(fault);
  const s = snapshot!;
  const read = request.reader === 'event_catalog' ? await eventCatalog(store!, s)
    : request.reader === 'track_archive' ? await trackArchive(store!, s)
      : await dailySeries(store!, s, seriesElement(validation.structure!, cls) ?? undefined);
  const data = backtestData(read);
  const replayed = runBacktest(validation.structure!, data, { feed_id: s.feed_id, version: s.version, sha256: s.sha256, manifest: s.manifest, class: cls }, window);
  if (!replayed.ok) {
    const { refusal } = replayed;
    // A price refuses on its job with its own code whatever stops the replay.
    throw ApiError.of(verb === 'price' && refusal.code === 'unbacktestable_structure' ? { ...refusal, code: 'unpriceable_object' } : refusal);
  }
  const outcome = replayed.value;
  const id = `bt_${contentAddress({
    structure: outcome.structure, feed: outcome.feed, window: { from_year: outcome.window.from_year, to_year: outcome.window.to_year }, engine: outcome.engine,
  }).slice(0, 32)}`;
  return { artifact: { ...outcome, id, links: { self: `/backtests/${id}` } }, data, snapshot: s, validation };
}

export interface BacktestTaskInput { terms: StructureTerms; window: Window; feedsDir: string | undefined }
export interface BacktestTaskOutput { id: string; json: string }

/** Runs in a compute thread: the artifact as canonical JSON. */
export async function backtestTask(input: BacktestTaskInput, store: FeedStore | undefined): Promise<BacktestTaskOutput> {
  const run = await replay(store, input.terms, input.window, 'backtest');
  return { id: run.artifact.id, json: canonicalJson(run.artifact) };
}

export function backtestHandler(services: Services): JobHandler {
  return async (job) => {
    const { structure_id: structureId, window } = job.input as { structure_id: string; window: Window };
    const structure = await services.structures.get(structureId, job.accountId);
    if (!structure) throw new ApiError(404, 'not_found', `Structure ${structureId} no longer exists.`);
    const input: BacktestTaskInput = { terms: termsOf(structure), window, feedsDir: services.config.feedsDir };
    const out = await runTask<BacktestTaskOutput>('backtest', input);
    await services.structures.putBacktest(job.accountId, out.id, out.json);
    return JSON.parse(out.json);
  };
}
