// The documentation host: pages from docs/ (append .md for raw markdown), /llms.txt, the
// published schemas at /schema, the API contract generated from the running hosts,
// and the API reference page rendering that contract.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { marked } from 'marked';
import { ApiError, refusals } from '../kernel/refusal.js';
import type { Services } from '../services.js';
import { metricsSchema } from '../domain/lab/engine/metrics.js';
import { labModelsPage } from './lab-models-page.js';
import { esc } from '../render/svg.js';
import { SCHEMA_LISTING_SCHEMA_VERSION } from '../kernel/versions.js';
import { CONTRACT_DOCUMENTS, CONTRACT_HOSTS, contractDocuments, expandHostUrls, type ContractHost, type ContractInputs } from './contract.js';
import * as schema from './schemas/docs.js';
import type { HostDirectory } from './host-directory.js';
import { TOOLS } from './mcp/tools.js';
import { exchangeProviderProtocol } from '../schemas.js';

const ROOT = new URL('../../', import.meta.url);
const DOCS_DIR = new URL('docs/', ROOT);
const SCHEMAS_DIR = new URL('schemas/', ROOT);

interface Page { name: string; title: string; markdown: string }

function loadPages(): Page[] {
  return readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md')).sort().map((file) => {
    const markdown = readFileSync(new URL(file, DOCS_DIR), 'utf8');
    return { name: file.replace(/\.md$/, ''), title: /^#\s+(.+)$/m.exec(markdown)?.[1] ?? file, markdown };
  });
}

