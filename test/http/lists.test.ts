// The lists of an account's resources over real HTTP: paging through 1,200 objects while others are
// added, every filter, tenancy on every list, and the refusals of a bad cursor, limit or filter.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { form, smallSchedule } from '../support/schedules.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE, ingestedObject } from '../support/objects.js';


const LAB_MODEL = 'oasislmf-windstorm';
const LAB_POINTS = [{ lat: 52.74, lon: -0.91, value: 1_000_000 }];

/** A stored object written straight through the store (fast), created at `at`. */
function storedObject(svc: TestService, accountId: string, id: string, at: Date, extra: Record<string, unknown> = {}) {
  const document = { id, schema_version: '0.1.0', status: 'draft', exposure: EXPOSURE, provenance: { source_files: [], runs: [] }, ...extra };
  return svc.services.objects.insert(accountId, document as never, at);
}

/** Every page of a list from `path`, following page.next; `between` runs after each page is read. */
async function allPages(base: string, key: string, path: string, member: string, between?: () => Promise<void>) {
  const items: any[] = [];
  let pages = 0;
  for (let next: string | null = path; next !== null;) {
    const answer = await call(base, 'GET', next, { key });
    assert.equal(answer.status, 200, answer.text);
    items.push(...answer.body[member]);
    pages += 1;
    next = answer.body.page.next;
    if (next !== null) assert.equal(answer.body[member].length, answer.body.page.limit, 'only the last page is short');
    await between?.();
  }
  return { items, pages };
}

/** Newest first: (created_at, id) never increases along a list. */
function assertNewestFirst(items: Array<{ created_at: string; id: string }>) {
  for (let i = 1; i < items.length; i += 1) {
    const [a, b] = [items[i - 1]!, items[i]!];
    assert.ok(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id), `${a.id} ${a.created_at} before ${b.id} ${b.created_at}`);
  }
}

eachDialect('paging through 1,200 objects while others are added: no duplicates, no gaps, newest first', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  // Ten objects share each instant, so the id breaks ties inside a page and across pages.
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const existing: string[] = [];
  for (let i = 0; i < 1200; i += 1) {
    const id = `obj_${i.toString(16).padStart(24, '0')}`;
    existing.push(id);
    await storedObject(svc, accountId, id, new Date(start + Math.floor(i / 10) * 1000));
  }

  const added: string[] = [];
  const addSome = async () => {
    const created = await Promise.all(Array.from({ length: 3 }, () => call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, peril: { code: 'flood' } } })));
    for (const c of created) {
      assert.equal(c.status, 201, c.text);
      added.push(c.body.id);
    }
  };
  // Additions run concurrently with each page read, and between pages.
  let reading: Promise<void> = Promise.resolve();
  const { items, pages } = await allPages(svc.api, key, '/objects?limit=97', 'objects', async () => {
    await reading;
    reading = addSome();
  });
  await reading;
  assert.equal(pages, Math.ceil(items.length / 97));
  const seen = items.map((o) => o.id as string);
  assert.equal(new Set(seen).size, seen.length, 'no object is listed twice');
  const all = new Set([...existing, ...added]);
  for (const id of seen) assert.ok(all.has(id), `${id} is the account's`);
  for (const id of existing) assert.ok(seen.includes(id), `${id} was not skipped`);
  assertNewestFirst(items);
  assert.ok(added.length >= 30);

  // The default page is 50, the ceiling 500; the last page says next: null.
  const first = await call(svc.api, 'GET', '/objects', { key });
  assert.equal(first.body.objects.length, 50);
  assert.equal(first.body.page.limit, 50);
  assert.match(first.body.page.next, /^\/objects\?limit=50&cursor=[A-Za-z0-9_-]+$/);
  assert.equal(first.body.links.self, '/objects?limit=50');
  const widest = await call(svc.api, 'GET', '/objects?limit=500', { key });
  assert.equal(widest.body.objects.length, 500);
  const oldest = await call(svc.api, 'GET', `/objects?created_to=${encodeURIComponent('2026-01-01T00:00:01Z')}`, { key });
  assert.deepEqual(oldest.body.objects.map((o: any) => o.id), existing.slice(0, 10).reverse());
  assert.equal(oldest.body.page.next, null);
});

