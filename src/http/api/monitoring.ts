// Monitoring records and their webhooks: thin routes over app/monitoring.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { addWebhook, endMonitoring, listMonitoring, listWebhooks, readMonitoring, removeWebhook, startMonitoring, type MonitoringRequest } from '../../app/monitoring.js';
import { callerOf } from './accounts.js';
import { answer } from '../answer.js';
import { listQuery } from '../list-query.js';
import * as schema from '../schemas/monitoring.js';

export function monitoringRoutes(app: FastifyInstance, services: Services) {
  app.post('/structures/:id/monitoring', schema.startMonitoring, async (request, reply) => {
    const { id } = request.params as { id: string };
    const record = answer(await startMonitoring(services, { accountId: callerOf(request).accountId, structureId: id, body: request.body as MonitoringRequest | null }));
    return reply.code(201).header('location', `/monitoring/${record.id as string}`).send(record);
  });

  app.get('/monitoring', schema.listMonitoring, async (request) => answer(await listMonitoring(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/monitoring/:id', schema.readMonitoring, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readMonitoring(services, { accountId: callerOf(request).accountId, id }));
  });

  app.delete('/monitoring/:id', schema.endMonitoring, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await endMonitoring(services, { accountId: callerOf(request).accountId, id }));
  });

  app.post('/monitoring/:id/webhooks', schema.addWebhook, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { url, description } = request.body as { url: string; description?: string };
    const webhook = answer(await addWebhook(services, { accountId: callerOf(request).accountId, recordId: id, url, ...(description !== undefined ? { description } : {}) }));
    return reply.code(201).header('location', `/monitoring/${id}/webhooks`).send(webhook);
  });

  app.get('/monitoring/:id/webhooks', schema.listWebhooks, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await listWebhooks(services, { accountId: callerOf(request).accountId, recordId: id }));
  });

  app.delete('/monitoring/:id/webhooks/:webhook_id', schema.removeWebhook, async (request, reply) => {
    const { id, webhook_id: webhookId } = request.params as { id: string; webhook_id: string };
    answer(await removeWebhook(services, { accountId: callerOf(request).accountId, recordId: id, webhookId }));
    return reply.code(204).send();
  });
}
