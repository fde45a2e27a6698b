// The lab's inputs: POST /inputs (multipart: kind and the kind's file parts, read by the route, so
// the form is documented here only) and GET /inputs/{id}. GET /inputs is in lists.ts.
import { INPUT_KINDS } from '../../domain/lab/user-inputs.js';
import { INPUT_KIND_NAMES } from '../../app/lab-inputs.js';
import { ID_PARAM, INTEGER, LINKS, OBJECT, STRING, operation, shape } from './operation.js';

const FILE_PARTS = [...new Set(Object.values(INPUT_KINDS).flatMap((k) => k.parts))];

const INPUT = shape('An input: its content address, kind, digest, size and what its reader read.', {
  id: { type: 'string', pattern: '^inp_[0-9a-f]{32}$', description: 'inp_ and 32 hex digits: the content address of the kind and the files\' digests (the same kind and bytes are one input, whoever brings them).' },
  kind: { type: 'string', enum: INPUT_KIND_NAMES },
  sha256: { type: 'string', description: 'The file\'s SHA-256; for an input of several files, the SHA-256 of the canonical JSON of their digests by part.' },
  bytes: INTEGER,
  summary: { ...OBJECT, description: 'What the kind\'s reader read: shape, counts and units.' },
  files: { type: 'array', items: shape('One file.', { part: STRING, sha256: STRING, bytes: INTEGER }) },
  created_at: { type: 'string', format: 'date-time', description: 'When this key first brought it.' },
  links: LINKS,
});

export const storeInput = operation({
  id: 'storeLabInput',
  summary: 'Bring an input to the lab: a CLIMADA hazard, exposures or impact functions, or an OpenQuake exposure, vulnerability model or ground-motion fields (read and stored; content-addressed)',
  description: `The file is read by its kind's reader before it is stored: a file that does not read is refused 422, naming what could not be read. At most 64 MB (64,000,000 bytes) an input. Kinds: ${INPUT_KIND_NAMES.map((k) => `${k} (${INPUT_KINDS[k].description})`).join('; ')}.`,
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['kind', 'file'],
          properties: {
            kind: { type: 'string', enum: INPUT_KIND_NAMES, description: 'What the file is.' },
            ...Object.fromEntries(FILE_PARTS.map((p) => [p, { type: 'string', contentMediaType: 'application/octet-stream', description: p === 'file' ? 'The file.' : `The ${p} file (kinds that take one).` }])),
          },
        },
      },
    },
  },
  errors: ['unsupported_media_type', 'invalid_request', 'payload_too_large', 'account_cancelled'],
  responses: {
    201: { description: 'The input, stored.', schema: INPUT, headers: { Location: 'The input: /inputs/{id}.' } },
    200: { description: 'The input, which this key had brought before (the same kind and bytes).', schema: INPUT, headers: { Location: 'The input: /inputs/{id}.' } },
  },
});

export const readInput = operation({
  id: 'readLabInput',
  summary: 'An input the key brought to the lab',
  params: ID_PARAM('input'),
  errors: ['not_found'],
  responses: { 200: { description: 'The input.', schema: INPUT } },
});