eachDialect('GET /objects: summaries, and the status, peril and created-range filters', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  await storedObject(svc, accountId, 'obj_jan000000000000000000000', new Date('2026-01-15T00:00:00Z'), { peril: { code: 'earthquake' } });
  await storedObject(svc, accountId, 'obj_feb000000000000000000000', new Date('2026-02-15T00:00:00Z'), { status: 'priced', peril: { code: 'earthquake' } });
  await storedObject(svc, accountId, 'obj_mar000000000000000000000', new Date('2026-03-15T00:00:00Z'), { peril: { code: 'wildfire' } });
  const posted = await call(svc.api, 'POST', '/objects', { key, body: { exposure: EXPOSURE, peril: { code: 'grid_outage' } } });
  assert.equal(posted.status, 201);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(3), { type: 'text/csv', currency: 'USD', filename: 'sites.csv' }) });
  const ingested = (await waitForJob(svc.api, key, accepted.headers.get('location')!)).result.objects[0];

  const list = await call(svc.api, 'GET', '/objects', { key });
  assert.equal(list.status, 200);
  assert.equal(list.body.schema_version, '0.1.0');
  assert.deepEqual(list.body.objects.map((o: any) => o.id), [ingested.id, posted.body.id, 'obj_mar000000000000000000000', 'obj_feb000000000000000000000', 'obj_jan000000000000000000000']);
  const fromIngest = list.body.objects[0];
  assert.deepEqual(Object.keys(fromIngest).sort(), ['created_at', 'id', 'links', 'locations', 'peril', 'size', 'source', 'status', 'updated_at', 'version']);
  assert.equal(fromIngest.locations, 3);
  assert.equal(fromIngest.source, 'sites.csv');
  assert.equal(fromIngest.status, 'draft');
  assert.deepEqual(fromIngest.links, { self: `/objects/${ingested.id}` });
  const whole = await call(svc.api, 'GET', fromIngest.links.self, { key });
  assert.equal(fromIngest.size, Buffer.byteLength(whole.text));
  assert.equal(fromIngest.version, Number(JSON.parse(whole.headers.get('etag')!)));
  assert.equal(list.body.objects[1].peril, 'grid_outage');
  assert.equal(list.body.objects[1].locations, 1);
  assert.equal(list.body.objects[1].source, null);

  const ids = async (query: string) => {
    const answer = await call(svc.api, 'GET', `/objects?${query}`, { key });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.objects.map((o: any) => o.id);
  };
  assert.deepEqual(await ids('status=priced'), ['obj_feb000000000000000000000']);
  assert.deepEqual(await ids('peril=earthquake'), ['obj_feb000000000000000000000', 'obj_jan000000000000000000000']);
  assert.deepEqual(await ids('peril=earthquake&status=draft'), ['obj_jan000000000000000000000']);
  assert.deepEqual(await ids('created_from=2026-02-15&created_to=2026-03-15'), ['obj_feb000000000000000000000'], 'from inclusive, to exclusive');
  assert.deepEqual(await ids('created_from=2026-02-16T00:00:00%2B01:00&created_to=2026-04-01'), ['obj_mar000000000000000000000']);
  assert.deepEqual(await ids('peril=flood'), []);

  // A PATCH moving the peril moves the object between filters.
  const patched = await call(svc.api, 'PATCH', '/objects/obj_jan000000000000000000000', { key, body: { peril: { code: 'flood' } } });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await ids('peril=flood'), ['obj_jan000000000000000000000']);
  assert.deepEqual(await ids('peril=earthquake'), ['obj_feb000000000000000000000']);

  // Filters are carried into the next link.
  const paged = await call(svc.api, 'GET', '/objects?status=draft&created_to=2026-04-01&limit=1', { key });
  assert.deepEqual(paged.body.objects.map((o: any) => o.id), ['obj_mar000000000000000000000']);
  assert.match(paged.body.page.next, /^\/objects\?status=draft&created_to=2026-04-01&limit=1&cursor=[A-Za-z0-9_-]+$/);
  const second = await call(svc.api, 'GET', paged.body.page.next, { key });
  assert.deepEqual(second.body.objects.map((o: any) => o.id), ['obj_jan000000000000000000000']);
  assert.equal(second.body.page.next, null);
});

