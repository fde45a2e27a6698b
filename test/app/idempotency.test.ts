// The Idempotency-Key rule without HTTP, over a scratch database on both dialects, on a clock the
// test moves: who takes a key, what a repeat is answered, when the key is free again.
import assert from 'node:assert/strict';
import { releaseKey, settleKey, takeKey, type KeyTurn } from '../../src/app/idempotency.js';
import { signup } from '../../src/app/accounts.js';
import { unwrap, type Result } from '../../src/kernel/result.js';
import { eachDialect } from '../support/service.js';
import { AT, withDeps, type TestDeps } from './support.js';

const CREATED = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8', location: '/objects/obj_1' }, body: Buffer.from('{"id":"obj_1"}') };

/** The deps with their clock moved on by ms. */
function later(deps: TestDeps, ms: number): TestDeps {
  return Object.assign(Object.create(deps) as TestDeps, { now: () => new Date(AT.getTime() + ms) });
}

function refusalOf(result: Result<KeyTurn>) {
  assert.equal(result.ok, false, 'refused');
  return (result as { ok: false; refusal: { status: number; code: string; message: string; headers?: Record<string, string> } }).refusal;
}

eachDialect('a key is taken once, refused for another request or while in flight, replayed once answered', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const other = (unwrap(await signup(deps, {})) as { id: string }).id;
    const key = 'order-7f3a';
    const input = { accountId, key, fingerprint: 'fp-a' };
    assert.deepEqual(unwrap(await takeKey(deps, input)), { kind: 'run' });

    // While the first is being answered: 409 with Retry-After; another request with the key: 422.
    const busy = refusalOf(await takeKey(deps, input));
    assert.equal(busy.status, 409);
    assert.equal(busy.code, 'idempotency_key_in_use');
    assert.equal(busy.headers?.['retry-after'], '1');
    const mismatch = refusalOf(await takeKey(deps, { ...input, fingerprint: 'fp-b' }));
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.code, 'invalid_request');
    assert.match(mismatch.message, /"order-7f3a"/);
    // Keys are the account's own: another account's same key is another key.
    assert.deepEqual(unwrap(await takeKey(deps, { ...input, accountId: other })), { kind: 'run' });

    await settleKey(deps, { accountId, key, answer: CREATED });
    const replay = unwrap(await takeKey(deps, input));
    assert.equal(replay.kind, 'replay');
    if (replay.kind === 'replay') {
      assert.equal(replay.answer.status, 201);
      assert.deepEqual(replay.answer.headers, CREATED.headers);
      assert.ok(replay.answer.body.equals(CREATED.body), 'the body byte for byte');
    }
    assert.equal(refusalOf(await takeKey(deps, { ...input, fingerprint: 'fp-b' })).status, 422, 'still another request after the answer');

    // 24 hours on, the key is free again (purged lazily, on its next use).
    const dayOn = later(deps, 86_400_000);
    assert.deepEqual(unwrap(await takeKey(dayOn, { ...input, fingerprint: 'fp-b' })), { kind: 'run' });
  });
});

eachDialect('refusals and lost requests give the key back; an abandoned claim lapses', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const input = { accountId, key: 'k-1', fingerprint: 'fp' };
    assert.equal(unwrap(await takeKey(deps, input)).kind, 'run');
    await settleKey(deps, { accountId, key: 'k-1', answer: { status: 422, headers: {}, body: Buffer.from('{}') } });
    // A corrected request may use the key again: nothing was kept.
    assert.equal(unwrap(await takeKey(deps, { ...input, fingerprint: 'fp-fixed' })).kind, 'run');
    await releaseKey(deps, { accountId, key: 'k-1' });
    assert.equal(unwrap(await takeKey(deps, input)).kind, 'run');

    // A claim whose request never ended (a crash) holds the key ten minutes at most.
    assert.equal(refusalOf(await takeKey(later(deps, 599_000), input)).status, 409);
    assert.equal(unwrap(await takeKey(later(deps, 600_000), input)).kind, 'run');

    // Releasing never drops an answer already kept.
    await settleKey(later(deps, 600_000), { accountId, key: 'k-1', answer: CREATED });
    await releaseKey(deps, { accountId, key: 'k-1' });
    assert.equal(unwrap(await takeKey(later(deps, 601_000), input)).kind, 'replay');
    assert.equal(await deps.idempotency.purgeExpired(AT.getTime() + 600_000 + 86_400_000), 1, 'the sweep deletes expired keys');
  });
});
