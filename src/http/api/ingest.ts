// POST /ingest (SPEC Ingest rules): every fault knowable without reading the file is answered on
// the request; reading happens on the job.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { boundaryOf, parseMultipart, readBody, type FormPart } from '../multipart.js';
import { callerOf, requireActive } from './accounts.js';
import { acceptJob } from './jobs.js';
import { ingest } from '../schemas/ingest.js';

/** SPEC Limits: 32 MB, in decimal megabytes (32,000,000 bytes). */
export const INGEST_FILE_LIMIT = 32_000_000;
/** The file plus room for the form's framing and a currency part. */
const INGEST_BODY_LIMIT = INGEST_FILE_LIMIT + 1024 * 1024;

const SEND_MULTIPART = 'Send multipart/form-data with the schedule in a part named file (curl -F file=@schedule.csv).';

/** Part types read and recorded as declared (SPEC Ingest rule 2). */
const RECORDED_TYPES = new Set([
  'application/json', 'application/x-ndjson', 'application/csv', 'application/jsonl', 'application/ndjson',
  'application/x-csv', 'application/x-jsonlines',
]);

export type DeclaredType = { read: true; recorded: string | undefined } | { read: false };

export function classifyPartType(contentType: string | undefined): DeclaredType {
  if (contentType === undefined) return { read: true, recorded: undefined };
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  if (bare === 'application/octet-stream' || bare === '') return { read: true, recorded: undefined };
  if (bare.startsWith('text/') || RECORDED_TYPES.has(bare)) return { read: true, recorded: bare };
  return { read: false };
}

export function ingestRoutes(app: FastifyInstance, services: Services) {
  app.register(async (scope) => {
    // The whole body is buffered (a file of at most 32 MB plus the form's framing) so the part's
    // own headers can be read exactly; the file part is a view of it, never copied.
    scope.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
      readBody(payload, request.headers['content-length'], INGEST_BODY_LIMIT, (bytes) => new ApiError(413, 'payload_too_large',
        `The body is ${bytes} bytes or more; ingest reads files of at most 32 MB (32,000,000 bytes).`)));
    // Any other content type is refused before its body is read, saying what to send instead.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(new ApiError(415, 'unsupported_media_type',
      `POST /ingest reads only multipart/form-data. ${SEND_MULTIPART}`), undefined));

    scope.post('/ingest', ingest, async (request, reply) => {
      const boundary = boundaryOf(request.headers['content-type']);
      if (!Buffer.isBuffer(request.body) || boundary === undefined) {
        throw new ApiError(415, 'unsupported_media_type', `POST /ingest reads only multipart/form-data. ${SEND_MULTIPART}`);
      }
      await requireActive(services, request);
      const parts = parseMultipart(request.body, boundary);
      const { file, currency } = pickParts(parts);
      const declared = classifyPartType(file.contentType);
      if (!declared.read) {
        throw new ApiError(415, 'unsupported_media_type',
          `The file part's type ${file.contentType} is not read; send delimited text (text/csv, text/tab-separated-values, text/plain) or JSON Lines (application/x-ndjson).`);
      }
      if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) {
        throw refusals.invalidRequest(422, `The currency part must be a three-letter ISO 4217 code; got "${currency.slice(0, 40)}".`);
      }
      if (file.data.byteLength > INGEST_FILE_LIMIT) {
        throw new ApiError(413, 'payload_too_large', `The file is ${file.data.byteLength} bytes; ingest reads files of at most 32 MB (32,000,000 bytes).`);
      }
      const sha256 = createHash('sha256').update(file.data).digest('hex');
      await services.objects.putUpload(sha256, file.data);
      const subject: Record<string, unknown> = { source: file.filename || 'file' };
      if (currency !== undefined) subject.declared_currency = currency;
      if (declared.recorded !== undefined) subject.media_type = declared.recorded;
      return acceptJob(services, reply, {
        accountId: callerOf(request).accountId,
        verb: 'ingest',
        subject,
        input: { upload_sha256: sha256, file_name: file.filename || 'file', currency: currency?.toUpperCase() ?? null },
      });
    });
  });
}

function pickParts(parts: FormPart[]): { file: FormPart; currency: string | undefined } {
  const unknown = parts.filter((p) => p.name !== 'file' && p.name !== 'currency').map((p) => p.name);
  const files = parts.filter((p) => p.name === 'file');
  const currencies = parts.filter((p) => p.name === 'currency');
  const faults: string[] = [];
  if (files.length === 0) faults.push('no part named file');
  if (files.length > 1) faults.push('more than one part named file');
  if (currencies.length > 1) faults.push('more than one currency part');
  for (const name of unknown) faults.push(`unknown part "${name}" (parts read: file, currency)`);
  if (faults.length > 0) {
    throw refusals.invalidRequest(422, `The form is not acceptable: ${faults.join('; ')}.`, faults);
  }
  const currency = currencies[0]?.data.toString('utf8').trim();
  return { file: files[0]!, currency };
}
