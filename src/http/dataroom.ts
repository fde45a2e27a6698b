// The data room host: every archived dataset with licence, credit line, publisher provenance and
// per-file digests; each file downloadable, its bytes matching its digest.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { requireSnapshot, sendSnapshotData } from './api/feeds.js';
import { DATAROOM_SCHEMA_VERSION } from '../kernel/versions.js';
import { catalog, datasetFile } from './schemas/dataroom.js';

const filePath = (feedId: string, version: string, name: string) =>
  `/datasets/${encodeURIComponent(feedId)}/${encodeURIComponent(version)}/files/${name.split('/').map(encodeURIComponent).join('/')}`;

export function dataroomRoutes(app: FastifyInstance, services: Services) {
  app.get('/catalog', catalog, async () => {
    const datasets = (services.feeds?.list() ?? []).map((s) => {
      const m = s.manifest;
      return {
        id: s.feed_id,
        version: s.version,
        sha256: s.sha256,
        title: m.title ?? null,
        kind: m.kind ?? null,
        perils: m.perils ?? [],
        license: m.license ?? null,
        credit_line: m.credit_line ?? null,
        publisher: { name: m.publisher ?? null, url: m.publisher_url ?? null },
        provenance: { obtained_from: m.raw.obtained_from ?? null, derived: m.derived ?? null, derivation: m.derivation ?? null },
        coverage: m.coverage?.raw ?? null,
        period_of_record: m.period_of_record ?? null,
        content_servable: m.content_servable !== false,
        files: m.files.map((f) => ({
          name: f.name, sha256: f.sha256, bytes: f.bytes, media_type: f.media_type,
          links: { download: filePath(s.feed_id, s.version, f.name) },
        })),
      };
    });
    return {
      schema_version: DATAROOM_SCHEMA_VERSION,
      count: datasets.length,
      datasets,
      note: 'Files are served verbatim; each download carries Repr-Digest (RFC 9530) with the SHA-256 listed here. Datasets whose licence allows aggregates only are listed but not served (403 feed_not_servable).',
    };
  });

  app.get('/datasets/:feed_id/:version/files/*', datasetFile, async (request, reply) => {
    const params = request.params as { feed_id: string; version: string; '*': string };
    const snapshot = requireSnapshot(services.feeds, params.feed_id, params.version);
    return sendSnapshotData(services.feeds!, snapshot, params['*'], reply, filePath(snapshot.feed_id, snapshot.version, ''));
  });
}
