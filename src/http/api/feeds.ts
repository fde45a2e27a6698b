// GET /feeds, a snapshot's manifest, and the publisher's bytes with the pinned digest beside them.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../services.js';
import type { FeedStore, Snapshot } from '../../feeds/store.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { coverageRadiusKm } from '../../feeds/coverage.js';
import { FEEDS_SCHEMA_VERSION } from '../../kernel/versions.js';
import { listFeeds, readManifest, readSnapshotData } from '../schemas/feeds.js';

/** The triple every result names for the bytes it read. */
export function feedTriple(s: Snapshot) {
  return { feed_id: s.feed_id, version: s.version, sha256: s.sha256 };
}

export function snapshotPath(s: Snapshot): string {
  return `/feeds/${encodeURIComponent(s.feed_id)}/versions/${encodeURIComponent(s.version)}`;
}

export function requireSnapshot(store: FeedStore | undefined, feedId: string, version?: string): Snapshot {
  const snapshot = store?.get(feedId, version);
  if (!snapshot) {
    const known = store?.versions(feedId) ?? [];
    throw refusals.notFound(known.length > 0
      ? `Feed ${feedId} has no pinned version ${version}; pinned: ${known.join(', ')}`
      : `No pinned feed ${feedId}`);
  }
  return snapshot;
}

function versionView(s: Snapshot) {
  const m = s.manifest;
  return {
    version: s.version,
    sha256: s.sha256,
    content_servable: m.content_servable !== false,
    period_of_record: m.period_of_record ?? null,
    links: { self: snapshotPath(s), data: `${snapshotPath(s)}/data` },
  };
}

export function feedRoutes(app: FastifyInstance, services: Services) {
  app.get('/feeds', listFeeds, async () => {
    const store = services.feeds;
    const feeds = (store?.feeds() ?? []).map((feedId) => {
      const versions = store!.versions(feedId).map((v) => store!.get(feedId, v)!);
      const latest = versions[versions.length - 1]!.manifest;
      return {
        feed_id: feedId,
        title: latest.title ?? null,
        kind: latest.kind ?? null,
        perils: latest.perils ?? [],
        publisher: latest.publisher ?? null,
        coverage: latest.coverage?.raw ?? null,
        coverage_radius_km: coverageRadiusKm(versions[versions.length - 1]!) ?? null,
        aggregation_level: latest.aggregation_level ?? null,
        latest_version: latest.version,
        versions: versions.map(versionView),
      };
    });
    return {
      schema_version: FEEDS_SCHEMA_VERSION,
      count: feeds.length,
      feeds,
      refused: (store?.refused ?? []).map((r) => ({ feed_id: r.feed_id, version: r.version, reason: r.reason })),
      note: 'Every snapshot is identified by (feed_id, version, sha256); sha256 is that of the exact pinned bytes (for several files, of their sha256sum listing sorted by name).',
    };
  });

  app.get('/feeds/:feed_id/versions/:version', readManifest, async (request) => {
    const { feed_id, version } = request.params as { feed_id: string; version: string };
    const snapshot = requireSnapshot(services.feeds, feed_id, version);
    const m = snapshot.manifest;
    return {
      ...m.raw,
      schema_version: FEEDS_SCHEMA_VERSION,
      sha256: snapshot.sha256,
      content_servable: m.content_servable !== false,
      links: { self: snapshotPath(snapshot), data: `${snapshotPath(snapshot)}/data` },
    };
  });

  app.get('/feeds/:feed_id/versions/:version/data', readSnapshotData, async (request, reply) => {
    const { feed_id, version } = request.params as { feed_id: string; version: string };
    const query = request.query as { file?: string };
    const snapshot = requireSnapshot(services.feeds, feed_id, version);
    return sendSnapshotData(services.feeds!, snapshot, query.file, reply, `${snapshotPath(snapshot)}/data`);
  });
}

/**
 * The publisher's bytes verbatim, with their media type and the pinned digest (RFC 9530
 * Repr-Digest). A snapshot of several files answers with an index; ?file= names one.
 */
export async function sendSnapshotData(store: FeedStore, snapshot: Snapshot, file: string | undefined, reply: FastifyReply, base: string) {
  if (snapshot.manifest.content_servable === false) {
    throw new ApiError(403, 'feed_not_servable',
      `The licence of ${snapshot.feed_id} ${snapshot.version} allows aggregates only: its content is not served. Its manifest and the results computed from it are.`);
  }
  const files = snapshot.manifest.files;
  const name = file ?? (files.length === 1 ? files[0]!.name : undefined);
  if (name === undefined) {
    return {
      schema_version: FEEDS_SCHEMA_VERSION,
      ...feedTriple(snapshot),
      files: files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes, media_type: f.media_type, links: { data: `${base}?file=${encodeURIComponent(f.name)}` } })),
    };
  }
  const entry = files.find((f) => f.name === name);
  if (!entry) throw refusals.notFound(`${snapshot.feed_id} ${snapshot.version} has no file ${name}`);
  const bytes = await store.readFile(snapshot, entry.name);
  return reply
    .header('content-type', entry.media_type ?? 'application/octet-stream')
    .header('repr-digest', `sha-256=:${Buffer.from(entry.sha256, 'hex').toString('base64')}:`)
    .header('catrisk-feed', `${snapshot.feed_id}; version=${snapshot.version}; sha256=${snapshot.sha256}`)
    .header('content-disposition', `inline; filename="${entry.name.split('/').pop()!.replace(/"/g, '')}"`)
    .send(bytes);
}
