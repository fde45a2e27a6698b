// POST /ingest: the form is read by the route (multipart), so its shape is documented here only.
import { ACCEPTED, operation } from './operation.js';

export const ingest = operation({
  id: 'ingestSchedule',
  summary: 'Read a schedule of locations into a risk object (a job)',
  description: 'Every fault knowable without reading the file is answered on the request; reading happens on the job. A 202 means accepted for reading, never read.',
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The schedule: delimited text or JSON Lines, at most 32 MB (32,000,000 bytes).' },
            currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code for a schedule stating no currency.' },
          },
        },
      },
    },
  },
  errors: ['unsupported_media_type', 'invalid_request', 'payload_too_large', 'account_cancelled'],
  jobErrors: ['unsupported_source', 'currency_conflict'],
  responses: ACCEPTED,
  idempotent: true,
});
