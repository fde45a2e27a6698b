// Concurrent writes to one object: no PATCH answered 200 is lost, provenance never loses an entry,
// If-Match lets exactly one writer per version win, a price is written only for the terms it
// priced, and metering records one unit per distinct run.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject, priceObject } from '../support/objects.js';

const WRITERS = 50;

eachDialect('50 concurrent PATCHes: every 200 is persisted and provenance keeps every entry', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const path = await ingestedObject(svc, key);
  const before = (await call(svc.api, 'GET', path, { key })).body;
  // Each writer names a different insured, so each PATCH is a change with its own provenance entry.
  const answers = await Promise.all(Array.from({ length: WRITERS }, (_, i) =>
    call(svc.api, 'PATCH', path, { key, body: { parties: { insured: { name: `Insured ${i}` } } } })));
  for (const a of answers) assert.equal(a.status, 200, a.text);
  const after = await call(svc.api, 'GET', path, { key });
  const runs = after.body.provenance.runs;
  assert.equal(runs.length, before.provenance.runs.length + WRITERS, 'one provenance entry per PATCH answered 200');
  assert.deepEqual(runs.slice(0, before.provenance.runs.length), before.provenance.runs);
  // Every answered object is a state the stored object passed through: its runs are a prefix of the final ones.
  const runCounts = new Set<number>();
  for (const a of answers) {
    assert.deepEqual(runs.slice(0, a.body.provenance.runs.length), a.body.provenance.runs);
    runCounts.add(a.body.provenance.runs.length);
  }
  assert.equal(runCounts.size, WRITERS, 'each PATCH wrote its own version');
  // The last writer's block is the one stored.
  const last = answers.find((a) => a.body.provenance.runs.length === runs.length)!;
  assert.deepEqual(after.body.parties, last.body.parties);
  assert.equal(after.headers.get('etag'), `"${WRITERS + 1}"`);
});

eachDialect('If-Match: one PATCH wins per version, the rest answer 412 precondition_failed; ETag on GET and PATCH', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const path = await ingestedObject(svc, key);
  const read = await call(svc.api, 'GET', path, { key });
  const tag = read.headers.get('etag')!;
  assert.match(tag, /^"\d+"$/);
  assert.equal((await call(svc.api, 'GET', path, { key, headers: { 'if-none-match': tag } })).status, 304);

  const answers = await Promise.all(Array.from({ length: WRITERS }, (_, i) =>
    call(svc.api, 'PATCH', path, { key, body: { parties: { insured: { name: `Insured ${i}` } } }, headers: { 'if-match': tag } })));
  const won = answers.filter((a) => a.status === 200);
  assert.equal(won.length, 1, answers.map((a) => a.status).join(','));
  for (const a of answers.filter((x) => x.status !== 200)) {
    assert.equal(a.status, 412, a.text);
    assert.equal(a.body.error.code, 'precondition_failed');
    assert.deepEqual(envelopeFaults(a), []);
  }
  const after = await call(svc.api, 'GET', path, { key });
  assert.deepEqual(after.body.parties, won[0]!.body.parties);
  assert.equal(after.body.provenance.runs.length, read.body.provenance.runs.length + 1);
  assert.equal(after.headers.get('etag'), won[0]!.headers.get('etag'));
  assert.notEqual(after.headers.get('etag'), tag);

  // The new tag and * are accepted; a weak tag never matches (strong comparison).
  const next = await call(svc.api, 'PATCH', path, { key, body: { jurisdiction: { governing_law: 'England and Wales' } }, headers: { 'if-match': after.headers.get('etag')! } });
  assert.ok(next.status === 200 || next.status === 422, next.text);
  const any = await call(svc.api, 'PATCH', path, { key, body: { parties: { insured: { name: 'Any' } } }, headers: { 'if-match': '*' } });
  assert.equal(any.status, 200, any.text);
  const weak = await call(svc.api, 'PATCH', path, { key, body: { parties: { insured: { name: 'Weak' } } }, headers: { 'if-match': `W/${any.headers.get('etag')}` } });
  assert.equal(weak.status, 412);
  // Another account's object is 404 whatever If-Match says.
  const other = await signup(svc.api);
  assert.equal((await call(svc.api, 'PATCH', path, { key: other.key, body: { parties: {} }, headers: { 'if-match': '*' } })).status, 404);
});

