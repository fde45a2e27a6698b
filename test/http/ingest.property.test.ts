// Random bytes and random delimited text through POST /ingest: every job ends succeeded (with
// fidelity notes) or failed with 415 unsupported_source; nothing crashes; no partial object.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { call, signup, startService, waitForJob, type TestService } from '../support/service.js';
import { form } from '../support/schedules.js';

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService('sqlite');
  key = (await signup(svc.api)).key;
});
after(() => svc.close());

const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.double({ noNaN: true }).map(String), fc.constantFrom('$1,200,000', '1.2m', '40°26\'46"N', 'TIV', 'Lat', 'Total', '"a;b"', ''));
const delimited = fc.tuple(fc.constantFrom(',', ';', '\t', '|'), fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }))
  .map(([d, rows]) => new TextEncoder().encode(rows.map((r) => r.join(d)).join('\n')));
const bytes = fc.uint8Array({ minLength: 1, maxLength: 600 });

test('every ingest job ends succeeded or failed with unsupported_source, and objects match the jobs', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(delimited, bytes), async (file) => {
    const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(file, { type: 'application/octet-stream' }) });
    assert.equal(accepted.status, 202, accepted.text);
    const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
    if (job.status === 'failed') {
      assert.deepEqual([job.error.status, job.error.code], [415, 'unsupported_source'], JSON.stringify(job.error));
    } else {
      const object = await call(svc.api, 'GET', job.result.objects[0].links.self, { key });
      assert.equal(object.status, 200);
      assert.ok(object.body.exposure.source_fidelity);
    }
  }), { numRuns: 40, seed: 4242 });
  // One object per succeeded job and none for a failed one.
  const jobs = await svc.services.database.db.selectFrom('jobs').select(['status', 'result']).where('verb', '=', 'ingest').execute();
  const objects = await svc.services.database.db.selectFrom('objects').select('id').execute();
  assert.equal(objects.length, jobs.filter((j) => j.status === 'succeeded').length);
});
