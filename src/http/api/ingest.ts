// POST /ingest (SPEC Ingest rules): every fault knowable without reading the file is answered on
// the request; reading happens on the job.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { ApiError, refusal } from '../../kernel/refusal.js';
import { acceptUpload, INGEST_FILE_LIMIT } from '../../app/ingest.js';
import { boundaryOf, parseMultipart, readBody } from '../multipart.js';
import { callerOf } from './accounts.js';
import { sendAccepted } from './jobs.js';
import { answer } from '../answer.js';
import * as schema from '../schemas/ingest.js';

/** The file plus room for the form's framing and a currency part. */
const INGEST_BODY_LIMIT = INGEST_FILE_LIMIT + 1024 * 1024;

const SEND_MULTIPART = 'Send multipart/form-data with the schedule in a part named file (curl -F file=@schedule.csv).';

export function ingestRoutes(app: FastifyInstance, services: Services) {
  app.register(async (scope) => {
    // The whole body is buffered (a file of at most 32 MB plus the form's framing) so the part's
    // own headers can be read exactly; the file part is a view of it, never copied.
    scope.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
      readBody(payload, request.headers['content-length'], INGEST_BODY_LIMIT, (bytes) => ApiError.of(refusal(413, 'payload_too_large',
        `The body is ${bytes} bytes or more; ingest reads files of at most 32 MB (32,000,000 bytes).`))));
    // Any other content type is refused before its body is read, saying what to send instead.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(ApiError.of(refusal(415, 'unsupported_media_type',
      `POST /ingest reads only multipart/form-data. ${SEND_MULTIPART}`)), undefined));

    scope.post('/ingest', schema.ingest, async (request, reply) => {
      const boundary = boundaryOf(request.headers['content-type']);
      if (!Buffer.isBuffer(request.body) || boundary === undefined) {
        throw ApiError.of(refusal(415, 'unsupported_media_type', `POST /ingest reads only multipart/form-data. ${SEND_MULTIPART}`));
      }
      const body = request.body;
      return sendAccepted(reply, answer(await acceptUpload(services, {
        accountId: callerOf(request).accountId,
        parts: () => parseMultipart(body, boundary),
      })));
    });
  });
}
