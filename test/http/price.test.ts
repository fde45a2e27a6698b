// POST /objects/{id}/price: the acceptance flow (PATCH an example, price with {}, read
// technical_premium), the burn equal to the backtest's mean, the premium re-derived from the stated
// parameters, refusals on the job, draft after a move, metering and tenancy.
import assert from 'node:assert/strict';
import { call, eachDialect, sharedService, signup, waitForJob } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject, priceObject } from '../support/objects.js';

const cents = (x: number) => Math.round(x * 100) / 100;

eachDialect('pricing the acceptance examples writes a technical premium the document re-derives', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  for (const peril of ['earthquake', 'flood', 'weather_station', 'wildfire', 'tropical_cyclone']) {
    await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES[peril] });
    const job = await priceObject(svc, key, objectPath);
    assert.equal(job.status, 'succeeded', `${peril}: ${JSON.stringify(job.error)}`);
    const doc = job.result;
    assert.match(doc.statement, /not a quote/);
    const object = (await call(svc.api, 'GET', objectPath, { key })).body;
    assert.equal(object.status, 'priced');
    assert.equal(object.technical_premium.amount, doc.technical_premium.amount);
    assert.equal(object.technical_premium.price_id, doc.id);
    assert.ok(object.provenance.runs.some((r: any) => r.kind === 'price' && r.run_id === doc.id));

    // The burn equals the backtest's mean annual payout over the same window.
    const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
    const bt = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
    const artifact = (await waitForJob(svc.api, key, bt.headers.get('location')!, 60_000)).result;
    assert.equal(doc.historical_burn.mean, artifact.statistics.mean_annual_payout, peril);
    assert.equal(doc.backtest.id, artifact.id);

    // Re-derived in plain arithmetic from the stated parameters (tolerance: one cent per rounding step).
    const { credibility_k: k, risk_load_lambda: lambda, expense_share: e, minimum_rate_on_line: minRol } = doc.inputs.parameters;
    const n = doc.blend.n;
    const fitted = doc.blend.fitted_expected_loss;
    // Bühlmann credibility when a fitted view exists; the burn alone otherwise.
    const z = fitted === null ? 1 : n / (n + k);
    assert.ok(Math.abs(doc.blend.z - z) < 1e-9, `${peril} Z`);
    const el = fitted === null ? doc.historical_burn.mean : z * doc.historical_burn.mean + (1 - z) * fitted;
    assert.ok(Math.abs(doc.blend.expected_loss - el) <= 0.011, `${peril} EL`);
    const riskLoad = doc.loads.find((l: any) => l.name === 'risk_load');
    const burnSd = doc.historical_burn.standard_deviation;
    const fittedSd = doc.fitted_view.available ? doc.fitted_view.standard_deviation_annual_payout : null;
    const sigma = fitted !== null && fittedSd !== null ? z * burnSd + (1 - z) * fittedSd : burnSd;
    assert.ok(Math.abs(riskLoad.amount - lambda * sigma) <= 0.02, `${peril} risk load ${riskLoad.amount} vs ${lambda * sigma}`);
    const gross = (doc.blend.expected_loss + riskLoad.amount) / (1 - e);
    const limit = (ACCEPTANCE_BODIES[peril] as any).financial_structure.limit;
    const premium = Math.max(cents(gross), minRol * limit);
    assert.ok(Math.abs(doc.technical_premium.amount - premium) <= 0.011, `${peril}: ${doc.technical_premium.amount} vs ${premium}`);
    assert.ok(Math.abs(doc.technical_premium.rate_on_line - doc.technical_premium.amount / limit) < 1e-9);
    assert.ok(Math.abs(doc.multiple_of_expected_loss - doc.technical_premium.amount / doc.blend.expected_loss) < 1e-6);
  }
  // The same object, terms and snapshot give the same bytes.
  const a = await priceObject(svc, key, objectPath);
  const b = await priceObject(svc, key, objectPath);
  assert.deepEqual(a.result, b.result);
  // Five distinct runs; pricing the last terms twice more is the same run (same price id), metered once.
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 5, 'each distinct price run is metered once');

  // Moving a priced input returns the object to draft without a premium.
  const moved = await call(svc.api, 'PATCH', objectPath, { key, body: { financial_structure: { currency: 'USD', limit: 20_000_000, attachment: 0 } } });
  assert.equal(moved.body.status, 'draft');
  assert.equal(moved.body.technical_premium, undefined);
});

eachDialect('price refusals: on the request and on the job', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const objectPath = await ingestedObject(svc, a.key);
  // No trigger or financial structure: refused on the job.
  const bare = await priceObject(svc, a.key, objectPath);
  assert.equal(bare.status, 'failed');
  assert.equal(bare.error.code, 'unpriceable_object');
  assert.equal(bare.error.status, 422);
  // A ladder no year of the record reaches: a 0.00 premium is refused as untested.
  const unreachable = JSON.parse(JSON.stringify(ACCEPTANCE_BODIES.earthquake));
  unreachable.trigger.payout.levels = [{ at_least: 9.5, fraction: 1 }];
  await call(svc.api, 'PATCH', objectPath, { key: a.key, body: unreachable });
  const zero = await priceObject(svc, a.key, objectPath);
  assert.equal(zero.error.code, 'unpriceable_object');
  assert.match(zero.error.message, /0\.00/);
  // An unpinned vintage.
  const unpinned = JSON.parse(JSON.stringify(ACCEPTANCE_BODIES.earthquake));
  delete unpinned.trigger.data_sources[0].version;
  await call(svc.api, 'PATCH', objectPath, { key: a.key, body: unpinned });
  assert.equal((await priceObject(svc, a.key, objectPath)).error.code, 'unpriceable_object');
  assert.equal((await call(svc.api, 'GET', objectPath, { key: a.key })).body.status, 'draft');
  // On the request: unknown member, another account's object.
  const extra = await call(svc.api, 'POST', `${objectPath}/price`, { key: a.key, body: { discount: 0.1 } });
  assert.equal(extra.status, 422);
  assert.equal(extra.body.error.code, 'invalid_request');
  assert.equal((await call(svc.api, 'POST', `${objectPath}/price`, { key: b.key, body: {} })).status, 404);
  assert.equal((await call(svc.api, 'GET', '/usage', { key: a.key })).body.units.model_runs, 0, 'refused prices are not metered');
});
