// Structures cut from objects, their backtests, and the stored artifacts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { cutStructure, readBacktest, readStructure, requestBacktest, type Window } from '../../app/structures.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';
import { bytesTag, notModified } from '../caching.js';
import * as schema from '../schemas/structures.js';

export function structureRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/structures', schema.cutStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    const document = answer(await cutStructure(services, { accountId: callerOf(request).accountId, objectId: id, body: request.body }));
    return reply.code(201).header('location', document.links.self).send(document);
  });

  app.get('/structures/:id', schema.readStructure, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readStructure(services, { accountId: callerOf(request).accountId, id }));
  });

  app.post('/structures/:id/backtest', schema.backtestStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    // The schema has checked the body's members; no body (or no window) replays the whole record.
    const window = (request.body as { window?: Window } | null | undefined)?.window ?? null;
    return sendAccepted(reply, answer(await requestBacktest(services, { accountId: callerOf(request).accountId, id, window })));
  });

  app.get('/backtests/:id', schema.readBacktest, async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = answer(await readBacktest(services, { accountId: callerOf(request).accountId, id }));
    // An artifact's bytes are stored once and never rewritten.
    if (notModified(request, reply, bytesTag(json), { immutable: true })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
