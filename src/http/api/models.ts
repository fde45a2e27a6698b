// The model registry: GET /primitives, POST /models, GET /models/{id}, POST /models/{id}/runs.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { composeModel, primitivesDocument, readModel, requestModelRun, type ModelRunRequest } from '../../app/models.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';
import { bytesTag, notModified } from '../caching.js';
import * as schema from '../schemas/models.js';

export function modelRoutes(app: FastifyInstance, services: Services) {
  app.get('/primitives', schema.primitives, async () => answer(primitivesDocument(services)));

  app.post('/models', schema.composeModel, async (request, reply) => {
    const { created, model } = answer(await composeModel(services, { accountId: callerOf(request).accountId, body: request.body }));
    return reply.code(created ? 201 : 200).header('location', `/models/${model.id as string}`).send(model);
  });

  app.get('/models/:id', schema.readModel, async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = answer(await readModel(services, { accountId: callerOf(request).accountId, id }));
    // A model never changes once composed.
    if (notModified(request, reply, bytesTag(json), { immutable: true })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.post('/models/:id/runs', schema.runModel, async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = request.body as ModelRunRequest;
    return sendAccepted(reply, answer(await requestModelRun(services, { accountId: callerOf(request).accountId, id, body })));
  });
}
