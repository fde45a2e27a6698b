// The price verb: replay the object's terms over their pinned feed, fit, load, and write the
// technical premium to the object. A technical price, never a quote. Computed in a compute thread.
import type { Services } from '../services.js';
import { technicalPrice, isPriceRefusal, type PriceDocument } from '../domain/pricing/technical-price.js';
import type { StructureTerms } from '../domain/backtest/structure.js';
import { applyPrice } from '../domain/risk-object/price.js';
import { canonicalJson, contentAddress } from '../http/canonical-json.js';
import { ApiError } from '../http/errors.js';
import type { FeedStore } from '../feeds/store.js';
import { replay, termsOf, type Window } from './backtest.js';
import { runTask } from './threads.js';
import type { JobHandler } from './worker.js';

export interface PriceTaskInput { objectId: string; terms: StructureTerms; window: Window; feedsDir: string | undefined }
/** Runs in a compute thread: the price document as canonical JSON. */
export async function priceTask(input: PriceTaskInput, store: FeedStore | undefined): Promise<string> {
  const run = await replay(store, input.terms, input.window, 'price');
  const priced = technicalPrice({ structure: input.terms, artifact: run.artifact, data: run.data, manifest: run.snapshot.manifest });
  if (isPriceRefusal(priced)) throw new ApiError(priced.fault.status, priced.fault.code, priced.fault.message, priced.fault.details);
  // The same object, terms and snapshot give the same id and the same bytes.
  const id = `pr_${contentAddress({ object_id: input.objectId, inputs: priced.inputs, model: priced.model }).slice(0, 32)}`;
  return canonicalJson({ ...priced, id, object_id: input.objectId, backtest: { id: run.artifact.id, links: run.artifact.links } });
}

export function priceHandler(services: Services): JobHandler {
  return async (job) => {
    const { object_id: objectId, window } = job.input as { object_id: string; window: Window };
    const object = await services.objects.get(objectId, job.accountId);
    if (!object) throw new ApiError(404, 'not_found', `Object ${objectId} no longer exists.`);
    const input: PriceTaskInput = { objectId, terms: termsOf(object), window, feedsDir: services.config.feedsDir };
    const document = JSON.parse(await runTask<string>('price', input)) as PriceDocument & { id: string };
    // Re-read: the object written is the one stored now, with the premium and the run recorded.
    const current = await services.objects.get(objectId, job.accountId);
    if (!current) throw new ApiError(404, 'not_found', `Object ${objectId} no longer exists.`);
    await services.objects.replace(job.accountId, applyPrice(current, document, job.id, new Date().toISOString()));
    await services.accounts.recordUsage(job.accountId, 'model_run', document.id);
    return document;
  };
}
