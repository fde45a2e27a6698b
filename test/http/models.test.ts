// The model registry over HTTP: the vocabulary, a composition equal to a built-in design priced by
// both paths, every refusal with its status and code, versioning and immutability, tenancy and
// metering. The compositions are written here by hand in the registry's words; the structures
// they are compared with are the acceptance bodies, priced by the price verb.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject, priceObject } from '../support/objects.js';

/** The acceptance earthquake structure, composed from the primitives. */
const QUAKE_MODEL = {
  name: 'socal-quake-ladder',
  version: '1.0.0',
  description: 'Southern California magnitude ladder.',
  feed: { id: 'usgs-comcat-m6-california', version: '2022-12-20' },
  measurement: 'magnitude_in_box',
  transforms: ['occurrence_clustering', 'seasonal_term'],
  payout_function: 'ladder',
  parameters: {
    magnitude_in_box: { region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 }, max_depth_km: 70 },
    occurrence_clustering: { window: 'P7D' },
    seasonal_term: { start: '01-01', end: '12-31' },
    ladder: { levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] },
  },
};

/** The acceptance flood structure, composed (its gauge is in Wisconsin: far from the test schedule). */
const FLOOD_MODEL = {
  name: 'gauge-04119000',
  feed: { id: 'usgs-nwis-04119000-discharge', version: '2017-10-18' },
  measurement: 'daily_series_value',
  transforms: ['seasonal_term', 'annual_aggregation'],
  payout_function: 'linear',
  parameters: {
    daily_series_value: { variable: 'discharge', aggregation: 'mean', window: 'P3D' },
    seasonal_term: { start: '03-01', end: '05-31' },
    annual_aggregation: { basis: 'term_maximum' },
    linear: { attachment: 25000, exhaustion: 40000 },
  },
};

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

async function runModel(svc: TestService, key: string, modelId: string, body: unknown) {
  const accepted = await call(svc.api, 'POST', `/models/${modelId}/runs`, { key, body });
  assert.equal(accepted.status, 202, accepted.text);
  assert.equal(accepted.body.verb, 'model_run');
  return waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
}

function assertRefused(answer: { status: number; body: any; text: string }, status: number, code: string, what: string) {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.body.error.code, code, what);
  assert.deepEqual(envelopeFaults(answer as never), [], what);
}

eachDialect('GET /primitives lists the v1 vocabulary, each entry with a sentence, parameters and connections', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const answer = await call(svc.api, 'GET', '/primitives', { key });
  assert.equal(answer.status, 200, answer.text);
  const v = answer.body;
  assert.deepEqual(v.measurements.map((m: any) => m.id).sort(),
    ['burned_acres_in_box', 'county_customers_out', 'daily_series_value', 'magnitude_in_box', 'report_value_in_box', 'strongest_wind_in_gate']);
  assert.deepEqual(v.transforms.map((t: any) => t.id).sort(),
    ['annual_aggregation', 'data_quality_exclusion', 'occurrence_clustering', 'seasonal_term', 'unit_conversion']);
  assert.deepEqual(v.payout_functions.map((p: any) => p.id).sort(), ['ladder', 'linear', 'step_linear']);
  for (const p of [...v.measurements, ...v.transforms, ...v.payout_functions]) {
    assert.ok(typeof p.sentence === 'string' && p.sentence.length > 20, p.id);
    assert.equal(p.parameters.type, 'object', p.id);
    assert.ok(p.connects_to && typeof p.connects_to === 'object', p.id);
  }
  const quake = v.feeds.find((f: any) => f.id === 'usgs-comcat-m6-california');
  assert.ok(quake, 'the California quake catalog is a feed a model can read');
  assert.equal(quake.kind, 'event_catalog');
  assert.deepEqual(quake.connects_to.measurements, ['magnitude_in_box']);
  assert.ok(quake.versions.some((x: any) => x.version === '2022-12-20' && /^[0-9a-f]{64}$/.test(x.sha256) && x.period_of_record));
  // Feeds no measurement reads (model data, reference tables) are not primitives.
  assert.ok(!v.feeds.some((f: any) => f.id === 'oed-spec' || f.id === 'oasis-piwind'));
  assert.equal((await call(svc.api, 'GET', '/primitives')).status, 401);
});

