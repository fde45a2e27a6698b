// Risk objects: create, read, read its locations a page at a time, PATCH, price.
import { JSON_OFFER, OED_OFFER, formatParameter } from '../negotiate.js';
import { OED_TABLES } from '../../app/exports.js';
import { WRITABLE_BLOCKS } from '../../domain/risk-object/patch.js';
import { ACCEPTED, ID_PARAM, INTEGER, LINKS, STRING, chartOperations, operation, published, queryOf, shape, text } from './operation.js';

const OBJECT_BODY = { 'application/json': { schema: published('risk-object.v0') } };
const ETAG = { ETag: 'The object\'s version as a strong entity tag; send it in If-Match to PATCH only that version.' };

export const createObject = operation({
  id: 'createObject',
  summary: 'Store a complete canonical risk object (metered: one object unit)',
  body: { type: 'object' },
  requestBody: { required: true, description: 'A complete canonical risk object; server-set members (id, status, technical_premium) are the server\'s.', content: OBJECT_BODY },
  refusal: { code: 'invalid_risk_object', body: 'risk object' },
  errors: ['invalid_risk_object', 'account_cancelled'],
  responses: { 201: { description: 'The stored object, a draft with a new id.', schema: published('risk-object.v0'), headers: { Location: 'The object: /objects/{id}.', ...ETAG } } },
  idempotent: true,
});

export const readObject = operation({
  id: 'readObject',
  summary: 'A risk object, as its stored canonical bytes',
  params: ID_PARAM('object'),
  errors: ['not_found'],
  responses: {
    200: { description: 'The object.', schema: published('risk-object.v0'), headers: ETAG },
    304: { description: 'Not modified: If-None-Match names the current version.' },
  },
});

/** An object's locations are served a page at a time as JSON, or all at once as an OED location file. */
export const LOCATION_OFFERS = [JSON_OFFER, OED_OFFER] as const;

export const objectLocations = operation({
  id: 'listLocations',
  summary: 'A page of an object\'s locations, in schedule order',
  params: ID_PARAM('object'),
  query: queryOf({
    limit: text('page-limit', 'Page size: default 100, ceiling 1000.'),
    offset: text('page-offset', 'Locations skipped.'),
    resume: text(undefined, 'Where page.next starts in the stored object; written by the service, never needed.'),
    format: formatParameter(LOCATION_OFFERS),
    table: { type: 'string', enum: [...OED_TABLES], description: 'format=oed only: the OED file: location (default), or account, ri_info, ri_scope (404 when the object was ingested without that file).' },
  }),
  errors: ['invalid_request', 'not_found', 'not_acceptable'],
  responses: {
    200: {
      description: 'The page.',
      schema: shape('A page of locations.', {
        schema_version: STRING,
        object_id: STRING,
        locations: { type: 'array', items: { $ref: '#/components/schemas/risk-object.v0/$defs/location' } },
        page: shape('Paging.', { limit: INTEGER, offset: INTEGER, next: { type: ['string', 'null'] } }),
        links: LINKS,
      }),
      headers: { 'Catrisk-Oed-Filled': 'format=oed, a location file of a source that was not OED: each column the export filled where the source gave none and its rule, e.g. PortNumber; from="object id", CountryCode; from="coordinates".' },
      alternatives: { 'text/csv': 'format=oed (or Accept: text/csv): an OED file, columns in the pinned OED spec\'s order: every location as an OED location.csv (an OED source\'s fields as read; for another, OED\'s required fields filled where the source gave none, each filled column and its rule in the Catrisk-Oed-Filled header), or with table= the account or a reinsurance file as read; streamed; limit, offset and resume do not apply.' },
    },
  },
});

/** A PATCH names writable blocks only, each as the risk object's schema defines it, or null to remove it. */
const PATCH_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(WRITABLE_BLOCKS.map((block) => [block, { anyOf: [{ $ref: `#/components/schemas/risk-object.v0/properties/${block}` }, { type: 'null' }] }])),
};

export const patchObject = operation({
  id: 'patchObject',
  summary: 'Write whole blocks of an object (compare-and-set with If-Match)',
  description: 'Each block named replaces the block of that name whole. exposure, id, schema_version, status and provenance are read-only. A PATCH that moves a priced input returns the object to draft.',
  params: ID_PARAM('object'),
  requestBody: { required: true, description: 'Only the blocks being written.', content: { 'application/json': { schema: PATCH_BODY } } },
  errors: ['invalid_request', 'not_found', 'precondition_failed', 'server_error'],
  responses: { 200: { description: 'The object as written.', schema: published('risk-object.v0'), headers: ETAG } },
});

export const priceObject = operation({
  id: 'priceObject',
  retiring: 'price',
  summary: 'Price the object\'s own terms (a job)',
  params: ID_PARAM('object'),
  body: { type: ['object', 'null'], additionalProperties: false, properties: {}, description: 'Empty, or {}: the object\'s own terms are priced (vary them with PATCH or a structure).' },
  refusal: { body: 'price request' },
  errors: ['invalid_request', 'not_found', 'account_cancelled'],
  jobErrors: ['unpriceable_object', 'object_changed', 'not_found'],
  responses: ACCEPTED,
  idempotent: true,
});

export const objectMap = chartOperations({
  id: 'readObjectMap',
  summary: 'A map of an object\'s locations (with a structure\'s box or gate)',
  picture: 'The locations with coordinates on an equirectangular map fitted to their extent (at most 20,000 drawn: one in every 2^k in schedule order past that, said in the picture), and with structure= that structure\'s box or gate',
  params: ID_PARAM('object'),
  query: queryOf({
    structure: text(undefined, 'A structure of yours cut from this object (str_…): its peril.region (a cat-in-a-box box, or a track gate\'s box or polygon) is drawn over the locations.'),
  }),
  errors: ['invalid_request', 'not_found'],
});
