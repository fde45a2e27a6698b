// Structures cut from objects, their backtests, and the stored artifacts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { refusals } from '../../kernel/refusal.js';
import { cutStructure, readBacktest, readStructure, requestBacktest } from '../../app/structures.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';

export function structureRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/structures', async (request, reply) => {
    const { id } = request.params as { id: string };
    const document = answer(await cutStructure(services, { accountId: callerOf(request).accountId, objectId: id, body: request.body }));
    return reply.code(201).header('location', document.links.self).send(document);
  });

  app.get('/structures/:id', async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readStructure(services, { accountId: callerOf(request).accountId, id }));
  });

  app.post('/structures/:id/backtest', async (request, reply) => {
    const { id } = request.params as { id: string };
    const window = readWindow(request.body);
    return sendAccepted(reply, answer(await requestBacktest(services, { accountId: callerOf(request).accountId, id, window })));
  });

  app.get('/backtests/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = answer(await readBacktest(services, { accountId: callerOf(request).accountId, id }));
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