eachDialect('a composition equal to the earthquake design gives the same backtest and premium as the price verb', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const objectId = objectPath.split('/').pop()!;
  await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.earthquake });

  // Path 1: the object's own terms, priced by the price verb, and its structure's backtest.
  const priced = await priceObject(svc, key, objectPath);
  assert.equal(priced.status, 'succeeded', JSON.stringify(priced.error));
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const bt = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const structureBacktest = (await waitForJob(svc.api, key, bt.headers.get('location')!, 60_000)).result;

  // Path 2: the composition, validated on its way in, then run against the object.
  const composed = await call(svc.api, 'POST', '/models', { key, body: QUAKE_MODEL });
  assert.equal(composed.status, 201, composed.text);
  const model = composed.body;
  assert.match(model.id, /^mdl_[0-9a-f]{24}$/);
  assert.equal(composed.headers.get('location'), `/models/${model.id}`);
  assert.equal(model.kind, 'validated_model');
  assert.equal(model.peril, 'earthquake');
  assert.equal(model.validation.passed, true);
  assert.deepEqual(model.validation.checks.map((c: any) => [c.name, c.passed]), [
    ['replay_determinism', true], ['payout_bounded_and_monotone', true], ['record_long_enough_to_price', true], ['backtest_pays', true], ['units_consistent', true],
  ]);
  const determinism = model.validation.checks[0].figure;
  assert.equal(determinism.first_sha256, determinism.second_sha256);
  for (const member of ['intended_use', 'data', 'method', 'limitations', 'backtest_summary', 'metrics']) assert.ok(model.card[member], member);
  assert.equal(model.card.data.feed.feed_id, 'usgs-comcat-m6-california');

  // The validation backtest is the structure's over the same years; its payouts are the same
  // fractions of its reference limit (1,000,000) as the structure's of its limit (10,000,000).
  const validationBacktest = (await call(svc.api, 'GET', model.links.backtest, { key })).body;
  assert.deepEqual(validationBacktest.window, structureBacktest.window);
  assert.equal(validationBacktest.feed.sha256, structureBacktest.feed.sha256);
  assert.deepEqual(
    validationBacktest.years.map((y: any) => [y.year, y.payout === null ? null : y.payout / 1_000_000]),
    structureBacktest.years.map((y: any) => [y.year, y.payout === null ? null : y.payout / 10_000_000]),
  );
  assert.equal(model.card.backtest_summary.years_paying, structureBacktest.statistics.years_paying);

  const run = await runModel(svc, key, model.id, { object_id: objectId });
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  const result = run.result;
  // Exactly the premium and the backtest of the price verb.
  assert.equal(result.price.technical_premium.amount, priced.result.technical_premium.amount);
  assert.equal(result.price.technical_premium.rate_on_line, priced.result.technical_premium.rate_on_line);
  assert.equal(result.price.backtest.id, priced.result.backtest.id);
  assert.equal(result.price.backtest.id, structureBacktest.id);
  assert.equal(result.price.historical_burn.mean, structureBacktest.statistics.mean_annual_payout);
  // Labelled with the model and version (SPEC Versioning 6), every assumption named.
  assert.deepEqual([result.composed_model.id, result.composed_model.name, result.composed_model.version], [model.id, 'socal-quake-ladder', '1.0.0']);
  assert.match(result.assumptions.join(' '), /socal-quake-ladder version 1\.0\.0/);
  assert.match(result.statement, /not a quote/);
  assert.match(result.id, /^mr_[0-9a-f]{32}$/);

  // Metered as a model run, once per distinct run (the price verb's run counts once too).
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 2);
  const again = await runModel(svc, key, model.id, { object_id: objectId });
  assert.equal(again.result.id, result.id);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 2);
  // A financial structure of the request's own prices another cover: a new run.
  const half = await runModel(svc, key, model.id, { object_id: objectId, financial_structure: { currency: 'USD', limit: 5_000_000 } });
  assert.equal(half.status, 'succeeded', JSON.stringify(half.error));
  assert.notEqual(half.result.id, result.id);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 3);
});

