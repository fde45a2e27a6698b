// GET /feeds, a snapshot's manifest, and the publisher's bytes.
import { BOOLEAN, INTEGER, LINKS, STRING, operation, queryOf, shape, text } from './operation.js';

const SNAPSHOT = {
  type: 'object',
  properties: {
    feed_id: { type: 'string', description: 'The feed.' },
    version: { type: 'string', description: 'The pinned vintage.' },
  },
  required: ['feed_id', 'version'],
};

export const listFeeds = operation({
  id: 'listFeeds',
  summary: 'Every pinned snapshot, with the SHA-256 of its exact bytes',
  errors: [],
  responses: {
    200: {
      description: 'The feeds, each with its pinned versions.',
      schema: shape('The feed listing.', {
        schema_version: STRING,
        count: INTEGER,
        feeds: { type: 'array', items: shape('A feed.', { feed_id: STRING, latest_version: STRING, versions: { type: 'array', items: shape('A pinned version.', { version: STRING, sha256: STRING, content_servable: BOOLEAN, links: LINKS }) } }) },
        refused: { type: 'array', items: shape('A snapshot refused at start-up, and why.', { feed_id: STRING, version: STRING, reason: STRING }) },
        note: STRING,
      }),
    },
  },
});

export const readManifest = operation({
  id: 'readManifest',
  summary: 'A snapshot\'s manifest: publisher, coverage, licence, aggregation level, sha256',
  params: SNAPSHOT,
  errors: ['not_found'],
  responses: { 200: { description: 'The manifest as pinned, with sha256, content_servable and links.', schema: shape('A manifest.', { schema_version: STRING, sha256: STRING, content_servable: BOOLEAN, links: LINKS }) } },
});

export const readSnapshotData = operation({
  id: 'readSnapshotData',
  summary: 'The publisher\'s bytes verbatim, with the pinned digest beside them',
  description: 'A snapshot of one file answers with its bytes; of several, with an index whose links name each file (?file=).',
  params: SNAPSHOT,
  query: queryOf({ file: text(undefined, 'The file of a snapshot of several files.') }),
  errors: ['invalid_request', 'not_found', 'feed_not_servable'],
  responses: {
    200: {
      description: 'The file\'s bytes in its own media type, or (a snapshot of several files, no file named) the index of files as JSON.',
      type: '*/*',
      headers: { 'Repr-Digest': 'sha-256 of the bytes (RFC 9530), the pinned digest.', 'Catrisk-Feed': 'The feed triple: id, version and sha256.' },
    },
  },
});