eachDialect('a PATCH of the limit while the price runs never leaves the old limit\'s premium', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const path = await ingestedObject(svc, key);
  const terms = ACCEPTANCE_BODIES.flood as { financial_structure: { limit: number } };
  assert.equal((await call(svc.api, 'PATCH', path, { key, body: terms })).status, 200);
  let raced = 0;
  for (let round = 0; round < 12 && raced < 2; round += 1) {
    const accepted = await call(svc.api, 'POST', `${path}/price`, { key, body: {} });
    const jobPath = accepted.headers.get('location')!;
    while ((await call(svc.api, 'GET', jobPath, { key })).body.status === 'queued') await new Promise((r) => setTimeout(r, 2));
    const limit = 1_000_000 + round * 1000;
    const patched = await call(svc.api, 'PATCH', path, { key, body: { financial_structure: { ...terms.financial_structure, limit } } });
    assert.equal(patched.status, 200);
    const job = await waitForJob(svc.api, key, jobPath, 60_000);
    const object = (await call(svc.api, 'GET', path, { key })).body;
    assert.equal(object.financial_structure.limit, limit, 'the PATCH is never overwritten');
    if (object.status === 'priced') {
      // A priced object's premium is the price of the terms it holds now (price ids are content addresses).
      const again = await priceObject(svc, key, path);
      assert.equal(again.status, 'succeeded');
      assert.equal(object.technical_premium.price_id, again.result.id, 'priced with the terms it holds');
      assert.equal(object.technical_premium.amount, again.result.technical_premium.amount);
    }
    if (job.status === 'failed') {
      assert.equal(job.error.status, 409);
      assert.equal(job.error.code, 'object_changed');
      assert.equal(object.status, 'draft');
      assert.equal(object.technical_premium, undefined);
      raced += 1;
    }
  }
  assert.ok(raced > 0, 'no PATCH landed while a price was running');
});

eachDialect('metering: three price runs of the same terms count once; every created object once', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key, accountId } = await signup(svc.api);
  const path = await ingestedObject(svc, key);
  assert.equal((await call(svc.api, 'PATCH', path, { key, body: ACCEPTANCE_BODIES.flood })).status, 200);
  const ids = new Set<string>();
  for (let i = 0; i < 3; i += 1) {
    const job = await priceObject(svc, key, path);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    ids.add(job.result.id);
  }
  assert.equal(ids.size, 1, 'the same terms give the same price id');
  let usage = (await call(svc.api, 'GET', '/usage', { key })).body;
  assert.equal(usage.units.model_runs, 1);
  assert.equal(usage.units.objects, 1);
  // Other terms are another run.
  assert.equal((await call(svc.api, 'PATCH', path, { key, body: { financial_structure: { currency: 'USD', limit: 7000000, attachment: 0 } } })).status, 200);
  assert.equal((await priceObject(svc, key, path)).status, 'succeeded');
  usage = (await call(svc.api, 'GET', '/usage', { key })).body;
  assert.equal(usage.units.model_runs, 2);
  // A job run again after a crash records nothing more: the store records a unit once, concurrently too.
  const recorded = await Promise.all(Array.from({ length: 10 }, () => svc.services.accounts.recordUsage(accountId, 'model_run', [...ids][0]!)));
  assert.equal(recorded.filter(Boolean).length, 0);
  const fresh = await Promise.all(Array.from({ length: 10 }, () => svc.services.accounts.recordUsage(accountId, 'object', 'obj_replayed')));
  assert.equal(fresh.filter(Boolean).length, 1);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.total, 4);
});
