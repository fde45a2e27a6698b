// SQLite runs one process by design: after that process dies mid-job, the next start takes the
// job back at once instead of waiting out its lease.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SQLite } from '../../src/store/sqlite-driver.js';
import { spawnService } from '../support/process.js';
import { call, signup, waitForJob } from '../support/service.js';
import { form, largeSchedule } from '../support/schedules.js';

test('on SQLite, a job the killed process was running is run by the next start at once, not after its lease', { timeout: 240_000 }, async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'catrisk-restart-'));
  // A ten-minute lease: waiting it out would overrun this test's own limit.
  const env = { CATRISK_STATE_DIR: stateDir, CATRISK_JOB_LEASE_MS: '600000', CATRISK_JOB_POLL_MS: '25', CATRISK_RATE_LIMIT: '100000' };
  const first = await spawnService('serve', env);
  try {
    const { key } = await signup(first.urls.api!);
    const accepted = await call(first.urls.api!, 'POST', '/ingest', { key, raw: form(largeSchedule(100_000), { type: 'text/csv', currency: 'USD' }) });
    assert.equal(accepted.status, 202, accepted.text);
    const jobPath = accepted.headers.get('location')!;
    for (let i = 0; (await call(first.urls.api!, 'GET', jobPath, { key })).body.status !== 'running'; i += 1) {
      assert.ok(i < 2000, 'the job never started');
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.stop('SIGKILL');

    const second = await spawnService('serve', env);
    try {
      const job = await waitForJob(second.urls.api!, key, jobPath, 180_000);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      const object = await call(second.urls.api!, 'GET', job.result.objects[0].links.self, { key });
      assert.equal(object.status, 200);
      assert.equal(object.body.exposure.locations.length, 100_000);
    } finally {
      assert.equal(await second.stop(), 0);
    }
    const file = new SQLite(join(stateDir, 'catrisk.sqlite'), { readonly: true });
    try {
      const row = file.prepare('select attempts from jobs where id = ?').get(accepted.body.id) as { attempts: number };
      assert.equal(row.attempts, 2, 'claimed by the killed process, then once by the next');
      assert.equal((file.prepare('select count(*) as n from objects').get() as { n: number }).n, 1);
    } finally {
      file.close();
    }
  } finally {
    await first.stop('SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
  }
});
