// PATCH rules on a priced object: moving a priced input returns it to draft without a premium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from '../../src/domain/risk-object/patch.js';
import { riskObjectViolations } from '../../src/schemas.js';

const priced = {
  id: 'obj_000000000000000000000001', status: 'priced',
  peril: { code: 'flood' }, financial_structure: { currency: 'USD', limit: 100, attachment: 0 },
  parties: { insured: { name: 'A' } },
  technical_premium: { amount: 12.5, currency: 'USD' },
  provenance: { source_files: [], runs: [{ kind: 'price' }] },
};

test('moving a priced input returns the object to draft and removes the premium', () => {
  const out = applyPatch(priced, { financial_structure: { currency: 'USD', limit: 200, attachment: 0 } }, '2026-01-01T00:00:00Z', riskObjectViolations);
  assert.ok(out.ok);
  assert.equal(out.value.object.status, 'draft');
  assert.equal(out.value.object.technical_premium, undefined);
  assert.equal(out.value.returnedToDraft, true);
  assert.deepEqual((out.value.object.provenance as any).runs.at(-1).blocks, ['financial_structure']);
});

test('writing the same value, or a block the price does not read, keeps the price', () => {
  const same = applyPatch(priced, { peril: { code: 'flood' } }, 't', riskObjectViolations);
  assert.ok(same.ok);
  assert.equal(same.value.object.status, 'priced');
  assert.deepEqual(same.value.changed, []);
  const parties = applyPatch(priced, { parties: { insured: { name: 'B' } } }, 't', riskObjectViolations);
  assert.ok(parties.ok);
  assert.equal(parties.value.object.status, 'priced');
  assert.deepEqual(parties.value.object.technical_premium, priced.technical_premium);
});

test('technical_premium is read-only on PATCH', () => {
  const out = applyPatch(priced, { technical_premium: null }, 't', riskObjectViolations);
  assert.equal(out.ok, false);
});

test('a refused PATCH is a 422 invalid_request naming every fault', () => {
  const out = applyPatch(priced, { technical_premium: null, colour: 'red' }, 't', riskObjectViolations);
  assert.ok(!out.ok);
  assert.equal(out.refusal.status, 422);
  assert.equal(out.refusal.code, 'invalid_request');
  assert.equal(out.refusal.message, 'The PATCH is not acceptable: 2 faults.');
  assert.equal(out.refusal.details?.length, 2);
});
