// A client generated from the contracts (src/cli/contract/*.ts by npm run contract, over
// openapi-fetch) calls every operation of every host, with the generated types and no cast, and
// each answer is checked against the schema its host's contract declares for its status and
// media type. The generated files are checked to match what the contracts generate now.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths as ApiPaths } from '../../src/cli/contract/api.js';
import type { paths as DataPaths } from '../../src/cli/contract/data.js';
import type { paths as DocsPaths } from '../../src/cli/contract/docs.js';
import type { paths as LabPaths } from '../../src/cli/contract/lab.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { smallSchedule } from '../support/schedules.js';
import { USER_AGENT, call, startService, type TestService } from '../support/service.js';

const HOSTS = ['api', 'data', 'docs', 'lab'] as const;
type HostName = (typeof HOSTS)[number];

let svc: TestService;
const contracts = {} as Record<HostName, any>;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);

before(async () => {
  svc = await startService('sqlite');
  for (const host of HOSTS) {
    contracts[host] = (await call(svc.urls.docs, 'GET', `/schema/${host}-contract.v0.json`)).body;
    ajv.addSchema({ ...contracts[host], $id: `https://contract.test/${host}.json` });
  }
});
after(() => svc.close());

/** Each operation called, by host and operationId, with the statuses it answered. */
const called = new Map<string, Set<number>>();
const mismatches: string[] = [];
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Checks each answer against its host's contract: the status declared, and the body against the schema declared for its media type. */
function checking(host: HostName): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const op = contracts[host].paths[schemaPath]?.[method];
      const name = `${host} ${request.method} ${schemaPath}`;
      if (!op) {
        mismatches.push(`${name}: not in the contract`);
        return undefined;
      }
      const key = `${host} ${op.operationId}`;
      called.set(key, (called.get(key) ?? new Set()).add(response.status));
      const declared = op.responses[String(response.status)];
      if (!declared) {
        mismatches.push(`${name}: ${response.status} is not declared (${await response.clone().text()})`);
        return undefined;
      }
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (!declared.content) {
        if (response.status !== 304 && response.headers.get('content-length') !== '0' && type !== '') mismatches.push(`${name}: ${response.status} declares no body, answered ${type}`);
        return undefined;
      }
      const media = declared.content[type] ?? declared.content['*/*'];
      if (!media) {
        mismatches.push(`${name}: ${response.status} answered ${type}, declared ${Object.keys(declared.content).join(', ')}`);
        return undefined;
      }
      if (!type.endsWith('json') || !media.schema) return undefined;
      const ref = `https://contract.test/${host}.json#/${pointer('paths', schemaPath, method, 'responses', String(response.status), 'content', type, 'schema')}`;
      let validate = validators.get(ref);
      if (!validate) validators.set(ref, validate = ajv.compile({ $ref: ref }));
      const body: unknown = await response.clone().json();
      if (!validate(body)) mismatches.push(`${name} ${response.status}: ${ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600)}`);
      return undefined;
    },
  };
}

