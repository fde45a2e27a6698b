// POST /objects/{id}/analyse and POST /accumulation.
import { ANALYSES } from '../../app/analyse.js';
import { ACCUMULATION_LIMITS } from '../../app/accumulation.js';
import { ACCEPTED, ID_PARAM, INTEGER, LINKS, NUMBER, STRING, operation, shape } from './operation.js';

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
        objects: { type: 'array', items: shape('An object named: its peril, currency, locations and values.', {
          id: STRING, peril: { type: ['string', 'null'] }, currency: { type: ['string', 'null'] }, locations: INTEGER, located_locations: INTEGER, unvalued_locations: INTEGER, values: MONEY, links: LINKS,
        }) },
        totals: shape('Over every object named.', { objects: INTEGER, locations: INTEGER, located_locations: INTEGER, unvalued_locations: INTEGER, values: MONEY }),
        perils: { type: 'array', items: shape('A peril code (null: none of the nine) and the objects declaring it.', {
          peril: { type: ['string', 'null'] }, objects: { type: 'array', items: STRING }, locations: INTEGER, located_locations: INTEGER, values: MONEY,
        }) },
        regions: { type: 'array', items: shape('A declared region, the objects declaring it and the exposure inside it.', {
          region: { $ref: '#/components/schemas/risk-object.v0/$defs/peril/properties/region' },
          declared_by: { type: 'array', items: shape('An object declaring the region.', { object_id: STRING, peril: { type: ['string', 'null'] } }) },
          locations: INTEGER, values: MONEY,
          objects: { type: 'array', items: shape('An object\'s exposure inside the region.', { object_id: STRING, locations: INTEGER, values: MONEY }) },
        }) },
        countries: { type: 'array', items: shape('Exposure in a country (null: located nowhere).', { country: { type: ['string', 'null'] }, locations: INTEGER, values: MONEY }) },
        concentration: shape('Concentration in H3 cells, per currency.', {
          h3_resolution: INTEGER, cell_area_km2_average: NUMBER, method: STRING,
          by_currency: { type: 'array', items: shape('One currency\'s cells.', {
            currency: { type: ['string', 'null'] }, total: STRING, cells: INTEGER,
            largest_cell: { anyOf: [shape('The largest cell.', { cell: STRING, value: STRING, share: NUMBER }), { type: 'null' }] },
            hhi: { type: ['number', 'null'] },
            top_cells: { type: 'array', items: shape('A cell among the largest.', {
              cell: STRING, center: shape('The cell\'s centre.', { latitude: NUMBER, longitude: NUMBER }), value: STRING, share: NUMBER, locations: INTEGER,
              objects: { type: 'array', items: shape('An object\'s part of the cell.', { object_id: STRING, locations: INTEGER, value: STRING }) },
            }) },
          }) },
        }),
        notes: { type: 'array', items: STRING },
      }, ['schema_version', 'objects', 'totals', 'perils', 'regions', 'countries', 'concentration', 'notes']),
    },
  },
});
