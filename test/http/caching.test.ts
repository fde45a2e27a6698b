// Content-addressed reads send a strong ETag and Cache-Control: immutable, and If-None-Match
// answers 304: backtest artifacts, succeeded lab runs, pinned feed files and indexes (API host and
// data room).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, eachDialect, sharedService, signup, waitForJob, type Answer } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject } from '../support/objects.js';
import { manifestOf } from '../support/feeds.js';

const IMMUTABLE = /^private, max-age=31536000, immutable$/;

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The answer is tagged with the digest of its bytes and is immutable; If-None-Match answers 304. */
async function assertCached(base: string, path: string, key: string, answer: Answer, tag = `"${sha256(answer.text)}"`) {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('etag'), tag, path);
  assert.match(answer.headers.get('cache-control') ?? '', IMMUTABLE, path);
  for (const held of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
    const again = await call(base, 'GET', path, { key, headers: { 'if-none-match': held } });
    assert.equal(again.status, 304, `${path} If-None-Match: ${held}`);
    assert.equal(again.text, '');
    assert.equal(again.headers.get('etag'), tag);
    assert.match(again.headers.get('cache-control') ?? '', IMMUTABLE);
  }
  const changed = await call(base, 'GET', path, { key, headers: { 'if-none-match': '"other"' } });
  assert.equal(changed.status, 200);
  assert.equal(changed.text, answer.text);
}

eachDialect('a backtest artifact is immutable: strong ETag, 304 on If-None-Match', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.earthquake })).status, 200);
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const accepted = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const path = job.result.links.self;
  await assertCached(svc.api, path, key, await call(svc.api, 'GET', path, { key }));
  // Another account's tag opens nothing.
  const stranger = await signup(svc.api);
  assert.equal((await call(svc.api, 'GET', path, { key: stranger.key, headers: { 'if-none-match': '*' } })).status, 404);
});

eachDialect('a lab run is tagged while it runs and immutable once it has succeeded', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.75, lon: -0.9, value: 5000 }] } } });
  const path = submitted.headers.get('location')!;
  const until = Date.now() + 120_000;
  let run: Answer;
  for (;;) {
    run = await call(svc.urls.lab, 'GET', path, { key });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.headers.get('etag'), `"${sha256(run.text)}"`);
    if (run.body.status === 'succeeded') break;
    // Not yet finished: its document will change, so it is never immutable.
    assert.equal(run.headers.get('cache-control'), null);
    assert.notEqual(run.body.status, 'failed', run.text);
    assert.ok(Date.now() < until, 'run did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
  await assertCached(svc.urls.lab, path, key, run);
});

eachDialect('pinned feed data: a file is tagged by its pinned digest, an index by its bytes', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const comcat = manifestOf('usgs-comcat-m6-california');
  const single = '/feeds/usgs-comcat-m6-california/versions/2022-12-20/data';
  const file = await call(svc.api, 'GET', single, { key });
  await assertCached(svc.api, single, key, file, `"${comcat.files[0].sha256}"`);
  assert.equal(sha256(Buffer.from(file.text)), comcat.files[0].sha256);

  const feeds = (await call(svc.api, 'GET', '/feeds', { key })).body.feeds;
  const several = feeds.flatMap((f: any) => f.versions.map((v: any) => ({ feed: f.feed_id, ...v })))
    .find((v: any) => v.content_servable && manifestOf(v.feed).files.length > 1);
  const indexPath = `/feeds/${several.feed}/versions/${several.version}/data`;
  const index = await call(svc.api, 'GET', indexPath, { key });
  assert.ok(Array.isArray(index.body.files), index.text);
  await assertCached(svc.api, indexPath, key, index);

  // The data room serves the same pinned bytes under the same tag.
  const catalog = (await call(svc.urls.data, 'GET', '/catalog', { key })).body;
  const dataset = catalog.datasets.find((d: any) => d.id === 'usgs-comcat-m6-california' && d.version === '2022-12-20');
  const download = dataset.files[0].links.download;
  await assertCached(svc.urls.data, download, key, await call(svc.urls.data, 'GET', download, { key }), `"${comcat.files[0].sha256}"`);
});
