// The model lab host: GET /health, GET /models, POST /runs (content-addressed, run as jobs),
// GET /runs (the caller's, paged), GET /runs/{id}; POST /inputs, GET /inputs and GET /inputs/{id} (lab-inputs.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { labModels, readRun, submitRun } from '../app/lab-runs.js';
import { statusRetryAfter } from '../app/jobs.js';
import { callerOf } from './api/accounts.js';
import type { HostDirectory } from './host-directory.js';
import { runTable, type OrdPerspective } from '../app/exports.js';
import { answer } from './answer.js';
import { negotiate, sendExport } from './negotiate.js';
import { bytesTag, notModified } from './caching.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import * as schema from './schemas/lab.js';
import * as lists from './schemas/lists.js';
import { listRuns } from '../app/lists.js';
import { listQuery } from './list-query.js';
import { CHART_FORMATS, runChart } from '../app/charts.js';
import { sendChart } from './charts.js';
import { healthRoute } from './api/system.js';
import { labInputRoutes } from './lab-inputs.js';

export function labRoutes(app: FastifyInstance, services: Services, directory: HostDirectory) {
  // A run's job lives on the API host: its link is absolute.
  const jobLink = (request: FastifyRequest) => (jobId: string) => `${directory.baseUrl('api', request)}/jobs/${jobId}`;

  // The lab may be the only host a load balancer in front of it sees: it answers /health too.
  healthRoute(app, services);

  app.get('/models', schema.listModels, async () => answer(await labModels(services)));

  // Inputs users bring (a CLIMADA hazard, exposures, impact functions), named by id in a run's spec.
  labInputRoutes(app, services);

  app.post('/runs', schema.submitRun, async (request, reply) => {
    const document = answer(await submitRun(services, { accountId: callerOf(request).accountId, body: request.body, jobLink: jobLink(request) }));
    return sendRun(reply.code(document.status === 'succeeded' ? 200 : 202).header('location', `/runs/${document.id as string}`), document);
  });

  app.get('/runs', lists.listRuns, async (request) => answer(await listRuns(services, { accountId: callerOf(request).accountId, query: listQuery(request), jobLink: jobLink(request) })));

  app.get('/runs/:id', schema.readRun, async (request, reply) => {
    const { id } = request.params as { id: string };
    const input = { accountId: callerOf(request).accountId, id, jobLink: jobLink(request) };
    const offer = negotiate(request, schema.RUN_OFFERS);
    if (offer.format === 'csv') {
      const query = request.query as { table?: string; perspective?: OrdPerspective };
      const perspective = query.perspective ?? 'gul';
      const { csv, table, currency } = answer(await runTable(services, { ...input, table: query.table, perspective }));
      if (currency !== null) reply.header('catrisk-currency', currency);
      return sendExport(reply, offer, csv, `${id}-${perspective}-${table}.csv`);
    }
    const document = answer(await readRun(services, input));
    const json = canonicalJson(document);
    reply.header('vary', 'Accept');
    const hint = statusRetryAfter(String(document.status));
    if (hint !== undefined) reply.header('retry-after', String(hint));
    // A run is a content address: once it has succeeded its result never changes.
    if (notModified(request, reply, bytesTag(json), { immutable: document.status === 'succeeded' })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });

  for (const format of CHART_FORMATS) {
    app.get(`/runs/:id/chart.${format}`, schema.runChart[format], async (request, reply) => {
      const { id } = request.params as { id: string };
      const perspective = (request.query as { perspective?: OrdPerspective }).perspective ?? 'gul';
      const chart = answer(await runChart(services, { accountId: callerOf(request).accountId, id, jobLink: jobLink(request), perspective, format }));
      return sendChart(request, reply, chart, `${id}-${perspective}-chart.${format}`);
    });
  }
}

/** A run, with a Retry-After hint while its job is queued or running. */
function sendRun(reply: FastifyReply, run: Record<string, unknown>) {
  const hint = statusRetryAfter(String(run.status));
  if (hint !== undefined) reply.header('retry-after', String(hint));
  return reply.send(run);
}
