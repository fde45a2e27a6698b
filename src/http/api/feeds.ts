// GET /feeds, a snapshot's manifest, and the publisher's bytes with the pinned digest beside them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { feedList, snapshotData, snapshotManifest, snapshotPath, type SnapshotData } from '../../app/feeds.js';
import { answer } from '../answer.js';
import { bytesTag, digestTag, notModified } from '../caching.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import * as schema from '../schemas/feeds.js';

export function feedRoutes(app: FastifyInstance, services: Services) {
  app.get('/feeds', schema.listFeeds, async () => answer(feedList(services)));

  app.get('/feeds/:feed_id/versions/:version', schema.readManifest, async (request) => {
    const { feed_id, version } = request.params as { feed_id: string; version: string };
    return answer(snapshotManifest(services, { feedId: feed_id, version }));
  });

  app.get('/feeds/:feed_id/versions/:version/data', schema.readSnapshotData, async (request, reply) => {
    const { feed_id, version } = request.params as { feed_id: string; version: string };
    const query = request.query as { file?: string };
    const data = answer(await snapshotData(services, { feedId: feed_id, version, file: query.file, base: (s) => `${snapshotPath(s)}/data` }));
    return sendSnapshotData(request, reply, data);
  });
}

/**
 * The publisher's bytes verbatim, with their media type and the pinned digest (RFC 9530
 * Repr-Digest); or the index of a snapshot's files. A pinned snapshot never changes: both are
 * immutable, the file tagged by its pinned digest.
 */
export function sendSnapshotData(request: FastifyRequest, reply: FastifyReply, data: SnapshotData) {
  if (data.kind === 'index') {
    const json = canonicalJson(data.document);
    if (notModified(request, reply, bytesTag(json), { immutable: true })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  }
  const { snapshot } = data;
  if (notModified(request, reply, digestTag(data.sha256), { immutable: true })) return reply.code(304).send();
  return reply
    .header('content-type', data.mediaType ?? 'application/octet-stream')
    .header('repr-digest', `sha-256=:${Buffer.from(data.sha256, 'hex').toString('base64')}:`)
    .header('catrisk-feed', `${snapshot.feed_id}; version=${snapshot.version}; sha256=${snapshot.sha256}`)
    .header('content-disposition', `inline; filename="${data.name.split('/').pop()!.replace(/"/g, '')}"`)
    .send(data.bytes);
}