eachDialect('POST /models refusals: invalid_composition, invalid_model, model_validation_failed; nothing stored', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const post = (body: unknown) => call(svc.api, 'POST', '/models', { key, body });

  // invalid_composition: one of the four missing, or outside the vocabulary.
  const noPayout: any = clone(QUAKE_MODEL);
  delete noPayout.payout_function;
  const missing = await post(noPayout);
  assertRefused(missing, 422, 'invalid_composition', 'payout function missing');
  assert.match(missing.body.error.details.join(' '), /payout_function is missing/);
  assertRefused(await post({ ...clone(QUAKE_MODEL), measurement: 'shaking_at_site' }), 422, 'invalid_composition', 'unknown measurement');
  assertRefused(await post({ ...clone(QUAKE_MODEL), transforms: ['occurrence_clustering', 'detrend'] }), 422, 'invalid_composition', 'unknown transform');
  assertRefused(await post({ ...clone(QUAKE_MODEL), payout_function: 'step_function' }), 422, 'invalid_composition', 'unknown payout function');
  assertRefused(await post({ ...clone(QUAKE_MODEL), feed: { id: 'usgs-comcat-m6-california', version: '1999-01-01' } }), 422, 'invalid_composition', 'unpinned vintage');
  const kind = await post({ ...clone(QUAKE_MODEL), feed: { id: 'usgs-nwis-04119000-discharge', version: '2017-10-18' } });
  assertRefused(kind, 422, 'invalid_composition', 'feed of another kind');
  assert.match(kind.body.error.details[0], /reads event_catalog/);
  assertRefused(await post({ ...clone(QUAKE_MODEL), transforms: ['seasonal_term'] }), 422, 'invalid_composition', 'clustering needed by a box measurement');

  // invalid_model: in vocabulary, but the document fails the published schema; each violation named.
  const bad: any = clone(QUAKE_MODEL);
  bad.parameters.ladder.levels[0].fraction = 1.5;
  bad.colour = 'red';
  delete bad.parameters.occurrence_clustering;
  const invalid = await post(bad);
  assertRefused(invalid, 422, 'invalid_model', 'schema violations');
  const details = invalid.body.error.details.join('\n');
  assert.match(details, /model has an unknown member "colour"/);
  assert.match(details, /model\.parameters\.ladder\.levels\.0\.fraction must be <= 1/);
  assert.match(details, /model\.parameters is missing the required member "occurrence_clustering"/);
  assertRefused(await post({ ...clone(QUAKE_MODEL), name: 'Has Spaces' }), 422, 'invalid_model', 'name pattern');
  const stray: any = clone(QUAKE_MODEL);
  stray.parameters.linear = { attachment: 1, exhaustion: 2 };
  assertRefused(await post(stray), 422, 'invalid_model', 'parameters of an unused primitive');

  // model_validation_failed: in vocabulary, valid, but a ladder no year of the record reaches.
  const never: any = clone(QUAKE_MODEL);
  never.parameters.ladder.levels = [{ at_least: 9.5, fraction: 1 }];
  const failed = await post(never);
  assertRefused(failed, 422, 'model_validation_failed', 'never pays');
  assert.match(failed.body.error.details.join(' '), /backtest_pays: .*pays in no year/);
  // A unit the variable is not read in is refused by the pass too (no model is created).
  const units: any = clone(FLOOD_MODEL);
  units.transforms.push('unit_conversion');
  units.parameters.unit_conversion = { unit: 'mm' };
  const unitFail = await post(units);
  assertRefused(unitFail, 422, 'model_validation_failed', 'units');
  assert.match(unitFail.body.error.message, /mm/);
  // A ladder written out of order is refused by the structure rules the pass replays through.
  const order: any = clone(QUAKE_MODEL);
  order.parameters.ladder.levels = [{ at_least: 7.0, fraction: 0.5 }, { at_least: 6.5, fraction: 0.25 }];
  assertRefused(await post(order), 422, 'model_validation_failed', 'ladder out of order');

  // A cover paying its whole limit every year: the pass prices the reference cover, and a premium
  // at the limit is refused by the pricing rules, so the model is too.
  const always: any = clone(FLOOD_MODEL);
  always.parameters.linear = { attachment: 1, exhaustion: 2 };
  const unpriced = await post(always);
  assertRefused(unpriced, 422, 'model_validation_failed', 'reference cover unpriceable');
  assert.match(unpriced.body.error.details[0], /the reference cover cannot be priced/);

  // None of these was stored: the same name composes cleanly at version 1.0.0 afterwards.
  const good = await post(QUAKE_MODEL);
  assert.equal(good.status, 201, good.text);
  assert.equal(good.body.version, '1.0.0');
});

