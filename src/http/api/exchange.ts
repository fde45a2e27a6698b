// The model exchange's routes (SPEC: Endpoints, exchange rows) and the lab's internal connector route.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
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

  // The lab's own route: no key at the edge; its own credential and conditions are checked here.
  app.get('/internal/exchange/models/:id/connector', { ...schema.internalConnector, config: { auth: 'none' } }, async (request) => {
    admitInternal(request, services.config.exchange.internalToken);
    const { id } = request.params as IdParams;
    const { account_id: accountId } = request.query as { account_id: string };
    return answer(await connectorFor(services, { id, accountId }));
  });
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^::ffff:/i, '');
  return bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * SPEC Authentication 8: the same machine (the socket's peer is loopback), no proxy on the way (no
 * forwarding header of any name), and the environment's internal credential. No credential: 401;
 * otherwise 403 internal_only naming every condition missing.
 */
function admitInternal(request: FastifyRequest, token: string) {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw refusals.unauthenticated('This route takes the environment\'s internal credential (Authorization: Bearer <CATRISK_INTERNAL_TOKEN>); none was carried.');
  }
  const missing: string[] = [];
  if (!isLoopback(request.raw.socket.remoteAddress)) missing.push('the request did not come from this machine (its peer address is not loopback)');
  const forwarded = FORWARDING_HEADERS.filter((name) => request.headers[name] !== undefined);
  if (forwarded.length > 0) missing.push(`the request was forwarded by a proxy (it carries ${forwarded.join(', ')})`);
  // Compared as digests, in constant time: the credential's length is not told either.
  if (!timingSafeEqual(digest(match[1]!), digest(token))) missing.push('the credential carried is not this environment\'s internal credential');
  if (missing.length > 0) {
    throw new ApiError(403, 'internal_only', `This route answers only the service's own services: ${missing.join('; ')}.`, missing);
  }
}
