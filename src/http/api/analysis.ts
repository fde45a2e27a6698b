// Analyse an object (a job) and accumulate a set of objects (synchronous).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { requestAnalyse } from '../../app/analyse.js';
import { accumulate } from '../../app/accumulation.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/analysis.js';

export function analysisRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/analyse', schema.analyseObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = request.body as { analyses?: string[]; radius_km?: number } | null | undefined;
    return sendAccepted(reply, answer(await requestAnalyse(services, { accountId: callerOf(request).accountId, objectId: id, body })));
  });

  app.post('/accumulation', schema.accumulation, async (request) => {
    const body = request.body as { objects: string[]; h3_resolution?: number };
    return answer(await accumulate(services, { accountId: callerOf(request).accountId, objects: body.objects, resolution: body.h3_resolution }));
  });
}
