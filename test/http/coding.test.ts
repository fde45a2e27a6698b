// POST /exposure-codes and POST /multi-building-flags over real HTTP: off by default, the caps
// (413 before any provider is asked), the embedded coder's answers, the daily row budget per
// account (tenancy), and the chat-completions provider against a local server: a row unanswered
// inside an answered request, and a request no row of which is answered.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, type TestService } from '../support/service.js';
import { chatAnswer, fakeUpstream, json, type FakeUpstream } from '../support/fake-upstream.js';

const ROUTES = ['/exposure-codes', '/multi-building-flags'] as const;

let model: FakeUpstream;
before(async () => { model = await fakeUpstream(); });
after(async () => { await model.close(); });

function refusedWith(answer: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body?.error?.code, code, answer.text);
  assert.deepEqual(envelopeFaults(answer), []);
}

eachDialect('exposure coding is off by default: 503 exposure_coding_unavailable on both routes', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  for (const path of ROUTES) {
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: ['RC office'] } }), 503, 'exposure_coding_unavailable');
    refusedWith(await call(svc.api, 'POST', path, { body: { rows: ['RC office'] } }), 401, 'unauthenticated');
  }
});

eachDialect('the embedded coder: codes, gate, review, caps and the daily row budget of each account', async (dialect, t) => {
  const svc: TestService = await startService(dialect, { CATRISK_EXPOSURE_CODING: 'on', CATRISK_CODING_DAILY_ROWS: '60' });
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const coded = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['3-storey tilt-up distribution warehouse', 'Office over retail, masonry', 'Vacant lot'] } });
  assert.equal(coded.status, 200, coded.text);
  assert.equal(coded.body.provider.name, 'embedded');
  assert.deepEqual(coded.body.gate, { confidence: 0.7 });
  const [warehouse, mixed, vacant] = coded.body.rows;
  assert.deepEqual(warehouse.occupancy, { code: 1122, proposed: 1122, name: 'Commercial, Warehouse', confidence: 0.97, cleared_gate: true });
  assert.equal(warehouse.construction.code, 5155);
  assert.equal(warehouse.needs_review, false);
  // Two occupancies in one row: proposed, not coded, and left for a person.
  assert.deepEqual([mixed.occupancy.code, mixed.occupancy.proposed, mixed.occupancy.cleared_gate, mixed.construction.code], [null, 1104, false, 5100]);
  assert.equal(mixed.needs_review, true);
  assert.deepEqual([vacant.occupancy.proposed, vacant.construction.proposed, vacant.needs_review], [1000, 5000, true]);
  assert.deepEqual(coded.body.counts, { rows: 3, answered: 3, unanswered: 0, needs_review: 2 });
  assert.equal(coded.body.budget.rows_used, 3);

  const flags = await call(svc.api, 'POST', '/multi-building-flags', { key, body: { rows: ['Industrial estate, Units 1-9', 'Head office', 'Retail park', '10-24 High St'] } });
  assert.equal(flags.status, 200, flags.text);
  assert.deepEqual(flags.body.rows.map((r: { status: string }) => r.status), ['flagged', 'not_flagged', 'below_gate', 'flagged']);
  assert.deepEqual(flags.body.gate, { flagged_at: 0.7, not_flagged_at: 0.3 });
  assert.equal(flags.body.rows[2].needs_review, true);
  // Both routes draw on one budget.
  assert.equal(flags.body.budget.rows_used, 7);

  // Caps: 413 payload_too_large on the request, before the budget is touched.
  for (const path of ROUTES) {
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: Array.from({ length: 51 }, () => 'Office') } }), 413, 'payload_too_large');
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: ['Office', 'x'.repeat(1001)] } }), 413, 'payload_too_large');
    // A row of exactly 1,000 characters (astral characters count once) and 50 rows pass.
    assert.equal((await call(svc.api, 'POST', path, { key, body: { rows: ['🏢'.repeat(1000)] } })).status, 200);
    // 192 KiB + 1 byte of body, exactly.
    const filler = 192 * 1024 + 1 - JSON.stringify({ rows: [''] }).length;
    const raw = JSON.stringify({ rows: ['a'.repeat(filler)] });
    assert.equal(Buffer.byteLength(raw), 192 * 1024 + 1);
    refusedWith(await call(svc.api, 'POST', path, { key, raw, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: [] } }), 422, 'invalid_request');
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: ['ok'], extra: 1 } }), 422, 'invalid_request');
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: [42] } }), 422, 'invalid_request');
  }
  // 7 rows, then one 1,000-character row on each route: 9 of 60 used.
  const fifty = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: Array.from({ length: 50 }, (_, i) => `Office ${i}`) } });
  assert.equal(fifty.status, 200, fifty.text);
  assert.equal(fifty.body.budget.rows_used, 59);
  const over = await call(svc.api, 'POST', '/multi-building-flags', { key, body: { rows: ['Campus', 'Office'] } });
  refusedWith(over, 503, 'exposure_coding_unavailable');
  assert.match(over.body.error.message, /1 of 60 rows left/);
  const wait = Number(over.headers.get('retry-after'));
  assert.ok(wait >= 1 && wait <= 86_400, `Retry-After ${wait}`);
  // The last row still fits; then nothing does.
  assert.equal((await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['Office'] } })).status, 200);
  refusedWith(await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['Office'] } }), 503, 'exposure_coding_unavailable');
  // Another account has its own budget.
  const other = await signup(svc.api);
  const theirs = await call(svc.api, 'POST', '/exposure-codes', { key: other.key, body: { rows: ['Office'] } });
  assert.equal(theirs.status, 200, theirs.text);
  assert.equal(theirs.body.budget.rows_used, 1);
  // Coding draws on the row budget, never on billed units.
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.total, 0, 'exposure coding is not metered');
});

