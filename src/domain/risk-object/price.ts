// Writing a technical price to its object: the premium, status priced, the run in provenance.
import { isDeepStrictEqual } from 'node:util';
import { PRICED_INPUTS, type RiskObject } from './patch.js';

/** True when both objects hold the same blocks a price is computed from (absent equals absent). */
export function samePricedInputs(a: RiskObject, b: RiskObject): boolean {
  return PRICED_INPUTS.every((block) => isDeepStrictEqual(a[block] ?? null, b[block] ?? null));
}

/** True when this job already wrote this price to the object (a job run again after a crash). */
export function priceRecorded(object: RiskObject, priceId: string, jobId: string): boolean {
  const premium = object.technical_premium as { price_id?: string } | undefined;
  const runs = ((object.provenance as { runs?: Array<Record<string, unknown>> } | undefined)?.runs ?? []);
  return premium?.price_id === priceId && runs.some((r) => r.kind === 'price' && r.run_id === priceId && r.job_id === jobId);
}

interface PriceLike {
  id: string;
  technical_premium: { amount: number; currency: string; rate_on_line: number };
  multiple_of_expected_loss: number;
  model: { name: string; version: string };
  feed: { feed_id: string; version: string; sha256: string };
  statement: string;
}

export function applyPrice(object: RiskObject, price: PriceLike, jobId: string, at: string): RiskObject {
  const provenance = (object.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
  return {
    ...object,
    status: 'priced',
    technical_premium: {
      amount: price.technical_premium.amount,
      currency: price.technical_premium.currency,
      rate_on_line: price.technical_premium.rate_on_line,
      multiple_of_expected_loss: price.multiple_of_expected_loss,
      price_id: price.id,
      model: price.model,
      feed: price.feed,
      statement: price.statement,
    },
    provenance: { ...provenance, runs: [...provenance.runs, { kind: 'price', run_id: price.id, job_id: jobId, model: price.model, feed: price.feed, recorded_at: at }] },
  };
}
