// The model lab host: GET /models, POST /runs, GET /runs/{id}. The spec's members and the shapes of
// the results are generated from the lanes' declarations (domain/lab/lanes/<lane>/lane.ts); what
// each model reads inside its members is checked by its lane, so the body names them and no more.
import { LAB_LANES } from '../../app/lab-lanes.js';
import type { LabLane } from '../../domain/lab/lane.js';
import { LANE_TABLES, ORD_PERSPECTIVES, ORD_TABLES } from '../../app/exports.js';
import { CSV_OFFER, JSON_OFFER, formatParameter } from '../negotiate.js';
import { ID_PARAM, JOB_RETRY_AFTER, LINKS, OBJECT, STRING, chartOperations, named, operation, published, queryOf, shape, type JsonSchema } from './operation.js';

/** A lab run is served as its JSON document, or once succeeded as ORD-style CSV tables. */
export const RUN_OFFERS = [JSON_OFFER, CSV_OFFER] as const;

/**
 * Each member a lane declares, described by the lanes that read it: every name a spec may hold.
 * The body checks no member's value, so a value is refused by its lane, naming every fault at once.
 */
export function laneMembers(lanes: readonly LabLane[]): Record<string, { description: string }> {
  const readers = new Map<string, Map<string, string[]>>();
  for (const lane of lanes) {
    for (const [name, member] of Object.entries(lane.members)) {
      const byWords = readers.get(name) ?? new Map<string, string[]>();
      byWords.set(member.description, [...(byWords.get(member.description) ?? []), lane.id]);
      readers.set(name, byWords);
    }
  }
  return Object.fromEntries([...readers].map(([name, byWords]) => [name, {
    description: [...byWords].map(([words, ids]) => `${ids.join(', ')}: ${words}.`).join(' '),
  }]));
}

/** A normalised spec of a lane: its model and version, its members' and its exposure's JSON Schema. */
export function laneSpec(lane: LabLane): JsonSchema {
  return {
    title: lane.id,
    type: 'object',
    required: ['model', 'version', ...(lane.exposure ? ['exposure'] : [])],
    properties: {
      model: { const: lane.id },
      version: { const: lane.version },
      ...Object.fromEntries(Object.entries(lane.members).map(([name, m]) => [name, { ...m.schema, description: m.description }])),
      ...(lane.exposure ? { exposure: { ...withPointsCurrency(lane.exposure.schema), description: `${lane.exposure.description}; points may name their values' currency (ISO 4217), which the losses are published in` } } : {}),
    },
  };
}

const CURRENCY = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code of the exposure values.' } as const;

/** A lane's exposure schema with `currency` allowed beside the points (app/lab-runs.ts reads it for every lane). */
function withPointsCurrency(schema: JsonSchema): JsonSchema {
  const variants = (schema as { oneOf?: JsonSchema[] }).oneOf;
  if (!variants) return schema;
  return {
    ...schema,
    oneOf: variants.map((v) => {
      const properties = (v as { properties?: Record<string, JsonSchema> }).properties;
      return properties && 'points' in properties ? { ...v, properties: { ...properties, currency: CURRENCY } } : v;
    }),
  };
}

/** Every lane's result names the currency of its losses, rounded to its minor unit (domain/lab/engine/publication.ts). */
const RESULT_CURRENCY = {
  type: ['string', 'null'], pattern: '^[A-Z]{3}$',
  description: 'The currency of the losses: the stored object\'s, or the one the points named (null when they named none: the values\' own unit). Money is rounded to its minor unit.',
} as const;

/** A run's normalised spec: one lane's, or an exchange model's. */
const SPEC = {
  type: 'object',
  description: 'The normalised spec: defaults filled in; the run\'s id is its content address.',
  oneOf: [
    ...LAB_LANES.map(laneSpec),
    shape('An exchange model\'s spec.', { model: { type: 'string', pattern: '^xm_[0-9a-f]{16}$' }, exposure: OBJECT, parameters: OBJECT }),
  ],
};

const METRICS_OR_NULL = { oneOf: [published('lab-metrics.v1'), { type: 'null' }] };

