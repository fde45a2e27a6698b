// GET /geocode?q&limit: candidate points for one address or place name.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { geocode } from '../../app/geocode.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/geocode.js';

export function geocodeRoutes(app: FastifyInstance, services: Services) {
  app.get('/geocode', schema.geocodeQuery, async (request) => {
    // The schema has checked q's length and limit's form.
    const query = request.query as { q: string; limit?: string };
    return answer(await geocode(services, { q: query.q, ...(query.limit !== undefined ? { limit: Number(query.limit) } : {}) }));
  });
}
