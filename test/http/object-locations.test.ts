// GET /objects/{id} streamed from the stored canonical bytes, and paged GET /objects/{id}/locations:
// every location exactly once, in order, on both engines.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, expectRefusals, sharedService, signup, waitForJob } from '../support/service.js';
import { form, largeSchedule } from '../support/schedules.js';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { CHUNK_BYTES } from '../../src/store/object-chunks.js';

const ROWS = 12_000;

eachDialect('a multi-chunk object is served byte for byte and paged through its locations exactly once', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(largeSchedule(ROWS), { type: 'text/csv', currency: 'USD' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const path: string = job.result.objects[0].links.self;
  const id = path.split('/').pop()!;

  const whole = await call(svc.api, 'GET', path, { key });
  assert.equal(whole.status, 200);
  const bytes = Buffer.byteLength(whole.text, 'utf8');
  assert.ok(bytes > 2 * CHUNK_BYTES, `the object spans several chunks (${bytes} bytes)`);
  assert.equal(Number(whole.headers.get('content-length')), bytes);
  assert.match(whole.headers.get('content-type')!, /^application\/json/);
  // The stored canonical bytes, exactly: canonical JSON of the document the store holds.
  assert.equal(whole.text, canonicalJson(whole.body));
  assert.equal(whole.text, canonicalJson(await svc.services.objects.get(id, accountId)));
  const locations: any[] = whole.body.exposure.locations;
  assert.equal(locations.length, ROWS);

  // Following page.next returns every location once, in order.
  const seen: any[] = [];
  let next: string | null = `${path}/locations?limit=1000`;
  let pages = 0;
  while (next) {
    const page = await call(svc.api, 'GET', next, { key });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.text, canonicalJson(page.body));
    assert.equal(page.body.object_id, id);
    assert.equal(page.body.page.limit, 1000);
    assert.equal(page.body.page.offset, seen.length);
    seen.push(...page.body.locations);
    next = page.body.page.next;
    pages += 1;
    if (pages === 5) {
      // A write between pages (a new version) changes nothing of the locations.
      assert.equal((await call(svc.api, 'PATCH', path, { key, body: { parties: { insured: { name: 'Mid-paging' } } } })).status, 200);
    }
  }
  assert.equal(pages, ROWS / 1000);
  assert.deepEqual(seen, locations);
  assert.equal(new Set(seen.map((l) => l.ref)).size, ROWS);

  // Default page; an offset without a resume hint; an edited hint is ignored, never trusted.
  const first = await call(svc.api, 'GET', `${path}/locations`, { key });
  assert.equal(first.body.page.limit, 100);
  assert.deepEqual(first.body.locations, locations.slice(0, 100));
  const middle = await call(svc.api, 'GET', `${path}/locations?offset=7777&limit=3`, { key });
  assert.deepEqual(middle.body.locations, locations.slice(7777, 7780));
  const hinted = new URL(first.body.page.next, 'http://x');
  hinted.searchParams.set('resume', hinted.searchParams.get('resume')!.replace(/^(\d+)\.(\d+)/, (_m, v, o) => `${v}.${Number(o) + 5}`));
  const edited = await call(svc.api, 'GET', `${hinted.pathname}${hinted.search}`, { key });
  assert.deepEqual(edited.body.locations, locations.slice(100, 200));
  const last = await call(svc.api, 'GET', `${path}/locations?offset=${ROWS - 2}&limit=1000`, { key });
  assert.deepEqual(last.body.locations, locations.slice(ROWS - 2));
  assert.equal(last.body.page.next, null);
  const beyond = await call(svc.api, 'GET', `${path}/locations?offset=${ROWS + 5}`, { key });
  assert.deepEqual(beyond.body.locations, []);
  assert.equal(beyond.body.page.next, null);

  await expectRefusals(svc.api, key, [
    [`${path}/locations?limit=0`, 422, 'invalid_request'],
    [`${path}/locations?limit=1001`, 422, 'invalid_request'],
    [`${path}/locations?offset=-1`, 422, 'invalid_request'],
    [`${path}/locations?page=2`, 422, 'invalid_request'],
    [`${path}/locations?limit=1&limit=2`, 422, 'invalid_request'],
    ['/objects/obj_000000000000000000000000/locations', 404, 'not_found'],
  ]);
  const other = await signup(svc.api);
  for (const p of [path, `${path}/locations`]) {
    const answer = await call(svc.api, 'GET', p, { key: other.key });
    assert.equal(answer.status, 404);
    assert.deepEqual(envelopeFaults(answer), []);
  }
});
