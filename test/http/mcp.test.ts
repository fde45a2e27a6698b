// The tool server ({mcp_url}/mcp) end to end with the official SDK client over Streamable HTTP:
// the tools listed, each tool called with a valid and an invalid input, the key by argument and by
// header, tenancy; and the transport's rules over plain fetch. Each tool's answer is checked
// against the REST route that calls the same use case, or against the pinned files themselves.
import assert from 'node:assert/strict';
import { inputForm } from '../support/lab-inputs.js';
import { rawFile } from '../support/feeds.js';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { call, eachDialect, envelopeFaults, sharedService, signup, startService, USER_AGENT, waitForJob, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { EXPOSURE } from '../support/objects.js';
import { manifestOf } from '../support/feeds.js';

const TOOL_NAMES = ['create_api_key', 'run_backtest', 'compose_model', 'run_climate_model', 'get_lab_run', 'list_datasets', 'get_dataset', 'code_exposure_rows', 'flag_multi_building_rows'];
const MODEL = 'oasislmf-windstorm';
// Points written for the test inside the PiWind demonstration footprint (lat 52.734-52.795, lon -0.918 to -0.857).
const INSIDE = [{ lat: 52.74, lon: -0.91, value: 1_000_000 }, { lat: 52.76, lon: -0.89, value: 250_000 }];

async function connect(svc: TestService, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'catrisk-tests', version: '1.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.urls.mcp}/mcp`), { requestInit: { headers: { 'user-agent': USER_AGENT, ...headers } } });
  await client.connect(transport);
  return { client, transport };
}

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;

/** A successful tool result's structured content, which its text content restates. */
function value(result: ToolAnswer): any {
  assert.ok(!result.isError, `tool failed: ${JSON.stringify(result.content)}`);
  const content = result.content as Array<{ type: string; text: string }>;
  assert.deepEqual(JSON.parse(content[0]!.text), result.structuredContent);
  return result.structuredContent;
}

/** A failed tool result's REST envelope, checked as the SPEC envelope, with its status and code. */
function refusal(result: ToolAnswer, status: number, code: string): any {
  assert.equal(result.isError, true, `expected ${status} ${code}, got ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 300)}`);
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  const body = JSON.parse(text);
  assert.deepEqual(envelopeFaults({ status, headers: new Headers(), text, body }), []);
  assert.equal(body.error.code, code, body.error.message);
  return body.error;
}

eachDialect('tools/list names the tools with their schemas and truthful annotations; no session is kept', async (dialect) => {
  const svc = await sharedService(dialect);
  const { client, transport } = await connect(svc);
  try {
    assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
    assert.equal(transport.sessionId, undefined, 'stateless: no Mcp-Session-Id');
    assert.equal(client.getServerVersion()?.name, 'catrisk');
    assert.match(client.getInstructions() ?? '', /api_key/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOL_NAMES);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      assert.ok(tool.description!.length > 80, tool.name);
      assert.equal(tool.annotations?.destructiveHint, false, tool.name);
      // Every keyed tool takes api_key; create_api_key needs none.
      assert.equal('api_key' in (tool.inputSchema.properties ?? {}), tool.name !== 'create_api_key', tool.name);
    }
    // [readOnlyHint, idempotentHint, openWorldHint]
    const hints = Object.fromEntries(tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.idempotentHint, t.annotations?.openWorldHint]]));
    assert.deepEqual(hints, {
      create_api_key: [false, false, false], // each call opens another account
      run_backtest: [false, false, false], // each call queues a job (and may cut a structure)
      compose_model: [false, true, false], // the same name, version and composition is the same model
      run_climate_model: [false, true, false], // the same spec is the same run, metered once
      get_lab_run: [true, true, false],
      list_datasets: [true, true, false],
      get_dataset: [true, true, false],
      // Each call spends the daily row budget; a configured outside AI provider may be asked.
      code_exposure_rows: [false, false, true],
      flag_multi_building_rows: [false, false, true],
    });
    // The docs host's index names every tool and links the tool server's page.
    const llms = await call(svc.urls.docs, 'GET', '/llms.txt');
    const listed = [...llms.text.split('## Tools')[1]!.matchAll(/^- ([a-z_]+): /gm)].map((m) => m[1]);
    assert.deepEqual(listed, TOOL_NAMES);
    assert.ok(llms.text.includes(`${svc.urls.mcp}/mcp`));
    assert.equal((await call(svc.urls.docs, 'GET', '/tool-server.md')).status, 200);
  } finally {
    await client.close();
  }
});

