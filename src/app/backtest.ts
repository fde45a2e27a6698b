// The backtest verb: validate the structure against its pinned feed, replay it, store the artifact
// under the content address of its inputs (a replay over the same snapshot gives the same bytes).
// The replay runs in a compute thread, so a burst of backtests never stalls the API.
import { runBacktest, type BacktestArtifact } from '../domain/backtest/artifact.js';
import { backtestLinks, type BacktestLinks } from '../domain/backtest/links.js';
import { faultAnswer, type StructureValidation } from '../domain/triggers/faults.js';
import { checkStructure, dataRequest, validateStructure } from '../domain/triggers/index.js';
import { seriesElement } from '../domain/triggers/index-series.js';
import { triggerData, type TriggerData } from '../domain/triggers/records.js';
import type { Structure, StructureTerms } from '../domain/triggers/terms.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal } from '../kernel/refusal.js';
import { dailySeries, eventCatalog, outageEvents, trackArchive } from '../feeds/readers.js';
import { feedClass } from '../feeds/catalog.js';
import type { FeedStore, Snapshot } from '../feeds/store.js';
import { backtestSummary } from '../domain/list-summaries.js';
import type { AppDeps } from './deps.js';

export type Window = { from_year?: number; to_year?: number } | null;

export interface Replay {
  artifact: BacktestArtifact & { id: string; links: BacktestLinks };
  data: TriggerData;
  snapshot: Snapshot;
  /** The terms as read and checked once; the price reads them from here. */
  validation: StructureValidation;
}

/** Terms of a structure or object as the engine reads them. */
export function termsOf(document: Record<string, unknown>): StructureTerms {
  const { peril, trigger, financial_structure, period } = document;
  return { peril, trigger, financial_structure, period } as StructureTerms;
}

/** Replays terms over their pinned feed; a refusal carries the verb's code. */
export async function replay(store: FeedStore | undefined, terms: StructureTerms, window: Window, verb: 'backtest' | 'price'): Promise<Result<Replay>> {
  const shape = validateStructure(terms);
  const early = faultAnswer(shape, verb);
  if (early) return refused(early);
  const request = dataRequest(shape.structure!);
  let snapshot = request.version === null ? undefined : store?.get(request.feed_id, request.version);
  // A vintage pinned since the store opened (catrisk feeds add while the service runs) is looked for once before it is refused.
  if (!snapshot && request.version !== null && store) snapshot = (await store.rescan(), store.get(request.feed_id, request.version));
  const cls = snapshot ? feedClass(snapshot.manifest) : undefined;
  const validation = checkStructure(shape.structure!, {
    feed: snapshot ? { feed_id: snapshot.feed_id, version: snapshot.version, manifest: snapshot.manifest, class: cls } : null,
    window,
  });
  const fault = faultAnswer(validation, verb);
  if (fault) return refused(fault);
  const s = snapshot!;
  const data = await feedData(store!, validation.structure!, s);
  const replayed = runBacktest(validation.structure!, data, { feed_id: s.feed_id, version: s.version, sha256: s.sha256, manifest: s.manifest, class: cls }, window);
  if (!replayed.ok) {
    const { refusal } = replayed;
    // A price refuses on its job with its own code whatever stops the replay.
    return refused(verb === 'price' && refusal.code === 'unbacktestable_structure' ? { ...refusal, code: 'unpriceable_object' } : refusal);
  }
  const outcome = replayed.value;
  const id = `bt_${contentAddress({
    structure: outcome.structure, feed: outcome.feed, window: { from_year: outcome.window.from_year, to_year: outcome.window.to_year }, engine: outcome.engine,
  }).slice(0, 32)}`;
  return ok({ artifact: { ...outcome, id, links: backtestLinks(id) }, data, snapshot: s, validation });
}

/** What a structure's design reads from a snapshot, parsed once per snapshot by the store. */
export async function feedData(store: FeedStore, structure: Structure, snapshot: Snapshot): Promise<TriggerData> {
  const { reader } = dataRequest(structure);
  const read = reader === 'event_catalog' ? await eventCatalog(store, snapshot)
    : reader === 'track_archive' ? await trackArchive(store, snapshot)
      : reader === 'outage_events' ? await outageEvents(store, snapshot)
      : await dailySeries(store, snapshot, seriesElement(structure, feedClass(snapshot.manifest)) ?? undefined);
  return triggerData(read);
}

export interface BacktestTaskInput { terms: StructureTerms; window: Window; feedsDir: string | undefined }
export interface BacktestTaskOutput { id: string; json: string }

/** Runs in a compute thread: the artifact as canonical JSON. */
export async function backtestTask(input: BacktestTaskInput, store: FeedStore | undefined): Promise<Result<BacktestTaskOutput>> {
  const run = await replay(store, input.terms, input.window, 'backtest');
  if (!run.ok) return run;
  return ok({ id: run.value.artifact.id, json: canonicalJson(run.value.artifact) });
}

/** The backtest job: the structure's replay, stored under its content address; the artifact is the job's result. */
export async function backtestJob(
  deps: Pick<AppDeps, 'structures' | 'compute' | 'config'>,
  job: { accountId: string; input: { structure_id: string; window: Window } },
): Promise<Result<unknown>> {
  const { structure_id: structureId, window } = job.input;
  const structure = await deps.structures.get(structureId, job.accountId);
  if (!structure) return refused(refusal(404, 'not_found', `Structure ${structureId} no longer exists.`));
  const input: BacktestTaskInput = { terms: termsOf(structure), window, feedsDir: deps.config.feedsDir };
  const out = await deps.compute('backtest', input);
  if (!out.ok) return out;
  const artifact = JSON.parse(out.value.json) as Record<string, unknown>;
  await deps.structures.putBacktest(job.accountId, out.value.id, out.value.json, backtestSummary(artifact));
  return ok(artifact);
}
