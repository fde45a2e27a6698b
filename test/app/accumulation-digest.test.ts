// Accumulation over location digests, the use case called directly on both dialects with its
// compute task run in this process: objects built here by hand (not real exposure) are written with
// a digest per version; the answer is exactly the one recomputed from the stored JSON the way it was
// before digests (test/support/accumulation-reference.ts); a PATCH writes the next version's digest
// and drops the older ones with their chunks; a version stored without one gets it on first use.
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { accumulate } from '../../src/app/accumulation.js';
import { patchObject } from '../../src/app/objects.js';
import { digestOfDocument } from '../../src/domain/accumulation/digest.js';
import dispatch from '../../src/jobs/threads/dispatch.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import type { Result } from '../../src/kernel/result.js';
import type { ComputeTask } from '../../src/app/deps.js';
import { accumulatedFromJson, figuresOf } from '../support/accumulation-reference.js';
import { eachDialect } from '../support/service.js';
import { withDeps } from './support.js';

const loc = (i: number, lat: number | null, lon: number | null, total: string | null, currency?: string) => ({
  ref: `L${i}`, address: {}, latitude: lat, longitude: lon, occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null,
  values: { total }, ...(currency ? { currency } : {}),
});

function object(id: string, n: number, seed: number, lat0: number, lon0: number, peril: Record<string, unknown> | undefined, currency: string) {
  let s = seed;
  const next = () => (s = (s * 48271) % 2147483647) / 2147483647;
  const locations = Array.from({ length: n }, (_, i) => loc(i,
    i % 29 === 3 ? null : Math.round((lat0 + next() * 0.2) * 1e5) / 1e5, i % 29 === 3 ? null : Math.round((lon0 + next() * 0.2) * 1e5) / 1e5,
    // Unvalued, beyond 2^53 ten-thousandths (both signs), negative, and ordinary amounts.
    i % 17 === 1 ? null : i === 5 ? '12345678901234.5678' : i === 6 ? '-900719925474.0993' : i % 31 === 7 ? '-125.50' : (Math.round(next() * 1e9) / 100).toFixed(2),
    i % 10 === 0 ? 'GBP' : undefined));
  return {
    id, status: 'draft', ...(peril ? { peril } : {}),
    exposure: { locations, values: { total: null }, currency, source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] } },
    provenance: { source_files: [], runs: [] },
  };
}

const REGION = { type: 'box', min_latitude: 34.0, max_latitude: 34.1, min_longitude: -118.4, max_longitude: -118.2 };

eachDialect('accumulation reads the digests written with each version and answers exactly what the JSON gives', async (dialect) => {
  await withDeps(dialect, async (base) => {
    // The compute task run in this process, as a compute thread runs it.
    const deps = { ...base, objects: base.objects, compute: async <T>(task: ComputeTask, input: unknown) => dispatch({ task, input } as never) as Promise<Result<T>> };
    const db = (base.objects as unknown as { db: Kysely<any> }).db;
    const accountId = (await base.accounts.signup({ label: 'digests' })).account.id;
    const docs = [
      object('obj_00000000000000000000000a', 400, 3, 33.95, -118.45, { code: 'earthquake', region: REGION }, 'USD'),
      object('obj_00000000000000000000000b', 300, 5, 52.1, 4.8, { code: 'flood' }, 'EUR'),
      object('obj_00000000000000000000000c', 200, 7, 34.0, -118.35, undefined, 'USD'),
    ];
    for (const d of docs) await base.objects.insert(accountId, d);
    const ids = docs.map((d) => d.id);
    const rows = await db.selectFrom('object_digests').select(['object_id', 'version', 'bytes']).orderBy('object_id').execute();
    assert.deepEqual(rows.map((r) => [r.object_id, Number(r.version)]), ids.map((id) => [id, 1]));
    rows.forEach((r, i) => assert.deepEqual(Buffer.from(r.bytes), Buffer.from(digestOfDocument(docs[i]!))));

    const check = async (resolution: number | undefined, label: string) => {
      const answer = await accumulate(deps, { accountId, objects: ids, ...(resolution ? { resolution } : {}) });
      assert.ok(answer.ok, label);
      assert.equal(canonicalJson(figuresOf(answer.value)), canonicalJson(await accumulatedFromJson(base, accountId, ids, resolution ?? 7)), label);
      return answer.value as any;
    };
    const first = await check(undefined, 'resolution 7, the digests\' own cells');
    assert.equal(first.totals.locations, 900);
    assert.equal(first.regions[0].objects.length, 2);
    await check(5, 'resolution 5, cells from coordinates');

    // A PATCH moves the region and renames a peril: the next version's digest says so; versions
    // older than the one before are dropped with their chunks.
    for (const patch of [{ peril: { code: 'wildfire', region: { ...REGION, max_latitude: 34.05 } } }, { peril: { code: 'tropical_cyclone' } }]) {
      const patched = await patchObject(deps, { accountId, id: ids[0]!, patch, ifMatch: undefined });
      assert.ok(patched.ok);
    }
    const versions = await db.selectFrom('object_digests').select('version').where('object_id', '=', ids[0]!).orderBy('version').execute();
    assert.deepEqual(versions.map((v) => Number(v.version)), [2, 3]);
    // Made with the cells of the version before, the digest is the same bytes as made afresh.
    const current = await db.selectFrom('object_digests').select('bytes').where('object_id', '=', ids[0]!).where('version', '=', 3).executeTakeFirstOrThrow();
    assert.deepEqual(Buffer.from(current.bytes), Buffer.from(digestOfDocument((await base.objects.get(ids[0]!, accountId))!)));
    const after = await check(undefined, 'after two PATCHes');
    assert.equal(after.objects[0].peril, 'tropical_cyclone');
    assert.equal(after.regions.length, 0);

    // A version stored without a digest (as before the migration, had it not filled them): made
    // from its bytes on first use, stored, and the answer the same.
    await db.deleteFrom('object_digests').where('object_id', '=', ids[1]!).execute();
    await check(undefined, 'one digest made from the stored bytes');
    const made = await db.selectFrom('object_digests').select(['version', 'bytes']).where('object_id', '=', ids[1]!).execute();
    assert.equal(made.length, 1);
    assert.deepEqual(Buffer.from(made[0]!.bytes), Buffer.from(digestOfDocument(docs[1]!)));

    // The refusals stay on the request, before any digest is read.
    const missing = await accumulate(deps, { accountId, objects: [ids[0]!, 'obj_000000000000000000000zzz'] });
    assert.ok(!missing.ok);
    assert.equal(missing.refusal.status, 404);
  });
});
