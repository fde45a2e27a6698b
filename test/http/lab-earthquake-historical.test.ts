// The historical earthquake lane over real HTTP on the lab host: GET /models lists which of the ten
// events are runnable (and for the others the missing input), a Northridge run by points (a place
// outside the map counted unmodeled, the method and licence stated) read back as one run, a
// Kahramanmaras run on its stations (no grid pinned; the result says so), a run over
// a stored schedule, and refusals on the request: an event whose ShakeMap grid is not pinned is
// refused at once with 422 invalid_request naming the missing input, for points and for an object.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, finishedRun } from '../support/service.js';
import { form } from '../support/schedules.js';
import { manifestOf } from '../support/feeds.js';

const MODEL = 'openquake-historical-eq';
const POINTS = [
  { lat: 34.2, lon: -118.5, value: 1_000_000 },
  { lat: 34.05, lon: -118.25, value: 2_000_000 },
  { lat: 40.71, lon: -74.0, value: 5_000_000 }, // New York: outside the Northridge map
];

eachDialect('GET /models lists the historical earthquake lane: which events are runnable, and the missing input of the rest', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const model = models.body.models.find((m: any) => m.id === MODEL);
  assert.ok(model, 'listed');
  assert.equal(model.lane, 'historical-earthquake');
  const events = model.pinned_inputs.events as any[];
  assert.equal(events.length, 10);
  assert.deepEqual(events.filter((e) => e.runnable).map((e) => [e.event, e.runs_on]), [
    ['northridge-1994', 'shakemap_grid'], ['loma-prieta-1989', 'shakemap_grid'], ['south-napa-2014', 'stations'], ['anchorage-2018', 'shakemap_grid'], ['kahramanmaras-2023', 'stations'],
  ]);
  const northridge = events.find((e) => e.event === 'northridge-1994');
  assert.equal(northridge.shakemap.sha256.length, 64);
  assert.equal(northridge.shakemap.version, manifestOf('usgs-shakemap-northridge-1994').version);
  assert.equal(northridge.shakemap.holds, 'raster');
  assert.match(events.find((e) => e.event === 'ridgecrest-2019').missing, /contour lines only/);
  assert.match(events.find((e) => e.event === 'tohoku-2011').missing, /no ShakeMap is pinned/);
  assert.equal(model.pinned_inputs.curves.length, 5);
  assert.match(model.pinned_inputs.vulnerability.license, /NonCommercial|NON-COMMERCIAL/);
  assert.deepEqual(model.caps.runnable_events, ['northridge-1994', 'loma-prieta-1989', 'south-napa-2014', 'anchorage-2018', 'kahramanmaras-2023']);
});

