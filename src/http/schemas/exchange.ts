// The model exchange: listings, their states, the connector check, grants, and the lab's internal
// connector route. A listing's body is checked against the published listing schema by the use
// case (schemas/exchange-listing.v0.json; 422 invalid_exchange_model naming each fault).
import { BOOLEAN, INTEGER, LINKS, OBJECT, STRING, operation, published, queryOf, shape, type JsonSchema } from './operation.js';

const MODEL_ID = { type: 'string', description: 'The listing\'s id: xm_ and 16 lowercase hex digits.' };
const ID = { type: 'object', properties: { id: MODEL_ID }, required: ['id'] };
const GRANT_PARAMS = {
  type: 'object',
  properties: { id: MODEL_ID, account_id: { type: 'string', pattern: '^acct_[0-9a-f]{24}$', description: 'The account granted: acct_ and 24 lowercase hex digits.' } },
  required: ['id', 'account_id'],
};

const STATE = { enum: ['draft', 'in_review', 'listed', 'rejected', 'withdrawn'], description: 'draft → review → in_review → (a person) listed or rejected; withdraw takes it off; the move table is on the exchange page.' };

const LISTING: JsonSchema = shape('An exchange listing: the provider\'s terms, its state and whether connector credentials are stored (never the credentials).', {
  schema_version: STRING,
  id: { type: 'string', pattern: '^xm_[0-9a-f]{16}$' },
  state: STATE,
  name: STRING,
  description: STRING,
  perils: { type: 'array', items: STRING },
  regions: { type: 'array', items: STRING },
  access: { enum: ['free', 'by_grant'] },
  access_url: STRING,
  connector: shape('How the service reaches the provider\'s platform.', { base_url: STRING, model_ref: STRING, credentials_stored: BOOLEAN }),
  provider: shape('Who runs the model.', { name: STRING, email: STRING, url: STRING }, ['name', 'email']),
  run_by: STRING,
  review: shape('The provider\'s own listing, once rejected: the reason given.', { reason: STRING }),
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
  links: LINKS,
}, ['schema_version', 'id', 'state', 'name', 'description', 'perils', 'regions', 'access', 'access_url', 'connector', 'provider', 'run_by', 'created_at', 'updated_at', 'links']);

const LISTING_BODY = { type: 'object', description: 'A listing per the published listing schema (/schema/exchange-listing.v0.json).' };
const LISTING_REFUSAL = { code: 'invalid_exchange_model', body: 'listing' };

export const listListings = operation({
  id: 'listListings',
  summary: 'Listed exchange models, in name order (no key needed; a key sent must be one this environment holds)',
  errors: [],
  responses: { 200: { description: 'Every listed model.', schema: shape('Listed models.', { schema_version: STRING, count: INTEGER, models: { type: 'array', items: LISTING } }) } },
});

const LISTING_REQUEST = { required: true, description: 'A listing per the published listing schema (/schema/exchange-listing.v0.json).', content: { 'application/json': { schema: published('exchange-listing.v0') } } };

export const createListing = operation({
  id: 'createListing',
  summary: 'List a model run by its provider on its own platform: a draft',
  description: 'The body follows /schema/exchange-listing.v0.json. connector.base_url must be public https (422 unsafe_platform_address); connector.credentials is sealed at rest under the environment\'s sealing key, CATRISK_SEALING_KEY (422 exchange_credentials_unavailable when the environment holds no key) and never returned.',
  body: LISTING_BODY,
  requestBody: LISTING_REQUEST,
  refusal: LISTING_REFUSAL,
  errors: ['invalid_exchange_model', 'unsafe_platform_address', 'exchange_credentials_unavailable'],
  responses: { 201: { description: 'The draft listing.', schema: LISTING, headers: { Location: 'The listing: /exchange/models/{id}.' } } },
});

export const readListing = operation({
  id: 'readListing',
  summary: 'An exchange listing: a listed one for anyone (no key needed), the provider\'s own in any state',
  params: ID,
  errors: ['not_found'],
  responses: { 200: { description: 'The listing.', schema: LISTING } },
});

export const patchListing = operation({
  id: 'patchListing',
  summary: 'Change a listing (its provider, in any state): members sent replace the stored ones, connector\'s one by one',
  description: 'Send connector.credentials to store (or replace) them sealed. The listing after the change must still validate (422 invalid_exchange_model); a new connector.base_url is checked again (422 unsafe_platform_address). The state does not move.',
  params: ID,
  body: { type: 'object', additionalProperties: true, description: 'The members that change, each as the listing schema (/schema/exchange-listing.v0.json) defines it.' },
  refusal: LISTING_REFUSAL,
  errors: ['invalid_exchange_model', 'unsafe_platform_address', 'exchange_credentials_unavailable', 'not_found'],
  responses: { 200: { description: 'The listing as changed.', schema: LISTING } },
});

