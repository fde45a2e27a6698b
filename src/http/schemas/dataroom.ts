// The data room host: the catalog and each archived file.
import { BOOLEAN, INTEGER, STRING, operation, queryOf, shape, type JsonSchema } from './operation.js';

const TEXT_OR_NULL = { type: ['string', 'null'] } as const;
/** A manifest's own block, as its publisher's pin wrote it (coverage, period of record): open by nature. */
const AS_PINNED = (what: string): JsonSchema => ({ type: ['object', 'null'], additionalProperties: true, description: what });

/** One archived dataset (app/feeds.ts catalogEntry). */
const DATASET = shape('An archived dataset: licence, credit line, provenance and each file with its digest.', {
  id: STRING,
  version: STRING,
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  title: TEXT_OR_NULL,
  kind: TEXT_OR_NULL,
  perils: { type: 'array', items: STRING },
  license: TEXT_OR_NULL,
  credit_line: TEXT_OR_NULL,
  publisher: shape('Who published it.', { name: TEXT_OR_NULL, url: TEXT_OR_NULL }),
  provenance: shape('Where the bytes came from.', { obtained_from: { type: ['object', 'array', 'null'], description: 'Where the pinned bytes were obtained, as the manifest records it: a source record (repository, path, commit...) or a list of them.' }, derived: { type: ['boolean', 'null'] }, derivation: TEXT_OR_NULL }),
  coverage: AS_PINNED('The coverage as the manifest pins it.'),
  period_of_record: { anyOf: [{ ...shape('First and last date of the record.', { from: TEXT_OR_NULL, to: TEXT_OR_NULL }), additionalProperties: true }, { type: 'null' }], description: 'The period of record as the manifest pins it (src/feeds/manifest.ts reads from and to).' },
  content_servable: BOOLEAN,
  files: {
    type: 'array',
    items: shape('A file, served verbatim.', {
      name: STRING, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' }, bytes: INTEGER, media_type: STRING,
      links: shape('Where the data room serves it.', { download: STRING }),
    }),
  },
});

export const catalog = operation({
  id: 'readCatalog',
  summary: 'Every archived dataset with licence, credit line, provenance and per-file digests',
  errors: [],
  responses: {
    200: {
      description: 'The catalog.',
      schema: shape('Every archived dataset.', { schema_version: STRING, count: INTEGER, datasets: { type: 'array', items: DATASET }, note: STRING }),
    },
  },
});

export const datasetFile = operation({
  id: 'readDatasetFile',
  summary: 'One archived file, verbatim, with Repr-Digest',
  query: queryOf({}),
  errors: ['invalid_request', 'not_found', 'feed_not_servable'],
  responses: { 200: { description: 'The file\'s bytes in its own media type.', type: '*/*' } },
});
