// The model registry: the primitives, a composed model and its runs.
import { ACCEPTED, ID_PARAM, LINKS, OBJECT, STRING, operation, published, shape } from './operation.js';

const PRIMITIVE = shape('One primitive: its id, a sentence, its parameters (JSON Schema) and what it connects to.', {
  id: STRING, sentence: STRING, parameters: OBJECT, connects_to: OBJECT,
}, ['id', 'sentence', 'parameters', 'connects_to']);

const PRIMITIVES = shape('The v1 vocabulary a pricing model is composed from.', {
  schema_version: STRING,
  vocabulary: STRING,
  feeds: { type: 'array', items: shape('A pinned feed a measurement reads: id, kind, units, versions with their period of record.', { id: STRING, kind: STRING, versions: { type: 'array', items: OBJECT }, connects_to: OBJECT }) },
  measurements: { type: 'array', items: PRIMITIVE },
  transforms: { type: 'array', items: PRIMITIVE },
  payout_functions: { type: 'array', items: PRIMITIVE },
}, ['schema_version', 'vocabulary', 'feeds', 'measurements', 'transforms', 'payout_functions']);

const MODEL = shape('A composed model: its composition, validation report and card; immutable, addressed by its name, version and composition.', {
  schema_version: STRING,
  id: { type: 'string', pattern: '^mdl_[0-9a-f]{24}$' },
  name: STRING,
  version: STRING,
  kind: { const: 'validated_model' },
  peril: STRING,
  // The model document's own members, as the published model schema defines them.
  composition: shape('The composition: the feed, measurement, transforms, payout function and each primitive\'s parameters.', Object.fromEntries(
    ['feed', 'measurement', 'transforms', 'payout_function', 'parameters'].map((member) => [member, { $ref: `#/components/schemas/model.v0/properties/${member}` }]),
  )),
  validation: OBJECT,
  card: OBJECT,
  created_at: { type: 'string', format: 'date-time' },
  links: LINKS,
}, ['schema_version', 'id', 'name', 'version', 'kind', 'composition', 'validation', 'card', 'links']);

export const primitives = operation({
  id: 'listPrimitives',
  summary: 'The v1 vocabulary: feeds, measurements, transforms and payout functions',
  errors: [],
  responses: { 200: { description: 'Each primitive with its sentence, parameters (JSON Schema) and what it connects to.', schema: PRIMITIVES } },
});

export const composeModel = operation({
  id: 'composeModel',
  summary: 'Compose a pricing model from the four primitives; it is validated, backtested and carded before it exists',
  description: 'The body follows the published model schema (/schema/model.v0.json on the docs host). A composition outside the v1 vocabulary is refused 422 invalid_composition, a document failing the schema 422 invalid_model, a model the validation pass refuses 422 model_validation_failed; nothing is stored then. The same name, version and composition sent again answers 200 with the stored model.',
  body: { type: 'object' },
  requestBody: { required: true, description: 'A model document: {name, version?, description?, feed: {id, version}, measurement, transforms, payout_function, parameters}.', content: { 'application/json': { schema: published('model.v0') } } },
  refusal: { code: 'invalid_model', body: 'model' },
  errors: ['invalid_composition', 'invalid_model', 'model_validation_failed', 'account_cancelled'],
  responses: {
    201: { description: 'The model, created: its validation report and card.', schema: MODEL, headers: { Location: 'The model: /models/{id}.' } },
    200: { description: 'The account already holds this name, version and composition: the stored model.', schema: MODEL, headers: { Location: 'The model: /models/{id}.' } },
  },
});

export const readModel = operation({
  id: 'readModel',
  summary: 'A composed model, its validation report and its card',
  params: ID_PARAM('model'),
  errors: ['not_found'],
  responses: { 200: { description: 'The model as stored (immutable).', schema: MODEL } },
});

export const runModel = operation({
  id: 'runModel',
  summary: 'Price a risk object with a composed model (a job)',
  params: ID_PARAM('model'),
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['object_id'],
    properties: {
      object_id: { type: 'string', pattern: '^obj_', description: 'The account\'s risk object priced.' },
      financial_structure: {
        type: 'object', additionalProperties: false, required: ['currency', 'limit'],
        description: 'Replaces the object\'s financial structure for this run.',
        properties: { currency: { type: 'string', pattern: '^[A-Z]{3}$' }, limit: { type: 'number', exclusiveMinimum: 0 }, attachment: { type: 'number', minimum: 0 }, annual_limit: { type: 'number', exclusiveMinimum: 0 } },
      },
      period: {
        type: 'object', additionalProperties: false, required: ['start', 'end'],
        description: 'Replaces the object\'s period for this run (a model with a seasonal term reads only its year).',
        properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } },
      },
    },
  },
  refusal: { body: 'model run request' },
  errors: ['invalid_request', 'not_found', 'account_cancelled'],
  jobErrors: ['unrunnable_object', 'not_found'],
  responses: ACCEPTED,
});
