// The exchange's credentials at the use cases, on both databases: sealed under the first key and
// opened under any key held (rotation), refused when the environment holds no key (422 on the
// way in) or not the key that sealed them (503 on the way out); the sealed bytes are bound to
// their listing. And the move table, step by step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDeps, type TestDeps } from './support.js';
import { connectorFor, createListing, decideListing, patchListing, providerStep } from '../../src/app/exchange.js';
import { move, MOVES, type ListingState } from '../../src/domain/exchange/listing.js';
import { open, seal } from '../../src/domain/sealing.js';
import { sealingKeyList } from '../../src/config.js';
import type { AppDeps } from '../../src/app/deps.js';
import { postgresAvailable } from '../support/postgres.js';

const K1 = { id: 'k1', key: Buffer.alloc(32, 1) };
const K2 = { id: 'k2', key: Buffer.alloc(32, 2) };
const SECRET = 'platform-token-8d1e5a7c-not-real';

/** The deps with these sealing keys (the environment's CATRISK_SEALING_KEY and the keys that only open). */
function withKeys(deps: TestDeps, keys: typeof K1[]): AppDeps {
  return { ...deps, config: { ...deps.config, sealing: { keys } } };
}

// Hand-made listing of this test; its address is a public IP literal, so no lookup is needed.
const LISTING = {
  name: 'Sealing test model', description: 'A listing made up for this test.', perils: ['wildfire'], regions: ['Anywhere'],
  access: 'free', access_url: 'https://provider.example.com/access',
  connector: { base_url: 'https://93.184.216.34/catrisk', model_ref: 'm1', credentials: SECRET },
  provider: { name: 'Example', email: 'x@provider.example.com' },
};

async function account(deps: TestDeps): Promise<string> {
  return (await deps.accounts.signup({}, deps.now())).account.id;
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`credentials are sealed, rotate, and are refused without the key [${dialect}]`, { skip: dialect === 'postgres' && !postgresAvailable }, async () => {
    await withDeps(dialect, async (deps) => {
      const provider = await account(deps);
      const none = await createListing(withKeys(deps, []), { accountId: provider, body: LISTING });
      assert.equal(none.ok, false);
      assert.deepEqual(!none.ok && [none.refusal.status, none.refusal.code], [422, 'exchange_credentials_unavailable']);

      const created = await createListing(withKeys(deps, [K1]), { accountId: provider, body: LISTING });
      assert.ok(created.ok);
      const id = created.value.id as string;
      assert.ok(!JSON.stringify(created.value).includes(SECRET));
      // The whole row as stored (the HTTP test greps the SQLite file and the PostgreSQL table too).
      const stored = JSON.stringify(await deps.exchange.get(id));
      assert.ok(!stored.includes(SECRET), 'no plaintext in the row');
      assert.equal((await deps.exchange.get(id))?.credentials_key_id, 'k1');

      // Rotation: k2 put first, k1 kept: the stored seal still opens, a new one is sealed under k2.
      const rotated = withKeys(deps, [K2, K1]);
      const opened = await connectorFor(rotated, { id, accountId: provider });
      assert.ok(opened.ok);
      assert.equal(opened.value.credentials, SECRET);
      assert.ok((await patchListing(rotated, { accountId: provider, id, body: { connector: { credentials: SECRET } } })).ok);
      assert.equal((await deps.exchange.get(id))?.credentials_key_id, 'k2');
      // k1 dropped: still opens (sealed under k2 now); k2 dropped instead: 503.
      assert.ok((await connectorFor(withKeys(deps, [K2]), { id, accountId: provider })).ok);
      const lost = await connectorFor(withKeys(deps, [K1]), { id, accountId: provider });
      assert.deepEqual(!lost.ok && [lost.refusal.status, lost.refusal.code], [503, 'exchange_credentials_unavailable']);
      assert.match(!lost.ok ? lost.refusal.message : '', /does not hold the key k2/);
      assert.ok(!JSON.stringify(lost).includes(SECRET));
    });
  });
}

