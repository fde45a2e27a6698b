// GET /jobs (the caller's, paged), GET /jobs/{id}: a job of the caller's account, at any state (a failed
// job answers 200); POST /jobs/{id}/cancel. A job still queued or running carries a Retry-After hint.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../services.js';
import { cancelJob, readJob, type JobAnswer, type QueuedJob } from '../../app/jobs.js';
import { callerOf } from './accounts.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/system.js';
import * as lists from '../schemas/lists.js';
import { listJobs } from '../../app/lists.js';
import { listQuery } from '../list-query.js';

export function jobRoutes(app: FastifyInstance, services: Services) {
  app.get('/jobs', lists.listJobs, async (request) => answer(await listJobs(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/jobs/:id', schema.readJob, async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendJob(reply, answer(await readJob(services, { accountId: callerOf(request).accountId, id })));
  });

  app.post('/jobs/:id/cancel', schema.cancelJob, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId, keyId } = callerOf(request);
    const cancel = answer(await cancelJob(services, { accountId, keyId, id }));
    // 202 while a running job's cancel waits for its worker's next checkpoint.
    return sendJob(reply.code(cancel.pending ? 202 : 200), cancel);
  });
}

function sendJob(reply: FastifyReply, job: JobAnswer) {
  if (job.retryAfter !== undefined) reply.header('retry-after', String(job.retryAfter));
  return reply.send(job.view);
}

/** A verb's queued job, answered 202 with its Location. */
export function sendAccepted(reply: FastifyReply, job: QueuedJob) {
  return sendJob(reply.code(202).header('location', `/jobs/${job.id}`), job);
}
