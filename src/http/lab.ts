// The model lab host: GET /models, POST /runs (content-addressed, run as jobs), GET /runs/{id}.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { labModels, readRun, submitRun } from '../app/lab-runs.js';
import { statusRetryAfter } from '../app/jobs.js';
import { callerOf } from './api/accounts.js';
import type { HostDirectory } from './servers.js';
import { answer } from './answer.js';
import * as schema from './schemas/lab.js';

export function labRoutes(app: FastifyInstance, services: Services, directory: HostDirectory) {
  // A run's job lives on the API host: its link is absolute.
  const jobLink = (request: FastifyRequest) => (jobId: string) => `${directory.baseUrl('api', request)}/jobs/${jobId}`;

  app.get('/models', schema.listModels, async () => answer(await labModels(services)));

  app.post('/runs', schema.submitRun, async (request, reply) => {
    const document = answer(await submitRun(services, { accountId: callerOf(request).accountId, body: request.body, jobLink: jobLink(request) }));
    return sendRun(reply.code(document.status === 'succeeded' ? 200 : 202).header('location', `/runs/${document.id as string}`), document);
  });

  app.get('/runs/:id', schema.readRun, async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendRun(reply, answer(await readRun(services, { accountId: callerOf(request).accountId, id, jobLink: jobLink(request) })));
  });
}

/** A run, with a Retry-After hint while its job is queued or running. */
function sendRun(reply: FastifyReply, run: Record<string, unknown>) {
  const hint = statusRetryAfter(String(run.status));
  if (hint !== undefined) reply.header('retry-after', String(hint));
  return reply.send(run);
}