eachDialect('the chat-completions provider: caps before it is asked, rows it leaves unanswered, answers it gives none of', async (dialect, t) => {
  const svc = await startService(dialect, {
    CATRISK_EXPOSURE_CODING: 'true', CATRISK_CODING_PROVIDER: 'chat-completions', CATRISK_CODING_BASE_URL: `${model.url}/v1`,
    CATRISK_CODING_MODEL: 'test-model', CATRISK_CODING_API_KEY: 'sk-never-logged', CATRISK_CODING_TIMEOUT_MS: '1500', CATRISK_CODING_DAILY_ROWS: '100',
  });
  t.after(() => svc.close());
  const { key } = await signup(svc.api);
  const asked = model.received.length;
  for (const path of ROUTES) {
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: Array.from({ length: 51 }, () => 'Office') } }), 413, 'payload_too_large');
    refusedWith(await call(svc.api, 'POST', path, { key, body: { rows: ['x'.repeat(1001)] } }), 413, 'payload_too_large');
  }
  assert.equal(model.received.length, asked, 'no provider is asked for a request over the caps');

  // Row 1 answered with a code the pinned table lacks, row 2 not at all: both unanswered, a 200.
  model.behave(json(200, chatAnswer(JSON.stringify({ rows: [
    { index: 0, occupancy_code: 1122, occupancy_confidence: 0.92, construction_code: 5155, construction_confidence: 0.55 },
    { index: 1, occupancy_code: 4242, occupancy_confidence: 0.9, construction_code: 5150, construction_confidence: 0.9 },
  ] }))));
  const partial = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['Tilt-up warehouse', 'Thing', 'Other thing'] } });
  assert.equal(partial.status, 200, partial.text);
  assert.deepEqual(partial.body.provider, { name: 'chat-completions', model: 'test-model' });
  assert.deepEqual(partial.body.rows[0].construction, { code: null, proposed: 5155, name: 'Concrete, Tilt-up', confidence: 0.55, cleared_gate: false });
  assert.deepEqual(partial.body.rows.slice(1).map((r: { status: string; occupancy: unknown; needs_review: boolean }) => [r.status, r.occupancy, r.needs_review]), [['unanswered', null, true], ['unanswered', null, true]]);
  assert.deepEqual(partial.body.counts, { rows: 3, answered: 1, unanswered: 2, needs_review: 3 });
  assert.equal(partial.body.budget.rows_used, 3);

  model.behave(json(200, chatAnswer(JSON.stringify({ rows: [{ index: 1, probability: 0.95 }] }))));
  const flags = await call(svc.api, 'POST', '/multi-building-flags', { key, body: { rows: ['Head office', 'Campus'] } });
  assert.equal(flags.status, 200, flags.text);
  assert.deepEqual(flags.body.rows.map((r: { status: string; probability: number | null }) => [r.status, r.probability]), [['unanswered', null], ['flagged', 0.95]]);

  // No usable answer for any row: 503, and the rows are given back to the budget.
  for (const [what, behaviour] of [
    ['a 500', json(500, { error: { message: 'overloaded' } })],
    ['malformed content', json(200, chatAnswer('not json'))],
    ['no row answered', json(200, chatAnswer('{"rows": []}'))],
    ['silence past the timeout', () => {}],
  ] as const) {
    model.behave(behaviour as never);
    const refusedAnswer = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['Office', 'Warehouse'] } });
    refusedWith(refusedAnswer, 503, 'exposure_coding_unavailable');
    assert.ok(!refusedAnswer.text.includes('sk-never-logged'), what);
  }
  model.behave(json(200, chatAnswer(JSON.stringify({ rows: [{ index: 0, occupancy_code: 1104, occupancy_confidence: 0.9, construction_code: 5150, construction_confidence: 0.9 }] }))));
  const after503 = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows: ['Office'] } });
  assert.equal(after503.status, 200, after503.text);
  assert.equal(after503.body.budget.rows_used, 6, 'only answered requests count: 3 + 2 + 1');
  assert.equal(model.received.at(-1)!.headers['user-agent']?.startsWith('catrisk/'), true);
});
