// Objects written through the use cases, without HTTP: provenance on create, the version rule of a
// PATCH, and the ingest job's refusal as a Result.
import assert from 'node:assert/strict';
import { createObject, patchObject, entityTag } from '../../src/app/objects.js';
import { signup, usageDocument } from '../../src/app/accounts.js';
import { ingestJob } from '../../src/app/ingest.js';
import { unwrap } from '../../src/kernel/result.js';
import { eachDialect } from '../support/service.js';
import { AT, withDeps } from './support.js';

const GIVEN = {
  id: 'obj_000000000000000000000001', status: 'priced',
  exposure: { locations: [], values: { total: null }, source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] } },
  peril: { code: 'flood' }, financial_structure: { currency: 'USD', limit: 100, attachment: 0 },
  parties: { insured: { name: 'A' } },
  technical_premium: { amount: 12.5, currency: 'USD' },
  provenance: { source_files: [], runs: [{ kind: 'price' }] },
};

eachDialect('a created object is a metered draft whose provenance records the copy', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const { object, version } = unwrap(await createObject(deps, { accountId, body: GIVEN }));
    assert.equal(version, 1);
    assert.notEqual(object.id, GIVEN.id);
    assert.equal(object.status, 'draft');
    assert.equal('technical_premium' in object, false, 'a premium is written only by a price run');
    assert.deepEqual((object.provenance as { runs: unknown[] }).runs, [
      { kind: 'price' },
      { kind: 'create', via: 'POST /objects', recorded_at: AT.toISOString(), copied_from: GIVEN.id },
    ]);
    assert.deepEqual(await deps.objects.get(object.id as string, accountId), object);
    const usage = unwrap(await usageDocument(deps, accountId)) as { records: { unit: string; subject_id: string }[] };
    assert.deepEqual(usage.records.map((r) => [r.unit, r.subject_id]), [['object', object.id]]);

    const invalid = await createObject(deps, { accountId, body: [] });
    assert.deepEqual(!invalid.ok && [invalid.refusal.status, invalid.refusal.code], [422, 'invalid_risk_object']);
  });
});

eachDialect('a PATCH naming a version that is no longer current is refused and writes nothing', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const { object } = unwrap(await createObject(deps, { accountId, body: GIVEN }));
    const id = object.id as string;
    const moved = unwrap(await patchObject(deps, { accountId, id, patch: { parties: { insured: { name: 'B' } } }, ifMatch: [entityTag(1)] }));
    assert.equal(moved.version, 2);
    const stale = await patchObject(deps, { accountId, id, patch: { parties: { insured: { name: 'C' } } }, ifMatch: [entityTag(1)] });
    assert.deepEqual(!stale.ok && [stale.refusal.status, stale.refusal.code], [412, 'precondition_failed']);
    assert.deepEqual(((await deps.objects.get(id, accountId))!.parties as { insured: { name: string } }).insured.name, 'B');
    const elsewhere = await patchObject(deps, { accountId: 'acct_nobody', id, patch: {}, ifMatch: undefined });
    assert.deepEqual(!elsewhere.ok && [elsewhere.refusal.status, elsewhere.refusal.code], [404, 'not_found']);
  });
});

eachDialect('an ingest job whose upload is gone answers a refusal, not a throw', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const outcome = await ingestJob(deps, { id: 'job', accountId, input: { upload_sha256: '0'.repeat(64), file_name: 'x.csv', currency: null } });
    assert.deepEqual(!outcome.ok && [outcome.refusal.status, outcome.refusal.code], [404, 'not_found']);
  });
});
