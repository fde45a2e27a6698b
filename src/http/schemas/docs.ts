// The documentation host: pages, the schema listing, the published schemas and the API reference.
// Its routes read no query, so none is checked: a page link with tracking parameters still opens.
import { operation } from './operation.js';

const PARAM = (name: string, what: string) => ({ type: 'object', properties: { [name]: { type: 'string', description: what } }, required: [name] });

export const llmsIndex = operation({
  summary: 'An index of the pages and schemas for language models (llms.txt)',
  errors: [],
  responses: { 200: { description: 'The index as text.', type: 'text/plain' } },
});

export const schemaListing = operation({
  summary: 'Every published schema with its URL',
  errors: [],
  responses: { 200: { description: 'The listing.' } },
});

export const riskObjectSchema = operation({
  summary: 'The risk object\'s JSON Schema (risk-object.v0)',
  errors: [],
  responses: { 200: { description: 'The JSON Schema.' } },
});

export const publishedSchema = operation({
  summary: 'A published schema by name (the API contract itself is api-contract.v0.json)',
  params: PARAM('name', 'The schema\'s name, with or without .json (GET /schema lists them).'),
  errors: ['not_found'],
  responses: { 200: { description: 'The JSON Schema, or this OpenAPI document.' } },
});

export const reference = operation({
  summary: 'The API reference: this contract rendered (its files served from the installed package, no CDN)',
  errors: [],
  responses: { 200: { description: 'The page.', type: 'text/html' } },
});

export const referenceScript = operation({
  summary: 'The script that starts the API reference page on this contract',
  errors: [],
  responses: { 200: { description: 'The script.', type: 'text/javascript' } },
});

export const referenceAsset = operation({
  summary: 'A file of the API reference page (script, stylesheet, icon)',
  params: PARAM('file', 'swagger-ui-bundle.js, swagger-ui.css or favicon-32x32.png.'),
  errors: ['not_found'],
  responses: { 200: { description: 'The file in its own media type.', type: '*/*' } },
});

export const page = operation({
  summary: 'A documentation page as HTML, or its markdown with .md appended',
  params: PARAM('page', 'The page\'s name (/llms.txt lists them); append .md for markdown.'),
  errors: ['not_found'],
  responses: { 200: { description: 'The page as HTML or markdown.', type: 'text/html' } },
});
