// The data room host: every archived dataset with licence, credit line, publisher provenance and
// per-file digests; each file downloadable, its bytes matching its digest.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { datasetCatalog, datasetFilePath, snapshotData } from '../app/feeds.js';
import { sendSnapshotData } from './api/feeds.js';
import { answer } from './answer.js';
import * as schema from './schemas/dataroom.js';

export function dataroomRoutes(app: FastifyInstance, services: Services) {
  app.get('/catalog', schema.catalog, async () => answer(datasetCatalog(services)));

  app.get('/datasets/:feed_id/:version/files/*', schema.datasetFile, async (request, reply) => {
    const params = request.params as { feed_id: string; version: string; '*': string };
    const data = answer(await snapshotData(services, {
      feedId: params.feed_id, version: params.version, file: params['*'], base: (s) => datasetFilePath(s.feed_id, s.version, ''),
    }));
    return sendSnapshotData(request, reply, data);
  });
}