eachDialect('a Northridge run by points: per-place ground motion and loss over 100 conditioned fields, unmodeled counted, read back as one run', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const first = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, event: 'northridge-1994', exposure: { points: POINTS } } });
  assert.ok(first.status === 202 || first.status === 200, first.text);
  const done = await finishedRun(svc, key, `/runs/${first.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const r = done.result;
  assert.equal(r.lane, 'historical_earthquake');
  assert.equal(r.event, 'northridge-1994');
  assert.equal(done.spec.vulnerability, 'rc_frame_mid_rise_moderate_code', 'the default curve is spelled out in the spec');
  assert.equal(r.ground_motion.fields, 100);
  assert.match(r.ground_motion.conditioning, /conditioned on the event's recordings/);
  assert.match(r.ground_motion.spatial_correlation, /Jayaram and Baker/);
  assert.equal(r.shakemap.feed_id, 'usgs-shakemap-northridge-1994');
  assert.deepEqual(r.unmodeled, { count: 1, places: [{ index: 2, reason: 'outside the ShakeMap grid' }] });
  assert.equal(r.places.length, 2);
  assert.ok(r.aggregate.mean > 0);
  assert.match(r.licence, /CC BY-NC-SA 4\.0/);
  assert.match(r.frequency, /no annual figure/);
  const again = await call(svc.urls.lab, 'POST', '/runs', { key, body: { exposure: { points: POINTS }, vulnerability: 'rc_frame_mid_rise_moderate_code', event: 'northridge-1994', model: MODEL } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.id, first.body.id);
  assert.deepEqual(again.body.result, r);
});

eachDialect('a Kahramanmaras run on its stations through the lab host and a job: the result says it ran on stations, and which', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const points = [{ lat: 37.58, lon: 36.93, value: 1_000_000 }, { lat: 36.2, lon: 36.16, value: 1_000_000 }, { lat: 41.01, lon: 28.98, value: 1 }]; // Istanbul: beyond the reach
  const first = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, event: 'kahramanmaras-2023', exposure: { points } } });
  assert.ok(first.status === 202 || first.status === 200, first.text);
  const done = await finishedRun(svc, key, `/runs/${first.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const r = done.result;
  assert.equal(r.ground_motion.basis, 'stations');
  assert.match(r.ground_motion.basis_note, /no ShakeMap grid is pinned for kahramanmaras-2023: its ground motion is conditioned on \d+ recording stations/);
  assert.equal(r.shakemap.feed_id, 'usgs-shakemap-stations-kahramanmaras-2023');
  const input = r.inputs.find((i: any) => i.input === 'shakemap');
  assert.match(input.sha256, /^[0-9a-f]{64}$/);
  assert.equal(r.shakemap.sha256, input.sha256);
  assert.deepEqual(input.files_read.map((f: any) => f.name).sort(), ['rupture.json', 'stationlist.json']);
  assert.deepEqual(r.ground_motion.stations.conditioned_on, ['SA(0.3)', 'SA(1)']);
  assert.equal(r.places.length, 2);
  assert.deepEqual(r.unmodeled, { count: 1, places: [{ index: 2, reason: 'farther than 200 km from the rupture' }] });
  assert.ok(r.places.every((p: any) => p.conditioned.median > 0 && p.gmpe.median > 0));
});

eachDialect('a historical run over a stored OED schedule: a place value is its buildings plus contents', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const oed = ['LocNumber,Latitude,Longitude,LocPerilsCovered,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,LocCurrency',
    'L1,61.22,-149.90,QQ1,1050,5000,1000000,200000,USD',
    'L2,64.84,-147.72,QQ1,1050,5000,400000,100000,USD'].join('\n'); // L2: Fairbanks, north of the Anchorage map
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(oed, { type: 'text/csv', filename: 'oed.csv' }) });
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const objectId = job.result.objects[0].id;
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, event: 'anchorage-2018', exposure: { object_id: objectId }, vulnerability: 'demo_wood' } });
  assert.equal(run.status, 202, run.text);
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  assert.equal(done.result.places.length, 1);
  assert.equal(done.result.places[0].value, 1_200_000, 'buildings plus contents');
  assert.equal(done.result.unmodeled.count, 1);
  assert.equal(done.result.ground_motion.imt, 'SA(0.3)');
  assert.match(done.result.shakemap.standard_deviation, /STDPGA/);
});

eachDialect('historical refusals on the request: 422 invalid_request, an event without a pinned ShakeMap grid named with its missing input', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const cases: [unknown, RegExp][] = [
    [{ model: MODEL, event: 'ridgecrest-2019', exposure: { points: POINTS } }, /ridgecrest-2019 cannot run: its pinned ShakeMap .* holds contour lines only; the missing input is a USGS ShakeMap grid/],
    [{ model: MODEL, event: 'ridgecrest-2019', exposure: { object_id: 'obj_anything' } }, /contour lines only/],
    [{ model: MODEL, event: 'tohoku-2011', exposure: { points: POINTS } }, /tohoku-2011 cannot run: no ShakeMap is pinned for it; the missing input is a USGS ShakeMap grid .*, or its station list/],
    [{ model: MODEL, event: 'san-francisco-1906', exposure: { points: POINTS } }, /event must be one of/],
    [{ model: MODEL, exposure: { points: POINTS } }, /event must be one of/],
    [{ model: MODEL, event: 'northridge-1994', exposure: { points: POINTS }, vulnerability: 'adobe' }, /vulnerability must be one of/],
    [{ model: MODEL, event: 'northridge-1994', exposure: { points: POINTS }, rupture: {} }, /unknown member rupture/],
  ];
  for (const [body, fault] of cases) {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body });
    assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.ok(JSON.stringify(answer.body.error).match(fault), `${fault}: ${answer.text}`);
    assert.deepEqual(envelopeFaults(answer), []);
  }
});
