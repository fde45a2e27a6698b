// The price verb: replay the object's terms over their pinned feed, fit, load, and write the
// technical premium to the object. A technical price, never a quote. Computed in a compute thread.
import { technicalPrice, type PriceDocument } from '../domain/pricing/technical-price.js';
import { ok, refused, type Result } from '../kernel/result.js';
import type { StructureTerms } from '../domain/triggers/terms.js';
import { applyPrice, priceRecorded, samePricedInputs } from '../domain/risk-object/price.js';
import { PRICED_INPUTS } from '../domain/risk-object/patch.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { refusal, refusals } from '../kernel/refusal.js';
import type { FeedStore } from '../feeds/store.js';
import { feedClass } from '../feeds/catalog.js';
import { replay, termsOf, type Replay, type Window } from './backtest.js';
import { requireActive } from './accounts.js';
import { queueJob, type QueuedJob } from './jobs.js';
import type { AppDeps } from './deps.js';

/**
 * POST /objects/{id}/price: queues the price of the object's own terms. The request carries no
 * terms of its own: the route's schema takes only an empty body or {} (the terms are varied with a
 * PATCH or a structure), so nothing of the body reaches here.
 */
export async function requestPrice(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; objectId: string },
): Promise<Result<QueuedJob>> {
  const { accountId, objectId: id } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  if (!(await deps.objects.head(id, accountId))) return refused(refusals.notFound(`No object ${id} for this key`));
  return ok(await queueJob(deps, { accountId, verb: 'price', subject: { object_id: id }, input: { object_id: id, window: null } }));
}

export interface PriceTaskInput { objectId: string; terms: StructureTerms; window: Window; feedsDir: string | undefined }
/** Runs in a compute thread: the price document as canonical JSON. */
export async function priceTask(input: PriceTaskInput, store: FeedStore | undefined): Promise<Result<string>> {
  const replayed = await replay(store, input.terms, input.window, 'price');
  if (!replayed.ok) return replayed;
  const run = replayed.value;
  const priced = priceOfReplay(run);
  if (!priced.ok) return priced;
  // The same object, terms and snapshot give the same id and the same bytes.
  const id = `pr_${contentAddress({ object_id: input.objectId, inputs: priced.value.inputs, model: priced.value.model }).slice(0, 32)}`;
  return ok(canonicalJson({ ...priced.value, id, object_id: input.objectId, backtest: { id: run.artifact.id, links: run.artifact.links } }));
}

/** The technical price of a replay: the terms as read once, the artifact, and the records and feed it read. */
export function priceOfReplay(run: Replay): Result<PriceDocument> {
  return technicalPrice({ validation: run.validation, artifact: run.artifact, data: run.data, manifest: run.snapshot.manifest, feed_class: feedClass(run.snapshot.manifest) });
}

/** The price job: the document is written to the object as its technical premium, and metered. */
export async function priceJob(
  deps: Pick<AppDeps, 'objects' | 'accounts' | 'compute' | 'config' | 'now'>,
  job: { id: string; accountId: string; input: { object_id: string; window: Window } },
): Promise<Result<unknown>> {
  const { object_id: objectId, window } = job.input;
  // A price reads the terms: the skeleton, never the locations (a 1M-location object's are 200 MB).
  const priced = (await deps.objects.skeleton(objectId, job.accountId))?.document;
  if (!priced) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
  const input: PriceTaskInput = { objectId, terms: termsOf(priced), window, feedsDir: deps.config.feedsDir };
  const computed = await deps.compute('price', input);
  if (!computed.ok) return computed;
  const document = JSON.parse(computed.value) as PriceDocument & { id: string };
  // Written under compare-and-set, and only while the object holds exactly the terms priced: a
  // PATCH of another block meanwhile is kept, a PATCH of a priced input fails the job.
  const written = await deps.objects.update(objectId, job.accountId, (current): { write?: typeof current; value: Result<void> } => {
    if (!samePricedInputs(priced, current)) {
      return { value: refused(refusal(409, 'object_changed',
        `Object ${objectId}'s priced terms (${PRICED_INPUTS.join(', ')}) changed while the price ran; no premium was written. Price it again.`)) };
    }
    if (priceRecorded(current, document.id, job.id)) return { value: ok(undefined) };
    return { write: applyPrice(current, document, job.id, deps.now().toISOString()), value: ok(undefined) };
  });
  if (!written) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
  if (!written.value.ok) return written.value;
  await deps.accounts.recordUsage(job.accountId, 'model_run', document.id);
  return ok(document);
}
