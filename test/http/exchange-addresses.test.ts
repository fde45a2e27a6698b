// The connector address rule at the places a listing names an address (POST and PATCH), address by
// address, under the production policy (https only, public unicast only, the system's authorities),
// and again inside the connection when the lab runs the model: a name that resolved to a public
// address when listed and to loopback when dialled (DNS rebinding) is refused at connect time.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, finishedRun, signup, startService } from '../support/service.js';

// The resolver table of this test (no DNS on the test machine). rebind.example.com answers a
// public address to its first lookup and loopback to every later one.
const lookups = new Map<string, number>();
const TABLE: Record<string, string[]> = {
  'loopback.example.com': ['127.0.0.1'],
  'private.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.20'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'public.example.com': ['93.184.216.34'],
};
async function resolve(host: string): Promise<string[]> {
  const seen = lookups.get(host) ?? 0;
  lookups.set(host, seen + 1);
  if (host === 'rebind.example.com') return seen === 0 ? ['93.184.216.34'] : ['127.0.0.1'];
  return TABLE[host] ?? [];
}

/** Each refused base URL with the words its one detail must carry. */
const REFUSED: ReadonlyArray<readonly [string, RegExp]> = [
  ['http://public.example.com/catrisk', /must use https, not http/],
  ['https://svc:pw@public.example.com/', /user name or password/],
  ['https://svc@public.example.com/', /user name or password/],
  ['https://public.example.com/catrisk?tenant=7', /query string/],
  ['https://public.example.com/catrisk#v1', /fragment/],
  ['https://localhost:8443/', /names this machine/],
  ['https://api.localhost/', /names this machine/],
  ['https://platform.local/', /local network name \(\.local\)/],
  ['https://metadata.google.internal/', /local network name \(\.internal\)/],
  ['https://platform/', /single-label name/],
  ['https://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
  ['https://10.0.0.8/', /private/],
  ['https://172.16.4.4/', /private/],
  ['https://192.168.0.1/', /private/],
  ['https://169.254.169.254/latest/', /link-local/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://192.0.2.10/', /documentation/],
  ['https://198.51.100.10/', /documentation/],
  ['https://203.0.113.10/', /documentation/],
  ['https://224.0.0.1/', /multicast/],
  ['https://0.0.0.0/', /this network/],
  ['https://[::1]/', /loopback/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[fd00::1]/', /unique local/],
  ['https://[ff02::1]/', /multicast/],
  ['https://[2001:db8::1]/', /documentation/],
  ['https://[::ffff:127.0.0.1]/', /IPv4-mapped IPv6 address \(of 127\.0\.0\.1\)/],
  ['https://[::ffff:a9fe:a9fe]/', /IPv4-mapped IPv6 address \(of 169\.254\.169\.254\)/],
  ['https://loopback.example.com/', /loopback\.example\.com resolves to 127\.0\.0\.1: a loopback address/],
  ['https://private.example.com/', /resolves to 10\.1\.2\.3: a private address/],
  ['https://mixed.example.com/', /resolves to 192\.168\.1\.20: a private address/],
  ['https://metadata.example.com/', /resolves to 169\.254\.169\.254: a link-local address/],
  ['https://mapped.example.com/', /resolves to ::ffff:127\.0\.0\.1: an IPv4-mapped/],
  ['https://nowhere.example.com/', /does not resolve/],
];

const listing = (baseUrl: string) => ({
  name: 'Address test model', description: 'Hand-made listing of this test.', perils: ['flood'], regions: ['Anywhere'],
  access: 'free', access_url: 'https://provider.example.com/access',
  connector: { base_url: baseUrl, model_ref: 'm1' }, provider: { name: 'Example', email: 'x@provider.example.com' },
});

eachDialect('exchange: every non-public connector address is refused on POST and PATCH, and again at connect time', async (dialect) => {
  // Production's policy: no loopback, no plain http, no extra authority.
  const svc = await startService(dialect, { CATRISK_EXCHANGE_KEY: `k1:${Buffer.alloc(32, 3).toString('base64')}` }, { resolve });
  try {
    const { key } = await signup(svc.api);
    for (const [baseUrl, why] of REFUSED) {
      const answer = await call(svc.api, 'POST', '/exchange/models', { key, body: listing(baseUrl) });
      assert.equal(answer.status, 422, `${baseUrl}: ${answer.text}`);
      assert.equal(answer.body.error.code, 'unsafe_platform_address', baseUrl);
      assert.deepEqual(envelopeFaults(answer), [], baseUrl);
      assert.ok(answer.body.error.details.some((d: string) => why.test(d)), `${baseUrl}: ${answer.body.error.details.join(' | ')}`);
    }
    const created = await call(svc.api, 'POST', '/exchange/models', { key, body: listing('https://public.example.com/catrisk') });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    for (const [baseUrl] of REFUSED.slice(0, 12)) {
      const answer = await call(svc.api, 'PATCH', `/exchange/models/${id}`, { key, body: { connector: { base_url: baseUrl } } });
      assert.equal(answer.body?.error?.code, 'unsafe_platform_address', `PATCH ${baseUrl}: ${answer.text}`);
    }

    // DNS rebinding: public when listed, loopback when dialled. The run's job fails inside the connection.
    lookups.delete('rebind.example.com');
    const rebinding = await call(svc.api, 'POST', '/exchange/models', { key, body: { ...listing('https://rebind.example.com/catrisk'), connector: { base_url: 'https://rebind.example.com/catrisk', model_ref: 'm1', credentials: 'tok-rebind' } } });
    assert.equal(rebinding.status, 201, rebinding.text);
    const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: rebinding.body.id, exposure: { points: [{ lat: 10, lon: 10, value: 1 }] } } });
    assert.equal(run.status, 202, run.text);
    const finished = await finishedRun(svc, key, `/runs/${run.body.id}`);
    assert.equal(finished.status, 'failed');
    assert.match(finished.error.message, /was not called: rebind\.example\.com resolves to 127\.0\.0\.1: a loopback address/);
    // The check names the refusal at its step too.
    const check = await call(svc.api, 'POST', `/exchange/models/${rebinding.body.id}/check`, { key });
    assert.equal(check.body.ok, false);
    assert.deepEqual(check.body.steps.map((s: any) => [s.step, s.status]), [['address', 'failed'], ['dns', 'skipped'], ['tls_connect', 'skipped'], ['login', 'skipped'], ['model', 'skipped']]);

    // The lab names exchange models among the models it runs.
    const unknown = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'no-such-model', exposure: { points: [] } } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.code, 'invalid_request');
  } finally {
    await svc.close();
  }
});
