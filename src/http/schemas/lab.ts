// The model lab host: GET /models, POST /runs, GET /runs/{id}. The spec's members are the lab's;
// what each model reads inside them is checked by its lane.
import { LAB_LANES } from '../../app/lab-lanes.js';
import { ORD_PERSPECTIVES, ORD_TABLES } from '../../app/exports.js';
import { CSV_OFFER, JSON_OFFER, formatParameter } from '../negotiate.js';
import { ID_PARAM, JOB_RETRY_AFTER, LINKS, OBJECT, STRING, chartOperations, operation, published, queryOf, shape } from './operation.js';

/** A lab run is served as its JSON document, or once succeeded as ORD-style CSV tables. */
export const RUN_OFFERS = [JSON_OFFER, CSV_OFFER] as const;

const RUN = shape('A lab run: its normalised spec, status, and once succeeded its result (the windstorm lane\'s result.metrics is lab-metrics/1; the flood and wildfire lanes give their own figures).', {
  schema_version: STRING,
  id: STRING,
  model: shape('The model run.', { id: STRING, version: STRING }),
  spec: OBJECT,
  status: { enum: ['queued', 'running', 'succeeded', 'failed'] },
  label: STRING,
  links: LINKS,
  result: shape('The run\'s result.', { metrics: published('lab-metrics.v1') }, []),
  error: { $ref: '#/components/schemas/error.v0/properties/error' },
}, ['schema_version', 'id', 'model', 'spec', 'status', 'links']);

export const listModels = operation({
  summary: 'Each lab model: version, pinned inputs, caps and spec',
  errors: [],
  responses: { 200: { description: 'The models.', schema: shape('The lab\'s models.', { schema_version: STRING, models: { type: 'array', items: OBJECT }, note: STRING }) } },
});

export const submitRun = operation({
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
      samples: { description: 'Sample count, an integer (the lane says its range; default 0).' },
      exposure: { description: '{points: [{lat, lon, value}]} or {object_id} of one of your objects.' },
      terms: { description: 'Policy and reinsurance terms (from revision r3).' },
      correlation: { description: 'Damage correlation (the lane says which values it reads).' },
      sector: { description: 'Flood lanes: residential (default), commercial or industrial, the depth-damage curve\'s sector.' },
      rupture: { description: 'Scenario earthquake: {magnitude, lat, lon, depth_km, strike?, dip?, rake?, mechanism?}.' },
      vulnerability: { description: 'Scenario and historical earthquake: the vulnerability curve (GET /models lists the five; default rc_frame_mid_rise_moderate_code).' },
      event: { description: 'Historical earthquake: the event, one of the ten GET /models lists (runnable where its ShakeMap grid is pinned).' },
      impact_function: { description: 'Tropical-cyclone lanes: auto (default) or one of the named curves GET /models lists.' },
      hazard: { description: 'Tropical-cyclone lanes: {basin, years, storms?} (history: seasons) or {basin, years?} (synthetic: a number of sample years), as GET /models states.' },
      building_class: { description: 'Probabilistic European and Turkish earthquake: one of the eleven building classes GET /models lists (e.g. rc_infilled_frame_moderate_code_4), each a GEM taxonomy string.' },
    },
  },
  refusal: { body: 'run spec' },
  errors: ['invalid_request', 'not_found', 'account_cancelled', 'exchange_access_refused', 'exchange_not_ready', 'exchange_credentials_unavailable'],
  jobErrors: ['unrunnable_object', 'exchange_access_refused', 'exchange_not_ready', 'not_found'],
  responses: {
    200: { description: 'The run, already succeeded (the same spec ran before).', schema: RUN, headers: { Location: 'The run: /runs/{id}.' } },
    202: { description: 'The run, queued as a job on the API host.', schema: RUN, headers: { Location: 'The run: /runs/{id}.', 'Retry-After': JOB_RETRY_AFTER } },
  },
  idempotent: true,
});

export const readRun = operation({
  summary: 'A lab run of the key\'s account (or, once succeeded, an ORD table of its results as CSV)',
  params: ID_PARAM('run'),
  query: queryOf({
    format: formatParameter(RUN_OFFERS),
    table: { type: 'string', enum: [...ORD_TABLES], description: 'CSV only: the ORD table: ept (default), elt, plt or alt.' },
    perspective: { type: 'string', enum: [...ORD_PERSPECTIVES], description: 'CSV only: gul (ground up, default), il (insured) or ri (net); il and ri need a spec with terms.' },
  }),
  errors: ['invalid_request', 'not_found', 'not_acceptable'],
  responses: {
    200: {
      description: 'The run.',
      schema: RUN,
      headers: { 'Retry-After': JOB_RETRY_AFTER },
      alternatives: { 'text/csv': 'An ORD-style table of result.metrics (or result.perspectives.il/ri): EPT (SummaryId, EPCalc, EPType, ReturnPeriod, Loss), ELT, PLT or ALT; 406 until the run has succeeded.' },
    },
  },
});

export const runChart = chartOperations({
  summary: 'A succeeded lab run\'s exceedance probability curves',
  picture: 'OEP and AEP loss by return period (log scale) with their TVaR, the published points of result.metrics (or result.perspectives.il/ri); 409 run_not_succeeded until the run has succeeded',
  params: ID_PARAM('run'),
  query: queryOf({
    perspective: { type: 'string', enum: [...ORD_PERSPECTIVES], description: 'gul (ground up, default), il (insured) or ri (net); il and ri need a spec with terms.' },
  }),
  errors: ['invalid_request', 'not_found', 'run_not_succeeded'],
});