eachDialect('GET /jobs, /structures and /backtests: summaries and filters', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  // An object without terms cannot be priced: its price job fails.
  const price = await call(svc.api, 'POST', `${objectPath}/price`, { key, body: {} });
  const failed = await waitForJob(svc.api, key, price.headers.get('location')!, 60_000);
  assert.equal(failed.status, 'failed');
  const [peril, body] = Object.entries(ACCEPTANCE_BODIES)[0]!;
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body })).status, 200);
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(cut.status, 201, cut.text);
  const accepted = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const backtest = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(backtest.status, 'succeeded', JSON.stringify(backtest.error));

  const jobs = await call(svc.api, 'GET', '/jobs', { key });
  assert.equal(jobs.status, 200);
  assert.deepEqual(jobs.body.jobs.map((j: any) => j.verb), ['backtest', 'price', 'ingest']);
  const [listedBacktest, listedPrice] = jobs.body.jobs;
  assert.equal(listedBacktest.id, backtest.id);
  assert.equal(listedBacktest.status, 'succeeded');
  assert.equal(listedBacktest.result, undefined, 'a list never carries a result');
  assert.deepEqual(listedBacktest.subject, backtest.subject);
  assert.equal(listedBacktest.finished_at, backtest.finished_at);
  assert.equal(listedBacktest.attempts, backtest.attempts);
  assert.deepEqual(listedBacktest.links, { self: `/jobs/${backtest.id}` });
  assert.equal(listedPrice.error, undefined);
  const verbs = async (query: string) => (await call(svc.api, 'GET', `/jobs?${query}`, { key })).body.jobs.map((j: any) => j.verb);
  assert.deepEqual(await verbs('verb=price'), ['price']);
  assert.deepEqual(await verbs('status=failed'), ['price']);
  assert.deepEqual(await verbs('status=succeeded'), ['backtest', 'ingest']);
  assert.deepEqual(await verbs('verb=ingest&status=failed'), []);
  assert.deepEqual(await verbs('verb=lab_run'), []);

  const structures = await call(svc.api, 'GET', '/structures', { key });
  assert.equal(structures.status, 200);
  assert.deepEqual(structures.body.structures, [{
    id: cut.body.id, object_id: cut.body.object_id, peril, created_at: structures.body.structures[0].created_at, links: cut.body.links,
  }]);

  const backtests = await call(svc.api, 'GET', '/backtests', { key });
  assert.equal(backtests.status, 200);
  const artifact = backtest.result;
  assert.deepEqual(backtests.body.backtests, [{
    id: artifact.id, peril, feed: { feed_id: artifact.feed.feed_id, version: artifact.feed.version },
    window: { from_year: artifact.window.from_year, to_year: artifact.window.to_year },
    created_at: backtests.body.backtests[0].created_at, links: { self: artifact.links.self },
  }]);
  assert.equal(backtests.body.page.next, null);
});

eachDialect('lab GET /runs: the runs the key submitted, by model and status', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: LAB_MODEL, samples: 0, exposure: { points: LAB_POINTS } } });
  assert.ok([200, 202].includes(submitted.status), submitted.text);
  const listed = await call(svc.urls.lab, 'GET', '/runs', { key });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.body.runs.length, 1);
  const run = listed.body.runs[0];
  assert.equal(run.id, submitted.body.id);
  assert.equal(run.model, LAB_MODEL);
  assert.equal(run.links.self, `/runs/${submitted.body.id}`);
  assert.equal(run.links.job, submitted.body.links.job);
  assert.equal(run.result, undefined);
  await waitForJob(svc.api, key, new URL(submitted.body.links.job).pathname, 120_000);
  const byStatus = async (query: string) => (await call(svc.urls.lab, 'GET', `/runs?${query}`, { key })).body.runs.map((r: any) => r.id);
  assert.deepEqual(await byStatus('status=succeeded'), [submitted.body.id]);
  assert.deepEqual(await byStatus(`status=succeeded&model=${LAB_MODEL}`), [submitted.body.id]);
  assert.deepEqual(await byStatus('status=queued'), []);
  assert.equal((await call(svc.urls.lab, 'GET', `/runs/${submitted.body.id}`, { key })).body.status, 'succeeded');
});

