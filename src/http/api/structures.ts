// Structures cut from objects, their backtests, and the stored artifacts.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { faultAnswer, validateStructure } from '../../domain/backtest/structure.js';
import { termsOf } from '../../jobs/backtest.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { callerOf } from './accounts.js';
import { acceptJob } from './jobs.js';
import { STRUCTURE_SCHEMA_VERSION } from '../../kernel/versions.js';
import { backtestStructure, cutStructure, readBacktest, readStructure } from '../schemas/structures.js';

export function structureRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/structures', cutStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const object = await services.objects.get(id, accountId);
    if (!object) throw refusals.notFound(`No object ${id} for this key`);
    // The schema admits only trigger, financial_structure and period.
    const body = (request.body ?? {}) as Record<string, unknown>;
    const terms = termsOf({ ...object, ...body });
    const fault = faultAnswer(validateStructure(terms), 'structure');
    if (fault) throw ApiError.of(fault);
    const structureId = `str_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
    const document = {
      id: structureId,
      schema_version: STRUCTURE_SCHEMA_VERSION,
      object_id: id,
      ...terms,
      varied: Object.keys(body).sort(),
      created_at: new Date().toISOString(),
      links: { self: `/structures/${structureId}`, object: `/objects/${id}`, backtest: `/structures/${structureId}/backtest` },
    };
    await services.structures.insert(accountId, document);
    return reply.code(201).header('location', document.links.self).send(document);
  });

  app.get('/structures/:id', readStructure, async (request) => {
    const { id } = request.params as { id: string };
    const structure = await services.structures.get(id, callerOf(request).accountId);
    if (!structure) throw refusals.notFound(`No structure ${id} for this key`);
    return structure;
  });

  app.post('/structures/:id/backtest', backtestStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const structure = await services.structures.get(id, accountId);
    if (!structure) throw refusals.notFound(`No structure ${id} for this key`);
    const window = windowOf(request.body as BacktestRequest | null | undefined);
    return acceptJob(services, reply, { accountId, verb: 'backtest', subject: { structure_id: id }, input: { structure_id: id, window } });
  });

  app.get('/backtests/:id', readBacktest, async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = await services.structures.backtestJson(id, callerOf(request).accountId);
    if (json === undefined) throw refusals.notFound(`No backtest ${id} for this key`);
    return reply.type('application/json; charset=utf-8').send(json);
  });
}

interface BacktestRequest { window?: { from_year?: number; to_year?: number } }

/** The window asked for (null: the whole record); the schema has checked its members. */
function windowOf(body: BacktestRequest | null | undefined): { from_year?: number; to_year?: number } | null {
  const w = body?.window;
  if (w === undefined) return null;
  if (w.from_year !== undefined && w.to_year !== undefined && w.from_year > w.to_year) {
    const fault = 'window.from_year is after window.to_year';
    throw refusals.invalidRequest(422, `The backtest request is not acceptable: ${fault}.`, [fault]);
  }
  return { ...(w.from_year !== undefined ? { from_year: w.from_year } : {}), ...(w.to_year !== undefined ? { to_year: w.to_year } : {}) };
}
