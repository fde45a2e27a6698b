// The lab's inputs (app/lab-inputs.ts): POST /inputs reads a multipart form as POST /ingest does
// (the whole body buffered up to its limit, a body over it refused 413 after draining, any other
// content type 415), GET /inputs/{id}, and GET /inputs (paged).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { ApiError, refusal } from '../kernel/refusal.js';
import { INPUT_FILE_LIMIT, readInput, storeInput } from '../app/lab-inputs.js';
import { listInputs } from '../app/lists.js';
import { boundaryOf, parseMultipart, readBody } from './multipart.js';
import { callerOf } from './api/accounts.js';
import { answer } from './answer.js';
import { listQuery } from './list-query.js';
import * as schema from './schemas/lab-inputs.js';
import * as lists from './schemas/lists.js';

/** The files plus room for the form's framing and its kind part. */
const INPUT_BODY_LIMIT = INPUT_FILE_LIMIT + 1024 * 1024;

const SEND_MULTIPART = 'Send multipart/form-data with a part named kind and the file in a part named file (curl -F kind=climada-hazard -F file=@hazard.h5).';

export function labInputRoutes(app: FastifyInstance, services: Services) {
  app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
      readBody(payload, request.headers['content-length'], INPUT_BODY_LIMIT, (bytes) => ApiError.of(refusal(413, 'payload_too_large',
        `The body is ${bytes} bytes or more; the lab reads inputs of at most 64 MB (64,000,000 bytes).`))));
    scope.addContentTypeParser('*', (_request, _payload, done) => done(ApiError.of(refusal(415, 'unsupported_media_type',
      `POST /inputs reads only multipart/form-data. ${SEND_MULTIPART}`)), undefined));

    scope.post('/inputs', schema.storeInput, async (request, reply) => {
      const boundary = boundaryOf(request.headers['content-type']);
      if (!Buffer.isBuffer(request.body) || boundary === undefined) {
        throw ApiError.of(refusal(415, 'unsupported_media_type', `POST /inputs reads only multipart/form-data. ${SEND_MULTIPART}`));
      }
      const body = request.body;
      const stored = answer(await storeInput(services, { accountId: callerOf(request).accountId, parts: () => parseMultipart(body, boundary) }));
      return reply.code(stored.created ? 201 : 200).header('location', stored.document.links.self).send(stored.document);
    });
  });

  app.get('/inputs', lists.listInputs, async (request) => answer(await listInputs(services, { accountId: callerOf(request).accountId, query: listQuery(request) })));

  app.get('/inputs/:id', schema.readInput, async (request) => {
    const { id } = request.params as { id: string };
    return answer(await readInput(services, { accountId: callerOf(request).accountId, id }));
  });
}
