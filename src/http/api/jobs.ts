// GET /jobs, and GET /jobs/{id}: a job of the caller's account, at any state (a failed job answers 200).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../services.js';
import { readJob, type QueuedJob } from '../../app/jobs.js';
import { callerOf } from './accounts.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/system.js';
import * as lists from '../schemas/lists.js';
import { listJobs } from '../../app/lists.js';
import { listQuery } from '../list-query.js';

export function jobRoutes(app: FastifyInstance, services: Services) {
  app.get('/jobs', lists.listJobs, async (request) => answer(await listJobs(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/jobs/:id', schema.readJob, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readJob(services, { accountId: callerOf(request).accountId, id }));
  });
}

/** A verb's queued job, answered 202 with its Location. */
export function sendAccepted(reply: FastifyReply, job: QueuedJob) {
  return reply.code(202).header('location', `/jobs/${job.id}`).send(job.view);
}
