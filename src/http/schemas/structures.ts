// Structures cut from objects, their backtests and the stored artifacts.
import { BACKTEST_TABLES } from '../../app/exports.js';
import { CSV_OFFER, JSON_OFFER, formatParameter } from '../negotiate.js';
import { ACCEPTED, ID_PARAM, LINKS, STRING, chartOperations, operation, published, queryOf, shape } from './operation.js';

/** A backtest is served as its stored JSON artifact, or one of its tables as CSV. */
export const BACKTEST_OFFERS = [JSON_OFFER, CSV_OFFER] as const;

const STRUCTURE = shape('A structure: the object\'s terms with trigger, financial_structure or period varied.', {
  id: STRING,
  schema_version: STRING,
  object_id: STRING,
  // The blocks as the risk object's schema defines them: a structure is the object's terms varied.
  trigger: { $ref: '#/components/schemas/risk-object.v0/properties/trigger' },
  financial_structure: { $ref: '#/components/schemas/risk-object.v0/properties/financial_structure' },
  period: { $ref: '#/components/schemas/risk-object.v0/properties/period' },
  varied: { type: 'array', items: STRING },
  created_at: { type: 'string', format: 'date-time' },
  links: LINKS,
}, ['id', 'schema_version', 'object_id', 'varied', 'created_at', 'links']);

export const cutStructure = operation({
  id: 'cutStructure',
  summary: 'Cut a structure from an object, varying its trigger, financial structure or period',
  params: ID_PARAM('object'),
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'The blocks to vary; no body takes the object\'s own terms.',
    properties: {
      trigger: { type: 'object', description: 'Replaces the object\'s trigger.' },
      financial_structure: { type: 'object', description: 'Replaces the object\'s financial structure.' },
      period: { type: 'object', description: 'Replaces the object\'s period.' },
    },
  },
  refusal: { code: 'invalid_structure', body: 'structure request' },
  errors: ['invalid_structure', 'not_found'],
  responses: { 201: { description: 'The structure.', schema: STRUCTURE, headers: { Location: 'The structure: /structures/{id}.' } } },
});

export const readStructure = operation({
  id: 'readStructure',
  summary: 'A structure',
  params: ID_PARAM('structure'),
  errors: ['not_found'],
  responses: { 200: { description: 'The structure.', schema: STRUCTURE } },
});

export const backtestStructure = operation({
  id: 'runBacktest',
  summary: 'Replay a structure against the pinned record (a job)',
  params: ID_PARAM('structure'),
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Nothing, or {"window": {"from_year", "to_year"}}; a window outside the period of record fails the job, never clipped.',
    properties: {
      window: {
        type: 'object',
        additionalProperties: false,
        properties: { from_year: { type: 'integer', description: 'First year replayed.' }, to_year: { type: 'integer', description: 'Last year replayed.' } },
      },
    },
  },
  refusal: { body: 'backtest request' },
  errors: ['invalid_request', 'not_found'],
  jobErrors: ['unbacktestable_structure', 'not_found'],
  responses: ACCEPTED,
});

export const readBacktest = operation({
  id: 'readBacktest',
  summary: 'A backtest artifact, byte for byte as stored (or its year table or burning cost as CSV)',
  params: ID_PARAM('backtest'),
  query: queryOf({
    format: formatParameter(BACKTEST_OFFERS),
    table: { type: 'string', enum: [...BACKTEST_TABLES], description: 'CSV only: years (default; one row per year of the window) or burning_cost (payout and rate on line by year). The JSON artifact holds both.' },
  }),
  errors: ['invalid_request', 'not_found', 'not_acceptable'],
  responses: {
    200: {
      description: 'The artifact: year-by-year payouts of the structure over the pinned snapshot, with the feed triple and engine named.',
      schema: published('backtest.v0'),
      alternatives: { 'text/csv': 'The table named by table= (RFC 4180, header row, CRLF): years, or burning_cost.' },
    },
  },
});

export const backtestChart = chartOperations({
  id: 'readBacktestChart',
  summary: 'A backtest\'s payouts by year as a bar chart',
  picture: 'Payout by year of the window (bars), the attachment, limit and annual cap as lines, years with no record shaded and partial years pale; drawn from the stored artifact',
  params: ID_PARAM('backtest'),
  errors: ['not_found'],
});
