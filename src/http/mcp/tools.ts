// The tool server's tools (SPEC: What the service does, item 9), one row each: what an agent reads
// in tools/list (name, title, description, input and output JSON Schemas, annotations) and the use
// case of app/ it calls, the same one the REST route calls. A tool only reads its arguments and
// makes links absolute; every rule is the use case's.
import type { RouteShorthandOptions } from 'fastify';
import { signup } from '../../app/accounts.js';
import { awaitJob, settled, type JobAnswer } from '../../app/jobs.js';
import { readRun, submitRun, type JobLink } from '../../app/lab-runs.js';
import { cutStructure, requestBacktest, type Window } from '../../app/structures.js';
import { catalogDataset, datasetCatalog } from '../../app/feeds.js';
import { composeModel } from '../../app/models.js';
import { codeExposureRows, flagMultiBuildingRows } from '../../app/exposure-coding.js';
import type { AppDeps } from '../../app/deps.js';
import { refusal, refusals, type ErrorBody } from '../../kernel/refusal.js';
import { ok, refused, type Result } from '../../kernel/result.js';
import type { Caller } from '../host.js';
import * as accounts from '../schemas/accounts.js';
import * as coding from '../schemas/coding.js';
import * as models from '../schemas/models.js';
import * as lab from '../schemas/lab.js';
import * as structures from '../schemas/structures.js';
import type { JsonSchema } from '../schemas/operation.js';

type Document = Record<string, unknown>;

/** What a tool is handed besides its arguments: the process's ports, the caller, where the hosts are. */
export interface ToolContext {
  deps: AppDeps;
  /** The key's caller; present for every tool that takes a key. */
  caller?: Caller;
  /** Absolute base URLs of the API, lab and data room hosts, as the caller reached this one. */
  urls: { api: string; lab: string; data: string };
  /** The request was abandoned: stop waiting. */
  signal: AbortSignal;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  description: string;
  /** The arguments, api_key among them when the tool takes a key. */
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The tool acts for an account: a key arrives as api_key or as Authorization: Bearer. */
  key: boolean;
  call(context: ToolContext, args: Document): Promise<Result<Document>>;
}

/** The api_key argument every keyed tool takes. */
const API_KEY = {
  type: 'string',
  description: 'Your API key (the secret create_api_key returned). Optional when the request carries Authorization: Bearer <key>; when both arrive, this one is used.',
};

/** How long run_backtest and run_climate_model wait for their job before answering its link. */
export const WAIT = { defaultSeconds: 20, maxSeconds: 50 } as const;

const WAIT_SECONDS = {
  type: 'integer',
  minimum: 0,
  maximum: WAIT.maxSeconds,
  description: `Seconds to wait for the job to end (0 to ${WAIT.maxSeconds}, default ${WAIT.defaultSeconds}). A job still running then is answered with its status and link; it runs on, and its result can be read later.`,
};

/** A REST route's JSON body schema, read from its operation, so a tool takes what the route takes. */
function bodyOf(route: RouteShorthandOptions): JsonSchema {
  return (route.schema as { body: JsonSchema }).body;
}

/** A REST route's success answer's shape, read from its operation, for a tool that answers the same document. */
function responseOf(route: RouteShorthandOptions, status: number): JsonSchema {
  return (route.schema as { 'x-responses': Record<number, { schema: JsonSchema }> })['x-responses'][status]!.schema;
}

/** A tool's arguments: the members of a REST body, with the tool's own beside them. */
function argumentsOf(body: JsonSchema | undefined, own: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  const properties = { ...(body?.properties as Record<string, JsonSchema> | undefined), ...own };
  const needed = [...((body?.required as string[] | undefined) ?? []), ...required];
  return { type: 'object', additionalProperties: false, properties, ...(needed.length > 0 ? { required: needed } : {}) };
}

const OBJ = { type: 'object' } as const;
const STR = { type: 'string' } as const;
const RUN_STATUS = { enum: ['queued', 'running', 'succeeded', 'failed'] } as const;

/** A job's state as a waiting tool answers it, with its absolute link. */
const JOB_STATE = {
  type: 'object',
  required: ['id', 'status', 'links'],
  properties: { id: STR, status: RUN_STATUS, progress: OBJ, links: { type: 'object', required: ['self'], properties: { self: STR } } },
};

