// Structures cut from objects, their backtests, and the stored artifacts; the lists of both.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { cutStructure, readBacktest, readStructure, requestBacktest, type Window } from '../../app/structures.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { backtestTable, type BacktestTable } from '../../app/exports.js';
import { answer } from '../answer.js';
import { negotiate, sendExport } from '../negotiate.js';
import { bytesTag, notModified } from '../caching.js';
import * as schema from '../schemas/structures.js';
import * as lists from '../schemas/lists.js';
import { listBacktests, listStructures } from '../../app/lists.js';
import { listQuery } from '../list-query.js';
import { CHART_FORMATS, backtestChart } from '../../app/charts.js';
import { sendChart } from '../charts.js';

export function structureRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/structures', schema.cutStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    const document = answer(await cutStructure(services, { accountId: callerOf(request).accountId, objectId: id, body: request.body }));
    return reply.code(201).header('location', document.links.self).send(document);
  });

  app.get('/structures', lists.listStructures, async (request) => answer(await listStructures(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/backtests', lists.listBacktests, async (request) => answer(await listBacktests(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/structures/:id', schema.readStructure, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readStructure(services, { accountId: callerOf(request).accountId, id }));
  });

  app.post('/structures/:id/backtest', schema.backtestStructure, async (request, reply) => {
    const { id } = request.params as { id: string };
    // The schema has checked the body's members; no body (or no window) replays the whole record.
    const window = (request.body as { window?: Window } | null | undefined)?.window ?? null;
    return sendAccepted(reply, answer(await requestBacktest(services, { accountId: callerOf(request).accountId, id, window })));
  });

  app.get('/backtests/:id', schema.readBacktest, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { accountId } = callerOf(request);
    const offer = negotiate(request, schema.BACKTEST_OFFERS);
    if (offer.format === 'csv') {
      const table = (request.query as { table?: BacktestTable }).table ?? 'years';
      return sendExport(reply, offer, answer(await backtestTable(services, { accountId, id, table })), `${id}-${table}.csv`);
    }
    const json = answer(await readBacktest(services, { accountId, id }));
    reply.header('vary', 'Accept');
    // An artifact's bytes are stored once and never rewritten.
    if (notModified(request, reply, bytesTag(json), { immutable: true })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });

  for (const format of CHART_FORMATS) {
    app.get(`/backtests/:id/chart.${format}`, schema.backtestChart[format], async (request, reply) => {
      const { id } = request.params as { id: string };
      return sendChart(request, reply, answer(await backtestChart(services, { accountId: callerOf(request).accountId, id, format })), `${id}-chart.${format}`);
    });
  }
}