/**
 * Members several lanes' results share, each written by the same code (the model's name, the places
 * left unmodeled, the OED specification read, the insured and net views): described here once, where
 * a lane declares the member as an object and no more. test/app/lab-registry.test.ts holds every
 * lane's real result to laneResult.
 */
const SHARED_RESULT_MEMBERS: Record<string, JsonSchema> = {
  // The model's id is `id`, but for deterministic-loss, whose result names it `model` (as its spec does).
  model: {
    ...shape('The model run.', {
      id: STRING, model: { type: 'string', description: 'deterministic-loss: the model\'s id.' }, version: { type: ['string', 'null'] }, label: STRING,
      engine: { type: 'string', description: 'What computed the losses.' }, revision: STRING,
    }, []),
    anyOf: [{ required: ['id'] }, { required: ['model'] }],
  },
  unmodeled: shape('The places no loss was modeled for, each by its index in the exposure and why.', {
    count: { type: 'integer' },
    places: { type: 'array', items: shape('A place left unmodeled.', { index: { type: 'integer' }, reason: STRING }) },
    reasons: { type: 'object', description: 'What each reason means.', additionalProperties: STRING },
  }, ['count', 'places']),
  oed_spec: shape('The pinned OED specification read.', { feed_id: STRING, version: STRING, sha256: STRING }),
  perspectives: shape('With terms: il (insured) and ri (net of reinsurance), each lab-metrics/1.', { il: METRICS_OR_NULL, ri: METRICS_OR_NULL }, []),
};

/** Whether a declared member says it is an object and nothing of its members. */
function bareObject(member: JsonSchema): boolean {
  const types = Array.isArray(member.type) ? member.type : [member.type];
  return types.includes('object') && !member.properties && !member.additionalProperties && !member.oneOf && !member.anyOf && !member.$ref;
}

/** A lane's result as the contract describes it: its declaration, with the shared members described and the currency named. */
export function laneResult(lane: LabLane): JsonSchema {
  const declared = lane.result as { properties?: Record<string, JsonSchema> };
  const properties = Object.fromEntries(Object.entries(declared.properties ?? {}).map(([name, member]) => {
    const shared = SHARED_RESULT_MEMBERS[name];
    if (!shared || !bareObject(member)) return [name, member];
    // A member the lane may answer null keeps null beside the shared shape.
    const nullable = Array.isArray(member.type) && member.type.includes('null');
    const described = { ...shared, ...(member.description ? { description: member.description } : {}) };
    return [name, nullable ? { anyOf: [described, { type: 'null' }], ...(member.description ? { description: member.description } : {}) } : described];
  }));
  return { title: lane.id, ...lane.result, properties: { ...properties, currency: RESULT_CURRENCY } };
}

/** A lab run's result: each lane's declared shape (told apart by its lane), or an exchange model's. */
const RESULT = {
  ...shape('The run\'s result.', { metrics: published('lab-metrics.v1') }, []),
  oneOf: [
    ...LAB_LANES.map(laneResult),
    shape('An exchange model\'s result, run by its provider on its own platform.', { model: OBJECT, label: STRING, run_by: OBJECT, places: { type: 'integer' }, provider_result: {} }, ['model', 'label', 'run_by', 'provider_result']),
  ],
};

const RUN = named('lab-run', shape('A lab run: its normalised spec, status, and once succeeded its result (the windstorm lane\'s result.metrics is lab-metrics/1; the flood and wildfire lanes give their own figures).', {
  schema_version: STRING,
  id: STRING,
  model: shape('The model run.', { id: STRING, version: STRING }),
  spec: SPEC,
  status: { enum: ['queued', 'running', 'succeeded', 'failed'] },
  label: STRING,
  links: LINKS,
  result: RESULT,
  error: { $ref: '#/components/schemas/error.v0/properties/error' },
}, ['schema_version', 'id', 'model', 'spec', 'status', 'links']));

export const listModels = operation({
  id: 'listLabModels',
  summary: 'Each lab model: version, pinned inputs, caps and spec',
  errors: [],
  responses: { 200: { description: 'The models.', schema: shape('The lab\'s models.', { schema_version: STRING, models: { type: 'array', items: OBJECT }, note: STRING }) } },
});