const RUN = {
  type: 'object',
  required: ['schema_version', 'id', 'model', 'spec', 'status', 'links'],
  properties: {
    schema_version: STR, id: STR, model: OBJ, spec: OBJ, status: RUN_STATUS, label: STR,
    links: { type: 'object', description: 'self and chart are paths on the lab host; job is absolute, on the API host.' },
    result: { type: 'object', description: 'Once succeeded: result.metrics is lab-metrics/1 (the docs host publishes its schema).' },
  },
};

/** A job that ended failed is the tool's failure: its error, as the job recorded it. */
function jobFailure(error: unknown): Result<never> {
  const e = error as ErrorBody;
  return refused(refusal(e.status, e.code, e.message, e.details));
}

function jobState(job: JobAnswer, api: string): Document {
  const view = job.view;
  return {
    id: view.id, status: view.status,
    ...(view.progress !== undefined ? { progress: view.progress } : {}),
    links: { self: `${api}/jobs/${String(view.id)}` },
  };
}

function boundOf(context: ToolContext, args: Document) {
  const seconds = (args.wait_seconds as number | undefined) ?? WAIT.defaultSeconds;
  return { timeoutMs: seconds * 1000, signal: context.signal };
}

function callerOf(context: ToolContext): Caller {
  if (!context.caller) throw new Error('a keyed tool was called without its caller');
  return context.caller;
}

