// Webhook signing secrets and exchange credentials sealed at rest under the environment's sealing
// keys, on both databases, across restarts of one database: no plaintext in the stored rows (nor in
// SQLite's file); deliveries still signed with the secret issued; rotation (B seals, A kept to open,
// `catrisk keys reseal`, A removed); the older setting CATRISK_EXCHANGE_KEY as the sealing key; a
// missing or wrong key stops the service at start, naming the key id; no key at all refuses to
// register a webhook. Receivers are local; the listing is made up for this test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { open } from '../../src/domain/sealing.js';
import { call, eachDialect, envelopeFaults, signup, startService, type TestService } from '../support/service.js';
import { createScratchDatabase } from '../support/postgres.js';
import { mainArgs } from '../support/process.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';

const bytes = (n: number) => Buffer.alloc(32, n).toString('base64');
const A = `ka:${bytes(11)}`;
const B = `kb:${bytes(12)}`;
const B_WRONG = `kb:${bytes(13)}`;
const PLATFORM_TOKEN = 'platform-token-sealed-test-3f9c';

interface Received { headers: IncomingHttpHeaders; body: string }

async function receiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, received };
}

/** A monitoring record of a new structure. */
async function recordOf(svc: TestService, key: string): Promise<string> {
  const made = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, ...(ACCEPTANCE_BODIES.earthquake as object), period: { start: '2019-01-01', end: '2019-12-31' } } });
  assert.equal(made.status, 201, made.text);
  const cut = await call(svc.api, 'POST', `/objects/${made.body.id}/structures`, { key });
  const record = await call(svc.api, 'POST', `${cut.body.links.self}/monitoring`, { key });
  assert.equal(record.status, 201, record.text);
  return record.body.id;
}

async function addHook(svc: TestService, key: string, recordId: string, url: string): Promise<{ id: string; secret: string }> {
  const hook = await call(svc.api, 'POST', `/monitoring/${recordId}/webhooks`, { key, body: { url } });
  assert.equal(hook.status, 201, hook.text);
  return { id: hook.body.id, secret: hook.body.secret };
}

let deliveries = 0;
/** One delivery to a webhook, queued as a moved measurement queues it; the request its receiver got. */
async function deliverOnce(svc: TestService, hooks: { received: Received[] }, accountId: string, recordId: string, webhookId: string): Promise<Received> {
  const id = `msg_sealedtest${(deliveries += 1)}`;
  const seen = hooks.received.length;
  await svc.services.monitoring.insertDelivery({
    id, webhook_id: webhookId, record_id: recordId, event_type: 'monitoring.measurement_moved', body: JSON.stringify({ type: 'monitoring.measurement_moved', n: deliveries }),
    status: 'pending', created_at: new Date().toISOString(), next_attempt_at: new Date().toISOString(),
  });
  await svc.services.jobs.create({ accountId, verb: 'webhook_delivery', subject: {}, input: { delivery_id: id, attempt: 1 } });
  svc.services.wakeWorker();
  for (const until = Date.now() + 15_000; hooks.received.length === seen; await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > until) throw new Error(`delivery ${id} never arrived: ${JSON.stringify(await svc.services.monitoring.attempts([id]))}`);
  }
  return hooks.received[hooks.received.length - 1]!;
}

