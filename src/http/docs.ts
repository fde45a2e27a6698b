// The documentation host: pages from docs/ (append .md for raw markdown), /llms.txt, and the
// published schemas at /schema, including the API contract generated from the running API host.
import { readFileSync, readdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { marked } from 'marked';
import { ERROR_CODES, refusals } from '../kernel/refusal.js';
import type { RouteInfo } from './host.js';
import type { Services } from '../services.js';
import { metricsSchema } from '../domain/lab/kernel/metrics.js';
import { API_CONTRACT_SCHEMA_VERSION, SCHEMA_LISTING_SCHEMA_VERSION } from '../kernel/versions.js';

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

function loadSchemas(): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  for (const file of readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.json')).sort()) {
    schemas.set(file.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')));
  }
  return schemas;
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · catrisk</title>`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + '<style>body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}'
    + 'pre,code{font:14px ui-monospace,monospace;background:#f5f5f7}pre{padding:.8rem;overflow:auto}'
    + 'table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left}</style>'
    + `</head><body>${body}</body></html>`;
}

export function apiContract(routes: readonly RouteInfo[], services: Services) {
  return {
    $id: 'api-contract.v0.json',
    schema_version: API_CONTRACT_SCHEMA_VERSION,
    generated_from: 'the running API host\'s route table',
    build: services.config.build,
    authentication: { scheme: 'Bearer', header: 'Authorization', keyless: routes.filter((r) => r.auth !== 'key').map((r) => `${r.method} ${r.path}`) },
    routes: [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
      .map((r) => ({ method: r.method, path: r.path.replace(/:([a-z_]+)/g, '{$1}').replace(/\*$/, '{path}'), key: r.auth === 'key' ? 'required' : r.auth === 'optional' ? 'checked when sent' : 'none' })),
    error_envelope: 'error.v0',
    error_codes: ERROR_CODES,
    rate_limit_headers: ['RateLimit-Policy', 'RateLimit', 'Retry-After (429)'],
  };
}

export function docsRoutes(apiRoutes: readonly RouteInfo[]) {
  return (app: FastifyInstance, services: Services) => {
    const pages = loadPages();
    const schemas = loadSchemas();
    // lab-metrics/1 is defined beside the code that writes it.
    schemas.set('lab-metrics.v1', metricsSchema);
    const listing = () => [...schemas.keys(), 'api-contract.v0'].map((name) => ({ name, url: `/schema/${name}.json` }));

    app.get('/llms.txt', async (_request, reply) => {
      const lines = ['# catrisk', '', '> Open catastrophe-risk modelling service: canonical risk objects, parametric structures, backtests over pinned public history, technical prices, and a model lab. Technical prices and drafts, never quotes.', '', '## Pages', ''];
      for (const p of pages) lines.push(`- [${p.title}](/${p.name}.md)`);
      lines.push('', '## Schemas', '');
      for (const s of listing()) lines.push(`- [${s.name}](${s.url})`);
      return reply.type('text/plain; charset=utf-8').send(lines.join('\n') + '\n');
    });

    app.get('/schema', async () => ({ schema_version: SCHEMA_LISTING_SCHEMA_VERSION, schemas: listing(), risk_object: '/schema.json' }));
    app.get('/schema.json', async () => schemas.get('risk-object.v0'));
    app.get('/schema/:name', async (request) => {
      const name = (request.params as { name: string }).name.replace(/\.json$/, '');
      if (name === 'api-contract.v0') return apiContract(apiRoutes, services);
      const schema = schemas.get(name);
      if (!schema) throw refusals.notFound(`No published schema ${name}; GET /schema lists them`);
      return schema;
    });

    app.get('/:page', async (request, reply) => {
      const raw = (request.params as { page: string }).page;
      const asMarkdown = raw.endsWith('.md');
      const page = pages.find((p) => p.name === raw.replace(/\.md$/, ''));
      if (!page) throw refusals.notFound(`No page ${raw}; /llms.txt lists them`);
      if (asMarkdown) return reply.type('text/markdown; charset=utf-8').send(page.markdown);
      return reply.type('text/html; charset=utf-8').send(html(page.title, await marked.parse(page.markdown)));
    });
  };
}
