// POST /exposure-codes, POST /multi-building-flags: schedule rows coded to OED, and rows read for
// several buildings. The caps (50 rows, 1,000 characters a row, 192 KiB a body) are the use case's,
// answered 413 payload_too_large; the schema checks only the shape.
import { BOOLEAN, INTEGER, NUMBER, STRING, operation, shape, type JsonSchema } from './operation.js';

const ROWS_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rows'],
  description: 'Schedule rows as text, one string per row: up to 50 rows, 1,000 characters a row, 192 KiB a body (over any of them: 413 payload_too_large).',
  properties: { rows: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'The rows, in order; answers refer to them by index.' } },
};

const PROVIDER = shape('The provider that answered: embedded (no network) or chat-completions, and its model.', { name: STRING, model: STRING });
const BUDGET = shape('The account\'s daily row budget (UTC day): rows used with this request, and rows a day.', { day: STRING, rows_used: INTEGER, rows_per_day: INTEGER });
const NULLABLE_CODE = { type: ['integer', 'null'] };

const CODE_FIELD = {
  type: ['object', 'null'],
  description: 'One OED code: code (null below the gate), proposed (the code proposed either way), its OED name, the confidence (0 to 1) and whether it cleared the gate. Null when the row is unanswered.',
  properties: { code: NULLABLE_CODE, proposed: INTEGER, name: STRING, confidence: NUMBER, cleared_gate: BOOLEAN },
  required: ['code', 'proposed', 'name', 'confidence', 'cleared_gate'],
};

const ERRORS = ['invalid_request', 'payload_too_large', 'exposure_coding_unavailable'];

export const exposureCodes = operation({
  id: 'codeExposure',
  summary: 'OED occupancy and construction codes for schedule rows',
  description: 'Off unless the environment enables exposure coding. The rows go to the configured provider (the embedded coder, or an AI provider); each row counts against the account\'s daily row budget.',
  body: ROWS_BODY,
  errors: ERRORS,
  responses: {
    200: {
      description: 'Per row an OccupancyCode and a ConstructionCode with confidence and the gate\'s verdict; needs_review marks rows for a person.',
      schema: shape('Exposure codes.', {
        schema_version: STRING,
        provider: PROVIDER,
        gate: shape('The confidence a code must reach to be set.', { confidence: NUMBER }),
        budget: BUDGET,
        counts: shape('Rows by outcome.', { rows: INTEGER, answered: INTEGER, unanswered: INTEGER, needs_review: INTEGER }),
        rows: {
          type: 'array',
          items: shape('One row\'s codes.', {
            index: INTEGER,
            status: { enum: ['answered', 'unanswered'] },
            occupancy: CODE_FIELD,
            construction: CODE_FIELD,
            needs_review: BOOLEAN,
          }),
        },
      }),
    },
  },
});

export const multiBuildingFlags = operation({
  id: 'flagMultiBuilding',
  summary: 'Probability that each schedule row covers more than one building',
  description: 'Shares exposure coding\'s switch, caps, provider and daily row budget.',
  body: ROWS_BODY,
  errors: ERRORS,
  responses: {
    200: {
      description: 'Per row the probability and a status: flagged (at or above the gate), not_flagged (at or below one less the gate), below_gate (between: for a person), unanswered.',
      schema: shape('Multi-building flags.', {
        schema_version: STRING,
        provider: PROVIDER,
        gate: shape('Where a row is flagged, and where it is not.', { flagged_at: NUMBER, not_flagged_at: NUMBER }),
        budget: BUDGET,
        counts: shape('Rows by status.', { rows: INTEGER, flagged: INTEGER, below_gate: INTEGER, not_flagged: INTEGER, unanswered: INTEGER }),
        rows: {
          type: 'array',
          items: shape('One row\'s reading.', {
            index: INTEGER,
            status: { enum: ['flagged', 'below_gate', 'not_flagged', 'unanswered'] },
            probability: { type: ['number', 'null'] },
            needs_review: BOOLEAN,
          }),
        },
      }),
    },
  },
});
