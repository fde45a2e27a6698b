// The probabilistic European and Turkish earthquake lane over real HTTP on the lab host: listed by
// GET /models with its version, pinned inputs, eleven building classes and caps; a run by points as a
// job with progress (10,000 sample years over 20 branches on ESHM20's area-source branch, named with
// its sha256; a place in Riyadh is beyond every source and counted unmodeled; the CC BY-NC-SA
// licence stated);
// the same spec read back as one run; refusals on the request (422 invalid_request) and on the job
// for a stored schedule of more than 500 places.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, sharedService, signup, waitForJob, finishedRun } from '../support/service.js';
import { form } from '../support/schedules.js';
import { manifestOf } from '../support/feeds.js';

const MODEL = 'openquake-eshm20-eq';
// Places written for the test: Istanbul, Izmir, Riyadh (over 600 km from every ESHM20 source).
const POINTS = [
  { lat: 41.01, lon: 28.97, value: 1_000_000 },
  { lat: 38.42, lon: 27.14, value: 2_000_000 },
  { lat: 24.71, lon: 46.68, value: 5_000_000 },
];

eachDialect('GET /models lists the probabilistic European and Turkish lane: version, pinned inputs, eleven building classes, caps', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const models = await call(svc.urls.lab, 'GET', '/models', { key });
  assert.equal(models.status, 200);
  const model = models.body.models.find((m: any) => m.id === MODEL);
  assert.ok(model, 'listed');
  assert.equal(model.lane, 'eshm20-earthquake');
  assert.equal(model.version, 'eshm20-sources-2.0.0-r2');
  const classes = model.pinned_inputs.building_classes;
  assert.equal(classes.length, 11);
  assert.deepEqual(classes.find((c: any) => c.id === 'rc_infilled_frame_moderate_code_4').taxonomy, 'CR/LFINF+CDM+DUM/H4/RES');
  assert.match(model.pinned_inputs.vulnerability.license, /NON-COMMERCIAL/);
  assert.equal(model.pinned_inputs.catalog.version, manifestOf('usgs-comcat-m6-turkey').version);
  assert.equal(model.pinned_inputs.gmpe_logic_tree.file, 'gmpe_logic_tree_5br_shallow_default.xml');
  assert.equal(model.pinned_inputs.gmpe_logic_tree.sha256_file, manifestOf('esrm20-scenario-events').files.find((f: any) => f.name === 'gmpe_logic_tree_5br_shallow_default.xml').sha256);
  assert.equal(model.pinned_inputs.area_sources.sha256_file, manifestOf('efehr-eshm20-source-model-branches').files.find((f: any) => f.name === 'asm_ver12e_winGT_fs017_lo_abgrs_maxmag_upp.xml').sha256);
  assert.equal(model.pinned_inputs.fault_sources.file, 'fs_ver09e_model_aGR_SRL_ML_fMthr.xml');
  assert.deepEqual([model.caps.places_max, model.caps.sample_years, model.caps.branches, model.caps.site_model_reach_km], [500, 10_000, 20, 200]);
  assert.match(model.spec.source_branches, /one branch of ESHM20's weighted source-model tree, not the weighted model/);
  assert.match(model.spec.source_model, /optional, default eshm20_area_sources: .*catalog_demonstration/);
  assert.match(model.label, /CC BY-NC-SA/);
});

