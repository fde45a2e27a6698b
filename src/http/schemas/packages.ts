// Submission packs: assembled from an object (a job), read as stored, each document and the whole
// pack drawn as PDF. Package is being retired (SPEC) and still served.
import { PACK_DOCUMENTS } from '../../app/packages.js';
import { ACCEPTED, ID_PARAM, LINKS, OBJECT, STRING, operation, shape } from './operation.js';

const RETIRING = 'Package is being retired (listed under being_retired in GET /health); it still works for existing integrations.';
const PDF_HEADERS = { ETag: 'The SHA-256 of the PDF\'s bytes (the same pack gives the same bytes); send it in If-None-Match to be answered 304.' };

export const packageObject = operation({
  id: 'packageObject',
  retiring: 'package',
  summary: 'Assemble a submission pack from a priced object (a job; being retired)',
  description: `Refused on the request with 422 unpackageable_object when the object has no price run in its provenance or lacks a block the draft slip needs (parties, period, jurisdiction, financial_structure, trigger, technical_premium): the message names every missing piece and details has one line per piece. ${RETIRING}`,
  params: ID_PARAM('object'),
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Nothing, or {"documents": [...]} to assemble a subset; all documents by default (the backtest exhibit when a backtest of the priced terms is recorded).',
    properties: {
      documents: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...PACK_DOCUMENTS] }, description: `Documents to assemble: ${PACK_DOCUMENTS.join(', ')}.` },
    },
  },
  refusal: { body: 'package request' },
  errors: ['invalid_request', 'not_found', 'unpackageable_object'],
  jobErrors: ['unpackageable_object', 'not_found'],
  responses: ACCEPTED,
  idempotent: true,
});

const PACK = shape('A submission pack: its documents (each watermarked as a draft), what it was built from, and links to each document as PDF.', {
  schema_version: STRING,
  kind: { const: 'submission_pack' },
  id: STRING,
  watermark: { const: 'DRAFT — not an offer' },
  statement: STRING,
  object: OBJECT,
  price_run: OBJECT,
  backtest_id: { type: ['string', 'null'] },
  as_of: { type: 'string', format: 'date' },
  documents: shape('The documents assembled, by name.', Object.fromEntries(PACK_DOCUMENTS.map((d) => [d, OBJECT])), []),
  omitted: { type: 'array', items: shape('A document asked for and not assembled.', { document: STRING, reason: STRING }) },
  links: LINKS,
});

export const readPackage = operation({
  id: 'readPackage',
  retiring: 'package',
  summary: 'A submission pack, byte for byte as assembled (being retired)',
  description: RETIRING,
  params: ID_PARAM('package'),
  errors: ['not_found'],
  responses: {
    200: { description: 'The pack.', schema: PACK, headers: { ETag: 'The SHA-256 of the stored bytes; a pack never changes.' } },
    304: { description: 'Not modified: If-None-Match names these bytes.' },
  },
});

const pdf = (id: string, summary: string, what: string) => operation({
  id,
  retiring: 'package',
  summary,
  description: `Drawn from the stored pack: A4, DejaVu Sans embedded, "DRAFT — not an offer" diagonally on every page, charts as vectors. ${RETIRING}`,
  params: ID_PARAM('package'),
  errors: ['not_found'],
  responses: {
    200: { description: `${what} as a PDF.`, type: 'application/pdf', headers: PDF_HEADERS },
    304: { description: 'Not modified: If-None-Match names these bytes.' },
  },
});

export const packagePdf = pdf('readPackPdf', 'The whole submission pack as one PDF (being retired)', 'A cover page, then each document of the pack from a new page,');

export const documentPdf = Object.fromEntries(PACK_DOCUMENTS.map((d) => [d, pdf(`read${d.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Pdf`, `The ${d.replace(/_/g, ' ')} of a submission pack as PDF (being retired)`,
  `The ${d.replace(/_/g, ' ')}${d === 'backtest_exhibit' ? ' (404 when the pack holds none: no backtest of the priced terms was recorded)' : ''}`)])) as Record<(typeof PACK_DOCUMENTS)[number], ReturnType<typeof operation>>;
