// The deterministic-loss lane end to end: the OED set of test/fixtures/oed/reinsurance1 (rows of
// oasislmf's published validation case reinsurance1) ingested with its account and reinsurance
// parts, run at loss factor 1 as `oasislmf exposure run` does, and its loc_summary compared with the
// expected loc_summary.csv oasislmf publishes for those rows: loss_il and loss_ri per location to
// 1e-5 relative (oasislmf computes in single precision).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { call, eachDialect, envelopeFaults, finishedRun, sharedService, signup, waitForJob } from '../support/service.js';
import { form, smallSchedule } from '../support/schedules.js';

const MODEL = 'deterministic-loss';
const FIXTURE = new URL('../fixtures/oed/reinsurance1/', import.meta.url);
const file = (name: string) => readFileSync(new URL(name, FIXTURE), 'utf8');
type Row = Record<string, string>;

function oedSet(): FormData {
  const data = new FormData();
  for (const [name, f] of [['file', 'location.csv'], ['account', 'account.csv'], ['ri_info', 'ri_info.csv'], ['ri_scope', 'ri_scope.csv']] as const) {
    data.append(name, new Blob([file(f)], { type: 'text/csv' }), f);
  }
  return data;
}

eachDialect('deterministic-loss: an OED set\'s insured and net losses agree with oasislmf\'s published loc_summary', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: oedSet() });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const objectId = job.result.objects[0].id;

  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, object_id: objectId } });
  assert.equal(run.status, 202, run.text);
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.deepEqual(done.result.loss_factors, [1]);
  assert.equal(done.result.has_reinsurance, true);
  // The same spec written with exposure is the same run.
  const again = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, exposure: { object_id: objectId }, loss_factors: [1] } });
  assert.equal(again.body.id, run.body.id);

  const csv = await call(svc.urls.lab, 'GET', `/runs/${run.body.id}?format=csv&table=loc_summary`, { key });
  assert.equal(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-type')!, /^text\/csv/);
  const mine = parse(csv.text, { columns: true }) as Row[];
  assert.deepEqual(Object.keys(mine[0]!), ['PortNumber', 'AccNumber', 'LocNumber', 'loss_gul', 'loss_il', 'loss_ri']);
  const expected = parse(file('loc_summary.csv'), { columns: true }) as Row[];
  assert.equal(mine.length, expected.length);
  const tol = (x: number) => Math.max(0.05, 1e-5 * Math.abs(x));
  for (const e of expected) {
    const m = mine.find((r) => r.PortNumber === e.PortNumber && r.AccNumber === e.AccNumber && r.LocNumber === e.LocNumber)!;
    assert.ok(m, `${e.LocNumber} in loc_summary`);
    assert.ok(Math.abs(Number(m.loss_il) - Number(e.loss_il)) <= tol(Number(e.loss_il)), `${e.LocNumber}: il ${m.loss_il} vs oasislmf ${e.loss_il}`);
    assert.ok(Math.abs(Number(m.loss_ri) - Number(e.loss_ri)) <= tol(Number(e.loss_ri)), `${e.LocNumber}: ri ${m.loss_ri} vs oasislmf ${e.loss_ri}`);
  }
  // Portfolio = sum of the locations; accounts and policies add up to it too.
  const sum = (rows: { losses: { loss_il: number }[] }[]) => rows.reduce((s, r) => s + r.losses[0]!.loss_il, 0);
  const total = done.result.portfolio[0].loss_il;
  for (const part of [done.result.locations, done.result.accounts, done.result.policies]) assert.ok(Math.abs(sum(part) - total) <= 1e-6 * total);

  // Several factors: loss_factor_idx, one row per location and factor.
  const factors = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, object_id: objectId, loss_factors: [0.25, 0.5] } });
  await finishedRun(svc, key, `/runs/${factors.body.id}`);
  const two = parse((await call(svc.urls.lab, 'GET', `/runs/${factors.body.id}?format=csv&table=loc_summary`, { key })).text, { columns: true }) as Row[];
  assert.deepEqual(Object.keys(two[0]!), ['PortNumber', 'AccNumber', 'LocNumber', 'loss_factor_idx', 'loss_gul', 'loss_il', 'loss_ri']);
  assert.equal(two.length, 2 * expected.length);
  assert.equal(Number(two[1]!.loss_gul), 2 * Number(two[0]!.loss_gul));
});

eachDialect('deterministic-loss refusals', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const cases: Array<[unknown, number, string]> = [
    [{ model: MODEL, exposure: { points: [{ lat: 1, lon: 1, value: 1 }] } }, 422, 'invalid_request'],
    [{ model: MODEL, object_id: 'obj_000000000000000000000000', loss_factors: [] }, 422, 'invalid_request'],
    [{ model: MODEL, object_id: 'obj_000000000000000000000000', loss_factors: [-1] }, 422, 'invalid_request'],
    [{ model: MODEL, object_id: 'obj_000000000000000000000000', exposure: { object_id: 'obj_000000000000000000000000' } }, 422, 'invalid_request'],
    [{ model: MODEL, object_id: 'obj_000000000000000000000000' }, 404, 'not_found'],
  ];
  for (const [body, status, code] of cases) {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body });
    assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.body.error.code, code);
    assert.deepEqual(envelopeFaults(answer), []);
  }
  // A broker schedule has no OED terms: the job fails with the spec's refusal.
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(smallSchedule(2), { type: 'text/csv' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, object_id: job.result.objects[0].id } });
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'invalid_request');
  assert.match(JSON.stringify(done.error), /no OED terms/);
  // loc_summary of a run of another lane: 422.
  const windstorm = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1000 }] } } });
  await finishedRun(svc, key, `/runs/${windstorm.body.id}`);
  const noTable = await call(svc.urls.lab, 'GET', `/runs/${windstorm.body.id}?format=csv&table=loc_summary`, { key });
  assert.equal(noTable.status, 422);
  assert.equal(noTable.body.error.code, 'invalid_request');
});
