// The coding and geocoding use cases called directly, as the tool server calls them: the caps hold
// inside the use case (a body over 192 KiB made of rows within the other caps is refused here, not
// only by HTTP's body limit), the switch, the budget given back when the provider answers nothing.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { codeExposureRows, flagMultiBuildingRows } from '../../src/app/exposure-coding.js';
import { geocode } from '../../src/app/geocode.js';
import { chatCompletionsCoder } from '../../src/providers/chat-completions.js';
import { gazetteerGeocoder } from '../../src/providers/geocoders.js';
import { eachDialect } from '../support/service.js';
import { chatAnswer, fakeUpstream, json, type FakeUpstream } from '../support/fake-upstream.js';
import { AT, withDeps } from './support.js';

let model: FakeUpstream;
before(async () => { model = await fakeUpstream(); });
after(async () => { await model.close(); });

eachDialect('coding use cases: caps, switch and budget, with no HTTP in front', (dialect) => withDeps(dialect, async (base) => {
  const account = await base.accounts.signup({}, AT);
  const accountId = account.account.id;
  const on = { ...base.config, exposureCoding: { ...base.config.exposureCoding, enabled: true, dailyRows: 4 } };
  const coder = chatCompletionsCoder({ baseUrl: model.url, model: 'm', apiKey: undefined, timeoutMs: 3_000, userAgent: 'catrisk-tests/1.0' }, () => Promise.reject(new Error('no OED tables here')));
  const deps = { ...base, config: on, exposureCoder: coder };
  const before = model.received.length;

  // 50 rows of 1,000 four-byte characters: within the row caps, over 192 KiB as a body.
  const heavy = Array.from({ length: 50 }, () => '🏢'.repeat(1000));
  for (const use of [codeExposureRows, flagMultiBuildingRows]) {
    const r = await use(deps, { accountId, rows: heavy });
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.refusal.status, r.refusal.code], [413, 'payload_too_large']);
    const off = await use(base, { accountId, rows: ['Office'] });
    assert.equal(!off.ok && off.refusal.code, 'exposure_coding_unavailable');
  }
  assert.equal(model.received.length, before, 'no provider asked');

  // The provider answers nothing usable: 503, and the rows go back to the budget.
  model.behave(json(500, { error: 'down' }));
  const failed = await flagMultiBuildingRows(deps, { accountId, rows: ['a', 'b', 'c'] });
  assert.equal(!failed.ok && failed.refusal.code, 'exposure_coding_unavailable');
  assert.equal(await base.codingBudget.used(accountId, '2026-03-01'), 0);
  model.behave(json(200, chatAnswer(JSON.stringify({ rows: [{ index: 0, probability: 0.1 }] }))));
  const answered = await flagMultiBuildingRows(deps, { accountId, rows: ['a', 'b', 'c'] });
  assert.ok(answered.ok);
  assert.deepEqual(answered.value.counts, { rows: 3, flagged: 0, below_gate: 0, not_flagged: 1, unanswered: 2 });
  assert.equal(answered.value.budget.rows_used, 3);
  // Two more rows do not fit in 4: refused with Retry-After to midnight UTC (12:00 → 43,200 s).
  const over = await flagMultiBuildingRows(deps, { accountId, rows: ['a', 'b'] });
  assert.equal(over.ok, false);
  if (!over.ok) assert.deepEqual([over.refusal.status, over.refusal.headers?.['retry-after']], [503, '43200']);
  // Codes need the pinned OED tables: none here, so no provider is asked and the rows go back.
  const asked = model.received.length;
  const noTables = await codeExposureRows(deps, { accountId, rows: ['Office'] });
  assert.equal(!noTables.ok && noTables.refusal.code, 'exposure_coding_unavailable');
  assert.equal(model.received.length, asked);
  assert.equal(await base.codingBudget.used(accountId, '2026-03-01'), 3);
}));

eachDialect('geocode use case: off, no geocoder for the shape, and the gazetteer', (dialect) => withDeps(dialect, async (base) => {
  const off = await geocode(base, { q: 'Lyon' });
  assert.equal(!off.ok && off.refusal.code, 'geocoder_unavailable');
  const deps = { ...base, config: { ...base.config, geocoding: { enabled: true } }, geocoders: [gazetteerGeocoder()] };
  const address = await geocode(deps, { q: '12 High St, Coventry' });
  assert.equal(!address.ok && address.refusal.code, 'geocoder_unavailable');
  const none = await geocode({ ...deps, geocoders: [] }, { q: 'Lyon' });
  assert.equal(!none.ok && none.refusal.status, 503);
  const coventry = await geocode(deps, { q: 'Coventry, England', limit: 1 });
  assert.ok(coventry.ok);
  // Coventry is at 52.41 N, 1.51 W (the schedule fixture's CV1 row: 52.4068, -1.5197); within 0.05 degrees.
  const [c] = coventry.value.candidates;
  assert.ok(c && Math.abs(c.latitude - 52.4068) < 0.05 && Math.abs(c.longitude + 1.5197) < 0.05, JSON.stringify(c));
}));