eachDialect('models are immutable and versioned by name; a repeat reads the stored model', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const first = await call(svc.api, 'POST', '/models', { key, body: QUAKE_MODEL });
  assert.equal(first.status, 201, first.text);
  // The same document again: the same model, 200, not re-made.
  const repeat = await call(svc.api, 'POST', '/models', { key, body: QUAKE_MODEL });
  assert.equal(repeat.status, 200);
  assert.equal(repeat.text, first.text);
  // The same name and version with another composition is refused: a model never changes.
  const changed: any = clone(QUAKE_MODEL);
  changed.parameters.ladder.levels[2].fraction = 0.9;
  const clash = await call(svc.api, 'POST', '/models', { key, body: changed });
  assertRefused(clash, 422, 'invalid_model', 'version taken');
  assert.match(clash.body.error.message, /immutable/);
  // A new version is a new POST with the same name: a new id; the old one reads as before.
  const v2 = await call(svc.api, 'POST', '/models', { key, body: { ...changed, version: '2.0.0' } });
  assert.equal(v2.status, 201, v2.text);
  assert.notEqual(v2.body.id, first.body.id);
  const read = await call(svc.api, 'GET', `/models/${first.body.id}`, { key });
  assert.equal(read.status, 200);
  assert.equal(read.text, first.text);
  assert.match(read.headers.get('cache-control') ?? '', /immutable/);
  // Without a version: one above the highest whole-number version (none yet: 1), then 2.
  const { version: _v, ...unversioned } = clone(QUAKE_MODEL);
  const named = { ...unversioned, name: 'socal-quake-auto' };
  const auto1 = await call(svc.api, 'POST', '/models', { key, body: named });
  assert.equal(auto1.body.version, '1');
  const sameAgain = await call(svc.api, 'POST', '/models', { key, body: named });
  assert.equal(sameAgain.status, 200);
  assert.equal(sameAgain.body.id, auto1.body.id);
  const auto2 = await call(svc.api, 'POST', '/models', { key, body: { ...named, parameters: changed.parameters } });
  assert.equal(auto2.status, 201, auto2.text);
  assert.equal(auto2.body.version, '2');
  // The id is the content address of name, version and composition: another account composing the
  // same document gets the same id, for its own model.
  const other = await signup(svc.api);
  const theirs = await call(svc.api, 'POST', '/models', { key: other.key, body: QUAKE_MODEL });
  assert.equal(theirs.status, 201);
  assert.equal(theirs.body.id, first.body.id);
});

eachDialect('tenancy: a model belongs to the account that composed it', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const model = (await call(svc.api, 'POST', '/models', { key: a.key, body: QUAKE_MODEL })).body;
  assert.equal(model.visibility, 'account');
  assertRefused(await call(svc.api, 'GET', `/models/${model.id}`, { key: b.key }), 404, 'not_found', 'another account reads');
  const bObject = (await ingestedObject(svc, b.key)).split('/').pop()!;
  assertRefused(await call(svc.api, 'POST', `/models/${model.id}/runs`, { key: b.key, body: { object_id: bObject } }), 404, 'not_found', 'another account runs');
  // A's model against B's object: the object is not A's.
  assertRefused(await call(svc.api, 'POST', `/models/${model.id}/runs`, { key: a.key, body: { object_id: bObject } }), 404, 'not_found', 'another account\'s object');
  assertRefused(await call(svc.api, 'GET', '/models/mdl_000000000000000000000000', { key: a.key }), 404, 'not_found', 'no such model');
});

eachDialect('model runs: 422 unrunnable_object on the job, naming why; request faults at once', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const quake = (await call(svc.api, 'POST', '/models', { key, body: QUAKE_MODEL })).body;
  const flood = await call(svc.api, 'POST', '/models', { key, body: FLOOD_MODEL });
  assert.equal(flood.status, 201, flood.text);
  const objectPath = await ingestedObject(svc, key);
  const objectId = objectPath.split('/').pop()!;

  // No financial structure (the ingested object has none, the run gives none).
  await call(svc.api, 'PATCH', objectPath, { key, body: { peril: (ACCEPTANCE_BODIES.earthquake as any).peril } });
  const bare = await runModel(svc, key, quake.id, { object_id: objectId });
  assert.equal(bare.status, 'failed');
  assert.deepEqual([bare.error.status, bare.error.code], [422, 'unrunnable_object']);
  assert.match(bare.error.message, /no financial structure/);

  // Peril mismatch: the flood model against an earthquake object.
  await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.earthquake });
  const mismatch = await runModel(svc, key, flood.body.id, { object_id: objectId });
  assert.equal(mismatch.error.code, 'unrunnable_object');
  assert.match(mismatch.error.message, /prices flood; .* earthquake object \(peril mismatch\)/);

  // Outside the feed's reach: the Wisconsin gauge against locations in Los Angeles.
  await call(svc.api, 'PATCH', objectPath, { key, body: ACCEPTANCE_BODIES.flood });
  const far = await runModel(svc, key, flood.body.id, { object_id: objectId });
  assert.equal(far.error.code, 'unrunnable_object');
  assert.match(far.error.message, /within the reach of usgs-nwis-04119000-discharge .* km from the feed's point; it answers within 25 km/);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 0, 'refused runs are not metered');

  // On the request: a body without object_id, an unknown member, a missing model.
  assertRefused(await call(svc.api, 'POST', `/models/${quake.id}/runs`, { key, body: {} }), 422, 'invalid_request', 'no object_id');
  assertRefused(await call(svc.api, 'POST', `/models/${quake.id}/runs`, { key, body: { object_id: objectId, discount: 1 } }), 422, 'invalid_request', 'unknown member');
  assertRefused(await call(svc.api, 'POST', '/models/mdl_000000000000000000000000/runs', { key, body: { object_id: objectId } }), 404, 'not_found', 'no model');
});