function verifies(secret: string, got: Received): boolean {
  try {
    new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** Every stored webhook row, as the database holds it. */
async function rawWebhooks(svc: TestService): Promise<Array<Record<string, unknown>>> {
  return svc.services.database.db.selectFrom('monitoring_webhooks' as any).selectAll().orderBy('id').execute() as Promise<Array<Record<string, unknown>>>;
}

const execCatrisk = promisify(execFile);
async function catrisk(env: Record<string, string>, ...args: string[]) {
  return execCatrisk(process.execPath, mainArgs(...args), { env: { ...process.env, CATRISK_LOG_LEVEL: 'silent', ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

eachDialect('sealed at rest: no plaintext stored, deliveries signed, keys rotated and resealed, a missing or wrong key stops the start', async (dialect) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-sealed-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase({ migrated: true }) : undefined;
  const hooks = await receiver();
  const base = {
    CATRISK_STATE_DIR: stateDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    CATRISK_OUTBOUND_ALLOW_HTTP: 'true', CATRISK_OUTBOUND_ALLOW_LOOPBACK: 'true', CATRISK_FEEDS_RESCAN_SECONDS: '0',
  };
  try {
    // ---- sealed under A ----
    let svc = await startService(dialect, { ...base, CATRISK_SEALING_KEY: A });
    const { key, accountId } = await signup(svc.api);
    const recordId = await recordOf(svc, key);
    const first = await addHook(svc, key, recordId, hooks.url);
    const listing = await call(svc.api, 'POST', '/exchange/models', { key, body: {
      name: 'Sealed test model', description: 'A listing made up for this test.', perils: ['flood'], regions: ['Anywhere'],
      access: 'free', access_url: 'https://provider.example.com/access',
      connector: { base_url: 'https://93.184.216.34/catrisk', model_ref: 'm1', credentials: PLATFORM_TOKEN },
      provider: { name: 'Example', email: 'x@provider.example.com' },
    } });
    assert.equal(listing.status, 201, listing.text);
    try {
      const [row] = await rawWebhooks(svc);
      assert.deepEqual(Object.keys(row!).sort(), ['account_id', 'created_at', 'description', 'id', 'record_id', 'secret_key_id', 'secret_sealed', 'url']);
      assert.equal(row!.secret_key_id, 'ka');
      const stored = JSON.stringify(row);
      const keyBytes = first.secret.slice('whsec_'.length);
      assert.ok(!stored.includes(keyBytes), 'the secret is not in the stored row');
      assert.ok(!stored.includes(Buffer.from(keyBytes, 'base64').toString('hex')), 'nor its bytes in hex');
      assert.equal(open({ keyId: 'ka', sealed: row!.secret_sealed as string }, first.id, svc.services.config.sealing.keys), first.secret);
      assert.ok(verifies(first.secret, await deliverOnce(svc, hooks, accountId, recordId, first.id)), 'signed with the secret issued');
    } finally {
      await svc.close();
    }
    if (dialect === 'sqlite') {
      // The whole database file (and any write-ahead log): the secret and the token appear nowhere.
      for (const file of ['catrisk.sqlite', 'catrisk.sqlite-wal'].map((f) => join(stateDir, f)).filter(existsSync)) {
        const text = readFileSync(file).toString('latin1');
        assert.ok(!text.includes(first.secret.slice('whsec_'.length)), `no webhook secret in ${file}`);
        assert.ok(!text.includes(PLATFORM_TOKEN), `no exchange credentials in ${file}`);
      }
    }

    // ---- B seals, A kept to open ----
    svc = await startService(dialect, { ...base, CATRISK_SEALING_KEY: B, CATRISK_SEALING_KEYS_PREVIOUS: A });
    let second: { id: string; secret: string };
    try {
      assert.ok(verifies(first.secret, await deliverOnce(svc, hooks, accountId, recordId, first.id)), 'sealed under A, opened with A kept');
      second = await addHook(svc, key, recordId, hooks.url);
      assert.deepEqual((await rawWebhooks(svc)).map((r) => [r.id, r.secret_key_id]).sort(), [[first.id, 'ka'], [second.id, 'kb']].sort());
    } finally {
      await svc.close();
    }

    // ---- catrisk keys reseal: everything under B ----
    const env = { CATRISK_STATE_DIR: stateDir, DATABASE_URL: scratch?.url ?? '', CATRISK_SEALING_KEY: B, CATRISK_SEALING_KEYS_PREVIOUS: A };
    const resealed = await catrisk(env, 'keys', 'reseal');
    assert.equal(resealed.code, 0, resealed.stderr);
    assert.deepEqual(JSON.parse(resealed.stdout), {
      sealing_key: 'kb',
      exchange_credentials: { resealed: 1, already_current: 0, changed_meanwhile: 0, unopenable: 0 },
      webhook_secrets: { resealed: 1, already_current: 1, changed_meanwhile: 0, unopenable: 0 },
    });
    const again = await catrisk(env, 'keys', 'reseal');
    assert.equal(JSON.parse(again.stdout).webhook_secrets.already_current, 2, 'a second reseal has nothing to do');
    assert.equal((await catrisk(env, 'keys', 'rotate')).code, 2, 'wrong arguments');

    // ---- A removed: everything still opens ----
    svc = await startService(dialect, { ...base, CATRISK_SEALING_KEY: B });
    try {
      assert.deepEqual((await rawWebhooks(svc)).map((r) => r.secret_key_id), ['kb', 'kb']);
      assert.ok(verifies(first.secret, await deliverOnce(svc, hooks, accountId, recordId, first.id)), 'resealed under B: the same secret');
      assert.ok(verifies(second.secret, await deliverOnce(svc, hooks, accountId, recordId, second.id)));
      const credentials = await svc.services.exchange.get(listing.body.id);
      assert.equal(credentials?.credentials_key_id, 'kb');
      assert.equal(open({ keyId: 'kb', sealed: credentials!.credentials_sealed! }, listing.body.id, svc.services.config.sealing.keys), PLATFORM_TOKEN);
    } finally {
      await svc.close();
    }

    // ---- a missing or wrong key: the service does not start, and says which key ----
    for (const [keys, why] of [
      [{ CATRISK_SEALING_KEY: A }, /2 sealed under kb: this environment does not hold the key kb/],
      [{ CATRISK_SEALING_KEY: B_WRONG }, /the key held as kb does not open it/],
      [{ CATRISK_SEALING_KEY: '' }, /does not hold the key kb/],
    ] as const) {
      await assert.rejects(startService(dialect, { ...base, ...keys }), (e: Error) => {
        assert.match(e.message, /do not open the webhook signing secrets stored/);
        assert.match(e.message, why);
        assert.match(e.message, /CATRISK_SEALING_KEYS_PREVIOUS/);
        for (const k of [A, B, B_WRONG]) assert.ok(!e.message.includes(k.slice(3)), 'no key in the message');
        return true;
      }, JSON.stringify(keys));
    }
    const stuck = await catrisk({ ...env, CATRISK_SEALING_KEY: A, CATRISK_SEALING_KEYS_PREVIOUS: '' }, 'keys', 'reseal');
    assert.equal(stuck.code, 1);
    assert.match(stuck.stderr, new RegExp(`${first.id} \\(sealed under kb\\) left as it was: this environment does not hold the key kb`));
  } finally {
    await new Promise((done) => hooks.server.close(done));
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

eachDialect('CATRISK_EXCHANGE_KEY seals when CATRISK_SEALING_KEY is unset, and opens beside it once it is set', async (dialect) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-sealed-alias-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase({ migrated: true }) : undefined;
  const base = { CATRISK_STATE_DIR: stateDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  try {
    let svc = await startService(dialect, { ...base, CATRISK_EXCHANGE_KEY: `kx:${bytes(21)},ky:${bytes(22)}` });
    let key: string;
    let recordId: string;
    try {
      ({ key } = await signup(svc.api));
      recordId = await recordOf(svc, key);
      await addHook(svc, key, recordId, 'https://93.184.216.34/in');
      assert.deepEqual((await rawWebhooks(svc)).map((r) => r.secret_key_id), ['kx'], 'the first key of CATRISK_EXCHANGE_KEY seals');
    } finally {
      await svc.close();
    }
    svc = await startService(dialect, { ...base, CATRISK_SEALING_KEY: `kz:${bytes(23)}`, CATRISK_EXCHANGE_KEY: `kx:${bytes(21)}` });
    try {
      assert.deepEqual(svc.services.config.sealing.keys.map((k) => k.id), ['kz', 'kx'], 'CATRISK_SEALING_KEY seals; the older setting\'s keys open');
      await addHook(svc, key, recordId, 'https://93.184.216.34/in');
      assert.deepEqual((await rawWebhooks(svc)).map((r) => r.secret_key_id).sort(), ['kx', 'kz']);
    } finally {
      await svc.close();
    }
  } finally {
    await scratch?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

eachDialect('with no sealing key a webhook is refused 503 and nothing is stored', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_SEALING_KEY: '' });
  try {
    assert.deepEqual(svc.services.config.sealing.keys, []);
    const { key } = await signup(svc.api);
    const recordId = await recordOf(svc, key);
    const refused = await call(svc.api, 'POST', `/monitoring/${recordId}/webhooks`, { key, body: { url: 'https://93.184.216.34/in' } });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.code, 'server_error');
    assert.match(refused.body.error.message, /no sealing key.*CATRISK_SEALING_KEY/);
    assert.deepEqual(envelopeFaults(refused), []);
    assert.deepEqual(await rawWebhooks(svc), []);
  } finally {
    await svc.close();
  }
});
