// One operation of a host: the schema Fastify checks the request against (path, query, body) and
// what the API contract says about it (summary, success responses, the named error codes). The
// responses are documentation only: answers are written by the canonical JSON serializer, never
// by a response schema, so no byte of an answer depends on them.
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import { schemaRefusal, type SchemaRefusal } from './faults.js';
import type { BEING_RETIRED } from '../api/verbs.js';

export type JsonSchema = Record<string, unknown>;

export interface SuccessResponse {
  description: string;
  /** The body's shape: a JSON Schema, or a reference made with `published`. */
  schema?: JsonSchema;
  /** The media type, when it is not application/json. */
  type?: string;
  /** Response headers this answer carries, with what each says. */
  headers?: Record<string, string>;
  /** Other media types the same answer is served as (by Accept or format=), with what each holds. */
  alternatives?: Record<string, string>;
}

export interface Operation {
  /**
   * The operationId: a verb and its object in camelCase (createObject, runBacktest, submitRun),
   * unique within its host's document and never changed once published (generated clients call
   * it by this name). test/http/api-contract.test.ts lists every id; a new route adds its own there.
   */
  id: string;
  summary: string;
  description?: string;
  /** Named error codes this operation answers on the request, beyond the edge's (SPEC: Errors, Codes). */
  errors: readonly string[];
  /** Codes a job this operation queues may fail with (SPEC: Request versus job). */
  jobErrors?: readonly string[];
  responses: Record<number, SuccessResponse>;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** A body Fastify does not read as JSON (multipart/form-data): an OpenAPI Request Body Object. */
  requestBody?: JsonSchema;
  /** The code and wording of a refusal by the schema, when not invalid_request. */
  refusal?: SchemaRefusal;
  /**
   * The write reads Idempotency-Key: a repeat with the key has no second effect and is given the
   * first answer back (http/idempotency.ts). Declaring it here is all a route needs.
   */
  idempotent?: boolean;
  /**
   * The verb GET /health lists under being_retired that this operation belongs to: the contract
   * marks it deprecated, and each answer carries the Deprecation header (RFC 9745).
   */
  retiring?: (typeof BEING_RETIRED)[number];
}

/**
 * When the verbs being retired were flagged so (the service's first release, 2026-11-22), as
 * RFC 9745's Deprecation header writes a date: @ and the seconds since the epoch.
 */
export const DEPRECATION = '@1795305600';

const DEPRECATED_HEADERS = { Deprecation: `${DEPRECATION}: the verb is being retired (GET /health lists it under being_retired); it still works for existing integrations.` };

/** The Idempotency-Key header, in its text format (faults.ts): 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      format: 'idempotency-key',
      description: '1 to 255 visible ASCII characters (no spaces); a key names one request: sent again with it, the request has no second effect and its first successful answer (status, Location, ETag, Retry-After, body) is given back, with Idempotent-Replayed: true, for 24 hours (CATRISK_IDEMPOTENCY_TTL_SECONDS). The same key with another method, path or body is refused 422; while the first is being answered, 409 idempotency_key_in_use with Retry-After. A refusal or failure keeps nothing, so the key may be sent again',
    },
  },
};

const REPLAYED = { 'Idempotent-Replayed': '"true" when this is the stored answer to an earlier request with the same Idempotency-Key.' };

/** What an operationId looks like: lower camelCase, letters and digits. */
export const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

/** Route options for an operation: its schema, and its refusal when the route names its own. */
export function operation(op: Operation): RouteShorthandOptions {
  if (!OPERATION_ID.test(op.id)) throw new Error(`operationId ${op.id}: a verb and its object in camelCase (createObject)`);
  const schema: FastifySchema & Record<string, unknown> = {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.query ? { querystring: op.query } : {}),
    ...(op.body ? { body: op.body } : {}),
    ...(op.idempotent ? { headers: IDEMPOTENCY_KEY } : {}),
    'x-error-codes': op.idempotent ? [...new Set([...op.errors, 'invalid_request', 'idempotency_key_in_use'])] : op.errors,
    ...(op.jobErrors ? { 'x-job-error-codes': op.jobErrors } : {}),
    'x-responses': retiringResponses(op.idempotent ? replayable(op.responses) : op.responses, op.retiring),
    ...(op.requestBody ? { 'x-request-body': op.requestBody } : {}),
    ...(op.retiring ? { deprecated: true, 'x-being-retired': op.retiring } : {}),
  };
  const refusal = op.refusal;
  const flags = { ...(op.idempotent ? { idempotent: true } : {}), ...(op.retiring ? { deprecated: true } : {}) };
  const config = Object.keys(flags).length > 0 ? { config: flags } : {};
  return refusal ? { schema, ...config, schemaErrorFormatter: (faults, part) => schemaRefusal(faults, part, refusal) } : { schema, ...config };
}

/** Each answer of a retiring verb's operation names its Deprecation header. */
function retiringResponses(responses: Record<number, SuccessResponse>, retiring: Operation['retiring']): Record<number, SuccessResponse> {
  if (!retiring) return responses;
  return Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, { ...r, headers: { ...r.headers, ...DEPRECATED_HEADERS } }]));
}

/** Each success may be the stored answer given back. */
function replayable(responses: Record<number, SuccessResponse>): Record<number, SuccessResponse> {
  return Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, { ...r, headers: { ...r.headers, ...REPLAYED } }]));
}

/**
 * Shapes declared here rather than published under schemas/, named once and referred to wherever an
 * operation answers them: the contract lists each as a component, and a generated client names its
 * type (components["schemas"]["job"]) instead of repeating it per operation.
 */
