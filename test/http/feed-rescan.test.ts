// A snapshot pinned by `catrisk feeds add` (its own process) into the feeds folder of a running
// service (another process) is served after SIGHUP, with the periodic look turned off.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { spawnService } from '../support/process.js';
import { call, signup } from '../support/service.js';
import { CALIFORNIA, feedsWithEarlierVersion } from '../support/earlier-version.js';
import { FEEDS_DIR, latestVersion } from '../support/feeds.js';

test('SIGHUP makes a running service serve a version `catrisk feeds add` pinned meanwhile', async () => {
  const root = mkdtempSync(join(tmpdir(), 'catrisk-rescan-'));
  const feeds = await feedsWithEarlierVersion(root);
  const env = { CATRISK_FEEDS_DIR: feeds, CATRISK_STATE_DIR: join(root, 'state'), CATRISK_FEEDS_RESCAN_SECONDS: '0' };
  const svc = await spawnService('serve', env);
  try {
    const { key } = await signup(svc.urls.api!);
    const versions = async () => ((await call(svc.urls.api!, 'GET', '/feeds', { key })).body.feeds as any[])
      .find((f) => f.feed_id === CALIFORNIA).versions.map((v: any) => v.version);
    assert.deepEqual(await versions(), ['2019-06-30']);
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'feeds', 'add', join(FEEDS_DIR, CALIFORNIA, latestVersion(CALIFORNIA))],
      { env: { ...process.env, CATRISK_FEEDS_DIR: feeds } });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await versions(), ['2019-06-30'], 'no periodic look: not yet served');
    svc.child.kill('SIGHUP');
    const until = Date.now() + 10_000;
    while ((await versions()).length < 2) {
      if (Date.now() > until) throw new Error('the new version was not served after SIGHUP');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(await versions(), ['2019-06-30', latestVersion(CALIFORNIA)]);
  } finally {
    await svc.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