eachDialect('create_api_key opens an account whose key works on the REST API; a bad argument is a tool error', async (dialect) => {
  const svc = await sharedService(dialect);
  const { client } = await connect(svc);
  try {
    const account = value(await client.callTool({ name: 'create_api_key', arguments: { label: 'agent desk' } }));
    assert.match(account.api_key.secret, /\S{20,}/);
    assert.equal(account.api_key.expires_at, null);
    const rest = await call(svc.api, 'GET', '/account', { key: account.api_key.secret });
    assert.equal(rest.status, 200);
    assert.equal(rest.body.id, account.id);
    assert.equal(rest.body.label, 'agent desk');
    // The same fault as POST /signup's, worded for arguments.
    const bad = refusal(await client.callTool({ name: 'create_api_key', arguments: { email: 'not an address', colour: 'red' } }), 422, 'invalid_request');
    const restBad = await call(svc.api, 'POST', '/signup', { body: { email: 'not an address', colour: 'red' } });
    assert.equal(restBad.status, 422);
    assert.deepEqual(bad.details, restBad.body.error.details.map((d: string) => d.replace(/^body/, 'arguments')));
    assert.match(bad.message, /^The create_api_key arguments are not acceptable: /);
  } finally {
    await client.close();
  }
});

eachDialect('the key arrives as api_key or as a Bearer header; a wrong one is a 401 tool result with the REST code and message', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const restRefusal = async (authorization: string) => {
    const answer = await call(svc.api, 'GET', '/account', { headers: { authorization } });
    assert.equal(answer.status, 401);
    return answer.body.error;
  };
  const anonymous = await connect(svc);
  const byHeader = await connect(svc, { authorization: `Bearer ${key}` });
  const wrongHeader = await connect(svc, { authorization: 'Bearer crk_not-a-key-of-this-environment' });
  try {
    const count = (await call(svc.urls.data, 'GET', '/catalog', { key })).body.count;
    assert.equal(value(await anonymous.client.callTool({ name: 'list_datasets', arguments: { api_key: key } })).count, count);
    assert.equal(value(await byHeader.client.callTool({ name: 'list_datasets', arguments: {} })).count, count);
    // The argument is used when both arrive.
    assert.equal(value(await wrongHeader.client.callTool({ name: 'list_datasets', arguments: { api_key: key } })).count, count);

    const none = refusal(await anonymous.client.callTool({ name: 'list_datasets', arguments: {} }), 401, 'unauthenticated');
    assert.equal(none.status, 401);
    assert.match(none.message, /api_key/);
    for (const [client, args, authorization] of [
      [wrongHeader.client, {}, 'Bearer crk_not-a-key-of-this-environment'],
      [anonymous.client, { api_key: 'crk_not-a-key-of-this-environment' }, 'Bearer crk_not-a-key-of-this-environment'],
      [anonymous.client, { api_key: '' }, 'Bearer '],
      [byHeader.client, { api_key: `${key}x` }, `Bearer ${key}x`],
    ] as const) {
      const error = refusal(await client.callTool({ name: 'get_lab_run', arguments: { ...args, run_id: 'run_0' } }), 401, 'unauthenticated');
      const rest = await restRefusal(authorization);
      assert.deepEqual(error, rest, `${JSON.stringify(args)}: the tool's 401 is the REST API's`);
    }
    // A keyless tool ignores a wrong header.
    assert.ok(value(await wrongHeader.client.callTool({ name: 'create_api_key', arguments: {} })).api_key.secret);
  } finally {
    await Promise.all([anonymous.client.close(), byHeader.client.close(), wrongHeader.client.close()]);
  }
});