function clientsFor(key?: string) {
  const headers = { 'user-agent': USER_AGENT, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
  // Typed for the JSON each operation answers; the other formats are read with parseAs.
  const api = createClient<ApiPaths, JsonMedia>({ baseUrl: svc.urls.api, headers });
  const lab = createClient<LabPaths, JsonMedia>({ baseUrl: svc.urls.lab, headers });
  const data = createClient<DataPaths, JsonMedia>({ baseUrl: svc.urls.data, headers });
  const docs = createClient<DocsPaths, JsonMedia>({ baseUrl: svc.urls.docs, headers });
  api.use(checking('api'));
  lab.use(checking('lab'));
  data.use(checking('data'));
  docs.use(checking('docs'));
  return { api, lab, data, docs };
}

type Clients = ReturnType<typeof clientsFor>;
type JsonMedia = `${string}/json`;
/** What PATCH /objects/{id} takes, as the API's contract types it. */
type PatchBody = ApiPaths['/objects/{id}']['patch']['requestBody']['content']['application/json'];

/** Reads a job through the typed client until it ends. */
async function finished(clients: Clients, id: string) {
  for (let pause = 25; ; pause = Math.min(500, pause * 1.5)) {
    const { data } = await clients.api.GET('/jobs/{id}', { params: { path: { id } } });
    assert.ok(data, `job ${id}`);
    if (data.status === 'succeeded' || data.status === 'failed') return data;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** The success's body of an answer, or the test fails naming the refusal. */
function got<D>(outcome: { data?: D; error?: unknown; response: Response }): D {
  assert.ok(outcome.data !== undefined, `${outcome.response.status} ${JSON.stringify(outcome.error)}`);
  return outcome.data;
}

/** The id at the end of a link the service wrote (/objects/obj_…). */
const lastSegment = (link: string | undefined) => {
  assert.ok(link, 'a link');
  return decodeURIComponent(link.split('/').pop()!);
};

async function documentation({ docs }: Clients) {
  await docs.GET('/');
  await docs.GET('/llms.txt', { parseAs: 'text' });
  await docs.GET('/schema');
  await docs.GET('/schema.json');
  await docs.GET('/schema/{name}', { params: { path: { name: 'error.v0.json' } } });
  await docs.GET('/reference', { parseAs: 'text' });
  await docs.GET('/reference/assets/reference.js', { parseAs: 'text' });
  await docs.GET('/reference/assets/{file}', { params: { path: { file: 'swagger-ui.css' } }, parseAs: 'text' });
  await docs.GET('/{page}', { params: { path: { page: 'overview' } }, parseAs: 'text' });
  await docs.GET('/{page}', { params: { path: { page: 'overview.md' } }, parseAs: 'text' });
}

async function dataRoom({ data }: Clients) {
  await data.GET('/');
  const catalog = got(await data.GET('/catalog'));
  const dataset = catalog.datasets[0]!;
  const file = dataset.files[0]!;
  await data.GET('/datasets/{feed_id}/{version}/files/{path}', { params: { path: { feed_id: dataset.id, version: dataset.version, path: file.name } }, parseAs: 'arrayBuffer' });
}

async function lab({ lab }: Clients) {
  await lab.GET('/');
  await lab.GET('/health');
  const models = (await lab.GET('/models')).data;
  assert.ok(models && models.models.length > 0);
  const submitted = await lab.POST('/runs', { body: { model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.745, lon: -0.905, value: 1_234_567 }] } } });
  assert.ok(submitted.data, JSON.stringify(submitted.error));
  const id = submitted.data.id;
  for (let pause = 50; ; pause = Math.min(500, pause * 1.5)) {
    const run = got(await lab.GET('/runs/{id}', { params: { path: { id } } }));
    if (run.status === 'succeeded' || run.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  await lab.GET('/runs/{id}', { params: { path: { id }, query: { format: 'csv' } }, parseAs: 'text' });
  await lab.GET('/runs');
  await lab.GET('/runs/{id}/chart.svg', { params: { path: { id } }, parseAs: 'text' });
  await lab.GET('/runs/{id}/chart.png', { params: { path: { id } }, parseAs: 'arrayBuffer' });
  // An input brought to the lab: a one-function CLIMADA table made here (intensity, mdd, paa).
  const table = 'impact_fun_id,intensity,mdd,paa,peril_id\n1,0,0,1,TC\n1,50,0.5,1,TC\n';
  const form = new FormData();
  form.set('kind', 'climada-impact-functions');
  form.set('file', new Blob([table], { type: 'text/csv' }), 'impf.csv');
  const stored = got(await lab.POST('/inputs', { body: { kind: 'climada-impact-functions', file: table }, bodySerializer: () => form }));
  await lab.GET('/inputs/{id}', { params: { path: { id: stored.id } } });
  await lab.GET('/inputs');
}

test('a client generated from the contracts calls every operation, and every answer matches its schema', async () => {
  const open = clientsFor();
  await documentation(open);
  const { api } = open;
  await api.GET('/');
  await api.GET('/health');
  await api.GET('/ready');
  const signed = got(await api.POST('/signup', { body: { label: 'contract client' } }));
  const me = clientsFor(signed.api_key.secret);
  await dataRoom(me);
  await lab(me);
  await me.api.GET('/account');
  await me.api.GET('/usage');
  await me.api.GET('/feeds');
  await me.api.GET('/primitives');
  await me.api.GET('/exchange/models');

  // Ingest a hand-made schedule (test/support/schedules.ts), then the object's reads.
  const schedule = smallSchedule(2);
  const ingested = await me.api.POST('/ingest', {
    body: { file: schedule, currency: 'USD' },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append('file', new Blob([body.file], { type: 'text/csv' }), 'schedule.csv');
      if (body.currency !== undefined) form.append('currency', body.currency);
      return form;
    },
  });
  assert.ok(ingested.data, JSON.stringify(ingested.error));
  const ingest = await finished(me, ingested.data.id);
  assert.equal(ingest.status, 'succeeded', JSON.stringify(ingest.error));
  const listed = got(await me.api.GET('/objects'));
  const objectId = listed.objects[0]!.id;
  const path = { id: objectId };
  const object = got(await me.api.GET('/objects/{id}', { params: { path } }));
  await me.api.GET('/objects/{id}/locations', { params: { path, query: { limit: '1' } } });
  await me.api.GET('/objects/{id}/locations', { params: { path, query: { format: 'oed' } }, parseAs: 'text' });
  await me.api.POST('/objects', { body: object });
  // The acceptance earthquake's terms (test/support/acceptance.ts), as the client types them.
  const quake: PatchBody = {
    peril: { code: 'earthquake', region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 } },
    trigger: {
      type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }], measurement: { variable: 'magnitude', max_depth_km: 70 }, aggregation_window: { duration: 'P7D' },
      payout: { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] },
    },
    financial_structure: { currency: 'USD', limit: 10000000, attachment: 0 }, period: { start: '2027-01-01', end: '2027-12-31' },
  };
  assert.deepEqual({ ...quake }, ACCEPTANCE_BODIES.earthquake);
  // Hand-made slip blocks, so the object can be packaged.
  quake.parties = { insured: { name: 'Example Insured Ltd' }, broker: { name: 'Example Broker LLP' } };
  quake.jurisdiction = { country: 'US', subdivision: 'California', governing_law: 'California law' };
  await me.api.PATCH('/objects/{id}', { params: { path }, body: quake });
  await me.api.GET('/objects/{id}/map.svg', { params: { path }, parseAs: 'text' });
  await me.api.GET('/objects/{id}/map.png', { params: { path }, parseAs: 'arrayBuffer' });
  const analysed = (await me.api.POST('/objects/{id}/analyse', { params: { path }, body: {} })).data;
  if (analysed) await finished(me, analysed.id);
  await me.api.POST('/accumulation', { body: { objects: [objectId] } });

  // Structure, backtest, price, package.
  const structure = got(await me.api.POST('/objects/{id}/structures', { params: { path }, body: {} }));
  const structurePath = { id: structure.id };
  await me.api.GET('/structures');
  await me.api.GET('/structures/{id}', { params: { path: structurePath } });
  const backtesting = got(await me.api.POST('/structures/{id}/backtest', { params: { path: structurePath } }));
  const backtestJob = await finished(me, backtesting.id);
  assert.equal(backtestJob.status, 'succeeded', JSON.stringify(backtestJob.error));
  const backtests = got(await me.api.GET('/backtests'));
  const backtestPath = { id: backtests.backtests[0]!.id };
  await me.api.GET('/backtests/{id}', { params: { path: backtestPath } });
  await me.api.GET('/backtests/{id}', { params: { path: backtestPath, query: { format: 'csv' } }, parseAs: 'text' });
  await me.api.GET('/backtests/{id}/chart.svg', { params: { path: backtestPath }, parseAs: 'text' });
  await me.api.GET('/backtests/{id}/chart.png', { params: { path: backtestPath }, parseAs: 'arrayBuffer' });
  const pricing = got(await me.api.POST('/objects/{id}/price', { params: { path }, body: {} }));
  assert.equal((await finished(me, pricing.id)).status, 'succeeded');
  // Priced: the object now holds its technical_premium, read against the object's schema.
  await me.api.GET('/objects/{id}', { params: { path } });
  const packing = got(await me.api.POST('/objects/{id}/package', { params: { path }, body: {} }));
  const packed = await finished(me, packing.id);
  assert.equal(packed.status, 'succeeded', JSON.stringify(packed.error));
  // A job's result is the verb's own document (untyped on the job): the pack's link read from it.
  const packPath = { id: lastSegment(/"self":"(\/packages\/[^"/]+)"/.exec(JSON.stringify(packed.result))?.[1]) };
  await me.api.GET('/packages/{id}', { params: { path: packPath } });
  await me.api.GET('/packages/{id}/pack.pdf', { params: { path: packPath }, parseAs: 'arrayBuffer' });
  for (const document of ['exposure_summary', 'pricing_exhibit', 'draft_slip', 'backtest_exhibit'] as const) {
    await me.api.GET(`/packages/{id}/documents/${document}.pdf`, { params: { path: packPath }, parseAs: 'arrayBuffer' });
  }

  // Monitoring and its webhooks (a loopback receiver is refused: the refusal is declared too).
  const record = got(await me.api.POST('/structures/{id}/monitoring', { params: { path: structurePath } }));
  const recordPath = { id: record.id };
  await me.api.GET('/monitoring');
  await me.api.GET('/monitoring/{id}', { params: { path: recordPath } });
  await me.api.POST('/monitoring/{id}/webhooks', { params: { path: recordPath }, body: { url: 'https://127.0.0.1/hook' } });
  await me.api.GET('/monitoring/{id}/webhooks', { params: { path: recordPath } });
  await me.api.DELETE('/monitoring/{id}/webhooks/{webhook_id}', { params: { path: { id: record.id, webhook_id: 'wh_0000000000000000' } } });
  await me.api.DELETE('/monitoring/{id}', { params: { path: recordPath } });

  // Composed models (the acceptance earthquake ladder, from the primitives).
  const model = got(await me.api.POST('/models', {
    body: {
      name: 'contract-quake-ladder', version: '1.0.0', feed: { id: 'usgs-comcat-m6-california', version: '2022-12-20' },
      measurement: 'magnitude_in_box', transforms: ['occurrence_clustering', 'seasonal_term'], payout_function: 'ladder',
      parameters: {
        magnitude_in_box: { region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 }, max_depth_km: 70 },
        occurrence_clustering: { window: 'P7D' },
        seasonal_term: { start: '01-01', end: '12-31' },
        ladder: { levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] },
      },
    },
  }));
  await me.api.GET('/models/{id}', { params: { path: { id: model.id } } });
  const modelRun = (await me.api.POST('/models/{id}/runs', { params: { path: { id: model.id } }, body: { object_id: objectId } })).data;
  if (modelRun) await finished(me, modelRun.id);

  // Events, hazard, feeds, and what this environment has off (answered 503, as declared).
  const eventQuery = { feed: 'usgs-comcat-m6-california', limit: '2' };
  const events = got(await me.api.GET('/events/{peril}', { params: { path: { peril: 'earthquake' }, query: eventQuery } }));
  assert.ok(events.events.length > 0);
  await me.api.GET('/events/{peril}', { params: { path: { peril: 'earthquake' }, query: { ...eventQuery, format: 'geojson' } } });
  await me.api.GET('/events/{peril}/{event_id}/footprint', { params: { path: { peril: 'earthquake', event_id: events.events[0]!.event_id } } });
  await me.api.GET('/hazard', { params: { query: { peril: 'earthquake', lat: '34.05', lon: '-118.25' } } });
  const feeds = got(await me.api.GET('/feeds'));
  const feed = feeds.feeds.find((f) => f.versions.some((v) => v.content_servable)) ?? feeds.feeds[0]!;
  const snapshot = { feed_id: feed.feed_id, version: (feed.versions.find((v) => v.content_servable) ?? feed.versions[0]!).version };
  await me.api.GET('/feeds/{feed_id}/versions/{version}', { params: { path: snapshot } });
  await me.api.GET('/feeds/{feed_id}/versions/{version}/data', { params: { path: snapshot }, parseAs: 'arrayBuffer' });
  await me.api.GET('/geocode', { params: { query: { q: '1 Main St, Los Angeles' } } });
  await me.api.POST('/exposure-codes', { body: { rows: ['Office, reinforced concrete, 1990'] } });
  await me.api.POST('/multi-building-flags', { body: { rows: ['Two office blocks on one campus'] } });

  // The exchange: a listing whose platform the test environment cannot reach (refused as declared),
  // and the reads and steps of one that does not exist.
  await me.api.POST('/exchange/models', {
    body: {
      name: 'Contract quake', description: 'A listing the contract test makes.', perils: ['earthquake'], regions: ['Japan: Kanto'],
      access: 'by_grant', access_url: 'https://provider.example.com/access',
      connector: { base_url: 'https://platform.example.com/catrisk', model_ref: 'kanto' },
      provider: { name: 'Example Risk Ltd', email: 'models@provider.example.com' },
    },
  });
  const listing = { id: 'xm_0000000000000000' };
  await me.api.GET('/exchange/models/{id}', { params: { path: listing } });
  await me.api.PATCH('/exchange/models/{id}', { params: { path: listing }, body: { description: 'Changed.' } });
  await me.api.POST('/exchange/models/{id}/check', { params: { path: listing } });
  await me.api.POST('/exchange/models/{id}/review', { params: { path: listing } });
  await me.api.POST('/exchange/models/{id}/withdraw', { params: { path: listing } });
  await me.api.GET('/exchange/models/{id}/grants', { params: { path: listing } });
  const grant = { id: listing.id, account_id: 'acct_000000000000000000000000' };
  await me.api.PUT('/exchange/models/{id}/grants/{account_id}', { params: { path: grant } });
  await me.api.DELETE('/exchange/models/{id}/grants/{account_id}', { params: { path: grant } });
  // The lab's own route takes the internal credential, never a key.
  await me.api.GET('/internal/exchange/models/{id}/connector', { params: { path: listing, query: { account_id: signed.id } } });

  // Jobs, then the account's end.
  await me.api.GET('/jobs');
  await me.api.POST('/jobs/{id}/cancel', { params: { path: { id: ingested.data.id } } });
  await me.api.DELETE('/subscription');

  assert.deepEqual(mismatches, []);
  const every = HOSTS.flatMap((host) => Object.values(contracts[host].paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap((item) => Object.values(item).map((op) => `${host} ${op.operationId}`)));
  assert.deepEqual(every.filter((id) => !called.has(id)), [], 'every operation is called');
  // Most operations are called to succeed; those that cannot here answer a declared refusal.
  const succeeded = [...called].filter(([, statuses]) => [...statuses].some((s) => s < 400)).length;
  assert.ok(succeeded >= 65, `${succeeded} of ${called.size} operations answered a success`);
});

test('the checked-in client types are what the contracts generate now', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/contract.ts', '--check'], { cwd: fileURLToPath(new URL('../../', import.meta.url)), encoding: 'utf8', timeout: 180_000 });
  assert.equal(run.status, 0, run.stderr + run.stdout);
});
