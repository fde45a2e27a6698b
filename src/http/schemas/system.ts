// What every host says about itself, the API's health and its jobs.
import { BOOLEAN, ID_PARAM, INTEGER, JOB, JOB_RETRY_AFTER, NUMBER, STRING, operation, shape } from './operation.js';

export const hostIndex = operation({
  id: 'readHostIndex',
  summary: 'What this host serves and where its index is (every host answers it)',
  errors: [],
  responses: {
    200: {
      description: 'The host index.',
      schema: shape('A host index.', { schema_version: STRING, host: STRING, what: STRING, index: STRING }),
      alternatives: { 'text/html': 'Docs host only, to an Accept that prefers it (a browser): the documentation\'s home page, linking every page, the API reference, the schemas and llms.txt.' },
    },
  },
});

export const health = operation({
  id: 'readHealth',
  summary: 'Up, with the verbs, registry and discovery routes this environment serves (no key needed)',
  errors: [],
  responses: {
    200: {
      description: 'The environment is up.',
      schema: shape('The health document.', {
        schema_version: STRING,
        status: { const: 'ok' },
        verbs: { type: 'array', items: STRING },
        being_retired: shape('The verbs being retired: they still work, and answer with a Deprecation header.', { verbs: { type: 'array', items: STRING }, note: STRING }),
        registry: {
          type: 'object',
          description: 'The registry\'s surfaces this host serves, by name (primitives, compose, model, run).',
          additionalProperties: shape('A registry surface.', { method: STRING, path: STRING, what: STRING }),
        },
        discovery: { type: 'array', items: shape('A discovery route.', { method: STRING, path: STRING, lists: STRING }) },
        build: shape('What this process runs.', {
          version: STRING, commit: STRING, storage: { enum: ['sqlite', 'postgres'] },
          schema_versions: shape('The schema version of each document kind.', { error: STRING, account: STRING, job: STRING, health: STRING }),
        }),
        feeds: shape('The pinned snapshots this process serves (each feed_id/version), and how many it refused (GET /feeds says why).', {
          loaded: { type: 'integer' }, refused: { type: 'integer' }, snapshots: { type: 'array', items: STRING },
        }),
      }),
    },
  },
});

/** One readiness check: whether it passed, how long it took, and what failed. */
const CHECK = shape('A check.', { ok: BOOLEAN, ms: NUMBER, fault: STRING }, ['ok']);

export const ready = operation({
  id: 'readReadiness',
  summary: 'Ready to serve: the database answers and holds every migration, feed snapshots are verified and served, a compute thread answers (no key needed)',
  description: 'For a load balancer or an orchestrator\'s readiness probe; GET /health says only that the process is up. Each check is bounded (2 s), so a stalled database answers 503 in time. A 503 is the error envelope with the code not_ready and one detail per failed check (database, migrations, feeds, compute_threads).',
  errors: ['not_ready'],
  responses: {
    200: {
      description: 'Ready; each check with how long it took.',
      schema: shape('The readiness document.', {
        schema_version: STRING,
        status: { const: 'ready' },
        checks: shape('The checks, each {ok, ms}; feeds also count the snapshots served and refused.', {
          database: CHECK, migrations: CHECK, compute_threads: CHECK,
          feeds: shape('The feed snapshots served and refused.', { ok: BOOLEAN, served: INTEGER, refused: INTEGER, fault: STRING }, ['ok', 'served', 'refused']),
        }),
      }),
    },
  },
});

export const readJob = operation({
  id: 'readJob',
  summary: 'A job of the key\'s account, at any state (a failed job answers 200)',
  params: ID_PARAM('job'),
  errors: ['not_found'],
  responses: { 200: { description: 'The job.', schema: JOB, headers: { 'Retry-After': JOB_RETRY_AFTER } } },
});

export const cancelJob = operation({
  id: 'cancelJob',
  summary: 'Cancel a job of the key\'s account: a queued job never starts; a running one is stopped at its next checkpoint',
  description: 'A cancelled job ends failed with the error code cancelled (status 409), its message naming the key that cancelled it and when. A running job whose work is done before its worker sees the cancel keeps its result. Cancelling again answers the job; a job that has already succeeded or failed answers 409 job_finished.',
  params: ID_PARAM('job'),
  body: { type: ['object', 'null'], additionalProperties: false, properties: {}, description: 'Empty, or {}.' },
  refusal: { body: 'cancel request' },
  errors: ['invalid_request', 'not_found', 'job_finished'],
  // The code the cancelled job fails with (any verb's job may).
  jobErrors: ['cancelled'],
  responses: {
    200: { description: 'The job, failed with the code cancelled (it was queued, or was cancelled before).', schema: JOB },
    202: { description: 'The job, still running: its worker stops it at its next checkpoint (within about a second).', schema: JOB, headers: { 'Retry-After': JOB_RETRY_AFTER } },
  },
});
