// Structures and backtests over HTTP: the structures issue's acceptance bodies end to end, byte-for-
// byte replay, and every refusal at its place (request or job).
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject } from '../support/objects.js';

async function backtest(svc: TestService, key: string, structurePath: string, body?: unknown) {
  const accepted = await call(svc.api, 'POST', `${structurePath}/backtest`, { key, ...(body === undefined ? {} : { body }) });
  assert.equal(accepted.status, 202, accepted.text);
  return waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
}

eachDialect('every acceptance body is patched, cut and backtested; artifacts replay byte for byte', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  for (const [peril, body] of Object.entries(ACCEPTANCE_BODIES)) {
    assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body })).status, 200, peril);
    const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
    assert.equal(cut.status, 201, `${peril}: ${cut.text}`);
    assert.match(cut.body.id, /^str_[0-9a-f]{24}$/);
    assert.deepEqual((await call(svc.api, 'GET', cut.body.links.self, { key })).body, cut.body);
    const job = await backtest(svc, key, cut.body.links.self);
    assert.equal(job.status, 'succeeded', `${peril}: ${JSON.stringify(job.error)}`);
    const artifact = job.result;
    const { from_year, to_year } = artifact.window;
    assert.equal(artifact.years.length, to_year - from_year + 1, `${peril}: one entry per calendar year`);
    assert.deepEqual(artifact.years.map((y: any) => y.year), Array.from({ length: to_year - from_year + 1 }, (_, i) => from_year + i));
    const recorded = artifact.years.filter((y: any) => y.payout !== null);
    assert.ok(recorded.every((y: any) => typeof y.payout === 'number' && Array.isArray(y.occurrences)));
    const mean = recorded.reduce((s: number, y: any) => s + y.payout, 0) / recorded.length;
    assert.ok(Math.abs(artifact.statistics.mean_annual_payout - mean) <= 0.0051, `${peril}: mean of the years shown, rounded to the cent`);
    assert.equal(artifact.feed.feed_id, (body as any).trigger.data_sources[0].feed_id);
    assert.match(artifact.feed.sha256, /^[0-9a-f]{64}$/);
    assert.match(artifact.statement, /not a forecast/);
    // Stored under its content address; a second run over the same snapshot gives the same bytes.
    const stored = await call(svc.api, 'GET', artifact.links.self, { key });
    assert.equal(stored.status, 200);
    const again = await backtest(svc, key, cut.body.links.self);
    assert.equal(again.result.id, artifact.id);
    assert.equal((await call(svc.api, 'GET', artifact.links.self, { key })).text, stored.text);
    if (peril === 'earthquake') {
      // Landers 1992 (M7.3) and Ridgecrest 2019 (M7.1) lie in the box: each pays half the limit.
      assert.equal(artifact.years.find((y: any) => y.year === 1992).payout, 5_000_000);
      const ridgecrest = artifact.years.find((y: any) => y.year === 2019);
      assert.equal(ridgecrest.payout, 5_000_000);
      assert.ok(ridgecrest.occurrences.some((o: any) => o.event_id === 'ci38457511'));
    }
    if (peril === 'tropical_cyclone') {
      // Andrew (AL041992) crossed the gate as a category 5 storm: the full limit.
      assert.equal(artifact.years.find((y: any) => y.year === 1992).payout, 10_000_000);
    }
  }
  // A window inside the record is honoured.
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const windowed = await backtest(svc, key, cut.body.links.self, { window: { from_year: 2000, to_year: 2010 } });
  assert.equal(windowed.status, 'succeeded');
  assert.equal(windowed.result.years.length, 11);
});

