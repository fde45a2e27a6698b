// The model exchange's routes (SPEC: Endpoints, exchange rows) and the lab's internal connector route.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { checkListing, connectorFor, createListing, grants, listListings, patchListing, providerStep, readListing } from '../../app/exchange.js';
import { callerOf } from './accounts.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/exchange.js';

type IdParams = { id: string };

export function exchangeRoutes(app: FastifyInstance, services: Services) {
  // The two reads answer without a key; a key sent is checked (401 when this environment does not hold it).
  app.get('/exchange/models', { ...schema.listListings, config: { auth: 'optional' } }, async () => answer(await listListings(services)));

  app.get('/exchange/models/:id', { ...schema.readListing, config: { auth: 'optional' } }, async (request) => {
    const { id } = request.params as IdParams;
    return answer(await readListing(services, { accountId: request.caller?.accountId, id }));
  });

  app.post('/exchange/models', schema.createListing, async (request, reply) => {
    const listing = answer(await createListing(services, { accountId: callerOf(request).accountId, body: request.body }));
    return reply.code(201).header('location', `/exchange/models/${listing.id as string}`).send(listing);
  });

  app.patch('/exchange/models/:id', schema.patchListing, async (request) => {
    const { id } = request.params as IdParams;
    return answer(await patchListing(services, { accountId: callerOf(request).accountId, id, body: (request.body ?? {}) as Record<string, unknown> }));
  });

  app.post('/exchange/models/:id/check', schema.checkListing, async (request) => {
    const { id } = request.params as IdParams;
    return answer(await checkListing(services, { accountId: callerOf(request).accountId, id }));
  });

  for (const step of ['review', 'withdraw'] as const) {
    app.post(`/exchange/models/:id/${step}`, step === 'review' ? schema.reviewListing : schema.withdrawListing, async (request) => {
      const { id } = request.params as IdParams;
      return answer(await providerStep(services, { accountId: callerOf(request).accountId, id, step }));
    });
  }

  app.get('/exchange/models/:id/grants', schema.readGrants, async (request) => {
    const { id } = request.params as IdParams;
    return answer(await grants(services, { accountId: callerOf(request).accountId, id }));
  });

  for (const [method, grant] of [['put', true], ['delete', false]] as const) {
    app[method]('/exchange/models/:id/grants/:account_id', grant ? schema.putGrant : schema.deleteGrant, async (request) => {
      const { id, account_id: accountId } = request.params as IdParams & { account_id: string };
      return answer(await grants(services, { accountId: callerOf(request).accountId, id, change: { grant, accountId } }));
    });
  }

  // The lab's own route: the edge asks for the internal credential instead of a key (auth
  // 'internal', http/internal-credential.ts), before the query is checked.
  app.get('/internal/exchange/models/:id/connector', { ...schema.internalConnector, config: { auth: 'internal' } }, async (request) => {
    const { id } = request.params as IdParams;
    const { account_id: accountId } = request.query as { account_id: string };
    return answer(await connectorFor(services, { id, accountId }));
  });
}