eachDialect('list_datasets and get_dataset read the data room: the catalog, and one dataset\'s digests as pinned', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const { client } = await connect(svc, { authorization: `Bearer ${key}` });
  try {
    const catalog = (await call(svc.urls.data, 'GET', '/catalog', { key })).body;
    const listed = value(await client.callTool({ name: 'list_datasets', arguments: {} }));
    assert.equal(listed.count, catalog.count);
    assert.deepEqual(listed.datasets.map((d: any) => `${d.id}@${d.version}:${d.sha256}`), catalog.datasets.map((d: any) => `${d.id}@${d.version}:${d.sha256}`));
    for (const d of listed.datasets) {
      const full = catalog.datasets.find((c: any) => c.id === d.id && c.version === d.version);
      assert.equal(d.file_count, full.files.length, d.id);
      assert.deepEqual(d.license, full.license, d.id);
      assert.equal(d.provenance, undefined, 'the summary leaves provenance to get_dataset');
    }

    // Independent of the service: the digests written in the pinned MANIFEST.json, and the bytes downloaded.
    const manifest = manifestOf('oasis-piwind');
    const dataset = value(await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 'oasis-piwind' } }));
    assert.equal(dataset.version, manifest.version);
    assert.deepEqual(dataset.files.map((f: any) => [f.name, f.sha256]), manifest.files.map((f: any) => [f.name, f.sha256]));
    assert.equal(dataset.manifest.credit_line, manifest.credit_line);
    const first = dataset.files[0];
    assert.ok(first.links.download.startsWith(`${svc.urls.data}/datasets/`), first.links.download);
    const bytes = Buffer.from(await (await fetch(first.links.download, { headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` } })).arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), first.sha256);
    const pinned = value(await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 'oasis-piwind', version: manifest.version } }));
    assert.deepEqual(pinned, dataset);

    refusal(await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 'no-such-feed' } }), 404, 'not_found');
    const version = refusal(await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 'oasis-piwind', version: '1999-01-01' } }), 404, 'not_found');
    assert.match(version.message, new RegExp(manifest.version));
    const bad = refusal(await client.callTool({ name: 'get_dataset', arguments: { dataset_id: 7 } }), 422, 'invalid_request');
    assert.deepEqual(bad.details, ['arguments.dataset_id must be a string']);
    refusal(await client.callTool({ name: 'list_datasets', arguments: { peril: 'flood' } }), 422, 'invalid_request');
  } finally {
    await client.close();
  }
});

eachDialect('run_backtest cuts a structure from an object\'s terms or takes one by id, and waits for its artifact', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  // The structures issue's earthquake terms on a one-location object (hand-made exposure, created at once).
  const created = await call(svc.api, 'POST', '/objects', { key, body: { ...(ACCEPTANCE_BODIES.earthquake as object), exposure: EXPOSURE } });
  assert.equal(created.status, 201, created.text);
  const objectPath = created.headers.get('location')!;
  const objectId = created.body.id as string;
  const { client } = await connect(svc);
  try {
    // The object's earthquake terms with the limit doubled: Landers 1992 (M7.3) reaches the 0.5 step of the ladder.
    const doubled = value(await client.callTool({ name: 'run_backtest', arguments: {
      api_key: key, object_id: objectId, terms: { financial_structure: { currency: 'USD', limit: 20_000_000, attachment: 0 } }, wait_seconds: 50,
    } }));
    assert.equal(doubled.status, 'succeeded');
    assert.equal(doubled.backtest.years.find((y: any) => y.year === 1992).payout, 10_000_000);
    assert.equal(doubled.job.links.self, `${svc.api}/jobs/${doubled.job.id}`);
    const structure = await call(svc.api, 'GET', `/structures/${doubled.structure_id}`, { key });
    assert.deepEqual(structure.body.varied, ['financial_structure']);
    // The artifact is the one the REST API stored.
    assert.deepEqual((await call(svc.api, 'GET', doubled.backtest.links.self, { key })).body, doubled.backtest);

    // By structure id: the same replay as the REST API's backtest of it (one content address).
    const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
    const byId = value(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, window: { from_year: 1990, to_year: 2000 }, wait_seconds: 50 } }));
    const accepted = await call(svc.api, 'POST', `/structures/${cut.body.id}/backtest`, { key, body: { window: { from_year: 1990, to_year: 2000 } } });
    const restJob = await waitForJob(svc.api, key, accepted.headers.get('location')!, 60_000);
    assert.equal(byId.backtest.id, restJob.result.id);
    assert.equal(byId.backtest.years.length, 11);
    assert.equal(byId.backtest.years.find((y: any) => y.year === 1992).payout, 5_000_000);

    // No wait: the job's state and its link, which the REST API then reads to its end.
    const later = value(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, wait_seconds: 0 } }));
    assert.ok(['queued', 'running'].includes(later.status), later.status);
    assert.equal(later.backtest, undefined);
    const ended = await waitForJob(svc.api, key, new URL(later.job.links.self).pathname, 60_000);
    assert.equal(ended.status, 'succeeded');

    // Refusals on the request, and the job's own failure.
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key } }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, object_id: objectId } }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, wait_seconds: 51 } }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, window: { from_year: 2000, to_year: 1990 } } }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: 'str_000000000000000000000000' } }), 404, 'not_found');
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, object_id: objectId, terms: { trigger: { type: 'parametric_nonsense' } } } }), 422, 'invalid_structure');
    const outside = refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: key, structure_id: cut.body.id, window: { from_year: 1850, to_year: 2000 }, wait_seconds: 50 } }), 422, 'unbacktestable_structure');
    assert.equal(outside.status, 422);
    // Another account's object is not found.
    const other = await signup(svc.api);
    refusal(await client.callTool({ name: 'run_backtest', arguments: { api_key: other.key, object_id: objectId } }), 404, 'not_found');
  } finally {
    await client.close();
  }
});

eachDialect('run_climate_model runs a lab model and get_lab_run reads it back, for its owner only', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const { client } = await connect(svc, { authorization: `Bearer ${a.key}` });
  try {
    const spec = { model: MODEL, samples: 0, exposure: { points: INSIDE } };
    const run = value(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, wait_seconds: 50 } }));
    assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
    assert.equal(run.result.metrics.schema, 'lab-metrics/1');
    assert.ok(run.result.metrics.average_annual_loss.mean > 0);
    assert.match(run.label, /[Ee]xternally built/);
    // The run document is the lab host's, byte for byte apart from nothing: same use case, same links.
    const rest = await call(svc.urls.lab, 'GET', `/runs/${run.id}`, { key: a.key });
    assert.deepEqual(rest.body, run);
    assert.deepEqual(value(await client.callTool({ name: 'get_lab_run', arguments: { run_id: run.id } })), run);

    // The same spec is the same run, metered once (what idempotentHint says).
    const again = value(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, wait_seconds: 0 } }));
    assert.equal(again.id, run.id);
    assert.equal(again.status, 'succeeded');
    assert.equal((await call(svc.api, 'GET', '/usage', { key: a.key })).body.units.model_runs, 1);

    // Tenancy: another key cannot read the run, through the tool or the lab host.
    const foreign = refusal(await client.callTool({ name: 'get_lab_run', arguments: { api_key: b.key, run_id: run.id } }), 404, 'not_found');
    const restForeign = await call(svc.urls.lab, 'GET', `/runs/${run.id}`, { key: b.key });
    assert.equal(restForeign.status, 404);
    assert.deepEqual(foreign, restForeign.body.error);

    // Refusals: the lab's own, worded for arguments.
    const model = refusal(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, model: 'nope' } }), 422, 'invalid_request');
    assert.match(model.details.join(' '), /arguments\.model must be one of oasislmf-windstorm/);
    refusal(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, samples: -1 } }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, exposure: { object_id: 'obj_000000000000000000000000' } } }), 404, 'not_found');
    refusal(await client.callTool({ name: 'get_lab_run', arguments: {} }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'get_lab_run', arguments: { run_id: 'run_00000000000000000000000000000000' } }), 404, 'not_found');
  } finally {
    await client.close();
  }
});

eachDialect('run_climate_model runs climada-impact over inputs the key brought, named by id; another key\'s inputs are not found', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const { client } = await connect(svc, { authorization: `Bearer ${a.key}` });
  try {
    // CLIMADA's demo files (the pinned climada-demo-tc), brought to the lab as a user would.
    const bring = async (kind: string, name: string) => (await call(svc.urls.lab, 'POST', '/inputs', { key: a.key, raw: inputForm(kind, rawFile('climada-demo-tc', name)) })).body.id as string;
    const spec = {
      model: 'climada-impact',
      hazard: await bring('climada-hazard', 'atl_prob_no_name.mat'),
      exposures: await bring('climada-exposures', 'exp_demo_today.h5'),
      impact_functions: await bring('climada-impact-functions', 'demo_today.xlsx'),
    };
    const run = value(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, wait_seconds: 50 } }));
    assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
    // CLIMADA's published aai_agg on this demo (test_impact_calc.py test_calc_impact_TC_pass, 5 places).
    assert.ok(Math.abs(run.result.aai_agg - 6.512201157564421e9) < 5e-6);
    assert.equal(run.result.inputs.hazard.id, spec.hazard);
    refusal(await client.callTool({ name: 'run_climate_model', arguments: { ...spec, api_key: b.key } }), 404, 'not_found');
  } finally {
    await client.close();
  }
});

/** The structures issue's earthquake structure written by hand as a registry composition (the registry's own tests compose it so). */
const QUAKE_MODEL = {
  name: 'socal-quake-ladder',
  version: '1.0.0',
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

eachDialect('compose_model composes, validates and stores a registry model; the same composition again is the stored one', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const { client } = await connect(svc, { authorization: `Bearer ${key}` });
  try {
    const composed = value(await client.callTool({ name: 'compose_model', arguments: { model: QUAKE_MODEL } }));
    assert.equal(composed.created, true);
    assert.match(composed.model.id, /^mdl_[0-9a-f]{24}$/);
    assert.equal(composed.model.kind, 'validated_model');
    // The model the REST API reads back is the one the tool answered.
    const rest = await call(svc.api, 'GET', `/models/${composed.model.id}`, { key });
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(rest.body, composed.model);
    const again = value(await client.callTool({ name: 'compose_model', arguments: { model: QUAKE_MODEL } }));
    assert.deepEqual(again, { created: false, model: composed.model });

    // Refusals: the registry's own codes, and the tool's argument schema.
    refusal(await client.callTool({ name: 'compose_model', arguments: { model: { ...QUAKE_MODEL, version: '2', measurement: 'no_such_measurement' } } }), 422, 'invalid_composition');
    const changed = refusal(await client.callTool({ name: 'compose_model', arguments: { model: { ...QUAKE_MODEL, parameters: { ...QUAKE_MODEL.parameters, magnitude_in_box: { ...QUAKE_MODEL.parameters.magnitude_in_box, max_depth_km: 30 } } } } }), 422, 'invalid_model');
    assert.match(changed.message, /immutable/);
    refusal(await client.callTool({ name: 'compose_model', arguments: {} }), 422, 'invalid_request');
    refusal(await client.callTool({ name: 'compose_model', arguments: { model: QUAKE_MODEL, api_key: 'crk_nope' } }), 401, 'unauthenticated');
  } finally {
    await client.close();
  }
});

eachDialect('code_exposure_rows and flag_multi_building_rows answer as the REST routes do, within the caps and the row budget', async (dialect) => {
  // Off by default (the shared service): the tools answer 503 as the routes do.
  const off = await sharedService(dialect);
  const offKey = (await signup(off.api)).key;
  const offClient = await connect(off, { authorization: `Bearer ${offKey}` });
  try {
    for (const name of ['code_exposure_rows', 'flag_multi_building_rows']) {
      refusal(await offClient.client.callTool({ name, arguments: { rows: ['Office'] } }), 503, 'exposure_coding_unavailable');
    }
  } finally {
    await offClient.client.close();
  }

  const svc = await startService(dialect, { CATRISK_EXPOSURE_CODING: 'on', CATRISK_CODING_DAILY_ROWS: '20' });
  try {
    const { key } = await signup(svc.api);
    const { client } = await connect(svc, { authorization: `Bearer ${key}` });
    try {
      const rows = ['3-storey tilt-up distribution warehouse', 'Office over retail, masonry', 'Vacant lot'];
      const coded = value(await client.callTool({ name: 'code_exposure_rows', arguments: { rows } }));
      const restCoded = await call(svc.api, 'POST', '/exposure-codes', { key, body: { rows } });
      assert.equal(restCoded.status, 200, restCoded.text);
      // The same rows, codes and counts; the budget moved on by the tool's three rows.
      assert.deepEqual(coded.rows, restCoded.body.rows);
      assert.deepEqual(coded.counts, restCoded.body.counts);
      assert.equal(coded.budget.rows_used, 3);
      assert.equal(restCoded.body.budget.rows_used, 6);
      assert.equal(coded.rows[0].occupancy.name, 'Commercial, Warehouse');

      const flagRows = ['Industrial estate, Units 1-9', 'Head office'];
      const flags = value(await client.callTool({ name: 'flag_multi_building_rows', arguments: { rows: flagRows } }));
      const restFlags = await call(svc.api, 'POST', '/multi-building-flags', { key, body: { rows: flagRows } });
      assert.deepEqual(flags.rows, restFlags.body.rows);
      assert.deepEqual(flags.rows.map((r: any) => r.status), ['flagged', 'not_flagged']);

      // Caps and shape, on the call; then the budget (20 rows: 10 used).
      refusal(await client.callTool({ name: 'code_exposure_rows', arguments: { rows: Array.from({ length: 51 }, () => 'Office') } }), 413, 'payload_too_large');
      refusal(await client.callTool({ name: 'flag_multi_building_rows', arguments: { rows: ['x'.repeat(1001)] } }), 413, 'payload_too_large');
      refusal(await client.callTool({ name: 'code_exposure_rows', arguments: { rows: [] } }), 422, 'invalid_request');
      refusal(await client.callTool({ name: 'flag_multi_building_rows', arguments: { rows: [42] } }), 422, 'invalid_request');
      const over = refusal(await client.callTool({ name: 'code_exposure_rows', arguments: { rows: Array.from({ length: 11 }, (_, i) => `Office ${i}`) } }), 503, 'exposure_coding_unavailable');
      assert.match(over.message, /10 of 20 rows left/);
    } finally {
      await client.close();
    }
  } finally {
    await svc.close();
  }
});

const ACCEPT = 'application/json, text/event-stream';

async function post(svc: TestService, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${svc.urls.mcp}/mcp`, {
    method: 'POST', body, headers: { 'user-agent': USER_AGENT, accept: ACCEPT, 'content-type': 'application/json', ...headers },
  });
  const text = await response.text();
  let parsed: any;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const initialize = (protocolVersion: string) => JSON.stringify({
  jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'catrisk-tests', version: '1.0' } },
});

eachDialect('the transport\'s rules: POST only, Accept, Content-Type, Origin, protocol versions, batches and malformed messages', async (dialect) => {
  const svc = await startService(dialect, { CATRISK_MCP_ALLOWED_ORIGINS: 'https://Agent.example/' });
  try {
    const envelope = (answer: { status: number; headers: Headers; text: string; body: any }, status: number, code: string) => {
      assert.equal(answer.status, status, answer.text);
      assert.deepEqual(envelopeFaults(answer), [], answer.text);
      assert.equal(answer.body.error.code, code);
    };
    const rpcError = (answer: { status: number; text: string; body: any }, code: number) => {
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.jsonrpc, '2.0');
      assert.equal(answer.body.error.code, code, answer.text);
      assert.equal(answer.body.id, null);
    };

    // GET (no server-initiated stream) and DELETE (no session to end): 405 with Allow, in the envelope.
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const answer = await call(svc.urls.mcp, method, '/mcp', { headers: { accept: 'text/event-stream' } });
      envelope(answer, 405, 'method_not_allowed');
      assert.equal(answer.headers.get('allow'), 'POST');
    }
    envelope(await call(svc.urls.mcp, 'POST', '/nope', { body: {} }), 404, 'not_found');

    // What is HTTP's: the envelope.
    envelope(await post(svc, LIST, { accept: 'application/json' }), 406, 'not_acceptable');
    envelope(await post(svc, LIST, { accept: 'text/event-stream' }), 406, 'not_acceptable');
    envelope(await post(svc, LIST, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    envelope(await post(svc, LIST, { origin: 'http://rebound.example' }), 403, 'forbidden');
    envelope(await post(svc, LIST, { origin: 'null' }), 403, 'forbidden');
    envelope(await post(svc, LIST, { 'user-agent': 'node' }), 403, 'forbidden');
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'https://agent.example']) {
      assert.equal((await post(svc, LIST, { origin })).status, 200, origin);
    }

    // What is the protocol's: JSON-RPC errors.
    rpcError(await post(svc, '{"jsonrpc": "2.0", "id": 1, "method": '), -32700);
    rpcError(await post(svc, ''), -32700);
    rpcError(await post(svc, JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' })), -32700);
    rpcError(await post(svc, JSON.stringify({ id: 1, params: {} })), -32700);
    rpcError(await post(svc, '[]'), -32600);
    rpcError(await post(svc, `[${LIST}]`, { 'mcp-protocol-version': '2025-11-25' }), -32600);
    rpcError(await post(svc, `[${LIST}]`, { 'mcp-protocol-version': '2025-06-18' }), -32600);
    rpcError(await post(svc, LIST, { 'mcp-protocol-version': '1999-01-01' }), -32000);
    // 2025-03-26 (the version assumed without a header) still has batches.
    const batch = await post(svc, `[${LIST},${LIST.replace('"id":1', '"id":2')}]`);
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual(batch.body.map((m: any) => m.id).sort(), [1, 2]);
    assert.equal(batch.body[0].result.tools.length, TOOL_NAMES.length);
    const unknown = await post(svc, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }), { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.error.code, -32602);
    assert.equal((await post(svc, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'no/such' }))).body.error.code, -32601);

    // Negotiation: a version the server speaks is echoed; another is answered with the latest. No session id either way.
    for (const [asked, answered] of [['2025-06-18', '2025-06-18'], ['2025-11-25', '2025-11-25'], ['1999-01-01', LATEST_PROTOCOL_VERSION]]) {
      const answer = await post(svc, initialize(asked!));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.result.protocolVersion, answered);
      assert.equal(answer.headers.get('mcp-session-id'), null);
    }
    // A notification is accepted with no body; the edge's rate headers go out on the protocol's answers too.
    const notification = await post(svc, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(notification.status, 202);
    assert.match((await post(svc, LIST)).headers.get('ratelimit') ?? '', /^"default";r=\d+;t=\d+$/);
  } finally {
    await svc.close();
  }
});