const STEP = {
  type: 'object',
  properties: {
    step: { enum: ['address', 'dns', 'tls_connect', 'login', 'model'] },
    status: { enum: ['passed', 'failed', 'skipped'] },
    ms: { type: ['number', 'null'], description: 'How long the step took, in milliseconds (null when not timed).' },
    detail: STRING,
    addresses: { type: 'array', items: STRING },
  },
  required: ['step', 'status', 'ms', 'detail'],
};

export const checkListing = operation({
  id: 'checkListing',
  summary: 'Whether the service can reach the provider\'s platform, log in and find the model, step by step and timed',
  description: 'Steps: address (the address rule on the URL and every resolved address), dns, tls_connect (certificate verified, peer address checked), login (GET /v1/account with the stored credentials), model (GET /v1/models/{model_ref}). A step after a failed one is skipped. Not metered.',
  params: ID,
  errors: ['not_found', 'exchange_credentials_unavailable'],
  responses: { 200: { description: 'The check.', schema: shape('A connector check.', { schema_version: STRING, model_id: STRING, checked_at: { type: 'string', format: 'date-time' }, ok: BOOLEAN, steps: { type: 'array', items: STEP } }) } },
});

export const reviewListing = operation({
  id: 'reviewListing',
  summary: 'Ask for the listing to be made public: a person decides (catrisk exchange approve|reject)',
  params: ID,
  errors: ['not_found', 'exchange_not_ready'],
  responses: { 200: { description: 'The listing, in review.', schema: LISTING } },
});

export const withdrawListing = operation({
  id: 'withdrawListing',
  summary: 'Take the listing off the exchange',
  params: ID,
  errors: ['not_found', 'exchange_not_ready'],
  responses: { 200: { description: 'The listing, withdrawn.', schema: LISTING } },
});

const GRANTS = published('exchange-grants.v0');

export const readGrants = operation({
  id: 'listGrants',
  summary: 'Who the provider has granted the listing to (the provider only)',
  params: ID,
  errors: ['not_found'],
  responses: { 200: { description: 'The grants document.', schema: GRANTS } },
});

export const putGrant = operation({
  id: 'putGrant',
  summary: 'Grant an account the right to run a by_grant listing (the provider only; a grant already made keeps its time)',
  description: 'No body (an empty JSON object is read as none). Only who is granted is recorded, not why: any payment is between user and provider, outside the service. A free listing refuses grants with 422 exchange_not_ready.',
  params: GRANT_PARAMS,
  body: { type: ['object', 'null'], additionalProperties: false, maxProperties: 0 },
  errors: ['not_found', 'exchange_not_ready'],
  responses: { 200: { description: 'The grants document.', schema: GRANTS } },
});

export const deleteGrant = operation({
  id: 'deleteGrant',
  summary: 'Take back an account\'s grant (the provider only; taking back one not made changes nothing)',
  params: GRANT_PARAMS,
  errors: ['not_found'],
  responses: { 200: { description: 'The grants document.', schema: GRANTS } },
});

export const internalConnector = operation({
  id: 'readConnector',
  summary: 'The lab\'s own route: a listing\'s connector for an account, credentials opened (internal only)',
  description: 'Answers only a request from this machine (loopback socket), not forwarded by any proxy (no Forwarded, X-Forwarded-* or X-Real-IP header), carrying the environment\'s internal credential (CATRISK_INTERNAL_TOKEN) as Authorization: Bearer; else 403 internal_only naming each missing condition, or 401 when no credential is carried. The account is refused as the lab would refuse it: 404 for a listing it may not see, 403 exchange_access_refused when not granted, 422 exchange_not_ready before credentials are stored.',
  params: ID,
  query: queryOf({ account_id: { type: 'string', pattern: '^acct_[0-9a-f]{24}$', description: 'The account the lab runs the model for.' } }, ['account_id']),
  errors: ['internal_only', 'not_found', 'exchange_access_refused', 'exchange_not_ready', 'exchange_credentials_unavailable'],
  responses: { 200: { description: 'The connector.', schema: shape('A connector, for the lab only.', { schema_version: STRING, model_id: STRING, name: STRING, provider: OBJECT, base_url: STRING, model_ref: STRING, credentials: STRING }) } },
});