/** The published schemas by name (schemas/*.json, and lab-metrics/1, defined beside the code that writes it). */
export function publishedSchemas(): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.json')).sort()) {
    schemas.set(file.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')));
  }
  schemas.set('lab-metrics.v1', metricsSchema);
  return schemas;
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · catrisk</title>`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    // The icon named, so a browser does not ask for /favicon.ico, which is no page (a 404 in its console).
    + '<link rel="icon" type="image/png" href="/reference/assets/favicon-32x32.png">'
    + '<style>body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}'
    + 'pre,code{font:14px ui-monospace,monospace;background:#f5f5f7}pre{padding:.8rem;overflow:auto}'
    + 'table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left}</style>'
    + `</head><body>${body}</body></html>`;
}

// Swagger UI's own files, served from the installed package (no CDN). Its absolute-path module is
// read rather than its index, which would load the whole bundle into this process.
const SWAGGER_UI_DIR = (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();
const REFERENCE_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Each host's contract, as the reference page lists them: the API host's first. */
const CONTRACTS = CONTRACT_HOSTS.map((host) => ({
  url: `/schema/${CONTRACT_DOCUMENTS[host]}.json`,
  name: { api: 'API', data: 'Data room', docs: 'Documentation', lab: 'Model lab' }[host],
}));

const REFERENCE_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference · catrisk</title>'
  + '<meta name="viewport" content="width=device-width, initial-scale=1">'
  + '<link rel="icon" type="image/png" href="/reference/assets/favicon-32x32.png">'
  + '<link rel="stylesheet" href="/reference/assets/swagger-ui.css">'
  + '</head><body><div id="reference"></div>'
  + '<script src="/reference/assets/swagger-ui-bundle.js"></script>'
  + '<script src="/reference/assets/swagger-ui-standalone-preset.js"></script>'
  + '<script src="/reference/assets/reference.js"></script>'
  + '</body></html>';

// Renders each host's contract (chosen at the top), and tries its operations against that host:
// the API and lab hosts answer a browser's cross-origin requests (http/cors.ts), and a key is typed
// into Authorize, kept in the page's memory only. No asset is fetched from elsewhere: the
// validator badge, which would send the document to an outside service, is off.
const REFERENCE_SCRIPT = `window.ui = SwaggerUIBundle({ urls: ${JSON.stringify(CONTRACTS)}, 'urls.primaryName': 'API', dom_id: '#reference', deepLinking: true, validatorUrl: null, tryItOutEnabled: false, persistAuthorization: false, defaultModelsExpandDepth: 0, layout: 'StandaloneLayout', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset] });\n`;

// Read once per process: the written pages, and the lab models' page generated from the lanes'
// declarations beside them.
let pagesRead: Page[] | undefined;
const allPages = (): Page[] => (pagesRead ??= [...loadPages(), labModelsPage()].sort((a, b) => a.name.localeCompare(b.name)));

/** The docs host's home for a browser: every page, the API reference, the schemas and llms.txt. */
export function docsHome(): string {
  const pages = allPages();
  const start = ['overview', 'authentication', 'errors', 'cli'].map((name) => pages.find((p) => p.name === name)).filter((p): p is Page => p !== undefined);
  const link = (p: Page) => `<li><a href="/${p.name}">${esc(p.title)}</a> <small>(<a href="/${p.name}.md">markdown</a>)</small></li>`;
  return html('Documentation', [
    '<h1>catrisk documentation</h1>',
    '<p>An open catastrophe-risk modelling service: canonical risk objects, parametric structures, backtests over pinned public history, technical prices, and a model lab. Technical prices and drafts, never quotes.</p>',
    '<h2>Start here</h2>', `<ul>${start.map(link).join('')}</ul>`,
    '<h2>API reference</h2>',
    `<ul><li><a href="/reference">API reference</a>: the contract rendered</li>${CONTRACTS.map((c) => `<li><a href="${c.url}">The ${esc(c.name === 'API' ? 'API' : c.name.toLowerCase())} host's contract</a> (OpenAPI 3.1, JSON)</li>`).join('')}<li><a href="/schema">Published schemas</a></li><li><a href="/llms.txt">llms.txt</a>: this index as text</li></ul>`,
    `<h2>Every page (${pages.length})</h2>`, `<ul>${pages.map(link).join('')}</ul>`,
    '<p><small>A client that asks for JSON (<code>Accept: application/json</code>) gets this host\'s index as JSON.</small></p>',
  ].join('\n'));
}

export function docsRoutes(contractHosts: readonly ContractHost[], directory: HostDirectory) {
  return (app: FastifyInstance, services: Services) => {
    const pages = allPages();
    const schemas = publishedSchemas();
    // The exchange's provider protocol is an OpenAPI document of its own, not a schema of the API contract.
    const contracts = CONTRACT_HOSTS.map((host) => CONTRACT_DOCUMENTS[host]);
    const listing = () => [...schemas.keys(), ...contracts, 'exchange-provider.v0'].map((name) => ({ name, url: `/schema/${name}.json` }));
    const urlsFor = (request: FastifyRequest): ContractInputs['urls'] => ({
      api: directory.baseUrl('api', request), data: directory.baseUrl('data', request), docs: directory.baseUrl('docs', request),
      lab: directory.baseUrl('lab', request), mcp: directory.baseUrl('mcp', request),
    });

    app.get('/llms.txt', schema.llmsIndex, async (request, reply) => {
      const lines = ['# catrisk', '', '> Open catastrophe-risk modelling service: canonical risk objects, parametric structures, backtests over pinned public history, technical prices, and a model lab. Technical prices and drafts, never quotes.', '', '## Pages', ''];
      for (const p of pages) lines.push(`- [${p.title}](/${p.name}.md)`);
      lines.push('', '## Schemas', '');
      for (const s of listing()) lines.push(`- [${s.name}](${s.url})`);
      lines.push('', '## API reference', '', `- [API reference](/reference): each host's contract (OpenAPI 3.1: ${contracts.map((c) => `/schema/${c}.json`).join(', ')}) rendered, its operations tried against that host`);
      lines.push('', '## Tools', '', `The tool server speaks the Model Context Protocol (stateless Streamable HTTP) at {mcp_url}/mcp; [Tool server](/tool-server.md) tells how to connect.`, '');
      for (const tool of TOOLS) lines.push(`- ${tool.name}: ${tool.annotations.title}. ${tool.description.split('. ')[0]!.replace(/\.$/, '')}.`);
      return reply.type('text/plain; charset=utf-8').send(expandHostUrls(lines.join('\n') + '\n', urlsFor(request)));
    });

    app.get('/schema', schema.schemaListing, async () => ({ schema_version: SCHEMA_LISTING_SCHEMA_VERSION, schemas: listing(), risk_object: '/schema.json' }));
    app.get('/schema.json', schema.riskObjectSchema, async () => schemas.get('risk-object.v0'));
    app.get('/schema/:name', schema.publishedSchema, async (request) => {
      const name = (request.params as { name: string }).name.replace(/\.json$/, '');
      if (contracts.includes(name)) {
        return contractDocuments({ hosts: contractHosts, urls: urlsFor(request), schemas, build: services.config.build }).get(name);
      }
      if (name === 'exchange-provider.v0') return exchangeProviderProtocol;
      const schema = schemas.get(name);
      if (!schema) throw ApiError.of(refusals.notFound(`No published schema ${name}; GET /schema lists them`));
      return schema;
    });

    app.get('/reference', schema.reference, async (_request, reply) => reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE));
    app.get('/reference/assets/reference.js', schema.referenceScript, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(REFERENCE_SCRIPT));
    const assets = new Map<string, Buffer>();
    app.get('/reference/assets/:file', schema.referenceAsset, async (request, reply) => {
      const { file } = request.params as { file: string };
      const type = REFERENCE_ASSETS[file];
      if (!type) throw ApiError.of(refusals.notFound(`No reference asset ${file}`));
      // Read once, on first use: most processes never serve the page.
      let bytes = assets.get(file);
      if (!bytes) assets.set(file, bytes = readFileSync(join(SWAGGER_UI_DIR, file)));
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(bytes);
    });

    app.get('/:page', schema.page, async (request, reply) => {
      const raw = (request.params as { page: string }).page;
      const asMarkdown = raw.endsWith('.md');
      const page = pages.find((p) => p.name === raw.replace(/\.md$/, ''));
      if (!page) throw ApiError.of(refusals.notFound(`No page ${raw}; /llms.txt lists them`));
      // A page names other hosts by SPEC's placeholders; the reader is shown the URLs.
      const markdown = expandHostUrls(page.markdown, urlsFor(request));
      if (asMarkdown) return reply.type('text/markdown; charset=utf-8').send(markdown);
      return reply.type('text/html; charset=utf-8').send(html(page.title, await marked.parse(markdown)));
    });
  };
}
