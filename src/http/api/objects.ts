// Risk objects of the caller's account.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { refusals } from '../errors.js';
import { callerOf } from './accounts.js';

export function objectRoutes(app: FastifyInstance, services: Services) {
  app.get('/objects/:id', async (request) => {
    const { id } = request.params as { id: string };
    const object = await services.objects.get(id, callerOf(request).accountId);
    if (!object) throw refusals.notFound(`No object ${id} for this key`);
    return object;
  });
}
