// Risk objects of the caller's account: create, read, PATCH.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { RISK_OBJECT_SCHEMA_VERSION } from '../../domain/risk-object/from-ingest.js';
import { riskObjectViolations } from '../../domain/risk-object/schema.js';
import { applyPatch } from '../../domain/risk-object/patch.js';
import { ApiError, refusals } from '../errors.js';
import { callerOf, requireActive } from './accounts.js';
import { acceptJob } from './jobs.js';

export function objectRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects', async (request, reply) => {
    await requireActive(services, request);
    const body = request.body;
    if (body === null || body === undefined || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(422, 'invalid_risk_object', 'Send a complete canonical risk object as a JSON object.', ['body must be an object']);
    }
    const violations = riskObjectViolations(body);
    if (violations.length > 0) {
      throw new ApiError(422, 'invalid_risk_object', `The object fails the risk object schema: ${violations.length} violation${violations.length === 1 ? '' : 's'}.`, violations);
    }
    const given = body as Record<string, unknown>;
    const id = `obj_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
    const at = new Date().toISOString();
    const provenance = (given.provenance ?? { source_files: [], runs: [] }) as { source_files: unknown[]; runs: unknown[] };
    // Server-set members are the server's: a copied object gets a new id, starts as a draft, and a
    // premium is only ever written by a price run here.
    const { technical_premium: _premium, ...rest } = given;
    const object = {
      ...rest,
      id,
      schema_version: RISK_OBJECT_SCHEMA_VERSION,
      status: 'draft',
      provenance: {
        ...provenance,
        runs: [...provenance.runs, { kind: 'create', via: 'POST /objects', recorded_at: at, ...(given.id ? { copied_from: given.id } : {}) }],
      },
    };
    const { accountId } = callerOf(request);
    await services.objects.insert(accountId, object);
    await services.accounts.recordUsage(accountId, 'object', id);
    return reply.code(201).header('location', `/objects/${id}`).send(object);
  });

  app.get('/objects/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = await services.objects.getJson(id, callerOf(request).accountId);
    if (json === undefined) throw refusals.notFound(`No object ${id} for this key`);
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.post('/objects/:id/price', async (request, reply) => {
    const { id } = request.params as { id: string };
    await requireActive(services, request);
    const { accountId } = callerOf(request);
    if (!(await services.objects.getJson(id, accountId))) throw refusals.notFound(`No object ${id} for this key`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > 0) {
      throw refusals.invalidRequest(422, 'The price request body is empty or {}: the object\'s own terms are priced (vary them with PATCH or a structure).',
        typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).map((k) => `unknown member ${k}`) : ['body must be an object']);
    }
    return acceptJob(services, reply, { accountId, verb: 'price', subject: { object_id: id }, input: { object_id: id, window: null } });
  });

  app.patch('/objects/:id', async (request) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const object = await services.objects.get(id, accountId);
    if (!object) throw refusals.notFound(`No object ${id} for this key`);
    const outcome = applyPatch(object, request.body, new Date().toISOString());
    if (!outcome.ok) throw refusals.invalidRequest(422, outcome.message, outcome.details);
    if (outcome.changed.length > 0) await services.objects.replace(accountId, outcome.object);
    return outcome.object;
  });
}