const createApiKey: Tool = {
  name: 'create_api_key',
  description: 'Opens a new catrisk account and returns its API key (POST /signup). No key, invitation or payment is needed. '
    + 'The secret (api_key.secret) is shown this once and never again: keep it, and pass it as api_key to the other tools (or send it as Authorization: Bearer). '
    + 'Each call opens another account, a separate tenant that cannot see the first one\'s work. Keys never expire.',
  inputSchema: argumentsOf(bodyOf(accounts.signup), {}),
  outputSchema: {
    type: 'object',
    required: ['schema_version', 'id', 'created_at', 'plan', 'status', 'api_key'],
    properties: {
      schema_version: STR, id: STR, created_at: STR, plan: STR, status: STR, label: STR, email: STR,
      api_key: { type: 'object', required: ['id', 'secret', 'scheme'], properties: { id: STR, secret: STR, scheme: { const: 'Bearer' }, created_at: STR, expires_at: { type: 'null' } } },
    },
  },
  annotations: { title: 'Create an API key', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  key: false,
  call: (context, args) => signup(context.deps, args as { email?: string; label?: string }),
};

const runBacktest: Tool = {
  name: 'run_backtest',
  description: 'Replays a parametric structure against the pinned public record (POST /structures/{id}/backtest) and waits for the result. '
    + 'Name either structure_id (a structure you cut before), or object_id of one of your risk objects with optional terms '
    + '(trigger, financial_structure, period replacing the object\'s own; a structure is cut from them first, POST /objects/{id}/structures). '
    + 'window {from_year, to_year} limits the replay; none replays the whole period of record. '
    + 'Answers status succeeded with the backtest artifact (year-by-year payouts, statistics, the feed id, version and SHA-256 read), '
    + `or, when the job is still running after wait_seconds, its status and link to read later. A structure the backtest model cannot read fails with unbacktestable_structure.`,
  inputSchema: argumentsOf(undefined, {
    api_key: API_KEY,
    structure_id: { type: 'string', description: 'A structure of yours (str_...). Give this or object_id.' },
    object_id: { type: 'string', description: 'A risk object of yours (obj_...): its terms, varied by terms, are cut into a new structure. Give this or structure_id.' },
    terms: { ...bodyOf(structures.cutStructure), description: 'With object_id only: the blocks that replace the object\'s own (trigger, financial_structure, period).' },
    window: (bodyOf(structures.backtestStructure).properties as Record<string, JsonSchema>).window!,
    wait_seconds: WAIT_SECONDS,
  }),
  outputSchema: {
    type: 'object',
    required: ['status', 'structure_id', 'job'],
    properties: {
      status: RUN_STATUS,
      structure_id: STR,
      job: JOB_STATE,
      backtest: { type: 'object', description: 'The artifact, once succeeded; links are paths on the API host.' },
    },
  },
  annotations: { title: 'Run a backtest', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  key: true,
  async call(context, args) {
    const { accountId } = callerOf(context);
    const { structure_id: structureId, object_id: objectId, terms } = args as { structure_id?: string; object_id?: string; terms?: unknown };
    if ((structureId === undefined) === (objectId === undefined) || (terms !== undefined && objectId === undefined)) {
      const fault = structureId === undefined && objectId === undefined ? 'name structure_id or object_id'
        : objectId === undefined ? 'terms vary an object: give them with object_id, not structure_id' : 'give structure_id or object_id, not both';
      return refused(refusals.invalidRequest(422, `The run_backtest arguments are not acceptable: ${fault}.`, [fault]));
    }
    let id = structureId;
    if (id === undefined) {
      const cut = await cutStructure(context.deps, { accountId, objectId: objectId!, body: terms ?? null });
      if (!cut.ok) return cut;
      id = cut.value.id;
    }
    const queued = await requestBacktest(context.deps, { accountId, id, window: (args.window as Window | undefined) ?? null });
    if (!queued.ok) return queued;
    const job = await awaitJob(context.deps, { accountId, id: queued.value.id }, boundOf(context, args));
    if (!job.ok) return job;
    const { status, result, error } = job.value.view as { status: string; result?: Document; error?: unknown };
    if (status === 'failed') return jobFailure(error);
    return ok({ status, structure_id: id, job: jobState(job.value, context.urls.api), ...(status === 'succeeded' ? { backtest: result } : {}) });
  },
};

/** A run's job is read on the API host. */
function jobLinkOf(context: ToolContext): JobLink {
  return (jobId) => `${context.urls.api}/jobs/${jobId}`;
}

/** The OpenQuake scenario-risk lane's model id, as its description names it. */
const OQ_SCENARIO_RISK = 'openquake-scenario-risk';

const runClimateModel: Tool = {
  name: 'run_climate_model',
  description: 'Runs a model of the model lab (POST {lab_url}/runs) over exposure points or one of your stored objects, and waits for the result. '
    + 'Lab models are externally built open models, labelled as such, distinct from the registry\'s validated models; the model argument lists them, and GET {lab_url}/models gives each one\'s spec members, pinned inputs and caps. '
    + 'Every spec is {model, exposure: {points: [{lat, lon, value}]} or {object_id}, ...the model\'s own members}: for example the windstorm model (oasislmf-windstorm) reads samples, terms and correlation, and the flood models read sector. '
    + 'The climada-impact model reads no exposure member: its spec names inputs you brought to the lab (POST {lab_url}/inputs: a CLIMADA hazard, exposures and impact functions) by id, {model: "climada-impact", hazard: "inp_…", exposures: "inp_…", impact_functions: "inp_…", insured?, return_periods?, assign?}, and answers CLIMADA\'s aai_agg, at_event, eai_exp and frequency curve. '
    + `The ${OQ_SCENARIO_RISK} model names its inputs by id too: {model: "${OQ_SCENARIO_RISK}", exposure: "inp_…" (an oq-exposure input, NRML), vulnerability: "inp_…" (oq-vulnerability, the structural model; contents_vulnerability and the other loss types' optional), gmfs: "inp_…" (oq-gmfs: gmf_data.csv with sites.csv), minimum_asset_loss?, ignore_covs?, master_seed?}, and answers OpenQuake's aggrisk, risk_by_event and average and insured losses per asset. `
    + 'Points a model cannot reach come back counted as unmodeled, not refused. '
    + 'A stored object ingested from an OED set (its location file with the account, ri_info and ri_scope parts) has its terms applied by every loss lane: result.perspectives.il (insured) and .ri (net of reinsurance). '
    + 'The run is content-addressed: the same spec is the same run, read back and metered once per account. '
    + 'Answers the run document (result.metrics is lab-metrics/1 where the lane computes it: average annual loss, exceedance curves, largest events), or, while its job still runs after wait_seconds, the run with status queued or running; read it later with get_lab_run.',
  inputSchema: argumentsOf(bodyOf(lab.submitRun), { api_key: API_KEY, wait_seconds: WAIT_SECONDS }),
  outputSchema: RUN,
  // The same spec is the same run, metered once per account: calling again changes nothing more.
  annotations: { title: 'Run a lab model', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  key: true,
  async call(context, args) {
    const { accountId } = callerOf(context);
    const { api_key: _key, wait_seconds: _wait, ...spec } = args;
    const jobLink = jobLinkOf(context);
    const submitted = await submitRun(context.deps, { accountId, body: spec, jobLink });
    if (!submitted.ok) return submitted;
    const run = await settled(() => readRun(context.deps, { accountId, id: String(submitted.value.id), jobLink }),
      (document) => document.status === 'succeeded' || document.status === 'failed', boundOf(context, args));
    if (!run.ok) return run;
    if (run.value.status === 'failed') return jobFailure(run.value.error);
    return run;
  },
};

const getLabRun: Tool = {
  name: 'get_lab_run',
  description: 'Reads one lab run of your account by its id (run_...), at any status: queued, running, succeeded (with result; result.metrics is lab-metrics/1) or failed (with error). '
    + 'A run of another account answers not_found.',
  inputSchema: argumentsOf(undefined, { api_key: API_KEY, run_id: { type: 'string', description: 'The run\'s id, as run_climate_model answered it (run_ followed by 32 hex digits).' } }, ['run_id']),
  outputSchema: RUN,
  annotations: { title: 'Read a lab run', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  key: true,
  call: (context, args) => readRun(context.deps, { accountId: callerOf(context).accountId, id: String(args.run_id), jobLink: jobLinkOf(context) }),
};

const DATASET_SUMMARY = {
  type: 'object',
  required: ['id', 'version', 'sha256', 'license', 'credit_line', 'content_servable'],
  properties: { id: STR, version: STR, sha256: STR, title: { type: ['string', 'null'] }, kind: { type: ['string', 'null'] }, license: {}, credit_line: {}, content_servable: { type: 'boolean' } },
};

const listDatasets: Tool = {
  name: 'list_datasets',
  description: 'Lists every archived risk dataset of the data room ({data_url}/catalog): id, version, the SHA-256 of the pinned bytes, title, kind, perils, licence, credit line, publisher, period of record, '
    + 'whether its files are served (an aggregate-only licence lists a dataset without serving it) and how many files it has. '
    + 'get_dataset gives one dataset\'s provenance, coverage, files with their digests and download links, and its manifest.',
  inputSchema: argumentsOf(undefined, { api_key: API_KEY }),
  outputSchema: {
    type: 'object',
    required: ['schema_version', 'count', 'datasets'],
    properties: { schema_version: STR, count: { type: 'integer' }, datasets: { type: 'array', items: { ...DATASET_SUMMARY, properties: { ...DATASET_SUMMARY.properties, file_count: { type: 'integer' } } } }, note: STR },
  },
  annotations: { title: 'List the data room\'s datasets', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  key: true,
  call: async (context) => datasetCatalog(context.deps, { summary: true }),
};

const getDataset: Tool = {
  name: 'get_dataset',
  description: 'One archived dataset of the data room: its catalog entry (licence, credit line, publisher, provenance, coverage, period of record), '
    + 'each file with its SHA-256, size, media type and absolute download link (downloads carry Repr-Digest and need your key), and the manifest as pinned. '
    + 'version defaults to the latest pinned; list_datasets names them.',
  inputSchema: argumentsOf(undefined, {
    api_key: API_KEY,
    dataset_id: { type: 'string', description: 'The dataset\'s id (a feed id, for example ibtracs-na), as list_datasets names it.' },
    version: { type: 'string', description: 'A pinned version; the latest when not given.' },
  }, ['dataset_id']),
  outputSchema: {
    type: 'object',
    required: [...DATASET_SUMMARY.required, 'files', 'manifest'],
    properties: {
      ...DATASET_SUMMARY.properties,
      files: { type: 'array', items: { type: 'object', required: ['name', 'sha256', 'links'], properties: { name: STR, sha256: STR, bytes: { type: 'integer' }, media_type: STR, links: { type: 'object', required: ['download'], properties: { download: STR } } } } },
      manifest: OBJ,
    },
  },
  annotations: { title: 'Read a dataset\'s manifest and digests', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  key: true,
  async call(context, args) {
    const found = catalogDataset(context.deps, { feedId: String(args.dataset_id), ...(args.version !== undefined ? { version: String(args.version) } : {}) });
    if (!found.ok) return found;
    // The catalog's download paths are on the data room host: absolute here, since this host is not it.
    const files = (found.value.files as Array<Document & { links: { download: string } }>)
      .map((f) => ({ ...f, links: { download: `${context.urls.data}${f.links.download}` } }));
    return ok({ ...found.value, files });
  },
};

const composeModelTool: Tool = {
  name: 'compose_model',
  description: 'Composes a pricing model in the registry (POST /models) from the four primitives: a pinned feed, a measurement, transforms and a payout function, with their parameters '
    + '(GET /primitives lists the v1 vocabulary; the docs host publishes the model document\'s schema at /schema/model.v0.json). '
    + 'model is the document: {name, version?, description?, feed: {id, version}, measurement, transforms, payout_function, parameters}. '
    + 'The model is validated, backtested over its feed\'s record and given a card before it exists: a composition outside the vocabulary is refused invalid_composition, '
    + 'a document failing the schema invalid_model, one the validation pass refuses model_validation_failed, and nothing is stored then. '
    + 'Models are immutable and versioned by name: the same name, version and composition again answers the stored model with created false. '
    + 'Registry models are validated models, distinct from the lab\'s externally built ones.',
  inputSchema: argumentsOf(undefined, { api_key: API_KEY, model: bodyOf(models.composeModel) }, ['model']),
  outputSchema: {
    type: 'object',
    required: ['created', 'model'],
    properties: { created: { type: 'boolean', description: 'True when this call made the model; false when your account already held it.' }, model: responseOf(models.composeModel, 201) },
  },
  // The same name, version and composition is the same model: calling again changes nothing more.
  annotations: { title: 'Compose a registry model', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  key: true,
  async call(context, args) {
    const composed = await composeModel(context.deps, { accountId: callerOf(context).accountId, body: args.model });
    return composed.ok ? ok({ created: composed.value.created, model: composed.value.model }) : composed;
  },
};

const CODING = ' The service must have exposure coding switched on (CATRISK_EXPOSURE_CODING; otherwise exposure_coding_unavailable, 503). '
  + 'Up to 50 rows a call and 1,000 characters a row (over either: payload_too_large, 413); every row counts against your account\'s daily row budget, shared with the REST routes. '
  + 'The rows go to the configured coder: the embedded one (no network) or, when so configured, an outside AI provider.';

const codeExposureRowsTool: Tool = {
  name: 'code_exposure_rows',
  description: 'Codes schedule rows (free text, one string per row) to OED occupancy and construction codes (POST /exposure-codes): per row an OccupancyCode and a ConstructionCode with their OED names and confidences; '
    + 'a code below the confidence gate is proposed but not set (code null), and needs_review marks the rows a person should look at.' + CODING,
  inputSchema: argumentsOf(bodyOf(coding.exposureCodes), { api_key: API_KEY }),
  outputSchema: responseOf(coding.exposureCodes, 200),
  // It spends the daily row budget, and a configured outside provider may answer differently next time.
  annotations: { title: 'Code schedule rows to OED', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  key: true,
  call: async (context, args) => {
    const coded = await codeExposureRows(context.deps, { accountId: callerOf(context).accountId, rows: args.rows as string[] });
    return coded.ok ? ok({ ...coded.value }) : coded;
  },
};

const flagMultiBuildingRowsTool: Tool = {
  name: 'flag_multi_building_rows',
  description: 'Reads schedule rows (free text, one string per row) for whether each describes more than one building (POST /multi-building-flags): per row the probability and a status, '
    + 'flagged (at or above the gate), not_flagged (at or below one less the gate), below_gate (in between: for a person) or unanswered.' + CODING,
  inputSchema: argumentsOf(bodyOf(coding.multiBuildingFlags), { api_key: API_KEY }),
  outputSchema: responseOf(coding.multiBuildingFlags, 200),
  annotations: { title: 'Flag rows that cover several buildings', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  key: true,
  call: async (context, args) => {
    const flagged = await flagMultiBuildingRows(context.deps, { accountId: callerOf(context).accountId, rows: args.rows as string[] });
    return flagged.ok ? ok({ ...flagged.value }) : flagged;
  },
};

/** Every tool, in the order tools/list answers them (SPEC's order). */
export const TOOLS: readonly Tool[] = [createApiKey, runBacktest, composeModelTool, runClimateModel, getLabRun, listDatasets, getDataset, codeExposureRowsTool, flagMultiBuildingRowsTool];
