// The documentation host: pages, the schema listing, the published schemas and the API reference.
// Its routes read no query, so none is checked: a page link with tracking parameters still opens.
import { STRING, operation, shape } from './operation.js';

/** A JSON Schema or an OpenAPI document: open by its nature. */
const DOCUMENT = { type: 'object', additionalProperties: true } as const;

const PARAM = (name: string, what: string) => ({ type: 'object', properties: { [name]: { type: 'string', description: what } }, required: [name] });

export const llmsIndex = operation({
  id: 'readLlmsIndex',
  summary: 'An index of the pages and schemas for language models (llms.txt)',
  errors: [],
  responses: { 200: { description: 'The index as text.', type: 'text/plain' } },
});

export const schemaListing = operation({
  id: 'listSchemas',
  summary: 'Every published schema with its URL',
  errors: [],
  responses: {
    200: {
      description: 'The listing.',
      schema: shape('Every published schema.', {
        schema_version: STRING,
        schemas: { type: 'array', items: shape('A published schema.', { name: STRING, url: STRING }) },
        risk_object: STRING,
      }),
    },
  },
});

export const riskObjectSchema = operation({
  id: 'readRiskObjectSchema',
  summary: 'The risk object\'s JSON Schema (risk-object.v0)',
  errors: [],
  responses: { 200: { description: 'The JSON Schema.', schema: { ...DOCUMENT, description: 'risk-object.v0, a JSON Schema (draft 2020-12).' } } },
});

export const publishedSchema = operation({
  id: 'readSchema',
  summary: 'A published schema by name (each host\'s contract too: api-contract.v0.json, lab-contract.v0.json, data-contract.v0.json, docs-contract.v0.json)',
  params: PARAM('name', 'The schema\'s name, with or without .json (GET /schema lists them).'),
  errors: ['not_found'],
  responses: { 200: { description: 'The JSON Schema, or a host\'s OpenAPI document.', schema: { ...DOCUMENT, description: 'A JSON Schema (draft 2020-12) or an OpenAPI 3.1 document.' } } },
});

export const reference = operation({
  id: 'readReference',
  summary: 'The API reference: each host\'s contract rendered, its operations tried against that host (its files served from the installed package, no CDN)',
  errors: [],
  responses: { 200: { description: 'The page.', type: 'text/html' } },
});

export const referenceScript = operation({
  id: 'readReferenceScript',
  summary: 'The script that starts the API reference page on this contract',
  errors: [],
  responses: { 200: { description: 'The script.', type: 'text/javascript' } },
});

export const referenceAsset = operation({
  id: 'readReferenceAsset',
  summary: 'A file of the API reference page (script, stylesheet, icon)',
  params: PARAM('file', 'swagger-ui-bundle.js, swagger-ui-standalone-preset.js, swagger-ui.css or favicon-32x32.png.'),
  errors: ['not_found'],
  responses: { 200: { description: 'The file in its own media type.', type: '*/*' } },
});

export const page = operation({
  id: 'readPage',
  summary: 'A documentation page as HTML, or its markdown with .md appended',
  params: PARAM('page', 'The page\'s name (/llms.txt lists them); append .md for markdown.'),
  errors: ['not_found'],
  responses: {
    200: {
      description: 'The page as HTML, or as its markdown when the name ends .md.',
      type: 'text/html',
      alternatives: { 'text/markdown': 'The page\'s markdown, when the name ends .md (/overview.md).' },
    },
  },
});
