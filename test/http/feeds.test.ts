// GET /feeds, manifests, verbatim data with the pinned digest, the data room, and refusal of a
// tampered snapshot (in a temporary copy; the pinned folder is never touched).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { call, expectRefusals, signup, startService, type TestService } from '../support/service.js';
import { FEEDS_DIR, latestVersion, manifestOf, rawFile } from '../support/feeds.js';
import { mainArgs } from '../support/process.js';

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService('sqlite');
  key = (await signup(svc.api)).key;
});
after(() => svc.close());

const get = (path: string, base = svc.api) => call(base, 'GET', path, { key });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('GET /feeds lists every pinned snapshot with its digest and servable flag', async () => {
  const answer = await get('/feeds');
  assert.equal(answer.status, 200);
  const pinned = readdirSync(FEEDS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  assert.deepEqual(answer.body.feeds.map((f: any) => f.feed_id), pinned);
  const comcat = answer.body.feeds.find((f: any) => f.feed_id === 'usgs-comcat-m6-california');
  assert.equal(comcat.versions[0].sha256, manifestOf('usgs-comcat-m6-california').files[0].sha256);
  assert.equal(comcat.versions[0].content_servable, true);
  const bom = answer.body.feeds.find((f: any) => f.feed_id === 'bom-cdo-031036-prcp');
  assert.equal(bom.versions[0].content_servable, false);
  assert.deepEqual(answer.body.refused, []);
});

test('a manifest, and the publisher\'s bytes verbatim with Repr-Digest', async () => {
  const feed = 'usgs-nwis-01509000-discharge';
  const version = latestVersion(feed);
  const manifest = await get(`/feeds/${feed}/versions/${version}`);
  assert.equal(manifest.status, 200);
  for (const member of ['publisher', 'coverage', 'license', 'aggregation_level', 'period_of_record', 'sha256']) {
    assert.ok(manifest.body[member] !== undefined, member);
  }
  const data = await fetch(`${svc.api}/feeds/${feed}/versions/${version}/data`, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
  // Two files: an index names them.
  const index = await data.json() as any;
  assert.equal(index.files.length, 2);
  const file = index.files.find((f: any) => f.name.endsWith('_dv.tsv'));
  const bytesAnswer = await fetch(`${svc.api}${file.links.data}`, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
  assert.equal(bytesAnswer.status, 200);
  const bytes = new Uint8Array(await bytesAnswer.arrayBuffer());
  assert.equal(sha256(bytes), file.sha256);
  assert.deepEqual(Buffer.from(bytes), rawFile(feed, file.name));
  assert.equal(bytesAnswer.headers.get('repr-digest'), `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`);
  assert.equal(bytesAnswer.headers.get('content-type'), 'text/tab-separated-values');

  const single = await fetch(`${svc.api}/feeds/usgs-comcat-m6-california/versions/2022-12-20/data`, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
  assert.equal(sha256(new Uint8Array(await single.arrayBuffer())), manifestOf('usgs-comcat-m6-california').files[0].sha256);
});

test('feed refusals', async () => {
  const cases: Array<[string, number, string]> = [
    [`/feeds/bom-cdo-031036-prcp/versions/${latestVersion('bom-cdo-031036-prcp')}/data`, 403, 'feed_not_servable'],
    ['/feeds/no-such-feed/versions/2020-01-01', 404, 'not_found'],
    ['/feeds/usgs-comcat-m6-california/versions/1999-01-01', 404, 'not_found'],
    ['/feeds/usgs-comcat-m6-california/versions/2022-12-20/data?file=nope.csv', 404, 'not_found'],
    ['/feeds/usgs-comcat-m6-california/versions/2022-12-20/data?format=zip', 422, 'invalid_request'],
  ];
  await expectRefusals(svc.api, key, cases);
  // The manifest of an aggregate-only feed is still served.
  assert.equal((await get(`/feeds/bom-cdo-031036-prcp/versions/${latestVersion('bom-cdo-031036-prcp')}`)).status, 200);
});

test('the data room lists every dataset with licence, credit and digests; downloads match them', async () => {
  const data = svc.urls.data;
  assert.equal((await call(data, 'GET', '/catalog')).status, 401, 'the data room needs a key');
  const catalog = await get('/catalog', data);
  assert.equal(catalog.status, 200);
  assert.equal(catalog.body.count, readdirSync(FEEDS_DIR).filter((n) => !n.endsWith('.md')).length);
  const ds = catalog.body.datasets.find((d: any) => d.id === 'noaa-spc-tornado-omaha');
  assert.ok(ds.license && ds.credit_line && ds.publisher.name && ds.provenance.obtained_from);
  const download = await fetch(`${data}${ds.files[0].links.download}`, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
  assert.equal(sha256(new Uint8Array(await download.arrayBuffer())), ds.files[0].sha256);
  const jtwc = catalog.body.datasets.find((d: any) => d.id === 'jtwc-best-track-north-indian');
  const nested = await fetch(`${data}${jtwc.files[0].links.download}`, { headers: { 'user-agent': 'catrisk-tests/1.0', authorization: `Bearer ${key}` } });
  assert.equal(nested.status, 200);
  assert.equal(sha256(new Uint8Array(await nested.arrayBuffer())), jtwc.files[0].sha256);
  const bom = catalog.body.datasets.find((d: any) => d.id === 'bom-cdo-031036-prcp');
  const refused = await get(bom.files[0].links.download, data);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'feed_not_servable');
});

test('a tampered snapshot is refused by the service and by `catrisk feeds verify`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-feeds-'));
  try {
    for (const feed of ['usgs-comcat-m6-california', 'usgs-comcat-m6-cascadia']) {
      cpSync(join(FEEDS_DIR, feed), join(dir, feed), { recursive: true });
    }
    const version = latestVersion('usgs-comcat-m6-cascadia');
    const file = join(dir, 'usgs-comcat-m6-cascadia', version, manifestOf('usgs-comcat-m6-cascadia').files[0].name);
    chmodSync(file, 0o644);
    const bytes = readFileSync(file);
    bytes[100] = bytes[100] === 0x31 ? 0x32 : 0x31;
    writeFileSync(file, bytes);

    const tampered = await startService('sqlite', { CATRISK_FEEDS_DIR: dir });
    try {
      const k = (await signup(tampered.api)).key;
      const feeds = await call(tampered.api, 'GET', '/feeds', { key: k });
      assert.deepEqual(feeds.body.feeds.map((f: any) => f.feed_id), ['usgs-comcat-m6-california']);
      assert.equal(feeds.body.refused[0].feed_id, 'usgs-comcat-m6-cascadia');
      const events = await call(tampered.api, 'GET', '/events/earthquake?feed=usgs-comcat-m6-cascadia', { key: k });
      assert.equal(events.status, 404);
    } finally {
      await tampered.close();
    }
    const cli = spawnSync(process.execPath, mainArgs('feeds', 'verify'), {
      env: { ...process.env, CATRISK_FEEDS_DIR: dir }, encoding: 'utf8',
    });
    assert.notEqual(cli.status, 0);
    assert.match(cli.stdout, /usgs-comcat-m6-cascadia/);
    const clean = spawnSync(process.execPath, mainArgs('feeds', 'verify'), { encoding: 'utf8' });
    assert.equal(clean.status, 0, clean.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
