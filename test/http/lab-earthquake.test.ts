// The scenario earthquake lane over real HTTP on the lab host: listed by GET /models with its pinned
// vulnerability functions and curves, a run by points (places beyond 200 km counted unmodeled, the
// licence stated), the same spec read back as one run, a run over a stored OED schedule, and
// refusals on the request (422 invalid_request naming each fault).
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, finishedRun, type TestService } from '../support/service.js';
import { form } from '../support/schedules.js';
import { manifestOf } from '../support/feeds.js';

const MODEL = 'openquake-scenario-eq';
// A rupture written for the test after the 1994 Northridge mainshock (M6.7, 17.5 km deep, a reverse
// fault striking 122 and dipping 40), with two places near it and one in San Francisco (~500 km away).
const RUPTURE = { magnitude: 6.7, lat: 34.213, lon: -118.537, depth_km: 17.5, strike: 122, dip: 40, rake: 101 };
const POINTS = [
  { lat: 34.2, lon: -118.5, value: 1_000_000, vs30: 300 },
  { lat: 34.05, lon: -118.25, value: 2_000_000 },
  { lat: 37.78, lon: -122.42, value: 5_000_000 },
];

eachDialect('GET /models lists the scenario earthquake lane with its pinned vulnerability functions and curves', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const model = models.body.models.find((m: any) => m.id === MODEL);
  assert.ok(model, 'listed');
  assert.equal(model.lane, 'scenario-earthquake');
  const manifest = manifestOf('gem-vulnerability-europe');
  assert.equal(model.pinned_inputs.vulnerability.version, manifest.version);
  assert.match(model.pinned_inputs.vulnerability.license, /NonCommercial|NON-COMMERCIAL/);
  assert.equal(model.pinned_inputs.vulnerability.files_read[0].sha256, manifest.files.find((f: any) => f.name === 'vulnerability_structural.xml').sha256);
  assert.equal(model.pinned_inputs.curves.length, 5);
  assert.equal(model.caps.reach_km, 200);
  assert.match(model.spec.exposure, /vs30/);
});

eachDialect('a scenario run by points: per-place ground motion and loss, the aggregate over 100 fields, unmodeled counted', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const first = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, rupture: RUPTURE, exposure: { points: POINTS } } });
  assert.ok(first.status === 202 || first.status === 200, first.text);
  const done = await finishedRun(svc, key, `/runs/${first.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const r = done.result;
  assert.equal(r.lane, 'scenario_earthquake');
  assert.equal(done.spec.vulnerability, 'rc_frame_mid_rise_moderate_code', 'the default curve is spelled out in the spec');
  assert.equal(r.ground_motion.fields, 100);
  assert.deepEqual(r.unmodeled, { count: 1, places: [{ index: 2, reason: 'farther than 200 km from the rupture' }] });
  assert.equal(r.places.length, 2);
  assert.equal(r.places[0].vs30, 300);
  assert.equal(r.places[1].vs30_source, 'default');
  assert.ok(r.places[0].ground_motion.median > r.places[1].ground_motion.median, 'the nearer, softer site shakes harder');
  assert.ok(r.aggregate.mean > 0);
  assert.match(r.licence, /CC BY-NC-SA 4\.0/);
  assert.match(r.frequency, /no annual figure/);
  // Equivalent spec (defaults spelled out, members reordered): the same run, read back.
  const again = await call(svc.urls.lab, 'POST', '/runs', { key, body: { exposure: { points: POINTS }, vulnerability: 'rc_frame_mid_rise_moderate_code', rupture: { ...RUPTURE, mechanism: 'reverse' }, model: MODEL } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.id, first.body.id);
  assert.deepEqual(again.body.result, r);
});

eachDialect('a scenario run over a stored OED schedule: a place value is its buildings plus contents', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const oed = ['LocNumber,Latitude,Longitude,LocPerilsCovered,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,LocCurrency',
    'L1,34.20,-118.50,QQ1,1050,5000,1000000,200000,USD',
    'L2,34.05,-118.25,QQ1,1050,5000,400000,100000,USD'].join('\n');
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(oed, { type: 'text/csv', filename: 'oed.csv' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const objectId = job.result.objects[0].id;
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, rupture: RUPTURE, exposure: { object_id: objectId }, vulnerability: 'demo_wood' } });
  assert.equal(run.status, 202, run.text);
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.equal(done.result.places.length, 2);
  assert.equal(done.result.places[0].value, 1_200_000, 'buildings plus contents');
  assert.equal(done.result.vulnerability.function_id, 'W/LFM+CDL+DUL/H2/RES');
});

eachDialect('scenario refusals on the request: 422 invalid_request naming each fault', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const cases: unknown[] = [
    { model: MODEL, rupture: { ...RUPTURE, magnitude: 9.9 }, exposure: { points: POINTS } },
    { model: MODEL, rupture: { ...RUPTURE, depth_km: 250 }, exposure: { points: POINTS } },
    { model: MODEL, rupture: { ...RUPTURE, mechanism: 'normal' }, exposure: { points: POINTS } },
    { model: MODEL, rupture: RUPTURE, exposure: { points: [{ lat: 34, lon: -118, value: 1, vs30: 50 }] } },
    { model: MODEL, rupture: RUPTURE, exposure: { points: POINTS }, vulnerability: 'adobe' },
    { model: MODEL, exposure: { points: POINTS } },
    { model: MODEL, rupture: RUPTURE, exposure: { points: POINTS }, samples: 10 },
  ];
  for (const body of cases) {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body });
    assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.deepEqual(envelopeFaults(answer), []);
  }
});
