// POST /accumulation: where a set of the caller's objects piles up. Synchronous and not metered.
// The refusals are answered here; then each object's location digest (written with its version,
// domain/accumulation/digest.ts) is read, and the digests are handed, moved not copied, to a compute
// thread that sums them (accumulationTask), so the event loop stays free and no location is parsed.
// A digest written without its H3 cells (every write leaves them to here) gets them in the thread,
// which needs them anyway; the completed digest comes back and is stored for that exact version.
import { Accumulator } from '../domain/accumulation/accumulate.js';
import { DEFAULT_H3_RESOLUTION, DigestScanner, readDigest, withCells } from '../domain/accumulation/digest.js';
import { countryAlpha2 } from '../domain/country.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusals } from '../kernel/refusal.js';
import { ACCUMULATION_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

/** What one request may accumulate (SPEC leaves the figures to the service; stated in the docs). */
export const ACCUMULATION_LIMITS = { objects: 1000, locations: 1_000_000 } as const;

export async function accumulate(
  deps: Pick<AppDeps, 'objects' | 'compute'>,
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
  const stored = await deps.objects.digests(ids, input.accountId);
  const digests: Uint8Array[] = [];
  // The version each digest belongs to: where its completed digest is stored back.
  const versions: number[] = [];
  for (const id of ids) {
    const digest = stored.get(id) ?? await digestOfCurrentVersion(deps, id, input.accountId);
    digests.push(digest.bytes);
    versions.push(digest.version);
  }
  stored.clear();
  // One buffer for the thread, each digest at an 8-byte boundary (its arrays are read in place).
  const spans: Array<[number, number]> = [];
  let size = 0;
  for (const d of digests) {
    spans.push([size, d.byteLength]);
    size += (d.byteLength + 7) & ~7;
  }
  const buffer = new ArrayBuffer(size);
  const all = new Uint8Array(buffer);
  digests.forEach((d, i) => all.set(d, spans[i]![0]));
  digests.length = 0;
  const summed = await deps.compute('accumulation', { ids, resolution, buffer, spans }, [buffer]);
  if (!summed.ok) return summed;
  // Only the version read: a newer one written meanwhile keeps its own digest, and a version
  // dropped meanwhile is not written again.
  for (const [i, bytes] of summed.value.completed) await deps.objects.putDigestCells(ids[i]!, versions[i]!, bytes);
  return ok({
    schema_version: ACCUMULATION_SCHEMA_VERSION,
    ...summed.value.figures,
    notes: [
      'values are the locations\' total values, summed exactly per currency and never converted; a location states its own currency or takes its object\'s exposure.currency; currency null: neither stated one',
      'perils: every code of the vocabulary, with the objects whose peril.code it is (peril null: objects naming none)',
      'regions: each distinct peril.region declared by an object, with every named object\'s locations inside it (edges inclusive)',
      'countries: the ISO 3166-1 alpha-2 code of the territory holding each location\'s H3 cell centre, from the offline borders of country-coder (OpenStreetMap); country null at sea; within a cell\'s width of a border a location may be counted in its neighbour',
    ],
  });
}

export interface AccumulationTaskInput {
  /** The objects in the order named. */
  readonly ids: readonly string[];
  readonly resolution: number;
  /** Every object's digest, at [offset, length] of `spans` (in the order of ids). */
  readonly buffer: ArrayBuffer;
  readonly spans: ReadonlyArray<readonly [number, number]>;
}

export interface AccumulationTaskOutput {
  readonly figures: Record<string, unknown>;
  /** [index in ids, the digest completed with its cells] for each digest read without them. */
  readonly completed: ReadonlyArray<readonly [number, Uint8Array]>;
}

/**
 * The compute thread's half: the digests summed by the Accumulator, countries from offline borders.
 * At DEFAULT_H3_RESOLUTION a digest without cells is completed first (its cells are what the sums
 * need) and handed back; at another resolution its cells are not the ones needed, and it is left.
 */
export function accumulationTask(input: AccumulationTaskInput): Result<AccumulationTaskOutput> {
  const completed: Array<[number, Uint8Array]> = [];
  const digests = input.spans.map(([at, length], i) => {
    const bytes = new Uint8Array(input.buffer, at, length);
    const full = input.resolution === DEFAULT_H3_RESOLUTION ? withCells(bytes) : undefined;
    if (full) completed.push([i, full]);
    return readDigest(full ?? bytes);
  });
  const declared = input.ids.map((id, i) => {
    const { peril, region, currency } = digests[i]!.header;
    return { id, peril, region, currency };
  });
  const accumulator = new Accumulator(declared, { resolution: input.resolution, countryOf: (p) => countryAlpha2(p.latitude, p.longitude) });
  digests.forEach((digest, i) => accumulator.addDigest(i, digest));
  return ok({ figures: accumulator.result(), completed });
}

/**
 * The digest of an object's current version read from its stored bytes, and stored: for a version
 * written without one (none should be: every write makes one and the migration filled the rest).
 * Read again from the head when a write supersedes the version while it is being read.
 */
async function digestOfCurrentVersion(deps: Pick<AppDeps, 'objects'>, id: string, accountId: string): Promise<{ version: number; bytes: Uint8Array }> {
  for (let attempt = 1; ; attempt += 1) {
    const head = await deps.objects.head(id, accountId);
    if (!head) throw new Error(`object ${id} is gone`);
    try {
      const scanner = new DigestScanner();
      for await (const chunk of deps.objects.bytes(id, head)) scanner.feed(chunk);
      const bytes = scanner.finish();
      await deps.objects.putDigest(id, head.version, bytes);
      return { version: head.version, bytes };
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
