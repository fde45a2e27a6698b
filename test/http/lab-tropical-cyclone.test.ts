// The tropical-cyclone lanes on the lab host over real HTTP: listed by GET /models with their pinned
// inputs and caps, a replay of Andrew (1992) over south Florida points run as a job, a spec refused
// at once, a storm the seasons do not hold refused on the job; a synthetic run's lab-metrics/1, and a
// synthetic run attracting more near tracks than caps.near_tracks refused at once, naming its levers.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, finishedRun, type TestService } from '../support/service.js';
import { manifestOf } from '../support/feeds.js';

const MODEL = 'climada-tc-history';
// Places written for the test: Homestead and Miami.
const POINTS = [
  { lat: 25.47, lon: -80.48, value: 1_000_000 },
  { lat: 25.76, lon: -80.19, value: 5_000_000 },
];

eachDialect('GET /models lists the tropical-cyclone history lane with its pinned track archives and impact-function tables', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const model = models.body.models.find((m: any) => m.id === MODEL);
  assert.equal(model.lane, 'tropical-cyclone-history');
  assert.equal(model.engine, 'climada');
  assert.equal(model.pinned_inputs.tracks.NA.feed_id, 'noaa-nhc-hurdat2-atlantic');
  assert.equal(model.pinned_inputs.tracks.NA.version, manifestOf('noaa-nhc-hurdat2-atlantic').version);
  assert.equal(model.pinned_inputs.impact_functions.feed_id, 'tc-impact-functions');
  assert.deepEqual(model.caps, { places_max: 10_000, years_max: 60, storms_max: 1_000 });
  assert.match(model.spec.impact_function, /emanuel-2011-usa/);
  assert.match(model.spec.wind_field, /17\.5 m\/s, 300 km from the eye, gradient-to-surface factor 0\.9/);
});

eachDialect('a history run replays Andrew 1992 over south Florida; a bad spec is refused at once, an unknown storm on the job', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, hazard: { basin: 'NA', years: [1992], storms: ['andrew'] }, exposure: { points: POINTS } } });
  assert.equal(submitted.status, 202, submitted.text);
  // Defaults spelled out in the normalised spec: impact_function auto, storm names upper-cased.
  assert.deepEqual(submitted.body.spec.hazard, { basin: 'NA', years: [1992], storms: ['ANDREW'] });
  assert.equal(submitted.body.spec.impact_function, 'auto');
  const done = await finishedRun(svc, key, `/runs/${submitted.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const r = done.result;
  assert.equal(r.lane, 'tropical_cyclone_history');
  assert.equal(r.storms.length, 1);
  assert.equal(r.storms[0].storm_id, 'AL041992');
  assert.equal(r.storms[0].name, 'ANDREW');
  assert.equal(r.storms[0].places.length, 2);
  assert.ok(r.storms[0].places.every((p: any) => p.wind_m_s > 45 && p.loss > 0));
  assert.equal(r.seasons[0].season, 1992);
  assert.ok(Math.abs(r.seasons[0].loss - r.storms[0].loss) < 1e-6);
  assert.equal(r.return_periods, null);
  assert.equal(r.inputs.tracks.feed_id, 'noaa-nhc-hurdat2-atlantic');

  // Refused at once: every fault named.
  const bad = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, impact_function: 'steep', hazard: { basin: 'XX', years: [] }, exposure: { points: POINTS } } });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.error.code, 'invalid_request');
  assert.deepEqual(envelopeFaults(bad), []);
  const details = JSON.stringify(bad.body.error.details);
  for (const word of ['impact_function', 'hazard.basin', 'hazard.years']) assert.ok(details.includes(word), `${word} in ${details}`);

  // A storm the seasons do not hold: the job fails with the refusal, naming the storm.
  const unknown = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, hazard: { basin: 'NA', years: [1992], storms: ['KATRINA'] }, exposure: { points: POINTS } } });
  assert.equal(unknown.status, 202, unknown.text);
  const failed = await finishedRun(svc, key, `/runs/${unknown.body.id}`);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error.code, 'invalid_request');
  assert.match(JSON.stringify(failed.error), /KATRINA/);
});

eachDialect('the synthetic lane: lab-metrics/1 over sample years; more near tracks than caps.near_tracks refused with its levers', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  const model = models.body.models.find((m: any) => m.id === 'climada-tc-synthetic');
  assert.equal(model.lane, 'tropical-cyclone-synthetic');
  assert.equal(model.caps.near_tracks, 6_000);
  assert.equal(model.caps.sample_years_max, 10_000);

  const submitted = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'climada-tc-synthetic', hazard: { basin: 'NA', years: 300 }, exposure: { points: POINTS } } });
  assert.equal(submitted.status, 202, submitted.text);
  assert.deepEqual(submitted.body.spec.hazard, { basin: 'NA', years: 300 });
  const done = await finishedRun(svc, key, `/runs/${submitted.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.equal(done.result.metrics.schema, 'lab-metrics/1');
  assert.equal(done.result.hazard.sample_years, 300);
  assert.equal(done.result.tracks.near + done.result.tracks.screened_far, done.result.tracks.occurring);
  // The land polygons the decay read are named as an input, with their sha256.
  assert.deepEqual([done.result.inputs.land.package, done.result.inputs.land.file], ['world-atlas', 'countries-10m.json']);
  assert.match(done.result.inputs.land.sha256, /^[0-9a-f]{64}$/);

  // Places spread over the whole basin with the full 10,000 sample years: nearly every track is near.
  const wide = Array.from({ length: 48 }, (_, i) => ({ lat: 12 + 4 * Math.floor(i / 8), lon: -95 + 9 * (i % 8), value: 1 }));
  const many = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: 'climada-tc-synthetic', hazard: { basin: 'NA' }, exposure: { points: wide } } });
  // Refused on the request itself: no run is owned, metered or queued.
  assert.equal(many.status, 422, many.text);
  assert.equal(many.body.error.code, 'invalid_request');
  assert.deepEqual(envelopeFaults(many), []);
  assert.match(many.body.error.message, /fewer sample years/);
  assert.match(many.body.error.message, /cluster the exposure more tightly/);
  assert.match(many.body.error.message, /caps\.near_tracks/);
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.model_runs, 1, 'only the first synthetic run is metered');
});