eachDialect('every list is the caller\'s account only', async (dialect) => {
  const svc = await sharedService(dialect);
  const owner = await signup(svc.api);
  const other = await signup(svc.api);
  const objectPath = await ingestedObject(svc, owner.key);
  const [, body] = Object.entries(ACCEPTANCE_BODIES)[0]!;
  await call(svc.api, 'PATCH', objectPath, { key: owner.key, body });
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key: owner.key });
  const accepted = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key: owner.key });
  await waitForJob(svc.api, owner.key, accepted.headers.get('location')!, 60_000);
  const run = await call(svc.urls.lab, 'POST', '/runs', { key: owner.key, body: { model: LAB_MODEL, samples: 0, exposure: { points: LAB_POINTS } } });
  assert.ok([200, 202].includes(run.status), run.text);

  const lists: Array<[string, string, string]> = [
    [svc.api, '/objects', 'objects'], [svc.api, '/jobs', 'jobs'], [svc.api, '/structures', 'structures'],
    [svc.api, '/backtests', 'backtests'], [svc.urls.lab, '/runs', 'runs'],
  ];
  for (const [base, path, member] of lists) {
    const mine = await call(base, 'GET', path, { key: owner.key });
    assert.ok(mine.body[member].length >= 1, `${path}: the owner sees its own`);
    const theirs = await call(base, 'GET', path, { key: other.key });
    assert.equal(theirs.status, 200);
    assert.deepEqual(theirs.body[member], [], `${path}: another account sees none`);
    // A cursor from the owner's list positions another account's page but shows none of the owner's rows.
    const cursor = (await call(base, 'GET', `${path}?limit=1`, { key: owner.key })).body.page.next;
    if (cursor) assert.deepEqual((await call(base, 'GET', cursor, { key: other.key })).body[member], []);
    const keyless = await call(base, 'GET', path);
    assert.equal(keyless.status, 401, path);
    assert.deepEqual(envelopeFaults(keyless), []);
  }
});

eachDialect('a bad cursor, limit or filter is refused 422 invalid_request, naming it', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const forged = Buffer.from(JSON.stringify(['yesterday', 'obj_x'])).toString('base64url');
  const cases: Array<[string, string, RegExp]> = [
    [svc.api, '/objects?limit=0', /limit must be an integer from 1 to 500, got "0"/],
    [svc.api, '/objects?limit=501', /limit must be an integer from 1 to 500/],
    [svc.api, '/jobs?limit=ten', /limit must be an integer from 1 to 500/],
    [svc.api, '/objects?limit=5&limit=6', /parameter limit is given more than once/],
    [svc.api, '/objects?cursor=not-a-cursor', /cursor is not a position in this list/],
    [svc.api, `/structures?cursor=${forged}`, /cursor is not a position in this list/],
    [svc.api, '/backtests?cursor=%25%25', /cursor is not a position in this list/],
    [svc.api, '/objects?status=archived', /status must be one of draft, priced, got "archived"/],
    [svc.api, '/objects?peril=hurricane', /peril must be one of earthquake, .*grid_outage, got "hurricane"/],
    [svc.api, '/objects?created_from=last%20week', /created_from must be a date/],
    [svc.api, '/objects?created_from=2026-03-01&created_to=2026-02-01', /created_from is after created_to/],
    [svc.api, '/objects?colour=red', /unknown parameter colour/],
    [svc.api, '/jobs?verb=monitor', /verb must be one of ingest, backtest, price, lab_run/],
    [svc.api, '/jobs?status=cancelled', /status must be one of queued, running, succeeded, failed/],
    [svc.api, '/structures?status=draft', /unknown parameter status/],
    [svc.urls.lab, '/runs?model=nope', /model must be one of oasislmf-windstorm/],
    [svc.urls.lab, '/runs?status=done', /status must be one of queued, running, succeeded, failed/],
    [svc.urls.lab, '/runs?cursor=W10', /cursor is not a position in this list/],
  ];
  for (const [base, path, detail] of cases) {
    const answer = await call(base, 'GET', path, { key });
    assert.equal(answer.status, 422, `${path}: ${answer.text}`);
    assert.equal(answer.body.error.code, 'invalid_request', path);
    assert.deepEqual(envelopeFaults(answer), [], path);
    assert.ok(answer.body.error.details.some((d: string) => detail.test(d)), `${path}: ${answer.text}`);
  }
});
