// grid_outage over HTTP, on SQLite and PostgreSQL: the state event design priced and backtested
// over the DOE OE-417 record, the county index's refusal pointing to it, its terms refused by name,
// and GET /hazard listing the state event frequencies with the record named.
import assert from 'node:assert/strict';
import { call, eachDialect, sharedService, signup, waitForJob } from '../support/service.js';
import { ingestedObject, priceObject } from '../support/objects.js';
import { FLORIDA_OUTAGE } from '../support/grid-outage.js';

const COUNTY = {
  peril: { code: 'grid_outage' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'gema-county-outages-13121', version: '2024-11-05' }],
    measurement: { variable: 'customers_out', aggregation: 'max' }, aggregation_window: { duration: 'P1D' },
    payout: { function: 'linear', attachment: 5000, exhaustion: 50000 },
  },
  financial_structure: { currency: 'USD', limit: 1000000, attachment: 0 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};

eachDialect('a Florida state event structure is priced over 22 years and its backtest cites DOE workbook rows', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const patched = await call(svc.api, 'PATCH', objectPath, { key, body: FLORIDA_OUTAGE });
  assert.equal(patched.status, 200, patched.text);
  const job = await priceObject(svc, key, objectPath);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const doc = job.result;
  assert.equal(doc.historical_burn.years_used, 22);
  assert.deepEqual(doc.historical_burn.years_excluded.map((y: any) => y.year), [2000, 2001]);
  assert.equal(doc.fitted_view.method, 'poisson_empirical_severity');
  assert.ok(doc.assumptions.some((a: string) => /A row naming several states/.test(a)));

  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(cut.status, 201, cut.text);
  const bt = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const artifact = (await waitForJob(svc.api, key, bt.headers.get('location')!, 120_000)).result;
  assert.equal(doc.historical_burn.mean, artifact.statistics.mean_annual_payout);
  const y2005 = artifact.years.find((y: any) => y.year === 2005);
  assert.ok(y2005.occurrences.some((o: any) => o.event_id === '2005:Sheet1:107' && o.value === 3241437));
  assert.deepEqual(artifact.data_coverage.years_missing, [2000, 2001]);
});

eachDialect('the county index is refused on its price job naming the record length and the state design; bad state terms are refused by name', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  await call(svc.api, 'PATCH', objectPath, { key, body: COUNTY });
  const job = await priceObject(svc, key, objectPath);
  assert.equal(job.status, 'failed');
  assert.equal(job.error.status, 422);
  assert.equal(job.error.code, 'unpriceable_object');
  assert.ok(job.error.details.includes('record_length: 0 counted years; minimum: 10'));
  assert.ok(job.error.details.some((d: string) => /^state design: .*customers_affected/.test(d)));

  const bad = { ...FLORIDA_OUTAGE, trigger: { ...FLORIDA_OUTAGE.trigger, measurement: { variable: 'customers_affected', state: 'XX' } } };
  await call(svc.api, 'PATCH', objectPath, { key, body: bad });
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(cut.status, 422);
  assert.equal(cut.body.error.code, 'invalid_structure');
  assert.ok(cut.body.error.details.some((d: string) => d.startsWith('state_unknown at trigger.measurement.state')));
});

eachDialect('GET /hazard for grid_outage lists every state\'s event frequencies from the OE-417 record, the record named', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const answer = await call(svc.api, 'GET', '/hazard?peril=grid_outage&lat=25.76&lon=-80.19', { key });
  assert.equal(answer.status, 200, answer.text);
  const doe = answer.body.summaries.find((s: any) => s.feed.feed_id === 'doe-oe417-disturbance-events');
  assert.ok(doe);
  assert.ok(!answer.body.summaries.some((s: any) => s.feed.feed_id === 'purdue-major-power-outages-us'), 'the Purdue table is the cross-check, not an answer');
  const s = doe.summary;
  assert.equal(s.kind, 'state_event_frequencies');
  assert.equal(s.record.years_counted, 22);
  assert.deepEqual(s.record.years_not_read.map((y: any) => y.year), [2000, 2001]);
  const fl = s.states.find((r: any) => r.state === 'FL');
  assert.equal(fl.largest.customers, 3500000);
  assert.ok(Math.abs(fl.events_per_year - fl.events / 22) < 1e-12);
  const outside = await call(svc.api, 'GET', '/hazard?peril=grid_outage&lat=48.85&lon=2.35', { key });
  assert.equal(outside.status, 422);
  assert.equal(outside.body.error.code, 'outside_feed_coverage');
});
