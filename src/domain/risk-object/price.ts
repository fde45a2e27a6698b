// Writing a technical price to its object: the premium, status priced, the run in provenance.
import type { RiskObject } from './patch.js';

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
