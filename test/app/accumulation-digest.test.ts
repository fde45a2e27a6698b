// Accumulation over location digests, the use case called directly on both dialects with its
// compute task run in this process: objects built here by hand (not real exposure) are written with
// a digest per version; the answer is exactly the one recomputed from the stored JSON the way it was
// before digests (test/support/accumulation-reference.ts); a digest is written without H3 cells, the
// first accumulation at resolution 7 stores them (equal to h3-js's own, computed here) and the next
// reads them; a PATCH writes the next version's digest and drops the older ones with their chunks; a
// version stored without one gets it on first use; cells computed for a version replaced while the
// accumulation ran are stored for that version only, never for a newer one nor a dropped one.
import assert from 'node:assert/strict';
import { latLngToCell } from 'h3-js';
import type { Kysely } from 'kysely';
import { accumulate, type AccumulationTaskOutput } from '../../src/app/accumulation.js';
import { patchObject } from '../../src/app/objects.js';
import { digestOfDocument, readDigest, withCells } from '../../src/domain/accumulation/digest.js';
import dispatch from '../../src/jobs/threads/dispatch.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import type { Result } from '../../src/kernel/result.js';
import type { TaskInput, TaskName, TaskOutput } from '../../src/app/deps.js';
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
    // The compute task run in this process, as a compute thread runs it; what it hands back is kept,
    // and `meanwhile` runs after it (as another request would, between the thread and the store-back).
    let handedBack: Array<readonly [number, Uint8Array]> = [];
    let meanwhile: (() => Promise<void>) | undefined;
    const handedBackFor = () => handedBack.map(([i]) => i);
    const deps = {
      ...base, objects: base.objects,
      compute: async <K extends TaskName>(task: K, input: TaskInput<K>) => {
        const out = await dispatch({ task, input } as never) as Result<AccumulationTaskOutput>;
        if (out.ok) handedBack = [...out.value.completed];
        await meanwhile?.();
        return out as Result<TaskOutput<K>>;
      },
    };
    const db = (base.objects as unknown as { db: Kysely<any> }).db;
    const digestRows = (id: string) => db.selectFrom('object_digests').select(['version', 'bytes']).where('object_id', '=', id).orderBy('version').execute();
    // Each located location's cell in the stored digest, against h3-js on the document's own coordinates.
    const assertCells = (bytes: Uint8Array, doc: ReturnType<typeof object>, label: string) => {
      const d = readDigest(bytes);
      assert.ok(d.cells && d.cell, `${label}: cells stored`);
      assert.equal(d.resolution, 7);
      doc.exposure.locations.forEach((l, i) => {
        if (l.latitude === null || l.longitude === null) assert.equal(d.cell![i], 0xffffffff, `${label} location ${i}`);
        else assert.equal(d.cells![d.cell![i]!], latLngToCell(l.latitude, l.longitude, 7), `${label} location ${i}`);
      });
    };
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
    rows.forEach((r) => assert.equal(readDigest(r.bytes).cells, null, 'a fresh object\'s digest has no cells'));

    const check = async (resolution: number | undefined, label: string) => {
      const answer = await accumulate(deps, { accountId, objects: ids, ...(resolution ? { resolution } : {}) });
      assert.ok(answer.ok, label);
      assert.equal(canonicalJson(figuresOf(answer.value)), canonicalJson(await accumulatedFromJson(base, accountId, ids, resolution ?? 7)), label);
      return answer.value as any;
    };
    // At resolution 5 the digests' cells are not the ones needed: none computed, none stored.
    await check(5, 'resolution 5, cells from coordinates');
    assert.deepEqual(handedBackFor(), []);
    for (const id of ids) assert.equal(readDigest((await digestRows(id))[0]!.bytes).cells, null);
    const first = await check(undefined, 'resolution 7, cells computed in the thread');
    assert.equal(first.totals.locations, 900);
    assert.equal(first.regions[0].objects.length, 2);
    assert.deepEqual(handedBackFor(), [0, 1, 2]);
    for (const [i, id] of ids.entries()) {
      const stored = await digestRows(id);
      assert.deepEqual(stored.map((r) => Number(r.version)), [1]);
      assertCells(stored[0]!.bytes, docs[i]!, id);
      assert.deepEqual(Buffer.from(stored[0]!.bytes), Buffer.from(withCells(digestOfDocument(docs[i]!))!));
    }
    const second = await check(undefined, 'resolution 7, the stored cells read');
    assert.deepEqual(handedBackFor(), [], 'the second accumulation computes no cells');
    assert.equal(canonicalJson(second), canonicalJson(first));

    // A PATCH moves the region and renames a peril: the next version's digest says so; versions
    // older than the one before are dropped with their chunks.
    for (const patch of [{ peril: { code: 'wildfire', region: { ...REGION, max_latitude: 34.05 } } }, { peril: { code: 'tropical_cyclone' } }]) {
      const patched = await patchObject(deps, { accountId, id: ids[0]!, patch, ifMatch: undefined });
      assert.ok(patched.ok);
    }
    const versions = await db.selectFrom('object_digests').select('version').where('object_id', '=', ids[0]!).orderBy('version').execute();
    assert.deepEqual(versions.map((v) => Number(v.version)), [2, 3]);
    // Made with the cells of the version before, the digest is the same bytes as completed afresh.
    const current = await db.selectFrom('object_digests').select('bytes').where('object_id', '=', ids[0]!).where('version', '=', 3).executeTakeFirstOrThrow();
    assert.deepEqual(Buffer.from(current.bytes), Buffer.from(withCells(digestOfDocument((await base.objects.get(ids[0]!, accountId))!))!));
    const after = await check(undefined, 'after two PATCHes');
    assert.deepEqual(handedBackFor(), []);
    assert.equal(after.objects[0].peril, 'tropical_cyclone');
    assert.equal(after.regions.length, 0);

    // A version stored without a digest (as before the migration, had it not filled them): made
    // from its bytes on first use, stored, and the answer the same.
    await db.deleteFrom('object_digests').where('object_id', '=', ids[1]!).execute();
    await check(undefined, 'one digest made from the stored bytes');
    const made = await db.selectFrom('object_digests').select(['version', 'bytes']).where('object_id', '=', ids[1]!).execute();
    assert.equal(made.length, 1);
    assert.deepEqual(Buffer.from(made[0]!.bytes), Buffer.from(withCells(digestOfDocument(docs[1]!))!));

    // Versions replaced between the read and the store-back: d is written twice meanwhile (the
    // version read is dropped), e once (the version read is kept, beside the new one).
    const race = [
      object('obj_00000000000000000000000d', 150, 11, 40.7, -74.0, { code: 'flood' }, 'USD'),
      object('obj_00000000000000000000000e', 120, 13, 35.6, 139.7, { code: 'earthquake' }, 'JPY'),
    ];
    for (const d of race) await base.objects.insert(accountId, d);
    const [d, e] = race.map((r) => r.id) as [string, string];
    meanwhile = async () => {
      meanwhile = undefined;
      for (const code of ['wildfire', 'tropical_cyclone']) assert.ok((await patchObject(deps, { accountId, id: d, patch: { peril: { code } }, ifMatch: undefined })).ok);
      assert.ok((await patchObject(deps, { accountId, id: e, patch: { peril: { code: 'flood' } }, ifMatch: undefined })).ok);
    };
    const raced = await accumulate(deps, { accountId, objects: [d, e] });
    assert.ok(raced.ok);
    assert.deepEqual(handedBackFor(), [0, 1]);
    // The figures of the versions read: the locations are the same in every version.
    assert.equal(canonicalJson((raced.value as any).totals), canonicalJson((await accumulatedFromJson(base, accountId, [d, e]) as any).totals));
    const dRows = await digestRows(d);
    assert.deepEqual(dRows.map((r) => Number(r.version)), [2, 3], 'the dropped version is not brought back');
    for (const r of dRows) assert.equal(readDigest(r.bytes).cells, null, `d version ${r.version} untouched`);
    const eRows = await digestRows(e);
    assert.deepEqual(eRows.map((r) => Number(r.version)), [1, 2]);
    assertCells(eRows[0]!.bytes, race[1]!, 'e version 1, the version read');
    assert.deepEqual(Buffer.from(eRows[1]!.bytes), Buffer.from(digestOfDocument((await base.objects.get(e, accountId))!)), 'e version 2 untouched');
    assert.equal(readDigest(eRows[1]!.bytes).cells, null);
    // The next accumulation completes the current versions, and answers what the JSON gives.
    const next = await accumulate(deps, { accountId, objects: [d, e] });
    assert.ok(next.ok);
    assert.equal(canonicalJson(figuresOf(next.value)), canonicalJson(await accumulatedFromJson(base, accountId, [d, e])));
    assertCells((await digestRows(d)).at(-1)!.bytes, race[0]!, 'd version 3');
    assertCells((await digestRows(e)).at(-1)!.bytes, race[1]!, 'e version 2');

    // The refusals stay on the request, before any digest is read.
    const missing = await accumulate(deps, { accountId, objects: [ids[0]!, 'obj_000000000000000000000zzz'] });
    assert.ok(!missing.ok);
    assert.equal(missing.refusal.status, 404);
  });
});