export const CONTRACT_COMPONENTS = new Map<string, JsonSchema>();

/** A shape named as a contract component, and the reference to it. */
export function named(name: string, schema: JsonSchema): JsonSchema {
  CONTRACT_COMPONENTS.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** A reference to a published schema (schemas/, served at {docs_url}/schema/<name>.json). */
export function published(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** A query string of text parameters; none is required unless named. */
export function queryOf(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
}

/** A query parameter in one of the text formats (faults.ts), described for the contract. */
export function text(format: string | undefined, description: string): JsonSchema {
  return { type: 'string', ...(format ? { format } : {}), description };
}

/** An object shape for the contract: its members, open to members added later. */
export function shape(description: string, properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  return { type: 'object', description, properties, ...(required.length > 0 ? { required } : {}) };
}

export const STRING = { type: 'string' } as const;
export const INTEGER = { type: 'integer' } as const;
export const NUMBER = { type: 'number' } as const;
export const OBJECT = { type: 'object' } as const;
export const LINKS = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** What a job works on, by its verb. */
export const JOB_SUBJECT: JsonSchema = {
  type: 'object',
  description: 'What the job works on, by its verb: the object, structure, model, run or record it names (object_id, structure_id, model_id, run_id, record_id…), and for ingest the upload\'s file name (source).',
  properties: {
    object_id: STRING, structure_id: STRING, model_id: STRING, run_id: STRING, model: STRING, record_id: STRING, webhook_id: STRING, delivery_id: STRING,
    source: STRING, analyses: { type: 'array', items: STRING }, documents: { type: 'array', items: STRING },
  },
};

/** The job every verb answers 202 with (GET /jobs/{id} reads it). */
export const JOB = named('job', Object.assign(shape('A job: queued, running, succeeded (with result) or failed (with error).', {
  schema_version: STRING,
  id: { type: 'string', format: 'uuid' },
  verb: STRING,
  status: { enum: ['queued', 'running', 'succeeded', 'failed'] },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
  attempts: INTEGER,
  started_at: { type: ['string', 'null'], format: 'date-time' },
  finished_at: { type: ['string', 'null'], format: 'date-time' },
  subject: JOB_SUBJECT,
  progress: {
    type: 'object',
    description: 'How far a long job (ingest, lab run) has got, once anything is known: a fraction from 0 to 1 and a sentence.',
    properties: { fraction: { type: 'number', minimum: 0, maximum: 1 }, sentence: STRING },
    required: ['fraction', 'sentence'],
  },
  result: {
    description: 'The verb\'s result, once succeeded: for price the technical price (price.v0), for backtest the artifact (backtest.v0); another verb\'s result is its own document.',
    anyOf: [published('price.v0'), published('backtest.v0'), { type: 'object', additionalProperties: true, description: 'Another verb\'s result (ingest, analyse, lab_run, model_run, package, webhook_delivery).' }],
  },
  error: { $ref: '#/components/schemas/error.v0/properties/error', description: 'The refusal (status, code, message, details), once failed.' },
  links: LINKS,
}, ['schema_version', 'id', 'verb', 'status', 'created_at', 'updated_at', 'attempts', 'started_at', 'finished_at', 'links']), {
  // Which result a verb gives, held to it: a client's type is the union above, a validator checks this.
  allOf: (['price', 'backtest'] as const).map((verb) => ({
    if: { properties: { verb: { const: verb } }, required: ['verb'] },
    then: { properties: { result: published(`${verb}.v0`) } },
  })),
}));

/** What Retry-After says on a job that has not ended. */
export const JOB_RETRY_AFTER = 'Seconds worth waiting before reading the job again, while it is queued or running (a hint: for a running job with progress, the time it has still to go at its pace so far, at most 30).';

/** 202 with the job and its Location. */
export const ACCEPTED = { 202: { description: 'Accepted: the job, queued. Location names it; poll it until it succeeds or fails.', schema: JOB, headers: { Location: 'The job: /jobs/{id}.', 'Retry-After': JOB_RETRY_AFTER } } };

export const ID_PARAM = (what: string): JsonSchema => ({ type: 'object', properties: { id: { type: 'string', description: `The ${what}'s id.` } }, required: ['id'] });
export const BOOLEAN = { type: 'boolean' } as const;

/** A chart's representations: each its own path (…/chart.svg, …/chart.png), the same picture. */
export const CHART_TYPES = { svg: 'image/svg+xml', png: 'image/png' } as const;

/**
 * The operations of one chart, by format: the same summary, parameters and codes, answered as SVG
 * (drawn on the server) or as that SVG rasterised to PNG; both carry an ETag of their bytes.
 */
export function chartOperations(op: Omit<Operation, 'responses'> & { picture: string }): Record<keyof typeof CHART_TYPES, RouteShorthandOptions> {
  const { picture, ...rest } = op;
  const of = (format: keyof typeof CHART_TYPES): RouteShorthandOptions => operation({
    ...rest,
    id: `${op.id}${format === 'svg' ? 'Svg' : 'Png'}`,
    summary: `${op.summary} (${format.toUpperCase()})`,
    responses: {
      200: {
        description: `${picture}, as ${format === 'svg' ? 'an SVG document (title and desc say what it shows and leaves out)' : 'a PNG of the same SVG'}.`,
        type: CHART_TYPES[format],
        headers: { ETag: 'The SHA-256 of the picture\'s bytes; send it in If-None-Match to be answered 304.' },
      },
      304: { description: 'Not modified: If-None-Match names these bytes.' },
    },
  });
  return { svg: of('svg'), png: of('png') };
}
