// The data room host: the catalog and each archived file.
import { operation, queryOf } from './operation.js';

export const catalog = operation({
  id: 'readCatalog',
  summary: 'Every archived dataset with licence, credit line, provenance and per-file digests',
  errors: [],
  responses: { 200: { description: 'The catalog.' } },
});

export const datasetFile = operation({
  id: 'readDatasetFile',
  summary: 'One archived file, verbatim, with Repr-Digest',
  query: queryOf({}),
  errors: ['invalid_request', 'not_found', 'feed_not_servable'],
  responses: { 200: { description: 'The file\'s bytes in its own media type.', type: '*/*' } },
});
