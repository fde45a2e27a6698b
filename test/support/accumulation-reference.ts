// Accumulation as it was computed before the location digests: every object's stored bytes scanned,
// its skeleton for peril, region and currency, its locations parsed from JSON in batches and fed to
// the Accumulator. Kept for the tests, which check the digests answer exactly the same.
import { Accumulator, type AccumulatedObject } from '../../src/domain/accumulation/accumulate.js';
import { countryAlpha2 } from '../../src/domain/country.js';
import { perilCode } from '../../src/domain/list-summaries.js';
import { locationBatches, objectSkeleton } from '../../src/app/objects.js';
import type { AppDeps } from '../../src/app/deps.js';

const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

/** The accumulation's figures (what the answer holds besides schema_version and notes), from the JSON. */
export async function accumulatedFromJson(deps: Pick<AppDeps, 'objects'>, accountId: string, ids: readonly string[], resolution = 7): Promise<Record<string, unknown>> {
  const heads = await deps.objects.heads(ids, accountId);
  const declared: AccumulatedObject[] = [];
  for (const id of ids) {
    const { document } = await objectSkeleton(deps, id, heads.get(id)!);
    const currency = record(document.exposure)?.currency;
    declared.push({ id, peril: perilCode(document), region: record(document.peril)?.region, currency: typeof currency === 'string' ? currency : null });
  }
  const accumulator = new Accumulator(declared, { resolution, countryOf: (p) => countryAlpha2(p.latitude, p.longitude) });
  for (const [i, id] of ids.entries()) {
    for await (const batch of locationBatches(deps, id, heads.get(id)!, 5000)) accumulator.add(i, batch);
  }
  return accumulator.result();
}

/** An accumulation's answer without schema_version and notes. */
export function figuresOf(answer: Record<string, unknown>): Record<string, unknown> {
  const { schema_version: _v, notes: _n, ...figures } = answer;
  return figures;
}
