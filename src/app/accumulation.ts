// POST /accumulation: where a set of the caller's objects piles up. Synchronous and not metered.
// Each object is read from its stored bytes twice, a batch of locations at a time: once for what it
// declares (peril, region, currency), once for its locations; no schedule is ever held whole.
import { Accumulator, DEFAULT_H3_RESOLUTION, type AccumulatedObject } from '../domain/accumulation/accumulate.js';
import { countryAlpha2 } from '../domain/country.js';
import { perilCode } from '../domain/list-summaries.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusals } from '../kernel/refusal.js';
import { ACCUMULATION_SCHEMA_VERSION } from '../kernel/versions.js';
import { locationBatches, objectSkeleton } from './objects.js';
import type { AppDeps } from './deps.js';

/** What one request may accumulate (SPEC leaves the figures to the service; stated in the docs). */
export const ACCUMULATION_LIMITS = { objects: 1000, locations: 1_000_000 } as const;
/** Locations parsed at a time. */
const BATCH = 5000;

const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

export async function accumulate(
  deps: Pick<AppDeps, 'objects'>,
  input: { accountId: string; objects: readonly string[]; resolution?: number },
): Promise<Result<Record<string, unknown>>> {
  const ids = input.objects;
  const resolution = input.resolution ?? DEFAULT_H3_RESOLUTION;
  if (ids.length === 0) return refused(refusals.invalidRequest(422, 'Name at least one object in objects.', ['objects must hold at least one object id']));
  if (ids.length > ACCUMULATION_LIMITS.objects) {
    return refused(refusals.invalidRequest(422, `${ids.length} objects named; one accumulation reads at most ${ACCUMULATION_LIMITS.objects}.`, [`objects holds ${ids.length} ids; at most ${ACCUMULATION_LIMITS.objects}`]));
  }
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) {
    return refused(refusals.invalidRequest(422, 'Each object is named once.', [...new Set(twice)].map((id) => `objects names ${id} more than once`)));
  }
  const heads = await deps.objects.heads(ids, input.accountId);
  const missing = ids.filter((id) => !heads.has(id));
  if (missing.length > 0) return refused(refusals.notFound(`No object ${missing.join(', ')} for this key`));
  let total = 0;
  for (const h of heads.values()) total += h.locations ?? 0;
  if (total > ACCUMULATION_LIMITS.locations) {
    return refused(refusals.invalidRequest(422, `The objects named hold ${total} locations; one accumulation reads at most ${ACCUMULATION_LIMITS.locations}. Split the set.`,
      [`objects hold ${total} locations; at most ${ACCUMULATION_LIMITS.locations}`]));
  }
  const declared: AccumulatedObject[] = [];
  for (const id of ids) {
    const { document } = await objectSkeleton(deps, id, heads.get(id)!);
    const currency = record(document.exposure)?.currency;
    declared.push({ id, peril: perilCode(document), region: record(document.peril)?.region, currency: typeof currency === 'string' ? currency : null });
  }
  const accumulator = new Accumulator(declared, { resolution, countryOf: (p) => countryAlpha2(p.latitude, p.longitude) });
  for (const [i, id] of ids.entries()) {
    for await (const batch of locationBatches(deps, id, heads.get(id)!, BATCH)) accumulator.add(i, batch);
  }
  return ok({
    schema_version: ACCUMULATION_SCHEMA_VERSION,
    ...accumulator.result(),
    notes: [
      'values are the locations\' total values, summed exactly per currency and never converted; a location states its own currency or takes its object\'s exposure.currency; currency null: neither stated one',
      'perils: every code of the vocabulary, with the objects whose peril.code it is (peril null: objects naming none)',
      'regions: each distinct peril.region declared by an object, with every named object\'s locations inside it (edges inclusive)',
      'countries: the ISO 3166-1 alpha-2 code of the territory holding each location\'s H3 cell centre, from the offline borders of country-coder (OpenStreetMap); country null at sea; within a cell\'s width of a border a location may be counted in its neighbour',
    ],
  });
}
