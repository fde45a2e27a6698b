// GET /hazard?peril&lat&lon: what the pinned record says about one point, per covering snapshot.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { hazardAt } from '../../app/hazard.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/hazard.js';

export function hazardRoutes(app: FastifyInstance, services: Services) {
  app.get('/hazard', schema.hazardAtPoint, async (request) => {
    // The schema has checked each parameter's form and range.
    const query = request.query as { peril: string; lat: string; lon: string };
    return answer(await hazardAt(services, { peril: query.peril, latitude: Number(query.lat), longitude: Number(query.lon) }));
  });
}
