// The address rule for calls to user-named URLs, over real sockets: a local HTTP server is the
// target, and a resolver table (built here) stands in for DNS, since the test machine has none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressRefusal, localNameRefusal } from '../../src/providers/public-address.js';
import { resolvedFaults, safeDispatcher, urlFaults, type OutboundPolicy } from '../../src/providers/safe-outbound.js';
import { OutboundClient, OutboundError } from '../../src/providers/http-client.js';

const strict: OutboundPolicy = { allowHttp: false, allowLoopback: false, extraCa: undefined };

test('every non-public IPv4 and IPv6 range is refused and named; public unicast passes', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/], ['127.8.9.10', /loopback/], ['10.0.0.1', /private/], ['10.255.255.255', /private/],
    ['172.16.0.1', /private/], ['172.31.255.254', /private/], ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/], ['100.64.0.1', /carrier-grade/], ['0.0.0.0', /this network/],
    ['192.0.2.10', /documentation/], ['198.51.100.7', /documentation/], ['203.0.113.9', /documentation/],
    ['198.18.0.1', /benchmarking/], ['224.0.0.251', /multicast/], ['255.255.255.255', /reserved/],
    ['::1', /loopback/], ['::', /unspecified/], ['fe80::1', /link-local/], ['fd00::1', /unique local/],
    ['ff02::1', /multicast/], ['2001:db8::1', /documentation/], ['::ffff:127.0.0.1', /IPv4-mapped.*127\.0\.0\.1/],
    ['::ffff:7f00:1', /IPv4-mapped.*127\.0\.0\.1/], ['::ffff:a9fe:a9fe', /IPv4-mapped.*169\.254\.169\.254/],
    ['64:ff9b::a00:1', /NAT64/], ['2002:a00:1::1', /6to4/], ['[::1]', /loopback/],
  ];
  for (const [address, why] of refused) {
    const refusal = addressRefusal(address, strict);
    assert.ok(refusal, `${address} must be refused`);
    assert.match(refusal, why, address);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '2606:4700::1111', '2a00:1450:4001::1']) {
    assert.equal(addressRefusal(address, strict), null, address);
  }
  const loopbackAllowed = { allowLoopback: true };
  assert.equal(addressRefusal('127.0.0.1', loopbackAllowed), null);
  assert.equal(addressRefusal('::1', loopbackAllowed), null);
  assert.match(addressRefusal('10.0.0.1', loopbackAllowed) ?? '', /private/, 'loopback mode opens loopback only');
  assert.match(addressRefusal('::ffff:127.0.0.1', loopbackAllowed) ?? '', /IPv4-mapped/);
});

test('local names are refused before any lookup', () => {
  for (const name of ['localhost', 'api.localhost', 'printer.local', 'metadata.google.internal', 'intranet', 'router.lan', 'box.home.arpa']) {
    assert.ok(localNameRefusal(name), name);
  }
  for (const name of ['example.com', 'hooks.example.org', '93.184.216.34']) assert.equal(localNameRefusal(name), null, name);
});

test('a URL is refused for its scheme, credentials, local name or address, each named', () => {
  assert.deepEqual(urlFaults('https://hooks.example.com/in', strict), []);
  assert.match(urlFaults('http://hooks.example.com/in', strict).join(), /https/);
  assert.deepEqual(urlFaults('http://hooks.example.com/in', { ...strict, allowHttp: true }), []);
  assert.match(urlFaults('https://user:pw@hooks.example.com/', strict).join(), /user name or password/);
  assert.match(urlFaults('https://user@hooks.example.com/', strict).join(), /user name or password/);
  assert.match(urlFaults('https://127.0.0.1/', strict).join(), /loopback/);
  assert.match(urlFaults('https://[::1]:8443/', strict).join(), /loopback/);
  assert.match(urlFaults('https://[::ffff:127.0.0.1]/', strict).join(), /IPv4-mapped/);
  assert.match(urlFaults('https://169.254.169.254/latest/meta-data', strict).join(), /link-local/);
  assert.match(urlFaults('https://localhost:3000/', strict).join(), /this machine/);
  assert.match(urlFaults('ftp://example.com/', strict).join(), /https, not ftp/);
  assert.match(urlFaults('not a url', strict).join(), /not an absolute URL/);
  assert.deepEqual(urlFaults('https://p.example.com/v1?x=1', strict), []);
  assert.equal(urlFaults('https://p.example.com/v1?x=1#f', strict, { refuseQueryAndFragment: true }).length, 2);
});

test('a name is refused when any address it resolves to is not public', async () => {
  const table: Record<string, string[]> = {
    'private.example.test': ['10.1.2.3'],
    'mixed.example.test': ['93.184.216.34', '192.168.0.4'],
    'public.example.test': ['93.184.216.34', '2606:4700::1111'],
  };
  const policy: OutboundPolicy = { ...strict, resolve: async (host) => table[host] ?? [] };
  assert.match((await resolvedFaults('https://private.example.test/', policy)).join(), /resolves to 10\.1\.2\.3: a private address/);
  assert.match((await resolvedFaults('https://mixed.example.test/', policy)).join(), /192\.168\.0\.4/);
  assert.deepEqual(await resolvedFaults('https://public.example.test/', policy), []);
  assert.match((await resolvedFaults('https://nowhere.example.test/', policy)).join(), /does not resolve/);
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

test('at connect time: loopback refused unless allowed, a rebinding name refused, redirects not followed', async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://10.0.0.1/' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  const port = await listen(server);
  try {
    const client = (policy: OutboundPolicy) => safeDispatcher(policy).then((dispatcher) => new OutboundClient({
      name: 'receiver', userAgent: 'catrisk-test/1.0', timeoutMs: 5000, maxBytes: 1 << 16, minIntervalMs: 0, dispatcher,
    }));
    const httpStrict = { ...strict, allowHttp: true };
    await assert.rejects((await client(httpStrict)).send(`http://127.0.0.1:${port}/`),
      (e: unknown) => e instanceof OutboundError && e.failure === 'unsafe_address' && /127\.0\.0\.1 is a loopback address/.test(e.message));
    assert.equal(hits, 0, 'nothing reached the server');

    // A name whose registration-time answer was public now resolves to loopback: the dial is refused.
    let answers = ['93.184.216.34'];
    const rebinding: OutboundPolicy = { ...httpStrict, resolve: async () => answers };
    assert.deepEqual(await resolvedFaults(`http://rebind.example.test:${port}/`, rebinding), []);
    answers = ['127.0.0.1'];
    await assert.rejects((await client(rebinding)).send(`http://rebind.example.test:${port}/`),
      (e: unknown) => e instanceof OutboundError && e.failure === 'unsafe_address' && /rebind\.example\.test resolves to 127\.0\.0\.1/.test(e.message));
    assert.equal(hits, 0);

    const loopback = await client({ ...httpStrict, allowLoopback: true });
    const ok = await loopback.send(`http://127.0.0.1:${port}/`);
    assert.equal(ok.status, 200);
    const named = await client({ ...httpStrict, allowLoopback: true, resolve: async () => ['127.0.0.1'] });
    assert.equal((await named.send(`http://receiver.example.test:${port}/`)).status, 200);
    const redirect = await loopback.send(`http://127.0.0.1:${port}/redirect`);
    assert.equal(redirect.status, 302, 'the redirect is answered, not followed');
    assert.equal(hits, 3);
  } finally {
    server.close();
  }
});
