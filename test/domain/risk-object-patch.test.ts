// PATCH rules on a priced object: moving a priced input returns it to draft without a premium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from '../../src/domain/risk-object/patch.js';

const priced = {
  id: 'obj_000000000000000000000001', status: 'priced',
  peril: { code: 'flood' }, financial_structure: { currency: 'USD', limit: 100, attachment: 0 },
  parties: { insured: { name: 'A' } },
  technical_premium: { amount: 12.5, currency: 'USD' },
  provenance: { source_files: [], runs: [{ kind: 'price' }] },
};

test('moving a priced input returns the object to draft and removes the premium', () => {
  const out = applyPatch(priced, { financial_structure: { currency: 'USD', limit: 200, attachment: 0 } }, '2026-01-01T00:00:00Z');
  assert.ok(out.ok);
  assert.equal(out.object.status, 'draft');
  assert.equal(out.object.technical_premium, undefined);
  assert.equal(out.returnedToDraft, true);
  assert.deepEqual((out.object.provenance as any).runs.at(-1).blocks, ['financial_structure']);
});

test('writing the same value, or a block the price does not read, keeps the price', () => {
  const same = applyPatch(priced, { peril: { code: 'flood' } }, 't');
  assert.ok(same.ok);
  assert.equal(same.object.status, 'priced');
  assert.deepEqual(same.changed, []);
  const parties = applyPatch(priced, { parties: { insured: { name: 'B' } } }, 't');
  assert.ok(parties.ok);
  assert.equal(parties.object.status, 'priced');
  assert.deepEqual(parties.object.technical_premium, priced.technical_premium);
});

test('technical_premium is read-only on PATCH', () => {
  const out = applyPatch(priced, { technical_premium: null }, 't');
  assert.equal(out.ok, false);
});