eachDialect('a run by points: a job with progress, lab-metrics/1 over 10,000 years on ESHM20\'s area sources, Riyadh unmodeled, the inputs\' sha256 and the licence stated', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const first = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, building_class: 'rc_infilled_frame_moderate_code_4', exposure: { points: POINTS } } });
  assert.equal(first.status, 202, first.text);
  const done = await finishedRun(svc, key, `/runs/${first.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const job = await waitForJob(svc.api, key, new URL(done.links.job).pathname);
  assert.equal(job.status, 'succeeded');
  // The job's progress counts sampled ruptures (recorded while it ran; the last count stays).
  assert.equal(job.progress.fraction, 1);
  assert.match(job.progress.sentence, /^Computed the ground motion and losses of ([\d,]+) of \1 sampled ruptures\.$/);
  const r = done.result;
  assert.equal(r.lane, 'probabilistic_earthquake_europe');
  assert.equal(r.model.id, MODEL);
  assert.deepEqual([r.sample.branches, r.sample.years_per_branch, r.sample.sample_years], [20, 500, 10_000]);
  assert.equal(r.branches.length, 20);
  assert.deepEqual(r.unmodeled, { count: 1, places: [{ index: 2, reason: 'farther than 200 km from every source of the ESHM20 branch' }] });
  const m = r.metrics;
  assert.equal(m.schema, 'lab-metrics/1');
  assert.equal(m.periods, 10_000);
  assert.ok(m.average_annual_loss.mean > 0);
  assert.equal(m.exceedance.oep.at(-1).return_period, 1000);
  assert.equal(m.exceedance.aep.at(-1).return_period, 1000);
  assert.ok(m.exceedance.aep.at(-1).tvar >= m.exceedance.aep.at(-1).loss);
  assert.equal(m.blocks.count, 10);
  assert.equal(r.demonstration, undefined);
  assert.equal(r.source_model_choice, 'eshm20_area_sources');
  assert.equal(r.inputs.area_sources.sha256_file, manifestOf('efehr-eshm20-source-model-branches').files.find((f: any) => f.name === 'asm_ver12e_winGT_fs017_lo_abgrs_maxmag_upp.xml').sha256);
  assert.match(r.licence, /CC BY-NC-SA 4\.0/);
  assert.equal(r.inputs.gmpe_logic_tree.file, 'gmpe_logic_tree_5br_shallow_default.xml');
  // The exceedance chart and the ORD exceedance table are drawn from the metrics.
  assert.equal(done.links.chart, `/runs/${first.body.id}/chart.svg`);
  const chart = await call(svc.urls.lab, 'GET', done.links.chart, { key });
  assert.equal(chart.status, 200);
  assert.match(chart.text, /<svg/);
  const ept = await call(svc.urls.lab, 'GET', `/runs/${first.body.id}`, { key, headers: { accept: 'text/csv' } });
  assert.equal(ept.status, 200, ept.text.slice(0, 300));
  assert.ok(ept.text.split('\n').length > 10);
  // The same spec, members reordered: the same run, read back.
  const again = await call(svc.urls.lab, 'POST', '/runs', { key, body: { exposure: { points: POINTS }, model: MODEL, building_class: 'rc_infilled_frame_moderate_code_4' } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.id, first.body.id);
  assert.deepEqual(again.body.result, r);
});

eachDialect('probabilistic earthquake refusals: 422 invalid_request on the request, naming the eleven classes or the 500-place cap', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const many = Array.from({ length: 501 }, (_, i) => ({ lat: 38 + i * 0.001, lon: 30, value: 1 }));
  const cases: [unknown, RegExp][] = [
    [{ model: MODEL, building_class: 'adobe', exposure: { points: POINTS } }, /building_class must be one of rc_infilled_frame_low_code_2, .*wood_frame_moderate_code_2/],
    [{ model: MODEL, exposure: { points: POINTS } }, /building_class must be one of/],
    [{ model: MODEL, building_class: 'rc_wall_moderate_code_6', exposure: { points: many } }, /up to 500 places; it holds 501/],
    [{ model: MODEL, building_class: 'rc_wall_moderate_code_6', exposure: { points: POINTS }, years: 100 }, /unknown member .{0,2}years/],
  ];
  for (const [body, detail] of cases) {
    const answer = await call(svc.urls.lab, 'POST', '/runs', { key, body });
    assert.equal(answer.status, 422, `${JSON.stringify(body).slice(0, 200)}: ${answer.text.slice(0, 300)}`);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.deepEqual(envelopeFaults(answer), []);
    assert.ok(JSON.stringify(answer.body.error).match(detail), answer.text.slice(0, 600));
  }
});

eachDialect('a stored schedule of 501 places is refused on the job: 422 invalid_request', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const rows = Array.from({ length: 501 }, (_, i) => `L${i},${(38 + i * 0.001).toFixed(3)},30.000,QQ1,1050,5000,100000,0,TRY`);
  const oed = ['LocNumber,Latitude,Longitude,LocPerilsCovered,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,LocCurrency', ...rows].join('\n');
  const accepted = await call(svc.api, 'POST', '/ingest', { key, raw: form(oed, { type: 'text/csv', filename: 'oed.csv' }) });
  const ingest = await waitForJob(svc.api, key, accepted.headers.get('location')!);
  const objectId = ingest.result.objects[0].id;
  const run = await call(svc.urls.lab, 'POST', '/runs', { key, body: { model: MODEL, building_class: 'wood_frame_moderate_code_2', exposure: { object_id: objectId } } });
  assert.equal(run.status, 202, run.text);
  const done = await finishedRun(svc, key, `/runs/${run.body.id}`);
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'invalid_request');
  assert.match(JSON.stringify(done.error), /up to 500 places; the object holds 501/);
});
