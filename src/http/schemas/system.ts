// What every host says about itself, the API's health and its jobs.
import { ID_PARAM, JOB, OBJECT, STRING, operation, shape } from './operation.js';

export const hostIndex = operation({
  summary: 'What this host serves and where its index is (every host answers it)',
  errors: [],
  responses: { 200: { description: 'The host index.', schema: shape('A host index.', { schema_version: STRING, host: STRING, what: STRING, index: STRING }) } },
});

export const health = operation({
  summary: 'Up, with the verbs, registry and discovery routes this environment serves (no key needed)',
  errors: [],
  responses: {
    200: {
      description: 'The environment is up.',
      schema: shape('The health document.', {
        schema_version: STRING,
        status: { const: 'ok' },
        verbs: { type: 'array', items: STRING },
        being_retired: OBJECT,
        registry: OBJECT,
        discovery: { type: 'array', items: shape('A discovery route.', { method: STRING, path: STRING, lists: STRING }) },
        build: OBJECT,
      }),
    },
  },
});

export const readJob = operation({
  summary: 'A job of the key\'s account, at any state (a failed job answers 200)',
  params: ID_PARAM('job'),
  errors: ['not_found'],
  responses: { 200: { description: 'The job.', schema: JOB } },
});
