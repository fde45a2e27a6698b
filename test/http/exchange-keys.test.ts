// The sealing key as the environment holds it, over HTTP on both databases: a listing sealed under
// one key, then the service started again without that key: credentials sent are refused 422, the
// stored ones cannot be opened (503 on the check and on the lab's POST); started again with the
// old key behind a new one, they open again (rotation).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, eachDialect, envelopeFaults, signup, startService, type Answer } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';

const K1 = `k1:${Buffer.alloc(32, 5).toString('base64')}`;
const K2 = `k2:${Buffer.alloc(32, 6).toString('base64')}`;
// Hand-made listing of this test. Its platform's name resolves to a public address while the
// listing is made, and to nothing afterwards, so nothing here is ever dialled.
const LISTING = {
  name: 'Key test model', description: 'A listing made up for this test.', perils: ['flood'], regions: ['Anywhere'],
  access: 'free', access_url: 'https://provider.example.com/access',
  connector: { base_url: 'https://platform.example.com/catrisk', model_ref: 'm1', credentials: 'tok-keys-test' },
  provider: { name: 'Example', email: 'x@provider.example.com' },
};

function refusedWith(answer: Answer, status: number, code: string, where: string) {
  assert.equal(answer.status, status, `${where}: ${answer.text}`);
  assert.equal(answer.body?.error?.code, code, where);
  assert.deepEqual(envelopeFaults(answer), [], where);
}

eachDialect('exchange: credentials without a key are refused, a lost key makes them unavailable, a kept one opens them', async (dialect) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-keys-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase({ migrated: true }) : undefined;
  const base = { CATRISK_STATE_DIR: stateDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  try {
    let svc = await startService(dialect, { ...base, CATRISK_EXCHANGE_KEY: K1 }, { resolve: async () => ['93.184.216.34'] });
    const provider = await signup(svc.api);
    const created = await call(svc.api, 'POST', '/exchange/models', { key: provider.key, body: LISTING });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    await svc.close();

    svc = await startService(dialect, { ...base, CATRISK_SEALING_KEY: '' }, { resolve: async () => ['93.184.216.34'] });
    try {
      refusedWith(await call(svc.api, 'POST', '/exchange/models', { key: provider.key, body: LISTING }), 422, 'exchange_credentials_unavailable', 'POST with credentials, no key');
      refusedWith(await call(svc.api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { connector: { credentials: 'tok-2' } } }), 422, 'exchange_credentials_unavailable', 'PATCH with credentials, no key');
      const { connector: { credentials: _c, ...connector }, ...rest } = LISTING;
      assert.equal((await call(svc.api, 'POST', '/exchange/models', { key: provider.key, body: { ...rest, connector } })).status, 201, 'without credentials it is a draft');
      refusedWith(await call(svc.api, 'POST', `/exchange/models/${id}/check`, { key: provider.key }), 503, 'exchange_credentials_unavailable', 'check, key gone');
      const run = await call(svc.urls.lab, 'POST', '/runs', { key: provider.key, body: { model: id, exposure: { points: [{ lat: 1, lon: 1, value: 1 }] } } });
      refusedWith(run, 503, 'exchange_credentials_unavailable', 'run, key gone');
      assert.match(run.body.error.message, /does not hold the key k1/);
    } finally {
      await svc.close();
    }

    svc = await startService(dialect, { ...base, CATRISK_EXCHANGE_KEY: `${K2},${K1}` }, { resolve: async () => [] });
    try {
      // Opened with k1 (kept behind k2): the check gets past the credentials to its steps (the name no longer resolves).
      const check = await call(svc.api, 'POST', `/exchange/models/${id}/check`, { key: provider.key });
      assert.equal(check.status, 200, check.text);
      assert.match(check.body.steps[0].detail, /does not resolve/);
      const patched = await call(svc.api, 'PATCH', `/exchange/models/${id}`, { key: provider.key, body: { connector: { credentials: 'tok-rotated' } } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await svc.services.exchange.get(id))?.credentials_key_id, 'k2', 'sealed again under the first key');
    } finally {
      await svc.close();
    }
  } finally {
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
});
