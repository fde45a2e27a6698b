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

test('GET /health names the snapshots loaded: every pinned version, none refused', async () => {
  const health = await call(svc.api, 'GET', '/health');
  assert.equal(health.status, 200);
  const pinned = readdirSync(FEEDS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(FEEDS_DIR, d.name)).sort().map((v) => `${d.name}/${v}`)).sort();
  assert.deepEqual(health.body.feeds, { loaded: pinned.length, refused: 0, snapshots: pinned });
  assert.ok(pinned.length >= 76);
});

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

/** Copies two pinned feeds into a fresh folder, with one byte of Cascadia's catalog changed. */
function tamperedCopy(into: string, feeds: readonly string[]): string {
  for (const feed of feeds) cpSync(join(FEEDS_DIR, feed), join(into, feed), { recursive: true });
  const file = join(into, 'usgs-comcat-m6-cascadia', latestVersion('usgs-comcat-m6-cascadia'), manifestOf('usgs-comcat-m6-cascadia').files[0].name);
  chmodSync(file, 0o644);
  const bytes = readFileSync(file);
  bytes[100] = bytes[100] === 0x31 ? 0x32 : 0x31;
  writeFileSync(file, bytes);
  return file;
}

/** `catrisk serve` in its own process: it must refuse to start, on one line of standard error. */
function refusedStart(feedsDir: string): { status: number | null; lines: string[] } {
  const state = mkdtempSync(join(tmpdir(), 'catrisk-state-'));
  try {
    const run = spawnSync(process.execPath, mainArgs('serve'), {
      env: { ...process.env, CATRISK_FEEDS_DIR: feedsDir, CATRISK_STATE_DIR: state, CATRISK_API_PORT: '0', CATRISK_DOCS_PORT: '0', CATRISK_MCP_PORT: '0', CATRISK_DATA_PORT: '0', CATRISK_LAB_PORT: '0' },
      encoding: 'utf8', timeout: 60_000,
    });
    return { status: run.status, lines: run.stderr.split('\n').filter(Boolean) };
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

test('a tampered, missing or empty feeds folder stops the start on one line naming the folder and the setting', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-feeds-'));
  try {
    tamperedCopy(dir, ['usgs-comcat-m6-california', 'usgs-comcat-m6-cascadia']);
    await assert.rejects(startService('sqlite', { CATRISK_FEEDS_DIR: dir }), (error: Error) => {
      assert.equal(error.name, 'UnusableFeeds');
      assert.match(error.message, /usgs-comcat-m6-cascadia/);
      return true;
    });
    const tampered = refusedStart(dir);
    assert.notEqual(tampered.status, 0);
    assert.equal(tampered.lines.length, 1, tampered.lines.join('\n'));
    assert.ok(tampered.lines[0]!.includes(dir) && tampered.lines[0]!.includes('CATRISK_FEEDS_DIR'), tampered.lines[0]);
    assert.match(tampered.lines[0]!, /1 snapshot\(s\).*usgs-comcat-m6-cascadia\/[0-9-]+: bytes do not match MANIFEST\.json/);

    const cli = spawnSync(process.execPath, mainArgs('feeds', 'verify'), {
      env: { ...process.env, CATRISK_FEEDS_DIR: dir }, encoding: 'utf8',
    });
    assert.notEqual(cli.status, 0);
    assert.match(cli.stdout, /usgs-comcat-m6-cascadia/);
    const clean = spawnSync(process.execPath, mainArgs('feeds', 'verify'), { encoding: 'utf8' });
    assert.equal(clean.status, 0, clean.stderr);

    const missing = refusedStart(join(dir, 'nowhere'));
    assert.notEqual(missing.status, 0);
    assert.deepEqual(missing.lines, [`catrisk: cannot start: the feeds folder ${join(dir, 'nowhere')} (set by CATRISK_FEEDS_DIR, default the repository's feeds/) does not exist`]);
    const empty = mkdtempSync(join(tmpdir(), 'catrisk-feeds-empty-'));
    const none = refusedStart(empty);
    rmSync(empty, { recursive: true, force: true });
    assert.notEqual(none.status, 0);
    assert.deepEqual(none.lines, [`catrisk: cannot start: the feeds folder ${empty} (set by CATRISK_FEEDS_DIR, default the repository's feeds/) holds no snapshot`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot pinned after start whose bytes fail is listed as refused and never served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-feeds-'));
  const later = mkdtempSync(join(tmpdir(), 'catrisk-feeds-later-'));
  try {
    cpSync(join(FEEDS_DIR, 'usgs-comcat-m6-california'), join(dir, 'usgs-comcat-m6-california'), { recursive: true });
    const running = await startService('sqlite', { CATRISK_FEEDS_DIR: dir, CATRISK_FEEDS_RESCAN_SECONDS: '0' });
    try {
      const k = (await signup(running.api)).key;
      tamperedCopy(later, ['usgs-comcat-m6-cascadia']);
      cpSync(join(later, 'usgs-comcat-m6-cascadia'), join(dir, 'usgs-comcat-m6-cascadia'), { recursive: true });
      await running.services.feeds!.rescan();
      const feeds = await call(running.api, 'GET', '/feeds', { key: k });
      assert.deepEqual(feeds.body.feeds.map((f: any) => f.feed_id), ['usgs-comcat-m6-california']);
      assert.equal(feeds.body.refused[0].feed_id, 'usgs-comcat-m6-cascadia');
      const events = await call(running.api, 'GET', '/events/earthquake?feed=usgs-comcat-m6-cascadia', { key: k });
      assert.equal(events.status, 404);
    } finally {
      await running.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(later, { recursive: true, force: true });
  }
});
