// The openquake-scenario-risk lane over HTTP: OpenQuake's scenario_risk case_1 files brought to
// POST {lab_url}/inputs, a run over them giving the case's expected aggrisk and risk_by_event
// (engine 3.13 and 3.20, six significant digits), each input named with its sha256; the same
// spec is the same run; the tool server's run_climate_model runs it too; the refusals of a spec
// naming inputs (not the caller's, of another kind).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, eachDialect, envelopeFaults, finishedRun, sharedService, signup, USER_AGENT } from '../support/service.js';
import { CASE1_EXPOSURE, CASE1_GMFS, CASE1_SITES, CASE1_VULNERABILITY } from '../support/openquake-case1.js';

function form(kind: string, parts: Record<string, string>): FormData {
  const data = new FormData();
  data.append('kind', kind);
  for (const [name, text] of Object.entries(parts)) data.append(name, new Blob([text]), `${name}.txt`);
  return data;
}

async function bring(lab: string, key: string, kind: string, parts: Record<string, string>): Promise<{ id: string; sha256: string }> {
  const answer = await call(lab, 'POST', '/inputs', { key, raw: form(kind, parts) });
  assert.ok(answer.status === 201 || answer.status === 200, answer.text);
  return answer.body;
}

eachDialect('OpenQuake\'s case_1 run over HTTP: aggrisk and risk_by_event as the engine\'s expected files', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const exposure = await bring(lab, key, 'oq-exposure', { file: CASE1_EXPOSURE });
  const vulnerability = await bring(lab, key, 'oq-vulnerability', { file: CASE1_VULNERABILITY });
  const gmfs = await bring(lab, key, 'oq-gmfs', { file: CASE1_GMFS, sites: CASE1_SITES });
  const body = { model: 'openquake-scenario-risk', exposure: exposure.id, vulnerability: vulnerability.id, gmfs: gmfs.id, minimum_asset_loss: { structural: 200 } };
  const submitted = await call(lab, 'POST', '/runs', { key, body });
  assert.equal(submitted.status, 202, submitted.text);
  const done = await finishedRun(svc, key, `/runs/${submitted.body.id}`);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
  const result = done.result;
  assert.equal(result.lane, 'openquake_scenario_risk');
  assert.deepEqual(result.inputs.map((i: { member: string; sha256: string }) => [i.member, i.sha256]), [
    ['exposure', exposure.sha256], ['gmfs', gmfs.sha256], ['vulnerability', vulnerability.sha256],
  ]);
  const [agg] = result.aggrisk;
  assert.ok(Math.abs(agg.loss_value - 412.367) <= 412.367 * 1e-5, String(agg.loss_value));
  assert.ok(Math.abs(agg.loss_ratio - 0.206184) <= 0.206184 * 1e-5, String(agg.loss_ratio));
  assert.deepEqual(result.risk_by_event.filter((x: { loss_type: string }) => x.loss_type === 'structural').map((x: { event_id: number }) => x.event_id), [5, 1, 4, 3, 2, 6, 9, 8, 0]);

  // OpenQuake's export columns, as CSV.
  const aggCsv = await call(lab, 'GET', `/runs/${submitted.body.id}?format=csv&table=aggrisk`, { key });
  assert.equal(aggCsv.status, 200, aggCsv.text);
  assert.match(aggCsv.text, /^loss_type,loss_value,loss_ratio\r\nstructural,412\.36\d+,0\.20618\d+\r\nstructural_ins,104\.859\d+,/);
  const byEvent = await call(lab, 'GET', `/runs/${submitted.body.id}?format=csv&table=risk_by_event`, { key });
  assert.equal(byEvent.status, 200);
  assert.equal(byEvent.text.split('\r\n')[0], 'event_id,loss,loss_type');
  const unknown = await call(lab, 'GET', `/runs/${submitted.body.id}?format=csv&table=ept`, { key });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.code, 'invalid_request');

  // The same spec, members reordered and defaults spelled out: the same run.
  const { model, ...rest } = body;
  const again = await call(lab, 'POST', '/runs', { key, body: { ignore_covs: false, master_seed: 123456, ...rest, model } });
  assert.equal(again.body.id, submitted.body.id);
});

eachDialect('a scenario-risk spec\'s refusals: an input not the caller\'s (404), one of another kind (422), a malformed id (422)', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const other = await signup(svc.api);
  const lab = svc.urls.lab;
  const exposure = await bring(lab, key, 'oq-exposure', { file: CASE1_EXPOSURE });
  const vulnerability = await bring(lab, key, 'oq-vulnerability', { file: CASE1_VULNERABILITY });
  const gmfs = await bring(lab, key, 'oq-gmfs', { file: CASE1_GMFS, sites: CASE1_SITES });
  const body = { model: 'openquake-scenario-risk', exposure: exposure.id, vulnerability: vulnerability.id, gmfs: gmfs.id };
  const notTheirs = await call(lab, 'POST', '/runs', { key: other.key, body });
  assert.equal(notTheirs.status, 404);
  assert.equal(notTheirs.body.error.code, 'not_found');
  assert.deepEqual(envelopeFaults(notTheirs), []);
  const wrongKind = await call(lab, 'POST', '/runs', { key, body: { ...body, gmfs: exposure.id } });
  assert.equal(wrongKind.status, 422);
  assert.equal(wrongKind.body.error.code, 'invalid_request');
  assert.match(wrongKind.body.error.message, /gmfs names inp_[0-9a-f]{32}, a oq-exposure input; it takes a oq-gmfs input/);
  const malformed = await call(lab, 'POST', '/runs', { key, body: { ...body, contents_vulnerability: 'vuln.xml' } });
  assert.equal(malformed.status, 422);
  assert.equal(malformed.body.error.code, 'invalid_request');
  assert.deepEqual(envelopeFaults(malformed), []);
});

eachDialect('the tool server\'s run_climate_model runs case_1 over the inputs brought, as the lab host does', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const lab = svc.urls.lab;
  const exposure = await bring(lab, key, 'oq-exposure', { file: CASE1_EXPOSURE });
  const vulnerability = await bring(lab, key, 'oq-vulnerability', { file: CASE1_VULNERABILITY });
  const gmfs = await bring(lab, key, 'oq-gmfs', { file: CASE1_GMFS, sites: CASE1_SITES });
  const client = new Client({ name: 'catrisk-tests', version: '1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.urls.mcp}/mcp`), { requestInit: { headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` } } }));
  try {
    const answer = await client.callTool({ name: 'run_climate_model', arguments: { model: 'openquake-scenario-risk', exposure: exposure.id, vulnerability: vulnerability.id, gmfs: gmfs.id, minimum_asset_loss: { structural: 200 }, wait_seconds: 50 } });
    assert.ok(!answer.isError, JSON.stringify(answer.content));
    const run = answer.structuredContent as any;
    assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
    assert.ok(Math.abs(run.result.aggrisk[0].loss_value - 412.367) <= 412.367 * 1e-5);
    const rest = await call(lab, 'GET', `/runs/${run.id}`, { key });
    assert.deepEqual(rest.body, run);
  } finally {
    await client.close();
  }
});