export const submitRun = operation({
  id: 'submitRun',
  summary: 'Run a lab model over points or a stored object (content-addressed; metered: one model run)',
  description: 'The same normalised spec is the same run: a second submission reads it back. Points a model cannot reach come back counted as unmodeled, not refused.',
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['model'],
    properties: {
      model: {
        anyOf: [
          { enum: LAB_LANES.map((m) => m.id) },
          { type: 'string', pattern: '^xm_[0-9a-f]{16}$', description: 'an exchange model\'s id, xm_ and 16 lowercase hex digits' },
        ],
        description: 'The model (GET /models lists them), or an exchange model\'s id xm_… (GET {base_url}/exchange/models lists them; it runs on its provider\'s platform).',
      },
      parameters: { description: 'Exchange models: a JSON object passed to the provider\'s platform as written (default {}).' },
      exposure: { description: '{points: [{lat, lon, value}]} or {object_id} of one of your objects; for the OpenQuake scenario risk model, the id of an oq-exposure input you brought.' },
      object_id: { type: 'string', description: 'Short for exposure {object_id}: one of your objects (not with exposure).' },
      ...laneMembers(LAB_LANES),
    },
  },
  refusal: { body: 'run spec' },
  errors: ['invalid_request', 'not_found', 'account_cancelled', 'exchange_access_refused', 'exchange_not_ready', 'exchange_credentials_unavailable'],
  jobErrors: ['unrunnable_object', 'loss_not_conserved', 'exchange_access_refused', 'exchange_not_ready', 'not_found'],
  responses: {
    200: { description: 'The run, already succeeded (the same spec ran before).', schema: RUN, headers: { Location: 'The run: /runs/{id}.' } },
    202: { description: 'The run, queued as a job on the API host.', schema: RUN, headers: { Location: 'The run: /runs/{id}.', 'Retry-After': JOB_RETRY_AFTER } },
  },
  idempotent: true,
});

export const readRun = operation({
  id: 'readRun',
  summary: 'A lab run of the key\'s account (or, once succeeded, an ORD table of its results as CSV)',
  params: ID_PARAM('run'),
  query: queryOf({
    format: formatParameter(RUN_OFFERS),
    table: { type: 'string', enum: [...ORD_TABLES, ...LANE_TABLES], description: `CSV only: the ORD table: ept (default), melt, mplt or alt; or ylt, the lab's year loss table (not ORD: one row per period); a lane with tables of its own serves those instead, the first by default: ${LAB_LANES.filter((l) => l.tables).map((l) => `${l.id}: ${Object.keys(l.tables!).join(', ')}`).join('; ')} (deterministic-loss's loc_summary as oasislmf writes it).` },
    perspective: { type: 'string', enum: [...ORD_PERSPECTIVES], description: 'CSV only: gul (ground up, default), il (insured) or ri (net); il and ri need a spec with terms.' },
  }),
  errors: ['invalid_request', 'not_found', 'not_acceptable'],
  responses: {
    200: {
      description: 'The run.',
      schema: RUN,
      headers: { 'Retry-After': JOB_RETRY_AFTER, 'Catrisk-Currency': 'CSV only: the ISO 4217 currency of the table\'s losses (ORD\'s columns name none); absent when the points named none.' },
      alternatives: { 'text/csv': 'An ORD table of result.metrics (or result.perspectives.il/ri), ORD\'s columns in ORD\'s order: EPT (SummaryId, EPCalc, EPType, ReturnPeriod, Loss), MELT, MPLT or ALT; or the year loss table (ylt, not ORD); 406 until the run has succeeded.' },
    },
  },
});

export const runChart = chartOperations({
  id: 'readRunChart',
  summary: 'A succeeded lab run\'s exceedance probability curves',
  picture: 'OEP and AEP loss by return period (log scale) with their TVaR, the published points of result.metrics (or result.perspectives.il/ri); 409 run_not_succeeded until the run has succeeded',
  params: ID_PARAM('run'),
  query: queryOf({
    perspective: { type: 'string', enum: [...ORD_PERSPECTIVES], description: 'gul (ground up, default), il (insured) or ri (net); il and ri need a spec with terms.' },
  }),
  errors: ['invalid_request', 'not_found', 'run_not_succeeded'],
});
