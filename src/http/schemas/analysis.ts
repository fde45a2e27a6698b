// POST /objects/{id}/analyse and POST /accumulation.
import { ANALYSES } from '../../app/analyse.js';
import { ACCUMULATION_LIMITS } from '../../app/accumulation.js';
import { ACCEPTED, ID_PARAM, INTEGER, OBJECT, STRING, operation, shape } from './operation.js';

export const analyseObject = operation({
  id: 'analyseObject',
  summary: 'Analyse an object\'s located locations against the pinned record (a job)',
  description: `Names the analyses to run: ${ANALYSES.join(', ')}. Unknown or none named: 422 unknown_analysis on the request. The job reads at most 25 located locations and records the run on the object's provenance.`,
  params: ID_PARAM('object'),
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: '{"analyses": [...], "radius_km"?}.',
    properties: {
      analyses: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 }, description: `The analyses to run: ${ANALYSES.join(', ')}.` },
      radius_km: { type: 'number', exclusiveMinimum: 0, maximum: 500, description: 'nearby_history: the radius around each location, km (default 100, at most 500).' },
    },
  },
  refusal: { body: 'analyse request' },
  errors: ['invalid_request', 'unknown_analysis', 'not_found', 'account_cancelled'],
  jobErrors: ['unanalysable_object', 'not_found'],
  responses: ACCEPTED,
  idempotent: true,
});

const MONEY = { type: 'array', items: shape('A sum in one currency (never converted).', { currency: { type: ['string', 'null'] }, total: STRING }) } as const;

export const accumulation = operation({
  id: 'readAccumulation',
  summary: 'Where a set of the caller\'s objects piles up: per peril, per declared region, per country, and in H3 cells',
  description: `Synchronous and not metered. Up to ${ACCUMULATION_LIMITS.objects} objects and ${ACCUMULATION_LIMITS.locations} locations in one request; beyond either, 422 invalid_request. Another account's object is 404 not_found.`,
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['objects'],
    properties: {
      objects: { type: 'array', minItems: 1, maxItems: ACCUMULATION_LIMITS.objects, items: { type: 'string', maxLength: 64 }, description: 'The ids of the caller\'s objects, each once.' },
      h3_resolution: { type: 'integer', minimum: 0, maximum: 15, description: 'H3 resolution of the concentration cells (default 7: about 5.2 km² a cell).' },
    },
  },
  refusal: { body: 'accumulation request' },
  errors: ['invalid_request', 'not_found'],
  responses: {
    200: {
      description: 'Exposure per peril (all nine codes), per declared region, per country, and concentration in H3 cells; values summed per currency.',
      schema: shape('An accumulation.', {
        schema_version: STRING,
        objects: { type: 'array', items: OBJECT },
        totals: shape('Over every object named.', { objects: INTEGER, locations: INTEGER, located_locations: INTEGER, unvalued_locations: INTEGER, values: MONEY }),
        perils: { type: 'array', items: OBJECT },
        regions: { type: 'array', items: OBJECT },
        countries: { type: 'array', items: OBJECT },
        concentration: OBJECT,
        notes: { type: 'array', items: STRING },
      }, ['schema_version', 'objects', 'totals', 'perils', 'regions', 'countries', 'concentration', 'notes']),
    },
  },
});
