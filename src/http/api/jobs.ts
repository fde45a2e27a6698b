// GET /jobs/{id}: a job of the caller's account, at any state (a failed job answers 200).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { jobView } from '../../jobs/view.js';
import { refusals } from '../../kernel/refusal.js';
import { callerOf } from './accounts.js';
import { readJob } from '../schemas/system.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function jobRoutes(app: FastifyInstance, services: Services) {
  app.get('/jobs/:id', readJob, async (request) => {
    const { id } = request.params as { id: string };
    const row = UUID.test(id) ? await services.jobs.get(id, callerOf(request).accountId) : undefined;
    if (!row) throw refusals.notFound(`No job ${id} for this key`);
    return jobView(row);
  });
}

/** Queues a verb's job and answers 202 with the job and its Location. */
export async function acceptJob(
  services: Services,
  reply: import('fastify').FastifyReply,
  job: { accountId: string; verb: string; subject: Record<string, unknown>; input: Record<string, unknown> },
) {
  const row = await services.jobs.create(job);
  services.worker?.nudge();
  return reply.code(202).header('location', `/jobs/${row.id}`).send(jobView(row));
}
