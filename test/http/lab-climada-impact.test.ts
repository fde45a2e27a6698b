// The climada-impact lane over HTTP: CLIMADA's demo files brought as inputs (the pinned
// climada-demo-tc), run by id, CLIMADA's published aai_agg (climada/engine/test/test_impact_calc.py
// test_calc_impact_TC_pass, 6.512201157564421e9 to 5 places) and insured figures
// (test_calc_insured_impact_pass, aai_agg 143180396, delta 1), the inputs named with their digests,
// content-addressed runs, CSV tables, and the refusals of a spec's inputs.
import assert from 'node:assert/strict';
import { call, eachDialect, envelopeFaults, finishedRun, sharedService, signup } from '../support/service.js';
import { rawFile } from '../support/feeds.js';
import { inputForm } from '../support/lab-inputs.js';

const DEMO = 'climada-demo-tc';

async function bring(lab: string, key: string, kind: string, file: Uint8Array | string): Promise<{ id: string; sha256: string }> {
  const r = await call(lab, 'POST', '/inputs', { key, raw: inputForm(kind, file) });
  assert.ok(r.status === 201 || r.status === 200, r.text);
  return r.body;
}

eachDialect('a CLIMADA user\'s three files give CLIMADA\'s aai_agg, at_event, insured impact and frequency curve; CSV tables; the same spec and bytes are one run', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const hazard = await bring(lab, key, 'climada-hazard', rawFile(DEMO, 'atl_prob_no_name.mat'));
  const exposures = await bring(lab, key, 'climada-exposures', rawFile(DEMO, 'demo_today.xlsx'));
  const functions = await bring(lab, key, 'climada-impact-functions', rawFile(DEMO, 'demo_today.xlsx'));

  const spec = { model: 'climada-impact', hazard: hazard.id, exposures: exposures.id, impact_functions: functions.id, return_periods: [100, 250] };
  const submitted = await call(lab, 'POST', '/runs', { key, body: spec });
  assert.equal(submitted.status, 202, submitted.text);
  const run = await finishedRun(svc, key, submitted.headers.get('location')!);
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  const r = run.result;
  assert.ok(Math.abs(r.aai_agg - 6.512201157564421e9) < 5e-6, `${r.aai_agg}`);
  assert.ok(Math.abs(r.at_event[12147] - 7.076504723057620e10) <= 1);
  assert.deepEqual(r.inputs.hazard, { id: hazard.id, kind: 'climada-hazard', sha256: hazard.sha256 });
  assert.deepEqual(r.inputs.exposures, { id: exposures.id, kind: 'climada-exposures', sha256: exposures.sha256 });
  assert.equal(r.events.length, 14450);
  assert.deepEqual(r.freq_curve.return_per, [100, 250]);
  assert.equal(r.insured, undefined);
  assert.deepEqual(run.spec, { ...spec, version: run.spec.version, haz_type: null, assign: { distance: 'euclidean', threshold_km: null }, insured: false });

  // The same spec again: the same run, read back; written in another order, still the same.
  const again = await call(lab, 'POST', '/runs', { key, body: { return_periods: [100, 250], impact_functions: functions.id, exposures: exposures.id, hazard: hazard.id, model: 'climada-impact' } });
  assert.equal(again.status, 200);
  assert.equal(again.body.id, run.id);

  const csv = await call(lab, 'GET', `/runs/${run.id}?format=csv&table=freq_curve`, { key });
  assert.equal(csv.status, 200);
  assert.equal(csv.text.split('\r\n')[0], 'return_period,impact');
  const events = await call(lab, 'GET', `/runs/${run.id}?format=csv`, { key });
  assert.equal(events.text.split('\r\n')[0], 'event_id,event_name,date,frequency,impact');
  assert.equal(events.text.trim().split('\r\n').length, 14451);
  const noInsured = await call(lab, 'GET', `/runs/${run.id}?format=csv&table=insured_at_event`, { key });
  assert.equal(noInsured.status, 422);
  assert.equal(noInsured.body.error.code, 'invalid_request');
  const ord = await call(lab, 'GET', `/runs/${run.id}?format=csv&table=ept`, { key });
  assert.equal(ord.status, 422);

  // Insured: CLIMADA's test exposures (cover / 1e3, deductible + 1e5), written here as CSV from the demo workbook's.
  const demo = run.result.exposures as { latitude: number; longitude: number; value: number }[];
  const rows = demo.map((x) => `${x.latitude},${x.longitude},${x.value},${1e5},${x.value / 1e3},1`);
  const insuredExposures = await bring(lab, key, 'climada-exposures', `latitude,longitude,value,deductible,cover,impf_TC\n${rows.join('\n')}\n`);
  const insured = await call(lab, 'POST', '/runs', { key, body: { ...spec, exposures: insuredExposures.id, insured: true } });
  const insuredRun = await finishedRun(svc, key, insured.headers.get('location')!);
  assert.equal(insuredRun.status, 'succeeded', JSON.stringify(insuredRun.error));
  assert.ok(Math.abs(insuredRun.result.insured.aai_agg - 143180396) <= 1, `${insuredRun.result.insured.aai_agg}`);
  const insuredCsv = await call(lab, 'GET', `/runs/${insuredRun.id}?format=csv&table=insured_eai_exp`, { key });
  assert.equal(insuredCsv.status, 200);
  assert.equal(insuredCsv.text.split('\r\n')[0], 'exposure,latitude,longitude,value,centroid,eai_exp');
});

eachDialect('a spec\'s inputs: another account\'s is 404, one of another kind 422, a malformed id 422; nothing owned or metered', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const other = await signup(svc.api);
  const lab = svc.urls.lab;
  const hazard = await bring(lab, key, 'climada-hazard', rawFile(DEMO, 'tc_fl_1990_2004.h5'));
  const exposures = await bring(lab, key, 'climada-exposures', rawFile(DEMO, 'exp_demo_today.h5'));
  const functions = await bring(lab, key, 'climada-impact-functions', rawFile(DEMO, 'demo_today.xlsx'));
  const spec = { model: 'climada-impact', hazard: hazard.id, exposures: exposures.id, impact_functions: functions.id };

  const theirs = await call(lab, 'POST', '/runs', { key: other.key, body: spec });
  assert.equal(theirs.status, 404);
  assert.equal(theirs.body.error.code, 'not_found');
  assert.deepEqual(envelopeFaults(theirs), []);
  const wrongKind = await call(lab, 'POST', '/runs', { key, body: { ...spec, hazard: exposures.id } });
  assert.equal(wrongKind.status, 422);
  assert.equal(wrongKind.body.error.code, 'invalid_request');
  assert.match(wrongKind.body.error.message, /hazard names .* a climada-exposures input/);
  const malformed = await call(lab, 'POST', '/runs', { key, body: { ...spec, hazard: 'hazard.h5', exposure: { points: [] } } });
  assert.equal(malformed.status, 422);
  assert.equal(malformed.body.error.code, 'invalid_request');
  const runs = await call(lab, 'GET', '/runs', { key: other.key });
  assert.deepEqual(runs.body.runs, []);

  // CLIMADA 4's HDF5 hazard (216 events over 2,500 centroids, its fraction stored) with its HDF5 exposures runs.
  const ok = await call(lab, 'POST', '/runs', { key, body: spec });
  const run = await finishedRun(svc, key, ok.headers.get('location')!);
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  assert.equal(run.result.at_event.length, 216);
  assert.equal(run.result.events[0].event_name, '1990203N09318');
  assert.equal(run.result.unit, 'USD');
  assert.ok(run.result.aai_agg > 0);
});
