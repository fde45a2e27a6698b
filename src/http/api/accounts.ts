// Accounts, keys, usage and the subscription (SPEC: Account and key, Authentication, Limits).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { refusals } from '../../kernel/refusal.js';
import type { Caller } from '../host.js';
import { accountDocument, cancelPlan, signup, usageDocument } from '../../app/accounts.js';
import { answer } from '../answer.js';

const signupBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
    label: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/** The caller of a keyed route; the edge has already authenticated it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw refusals.unauthenticated('This route needs a Bearer key.');
  return request.caller;
}

export function accountRoutes(app: FastifyInstance, services: Services) {
  app.post('/signup', { config: { auth: 'none' }, schema: { body: signupBody } }, async (request, reply) => {
    const body = (request.body ?? {}) as { email?: string; label?: string };
    return reply.code(201).send(answer(await signup(services, body)));
  });

  app.get('/account', async (request) => answer(await accountDocument(services, callerOf(request).accountId)));

  app.get('/usage', async (request) => answer(await usageDocument(services, callerOf(request).accountId)));

  app.delete('/subscription', async (request) => answer(await cancelPlan(services, callerOf(request).accountId)));
}
