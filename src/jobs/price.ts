// The price verb: replay the object's terms over their pinned feed, fit, load, and write the
// technical premium to the object. A technical price, never a quote. Computed in a compute thread.
import type { Services } from '../services.js';
import { technicalPrice, type PriceDocument } from '../domain/pricing/technical-price.js';
import { unwrap } from '../kernel/result.js';
import type { StructureTerms } from '../domain/triggers/terms.js';
import { applyPrice, priceRecorded, samePricedInputs } from '../domain/risk-object/price.js';
import { PRICED_INPUTS } from '../domain/risk-object/patch.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { ApiError } from '../kernel/refusal.js';
import type { FeedStore } from '../feeds/store.js';
import { feedClass } from '../feeds/catalog.js';
import { replay, termsOf, type Window } from './backtest.js';
import { runTask } from './threads.js';
import type { JobHandler } from './worker.js';

export interface PriceTaskInput { objectId: string; terms: StructureTerms; window: Window; feedsDir: string | undefined }
/** Runs in a compute thread: the price document as canonical JSON. */
export async function priceTask(input: PriceTaskInput, store: FeedStore | undefined): Promise<string> {
  const run = await replay(store, input.terms, input.window, 'price');
  const priced = unwrap(technicalPrice({ validation: run.validation, artifact: run.artifact, data: run.data, manifest: run.snapshot.manifest, feed_class: feedClass(run.snapshot.manifest) }));
  // The same object, terms and snapshot give the same id and the same bytes.
  const id = `pr_${contentAddress({ object_id: input.objectId, inputs: priced.inputs, model: priced.model }).slice(0, 32)}`;
  return canonicalJson({ ...priced, id, object_id: input.objectId, backtest: { id: run.artifact.id, links: run.artifact.links } });
}

export function priceHandler(services: Services): JobHandler {
  return async (job) => {
    const { object_id: objectId, window } = job.input as { object_id: string; window: Window };
    const priced = await services.objects.get(objectId, job.accountId);
    if (!priced) throw new ApiError(404, 'not_found', `Object ${objectId} no longer exists.`);
    const input: PriceTaskInput = { objectId, terms: termsOf(priced), window, feedsDir: services.config.feedsDir };
    const document = JSON.parse(await runTask<string>('price', input)) as PriceDocument & { id: string };
    // Written under compare-and-set, and only while the object holds exactly the terms priced: a
    // PATCH of another block meanwhile is kept, a PATCH of a priced input fails the job.
    const written = await services.objects.update(objectId, job.accountId, (current) => {
      if (!samePricedInputs(priced, current)) {
        throw new ApiError(409, 'object_changed',
          `Object ${objectId}'s priced terms (${PRICED_INPUTS.join(', ')}) changed while the price ran; no premium was written. Price it again.`);
      }
      if (priceRecorded(current, document.id, job.id)) return { value: undefined };
      return { write: applyPrice(current, document, job.id, new Date().toISOString()), value: undefined };
    });
    if (!written) throw new ApiError(404, 'not_found', `Object ${objectId} no longer exists.`);
    await services.accounts.recordUsage(job.accountId, 'model_run', document.id);
    return document;
  };
}
