// The model lab host: GET /models, POST /runs (content-addressed, run as jobs), GET /runs/{id}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { labModels, readRun, submitRun } from '../app/lab-runs.js';
import { callerOf } from './api/accounts.js';
import type { HostDirectory } from './servers.js';
import { answer } from './answer.js';
import { bytesTag, notModified } from './caching.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import * as schema from './schemas/lab.js';

export function labRoutes(app: FastifyInstance, services: Services, directory: HostDirectory) {
  // A run's job lives on the API host: its link is absolute.
  const jobLink = (request: FastifyRequest) => (jobId: string) => `${directory.baseUrl('api', request)}/jobs/${jobId}`;

  app.get('/models', schema.listModels, async () => answer(await labModels(services)));

  app.post('/runs', schema.submitRun, async (request, reply) => {
    const document = answer(await submitRun(services, { accountId: callerOf(request).accountId, body: request.body, jobLink: jobLink(request) }));
    return reply.code(document.status === 'succeeded' ? 200 : 202).header('location', `/runs/${document.id as string}`).send(document);
  });

  app.get('/runs/:id', schema.readRun, async (request, reply) => {
    const { id } = request.params as { id: string };
    const document = answer(await readRun(services, { accountId: callerOf(request).accountId, id, jobLink: jobLink(request) }));
    const json = canonicalJson(document);
    // A run is a content address: once it has succeeded its result never changes.
    if (notModified(request, reply, bytesTag(json), { immutable: document.status === 'succeeded' })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
