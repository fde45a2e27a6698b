// Structures cut from objects, their backtests, and the stored artifacts.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { faultAnswer } from '../../domain/triggers/faults.js';
import { validateStructure } from '../../domain/triggers/index.js';
import { termsOf } from '../../jobs/backtest.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { callerOf } from './accounts.js';
import { acceptJob } from './jobs.js';
import { STRUCTURE_SCHEMA_VERSION } from '../../kernel/versions.js';

const VARIED = ['trigger', 'financial_structure', 'period'];

export function structureRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/structures', async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const object = await services.objects.get(id, accountId);
    if (!object) throw refusals.notFound(`No object ${id} for this key`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(422, 'invalid_structure', 'The body is an object varying trigger, financial_structure or period.', ['body must be an object']);
    }
    const others = Object.keys(body).filter((k) => !VARIED.includes(k));
    if (others.length > 0) {
      throw new ApiError(422, 'invalid_structure', `A structure varies trigger, financial_structure and period only; ${others.join(', ')} cannot be varied.`,
        others.map((k) => `${k} is not varied by a structure (the object's own ${k} applies, or it is not a block)`));
    }
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

  app.get('/structures/:id', async (request) => {
    const { id } = request.params as { id: string };
    const structure = await services.structures.get(id, callerOf(request).accountId);
    if (!structure) throw refusals.notFound(`No structure ${id} for this key`);
    return structure;
  });

  app.post('/structures/:id/backtest', async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const structure = await services.structures.get(id, accountId);
    if (!structure) throw refusals.notFound(`No structure ${id} for this key`);
    const window = readWindow(request.body);
    return acceptJob(services, reply, { accountId, verb: 'backtest', subject: { structure_id: id }, input: { structure_id: id, window } });
  });

  app.get('/backtests/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = await services.structures.backtestJson(id, callerOf(request).accountId);
    if (json === undefined) throw refusals.notFound(`No backtest ${id} for this key`);
    return reply.type('application/json; charset=utf-8').send(json);
  });
}

function readWindow(body: unknown): { from_year?: number; to_year?: number } | null {
  if (body === null || body === undefined) return null;
  const faults: string[] = [];
  if (typeof body !== 'object' || Array.isArray(body)) throw refusals.invalidRequest(422, 'The body is {"window": {"from_year", "to_year"}} or nothing.');
  for (const key of Object.keys(body)) if (key !== 'window') faults.push(`unknown member ${key} (the body takes window only)`);
  const window = (body as { window?: unknown }).window;
  if (window === undefined) {
    if (faults.length > 0) throw refusals.invalidRequest(422, `The backtest request is not acceptable: ${faults.join('; ')}.`, faults);
    return null;
  }
  if (window === null || typeof window !== 'object' || Array.isArray(window)) faults.push('window must be an object {from_year, to_year}');
  const w = (window ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(w)) if (key !== 'from_year' && key !== 'to_year') faults.push(`window has an unknown member ${key}`);
  for (const key of ['from_year', 'to_year']) {
    if (w[key] !== undefined && !Number.isInteger(w[key])) faults.push(`window.${key} must be an integer year`);
  }
  if (Number.isInteger(w.from_year) && Number.isInteger(w.to_year) && (w.from_year as number) > (w.to_year as number)) faults.push('window.from_year is after window.to_year');
  if (faults.length > 0) throw refusals.invalidRequest(422, `The backtest request is not acceptable: ${faults.join('; ')}.`, faults);
  return { ...(w.from_year !== undefined ? { from_year: w.from_year as number } : {}), ...(w.to_year !== undefined ? { to_year: w.to_year as number } : {}) };
}