eachDialect('structure and backtest refusals at their places', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  // No trigger yet: the structure cannot be cut (on the POST).
  const bare = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(bare.status, 422);
  assert.equal(bare.body.error.code, 'invalid_structure');
  await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.earthquake });
  for (const body of [{ peril: { code: 'flood' } }, { exposure: {} }, { trigger: { type: 'parametric_cat_in_a_box' } },
    { financial_structure: { currency: 'USD', limit: -1 } }, { period: { start: '2027-12-31', end: '2027-01-01' } }]) {
    const refused = await call(svc.api, 'POST', `${objectPath}/structures`, { key, body });
    assert.equal(refused.status, 422, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'invalid_structure', JSON.stringify(body));
    assert.deepEqual(envelopeFaults(refused), []);
  }
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  for (const body of [{ window: { from_year: 2010, to_year: 2000 } }, { window: { from_year: '1990' } }, { range: 1 }, { window: { from_year: 1990, until: 1 } }]) {
    const refused = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key, body });
    assert.equal(refused.status, 422, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'invalid_request');
  }
  // A window outside the period of record is refused on the job, never clipped.
  const outside = await backtest(svc, key, cut.body.links.self, { window: { from_year: 1850, to_year: 2000 } });
  assert.equal(outside.status, 'failed');
  assert.equal(outside.error.code, 'unbacktestable_structure');
  assert.equal(outside.error.status, 422);

  // Refused combinations are named on the job.
  const rainFlood = { ...(ACCEPTANCE_BODIES.weather_station as any), peril: { code: 'flood' } };
  await call(svc.api, 'PATCH', objectPath, { key, body: rainFlood });
  const floodCut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(floodCut.status, 201, floodCut.text);
  const floodJob = await backtest(svc, key, floodCut.body.links.self);
  assert.equal(floodJob.error.code, 'unbacktestable_structure');
  assert.ok(floodJob.error.details.some((d: string) => d.startsWith('flood_on_rainfall_series')), JSON.stringify(floodJob.error));
  await call(svc.api, 'PATCH', objectPath, { key, body: { ...(ACCEPTANCE_BODIES.weather_station as any), peril: { code: 'cloud_outage' } } });
  const cloud = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const cloudJob = await backtest(svc, key, cloud.body.links.self);
  assert.equal(cloudJob.error.code, 'unbacktestable_structure');
  assert.ok(cloudJob.error.details.some((d: string) => d.startsWith('peril_not_priced')));

  for (const path of ['/objects/obj_000000000000000000000000/structures', '/structures/str_000000000000000000000000/backtest']) {
    assert.equal((await call(svc.api, 'POST', path, { key })).status, 404);
  }
  assert.equal((await call(svc.api, 'GET', '/backtests/bt_nope', { key })).status, 404);
});

eachDialect('structures and backtests belong to their account', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const objectPath = await ingestedObject(svc, a.key);
  await call(svc.api, 'PATCH', objectPath, { key: a.key, body: ACCEPTANCE_BODIES.wildfire });
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key: a.key });
  const job = await backtest(svc, a.key, cut.body.links.self);
  for (const [method, path] of [['GET', cut.body.links.self], ['POST', `${cut.body.links.self}/backtest`], ['GET', job.result.links.self], ['POST', `${objectPath}/structures`]] as const) {
    const answer = await call(svc.api, method, path, { key: b.key });
    assert.equal(answer.status, 404, `${method} ${path}`);
  }
});

eachDialect('a backtest stored before charts existed is answered with links.chart, its bytes those of a fresh artifact', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.earthquake })).status, 200);
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const job = await backtest(svc, key, cut.body.links.self);
  const { id } = job.result;
  assert.equal(job.result.links.chart, `/backtests/${id}/chart.svg`);
  const fresh = (await call(svc.api, 'GET', `/backtests/${id}`, { key })).text;

  // The rows as a release before charts stored them (hand-made from the fresh ones): links.self only.
  const chart = `"chart":"/backtests/${id}/chart.svg",`;
  assert.ok(fresh.includes(chart));
  const db = svc.services.database.db as any;
  await db.updateTable('backtests').set({ document: fresh.replace(chart, '') }).where('id', '=', id).execute();
  const jobRow = await db.selectFrom('jobs').select('result').where('id', '=', job.id).executeTakeFirst();
  const oldResult = JSON.parse(jobRow.result);
  delete oldResult.links.chart;
  await db.updateTable('jobs').set({ result: JSON.stringify(oldResult) }).where('id', '=', job.id).execute();
  assert.ok(!(await db.selectFrom('backtests').select('document').where('id', '=', id).executeTakeFirst()).document.includes('chart'));

  const read = await call(svc.api, 'GET', `/backtests/${id}`, { key });
  assert.equal(read.status, 200);
  assert.equal(read.text, fresh, 'the old artifact is answered as the bytes a fresh replay stores');
  assert.deepEqual(read.body.links, { chart: `/backtests/${id}/chart.svg`, self: `/backtests/${id}` });
  const again = await call(svc.api, 'GET', `/jobs/${job.id}`, { key });
  assert.deepEqual(again.body.result.links, { chart: `/backtests/${id}/chart.svg`, self: `/backtests/${id}` });
  assert.deepEqual(again.body.result, JSON.parse(fresh));
  const svg = await call(svc.api, 'GET', read.body.links.chart, { key });
  assert.equal(svg.status, 200);
  assert.match(svg.headers.get('content-type')!, /^image\/svg\+xml/);
});
