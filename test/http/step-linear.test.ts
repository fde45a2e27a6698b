// The step-and-linear payout function over HTTP: a structure written with it is cut, backtested
// (each year's payout recomputed here from its occurrences' peak values by the test's own
// arithmetic) and priced; the same terms composed as a registry model are validated (201 with the
// report), run against the object and give the price verb's premium exactly; bad parameters are
// refused with their status and code at the place SPEC names.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject, priceObject } from '../support/objects.js';

const PAYOUT = { function: 'step_linear', attachment: 6.5, step: 0.25, exhaustion: 7.5 };

/** The acceptance earthquake terms with the ladder replaced by a step-and-linear payout. */
const QUAKE_STEP = (() => {
  const body = JSON.parse(JSON.stringify(ACCEPTANCE_BODIES.earthquake)) as any;
  body.trigger.payout = PAYOUT;
  return body;
})();

/** The same terms composed from the primitives. */
const STEP_MODEL = {
  name: 'socal-quake-step-linear',
  version: '1.0.0',
  description: 'Southern California magnitude, 25% of the limit at M6.5 rising linearly to the whole limit at M7.5.',
  feed: { id: 'usgs-comcat-m6-california', version: '2022-12-20' },
  measurement: 'magnitude_in_box',
  transforms: ['occurrence_clustering', 'seasonal_term'],
  payout_function: 'step_linear',
  parameters: {
    magnitude_in_box: { region: QUAKE_STEP.peril.region, max_depth_km: 70 },
    occurrence_clustering: { window: 'P7D' },
    seasonal_term: { start: '01-01', end: '12-31' },
    step_linear: { attachment: 6.5, step: 0.25, exhaustion: 7.5 },
  },
};

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** The test's own payout: 0 below 6.5; 0.25 + 0.75·(m − 6.5) from 6.5; 1 from 7.5; × limit, in cents. */
const pays = (m: number, limit: number): number => Math.round((m < 6.5 ? 0 : m >= 7.5 ? 1 : 0.25 + 0.75 * (m - 6.5)) * limit * 100) / 100;

function assertRefused(answer: { status: number; body: any; text: string }, status: number, code: string, what: string) {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.body.error.code, code, what);
  assert.deepEqual(envelopeFaults(answer as never), [], what);
}

eachDialect('a step-and-linear structure is cut, backtested and priced; the same terms composed as a model give the same premium', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const objectId = objectPath.split('/').pop()!;
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body: QUAKE_STEP })).status, 200);

  // The structure, cut and backtested: each year pays min(limit, Σ payouts of its occurrences).
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  assert.equal(cut.status, 201, cut.text);
  const bt = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  assert.equal(bt.status, 202, bt.text);
  const job = await waitForJob(svc.api, key, bt.headers.get('location')!, 60_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  const artifact = job.result;
  assert.deepEqual(artifact.structure.trigger.payout, { ...PAYOUT, basis: 'per_occurrence' });
  let paying = 0;
  for (const y of artifact.years) {
    const expected = Math.min(10_000_000, y.occurrences.reduce((a: number, o: any) => a + pays(o.value, 10_000_000), 0));
    for (const o of y.occurrences) assert.ok(o.value >= 6.5, `${y.year}: occurrences below the attachment are left out`);
    const shown = y.payout ?? y.payout_on_partial_record;
    assert.ok(Math.abs(shown - expected) <= 0.01, `${y.year}: ${shown} vs ${expected}`);
    if (y.payout > 0) paying++;
  }
  assert.ok(paying > 5, `${paying} years pay`);

  // Priced: the backtest's burn beside the Gutenberg–Richter fitted view.
  const priced = await priceObject(svc, key, objectPath);
  assert.equal(priced.status, 'succeeded', JSON.stringify(priced.error));
  const price = priced.result;
  assert.equal(price.backtest.id, artifact.id);
  assert.equal(price.historical_burn.mean, artifact.statistics.mean_annual_payout);
  assert.ok(price.technical_premium.amount > price.historical_burn.mean * 0.5, JSON.stringify(price.technical_premium));

  // The composition: validated on its way in (201 with its report and card).
  const composed = await call(svc.api, 'POST', '/models', { key, body: STEP_MODEL });
  assert.equal(composed.status, 201, composed.text);
  const model = composed.body;
  assert.equal(model.composition.payout_function, 'step_linear');
  assert.deepEqual(model.composition.parameters.step_linear, { attachment: 6.5, step: 0.25, exhaustion: 7.5 });
  assert.equal(model.validation.passed, true);
  assert.deepEqual(model.validation.checks.map((c: any) => [c.name, c.passed]), [
    ['replay_determinism', true], ['payout_bounded_and_monotone', true], ['record_long_enough_to_price', true], ['backtest_pays', true], ['units_consistent', true],
  ]);
  const bounded = model.validation.checks[1].figure;
  assert.deepEqual([bounded.lowest_fraction, bounded.highest_fraction, bounded.decreases], [0, 1, 0]);
  assert.match(JSON.stringify(model.card), /Step-and-linear/);
  // Its validation backtest pays the same fractions of its reference limit (1 000 000).
  const validationBacktest = (await call(svc.api, 'GET', model.links.backtest, { key })).body;
  assert.deepEqual(
    validationBacktest.years.map((y: any) => [y.year, y.payout === null ? null : y.payout / 1_000_000]),
    artifact.years.map((y: any) => [y.year, y.payout === null ? null : y.payout / 10_000_000]),
  );

  // Run against the object: the price verb's premium and backtest, exactly.
  const accepted = await call(svc.api, 'POST', `/models/${model.id}/runs`, { key, body: { object_id: objectId } });
  assert.equal(accepted.status, 202, accepted.text);
  const run = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  assert.equal(run.result.price.technical_premium.amount, price.technical_premium.amount);
  assert.equal(run.result.price.technical_premium.rate_on_line, price.technical_premium.rate_on_line);
  assert.equal(run.result.price.backtest.id, artifact.id);
  assert.deepEqual([run.result.composed_model.name, run.result.composed_model.version], ['socal-quake-step-linear', '1.0.0']);
});