test('a seal opens only under its key and for its listing', () => {
  const sealed = seal(SECRET, 'xm_0123456789abcdef', [K1])!;
  assert.equal(open(sealed, 'xm_0123456789abcdef', [K2, K1]), SECRET);
  assert.equal(open(sealed, 'xm_fedcba9876543210', [K1]), undefined, 'bound to its listing');
  assert.equal(open(sealed, 'xm_0123456789abcdef', [K2]), undefined, 'needs the key that sealed it');
  const tampered = { ...sealed, sealed: Buffer.from(Buffer.from(sealed.sealed, 'base64').map((b, i) => (i === 40 ? b ^ 1 : b))).toString('base64') };
  assert.equal(open(tampered, 'xm_0123456789abcdef', [K1]), undefined, 'altered bytes do not authenticate');
  assert.notEqual(seal(SECRET, 'xm_0123456789abcdef', [K1])!.sealed, sealed.sealed, 'a fresh nonce each time');
  assert.equal(seal(SECRET, 'xm_0123456789abcdef', []), undefined);
});

test('CATRISK_EXCHANGE_KEY is read as key id and 32 bytes, the first sealing; faults never show a key', () => {
  const keys = sealingKeyList('CATRISK_EXCHANGE_KEY', `new:${Buffer.alloc(32, 9).toString('base64')}, old:${Buffer.alloc(32, 8).toString('base64')}`);
  assert.deepEqual(keys.map((k) => k.id), ['new', 'old']);
  assert.deepEqual(sealingKeyList('CATRISK_EXCHANGE_KEY', ''), []);
  assert.throws(() => sealingKeyList('CATRISK_EXCHANGE_KEY', `k:${Buffer.alloc(16).toString('base64')}`), /must be 32 bytes in base64, got 16/);
  assert.throws(() => sealingKeyList('CATRISK_EXCHANGE_KEY', 'c2VjcmV0c2VjcmV0'), (e: Error) => /expected <key id>:<base64/.test(e.message) && !e.message.includes('c2Vjc'));
  assert.throws(() => sealingKeyList('CATRISK_EXCHANGE_KEY', `a:${Buffer.alloc(32).toString('base64')},a:${Buffer.alloc(32).toString('base64')}`), /used twice/);
});

test('the move table: every step from every state', () => {
  const states: ListingState[] = ['draft', 'in_review', 'listed', 'rejected', 'withdrawn'];
  const expected: Record<string, Record<ListingState, ListingState | null>> = {
    review: { draft: 'in_review', in_review: null, listed: null, rejected: 'in_review', withdrawn: 'in_review' },
    approve: { draft: null, in_review: 'listed', listed: null, rejected: null, withdrawn: null },
    reject: { draft: null, in_review: 'rejected', listed: null, rejected: null, withdrawn: null },
    withdraw: { draft: 'withdrawn', in_review: 'withdrawn', listed: 'withdrawn', rejected: 'withdrawn', withdrawn: null },
  };
  for (const { step } of MOVES) {
    for (const state of states) {
      const moved = move(state, step, true);
      assert.equal('to' in moved ? moved.to : null, expected[step]![state], `${step} from ${state}`);
    }
  }
  assert.match((move('draft', 'review', false) as { fault: string }).fault, /credentials are stored/);
  assert.match((move('listed', 'review', true) as { fault: string }).fault, /already listed/);
});

test('a person decides only on a listing in review, and a rejection carries its reason [sqlite]', async () => {
  await withDeps('sqlite', async (deps) => {
    const provider = await account(deps);
    const d = withKeys(deps, [K1]);
    const created = await createListing(d, { accountId: provider, body: LISTING });
    assert.ok(created.ok);
    const id = created.value.id as string;
    const early = await decideListing(d, { id, decision: 'approve' });
    assert.deepEqual(!early.ok && [early.refusal.status, early.refusal.code], [422, 'exchange_not_ready']);
    assert.ok((await providerStep(d, { accountId: provider, id, step: 'review' })).ok);
    const bare = await decideListing(d, { id, decision: 'reject', reason: '  ' });
    assert.equal(!bare.ok && bare.refusal.code, 'invalid_request');
    const rejected = await decideListing(d, { id, decision: 'reject', reason: 'Say which vintage' });
    assert.ok(rejected.ok);
    assert.deepEqual(rejected.value.review, { reason: 'Say which vintage' });
    const missing = await decideListing(d, { id: 'xm_0000000000000000', decision: 'approve' });
    assert.equal(!missing.ok && missing.refusal.code, 'not_found');
  });
});
