// Accounts, keys, usage and the subscription (SPEC: Account and key, Authentication, Limits).
import { INTEGER, STRING, operation, shape } from './operation.js';

const ACCOUNT = {
  schema_version: STRING,
  id: STRING,
  created_at: { type: 'string', format: 'date-time' },
  plan: STRING,
  status: { enum: ['active', 'cancelled'] },
  label: STRING,
  email: STRING,
  cancelled_at: { type: 'string', format: 'date-time' },
};
const ACCOUNT_REQUIRED = ['schema_version', 'id', 'created_at', 'plan', 'status'];
const KEY = { id: STRING, created_at: { type: 'string', format: 'date-time' }, scheme: { const: 'Bearer' }, expires_at: { type: 'null', description: 'Keys never expire.' } };

export const signup = operation({
  id: 'signUp',
  summary: 'Open an account and get its API key (no key needed)',
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Optional; an empty body is allowed.',
    properties: {
      email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', description: 'an email address (name@domain.tld)' },
      label: { type: 'string', minLength: 1, maxLength: 200, description: 'A name for the account, 1 to 200 characters.' },
    },
  },
  errors: ['invalid_request'],
  responses: {
    201: {
      description: 'The account and its key; the secret is shown once.',
      schema: shape('An account with its new key.', { ...ACCOUNT, api_key: shape('The key.', { ...KEY, secret: STRING }) }, [...ACCOUNT_REQUIRED, 'api_key']),
    },
  },
});

export const readAccount = operation({
  id: 'readAccount',
  summary: 'The key\'s account and its keys (never a secret)',
  errors: ['not_found'],
  responses: { 200: { description: 'The account.', schema: shape('An account.', { ...ACCOUNT, api_keys: { type: 'array', items: shape('A key.', KEY) } }, [...ACCOUNT_REQUIRED, 'api_keys']) } },
});

const USAGE = shape('Use in billed units (objects and model runs); survives cancellation.', {
  schema_version: STRING,
  account_id: STRING,
  plan: STRING,
  status: STRING,
  metering: { enum: ['on', 'stopped'] },
  units: shape('Units recorded.', { objects: INTEGER, model_runs: INTEGER, total: INTEGER }),
  allowance: shape('The sandbox allowance.', { units: INTEGER, used: INTEGER, remaining: INTEGER }),
  billable_units: INTEGER,
  records: { type: 'array', items: shape('One recorded unit.', { unit: STRING, subject_id: STRING, recorded_at: { type: 'string', format: 'date-time' } }) },
  payment: STRING,
  final_invoice: shape('Once cancelled: the invoice settling every unit recorded before cancellation (test mode: no money is taken).', {
    issued_at: { type: 'string', format: 'date-time' },
    units: shape('Units recorded.', { objects: INTEGER, model_runs: INTEGER, total: INTEGER }),
    included_units: INTEGER,
    billable_units: INTEGER,
    test_mode: { type: 'boolean' },
    note: STRING,
  }),
}, ['schema_version', 'account_id', 'plan', 'status', 'metering', 'units', 'allowance', 'billable_units', 'records', 'payment']);

export const readUsage = operation({
  id: 'readUsage',
  summary: 'Use in billed units',
  errors: ['not_found'],
  responses: { 200: { description: 'The usage document.', schema: USAGE } },
});

export const cancelSubscription = operation({
  id: 'cancelSubscription',
  summary: 'Cancel the plan now; nothing further is recorded',
  errors: ['not_found'],
  responses: { 200: { description: 'The usage document with its final invoice.', schema: USAGE } },
});