eachDialect('bad step-and-linear parameters are refused: 422 invalid_structure on the cut, invalid_model or model_validation_failed on POST /models', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  assert.equal((await call(svc.api, 'PATCH', objectPath, { key, body: QUAKE_STEP })).status, 200);

  // Structure terms: a step outside (0, 1), an exhaustion not above the attachment.
  const withPayout = (payout: unknown) => ({ trigger: { ...QUAKE_STEP.trigger, payout } });
  for (const [payout, fault] of [
    [{ ...PAYOUT, step: 0 }, 'step_linear_step_out_of_range'],
    [{ ...PAYOUT, step: 1 }, 'step_linear_step_out_of_range'],
    [{ ...PAYOUT, step: 1.2 }, 'step_linear_step_out_of_range'],
    [{ ...PAYOUT, exhaustion: 6.5 }, 'linear_exhaustion_not_above_attachment'],
    [{ ...PAYOUT, exhaustion: 6.0 }, 'linear_exhaustion_not_above_attachment'],
  ] as const) {
    const refused = await call(svc.api, 'POST', `${objectPath}/structures`, { key, body: withPayout(payout) });
    assertRefused(refused, 422, 'invalid_structure', JSON.stringify(payout));
    assert.match(JSON.stringify(refused.body.error), new RegExp(fault), JSON.stringify(payout));
  }

  // Compositions: the step is bounded by the published model schema (invalid_model) ...
  const post = (body: unknown) => call(svc.api, 'POST', '/models', { key, body });
  for (const [step, said] of [[0, /model\.parameters\.step_linear\.step must be > 0/], [1, /model\.parameters\.step_linear\.step must be < 1/], [-0.5, /must be > 0/]] as const) {
    const body: any = clone(STEP_MODEL);
    body.parameters.step_linear.step = step;
    const refused = await post(body);
    assertRefused(refused, 422, 'invalid_model', `step ${step}`);
    assert.match(refused.body.error.details.join('\n'), said);
  }
  const noStep: any = clone(STEP_MODEL);
  delete noStep.parameters.step_linear.step;
  const missing = await post(noStep);
  assertRefused(missing, 422, 'invalid_model', 'step missing');
  assert.match(missing.body.error.details.join('\n'), /model\.parameters\.step_linear is missing the required member "step"/);
  // ... and an exhaustion not above the attachment by the structure rules the pass replays through.
  for (const exhaustion of [6.5, 6.0]) {
    const body: any = clone(STEP_MODEL);
    body.parameters.step_linear.exhaustion = exhaustion;
    const refused = await post(body);
    assertRefused(refused, 422, 'model_validation_failed', `exhaustion ${exhaustion}`);
    assert.match(refused.body.error.details.join('\n'), /exhaustion .* must be above .*attachment 6\.5/);
  }
  // None was stored: the name composes at version 1.0.0 afterwards.
  const good = await post(STEP_MODEL);
  assert.equal(good.status, 201, good.text);
  assert.equal(good.body.version, '1.0.0');
});
