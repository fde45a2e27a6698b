// What a risk object must hold before a submission pack can be assembled from it (SPEC: Errors,
// unpackageable_object): a price run recorded in its provenance, and every block the draft slip
// needs. Read from the stored object on the request, before any job exists. Pure.
import { refusal, type Refusal } from '../../kernel/refusal.js';

/** The blocks the draft slip is written from, in the slip's order. */
export const SLIP_BLOCKS = ['parties', 'period', 'jurisdiction', 'financial_structure', 'trigger', 'technical_premium'] as const;

/** The price run a pack is built from: the run named by the object's technical premium. */
export interface PriceRunRef {
  readonly run_id: string;
  readonly job_id: string;
  readonly recorded_at: string;
}

interface ProvenanceRun { kind?: string; run_id?: string; job_id?: string; recorded_at?: string }

/** The price run the object's technical premium was written by, when its provenance records it. */
export function priceRunOf(object: Record<string, unknown>): PriceRunRef | null {
  const runs = ((object.provenance as { runs?: ProvenanceRun[] } | undefined)?.runs ?? []).filter((r) => r.kind === 'price' && typeof r.run_id === 'string');
  if (runs.length === 0) return null;
  const premium = object.technical_premium as { price_id?: string } | undefined;
  // The run that wrote the premium held now; with none held, the last price run recorded.
  const run = (premium?.price_id ? runs.filter((r) => r.run_id === premium.price_id).at(-1) : undefined) ?? runs.at(-1)!;
  return { run_id: run.run_id!, job_id: String(run.job_id ?? ''), recorded_at: String(run.recorded_at ?? '') };
}

function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'object' && !Array.isArray(value)) return Object.keys(value).length > 0;
  return true;
}

const WHY: Record<(typeof SLIP_BLOCKS)[number], string> = {
  parties: 'parties: the slip names the insured and the other parties (PATCH /objects/{id} with parties)',
  period: 'period: the slip states the period of cover (PATCH /objects/{id} with period)',
  jurisdiction: 'jurisdiction: the slip states the jurisdiction and governing law (PATCH /objects/{id} with jurisdiction)',
  financial_structure: 'financial_structure: the slip states the limit and attachment (PATCH /objects/{id} with financial_structure)',
  trigger: 'trigger: the slip states the trigger and payout schedule (PATCH /objects/{id} with trigger)',
  technical_premium: 'technical_premium: the slip states the technical price written by a price run (POST /objects/{id}/price)',
};

/** One line per missing piece: the price run first, then each slip block in the slip's order. */
export function packageGaps(object: Record<string, unknown>): string[] {
  const gaps: string[] = [];
  if (priceRunOf(object) === null) gaps.push('price run: the provenance records no price run (POST /objects/{id}/price, then package)');
  for (const block of SLIP_BLOCKS) if (!present(object[block])) gaps.push(WHY[block]);
  return gaps;
}

/** 422 unpackageable_object naming every missing piece in the message, one line each in details. */
export function unpackageable(objectId: string, gaps: readonly string[]): Refusal {
  const names = gaps.map((g) => g.slice(0, g.indexOf(':')));
  return refusal(422, 'unpackageable_object',
    `Object ${objectId} cannot be packaged: missing ${names.join(', ')}. A pack is assembled from a price run and the blocks the draft slip needs.`, gaps);
}
