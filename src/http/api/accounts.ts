// Accounts, keys, usage and the subscription (SPEC: Account and key, Authentication, Limits).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import type { Caller } from '../host.js';
import { accountDocument, cancelPlan, signup, usageDocument } from '../../app/accounts.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/accounts.js';

/** The caller of a keyed route; the edge has already authenticated it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw ApiError.of(refusals.unauthenticated('This route needs a Bearer key.'));
  return request.caller;
}

export function accountRoutes(app: FastifyInstance, services: Services) {
  app.post('/signup', { ...schema.signup, config: { auth: 'none' } }, async (request, reply) => {
    const body = (request.body ?? {}) as { email?: string; label?: string };
    return reply.code(201).send(answer(await signup(services, body)));
  });

  app.get('/account', schema.readAccount, async (request) => answer(await accountDocument(services, callerOf(request).accountId)));

  app.get('/usage', schema.readUsage, async (request) => answer(await usageDocument(services, callerOf(request).accountId)));

  app.delete('/subscription', schema.cancelSubscription, async (request) => answer(await cancelPlan(services, callerOf(request).accountId)));
}
