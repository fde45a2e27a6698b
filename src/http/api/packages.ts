// Submission packs: POST /objects/{id}/package (a job), GET /packages/{id}, and the PDFs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { PACK_DOCUMENTS, packagePdf, readPackage, requestPackage, type PackageRequest, type PackDocumentName } from '../../app/packages.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';
import { bytesTag, notModified } from '../caching.js';
import * as schema from '../schemas/packages.js';

export function packageRoutes(app: FastifyInstance, services: Services) {
  app.post('/objects/:id/package', schema.packageObject, async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendAccepted(reply, answer(await requestPackage(services, { accountId: callerOf(request).accountId, objectId: id, body: request.body as PackageRequest | null })));
  });

  app.get('/packages/:id', schema.readPackage, async (request, reply) => {
    const { id } = request.params as { id: string };
    const json = answer(await readPackage(services, { accountId: callerOf(request).accountId, id }));
    // A pack is stored once under its content address and never rewritten.
    if (notModified(request, reply, bytesTag(json), { immutable: true })) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.get('/packages/:id/pack.pdf', schema.packagePdf, async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendPdf(request, reply, answer(await packagePdf(services, { accountId: callerOf(request).accountId, id })), `${id}.pdf`);
  });

  for (const document of PACK_DOCUMENTS) {
    app.get(`/packages/:id/documents/${document}.pdf`, schema.documentPdf[document], async (request, reply) => {
      const { id } = request.params as { id: string };
      const pdf = answer(await packagePdf(services, { accountId: callerOf(request).accountId, id, document: document as PackDocumentName }));
      return sendPdf(request, reply, pdf, `${id}-${document}.pdf`);
    });
  }
}

function sendPdf(request: FastifyRequest, reply: FastifyReply, pdf: Buffer, filename: string) {
  // Not immutable: the same pack may be drawn better by a later release.
  if (notModified(request, reply, bytesTag(pdf), { immutable: false })) return reply.code(304).send();
  return reply.header('content-disposition', `inline; filename="${filename}"`).type('application/pdf').send(pdf);
}
