// The API contract (api-contract.v0, served on the docs host): an OpenAPI 3.1 document generated
// by @fastify/swagger from the routes the API, data room, documentation and lab hosts registered and their schemas, with each
// operation's success responses and named error codes, the error envelope and the published
// schemas as components.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../kernel/refusal.js';
import { API_CONTRACT_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AuthMode } from './host.js';
import type { JsonSchema, SuccessResponse } from './schemas/operation.js';

/** The hosts whose operations the contract lists; the API host's are at the document's server. */
/** Every host that serves HTTP routes; the tool protocol host ({mcp_url}/mcp) is not an OpenAPI surface. */
export const CONTRACT_HOSTS = ['api', 'data', 'docs', 'lab'] as const;
export type ContractHostName = (typeof CONTRACT_HOSTS)[number];

export function isContractHost(name: string): name is ContractHostName {
  return (CONTRACT_HOSTS as readonly string[]).includes(name);
}

/** How the contract names each host's server (SPEC: Hosts). */
const SERVER_NAMES: Record<ContractHostName, string> = {
  api: 'The API host ({base_url}).',
  data: 'The data room host ({data_url}).',
  docs: 'The documentation host ({docs_url}).',
  lab: 'The model lab host ({lab_url}).',
};

/** The tag an operation is grouped under: the API's first path segment, else its host. */
const TAG_OF_HOST: Record<ContractHostName, string> = { api: '', data: 'data room', docs: 'documentation', lab: 'lab' };

export interface ContractHost {
  name: ContractHostName;
  app: FastifyInstance;
}

const BEARER = {
  type: 'http',
  scheme: 'bearer',
  description: 'Authorization: Bearer <API key>. POST /signup issues a key; keys never expire.',
} as const;

const INTERNAL = {
  type: 'http',
  scheme: 'bearer',
  description: 'Authorization: Bearer <CATRISK_INTERNAL_TOKEN>, the environment\'s internal credential, from this machine and not forwarded by a proxy: the service\'s own services only.',
} as const;

/**
 * Refusals the edge may answer on any operation, before or beside the route (SPEC: Errors).
 * method_not_allowed is the path's: a method the path is not served under is answered 405 with
 * Allow naming those it is, so each operation of the path names it.
 */
function edgeCodes(method: string, auth: AuthMode): string[] {
  const codes = ['client_error', 'forbidden', 'invalid_request', 'method_not_allowed', 'rate_limited', 'internal_error', 'server_error'];
  if (auth !== 'none') codes.push('unauthenticated');
  if (auth === 'internal') codes.push('internal_only');
  if (['POST', 'PUT', 'PATCH'].includes(method)) codes.push('payload_too_large', 'unsupported_media_type');
  return codes;
}

function securityOf(auth: AuthMode): Array<Record<string, string[]>> {
  if (auth === 'none') return [];
  // A key is checked when sent: anonymous, or a Bearer key.
  if (auth === 'optional') return [{}, { bearer: [] }];
  if (auth === 'internal') return [{ internal: [] }];
  return [{ bearer: [] }];
}

/**
 * Collects a host's operations for the contract; registered before its routes. Each operation is
 * given its security and the edge's error codes beside its own.
 */
export async function collectOperations(app: FastifyInstance, defaultAuth: AuthMode) {
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 'catrisk', version: '0' }, components: { securitySchemes: { bearer: BEARER, internal: INTERNAL } } },
    convertConstToEnum: false,
    transform: ({ schema, url, route }) => {
      const declared = (schema ?? {}) as Record<string, unknown>;
      const auth = (route.config as { auth?: AuthMode } | undefined)?.auth ?? defaultAuth;
      const method = String(route.method);
      const own = (declared['x-error-codes'] as string[] | undefined) ?? [];
      const codes = [...new Set([...edgeCodes(method, auth), ...own])].sort();
      // A trailing wildcard is the rest of the path: named `path` in the contract (OpenAPI names every parameter).
      return { schema: { ...declared, security: securityOf(auth), 'x-error-codes': codes } as typeof schema, url: url.replace(/\*$/, ':path') };
    },
  });
}

type Operation = Record<string, unknown> & { responses?: Record<string, unknown>; requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const ENVELOPE = { 'application/json': { schema: { $ref: '#/components/schemas/error.v0' } } };
const ERROR_HEADERS: Record<string, Record<string, string>> = {
  401: { 'WWW-Authenticate': 'Bearer' },
  405: { Allow: 'The methods served on the path.' },
  429: { 'Retry-After': 'Seconds until the limit resets.' },
};

/** What a refusal's status says beyond its codes. */
const STATUS_NOTES: Record<number, string> = {
  405: ' The path is served, but not under the method sent (any other method, CONNECT included); Allow names the methods it is served under.',
};

function headersOf(headers: Record<string, string> | undefined) {
  if (!headers) return undefined;
  return Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

/** An operation as swagger wrote it, with its documented responses and error codes made responses. */
function finished(generated: Operation, host: ContractHostName, path: string): Operation {
  const { 'x-responses': declared, 'x-request-body': requestBody, ...op } = generated as Operation & { 'x-responses'?: Record<string, SuccessResponse>; 'x-request-body'?: Operation['requestBody'] };
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(declared ?? {})) {
    const main = r.schema || r.type ? { [r.type ?? 'application/json']: r.schema ? { schema: r.schema } : {} } : undefined;
    const alternatives = Object.entries(r.alternatives ?? {}).map(([type, description]) => [type, { schema: { type: type.endsWith('json') ? 'object' : 'string', description } }]);
    const content = main || alternatives.length > 0 ? { ...main, ...Object.fromEntries(alternatives) } : undefined;
    responses[status] = { description: r.description, ...(r.headers ? { headers: headersOf(r.headers) } : {}), ...(content ? { content } : {}) };
  }
  const byStatus = new Map<number, string[]>();
  for (const code of (op['x-error-codes'] as string[] | undefined) ?? []) {
    for (const status of ERROR_CODES.find((c) => c.code === code)?.status ?? []) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Refused (error.v0 envelope): ${codes.join(', ')}.${STATUS_NOTES[status] ?? ''}`,
      ...(ERROR_HEADERS[status] ? { headers: headersOf(ERROR_HEADERS[status]) } : {}),
      content: ENVELOPE,
    };
  }
  const out: Operation = { ...op, tags: [host === 'api' ? path.split('/')[1] || 'service' : TAG_OF_HOST[host]], responses };
  if (requestBody) out.requestBody = requestBody;
  // A JSON body that may be absent (its schema admits null) is not required.
  const bodyType = out.requestBody?.content?.['application/json']?.schema?.type;
  if (out.requestBody && Array.isArray(bodyType) && bodyType.includes('null')) out.requestBody = { ...out.requestBody, required: false };
  return out;
}

/** A published schema as a component: its own $defs referenced where it now sits. */
function component(name: string, schema: unknown): JsonSchema {
  const { $id: _id, $schema: _dialect, ...rest } = schema as JsonSchema;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"#/components/schemas/${name}/$defs/`)) as JsonSchema;
}

export interface ContractInputs {
  hosts: readonly ContractHost[];
  /** Base URL of each host, as the caller reaches it. */
  urls: Record<ContractHostName, string>;
  /** The published schemas, by name (error.v0, risk-object.v0, …). */
  schemas: ReadonlyMap<string, unknown>;
  build: { version: string; commit: string };
}

/** The OpenAPI 3.1 document of every HTTP host (API, data room, documentation, lab). */
export function apiContract({ hosts, urls, schemas, build }: ContractInputs) {
  const paths: Record<string, Record<string, unknown>> = {};
  const serverOf = (name: ContractHostName) => ({ url: urls[name], description: SERVER_NAMES[name] });
  for (const host of hosts) {
    const generated = host.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    for (const [path, item] of Object.entries(generated.paths)) {
      const target = (paths[path] ??= {});
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const existing = target[method] as Operation | undefined;
        // GET / answers on every host, GET /health on the API and lab hosts: one operation, naming
        // the hosts, and (but for GET /, which every host answers) each host's server.
        if (existing) {
          (existing['x-hosts'] as string[]).push(host.name);
          if (path !== '/') existing.servers = [...((existing.servers as unknown[] | undefined) ?? [serverOf('api')]), serverOf(host.name)];
          continue;
        }
        const done = finished(op, host.name, path);
        if (host.name !== 'api') done.servers = [serverOf(host.name)];
        target[method] = { ...done, 'x-hosts': [host.name] };
      }
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'catrisk API',
      version: build.version,
      summary: 'Open catastrophe-risk modelling service: canonical risk objects, parametric structures, backtests over pinned public history, technical prices, and a model lab.',
      description: 'Generated from the running API, data room, documentation and lab hosts: every route they serve, its request schema, its success responses and the named error codes it answers (x-error-codes; codes a queued job may fail with: x-job-error-codes). Every answer of 400 or above is the error.v0 envelope, and carries the RateLimit-Policy and RateLimit headers. A path sent with a method it is not served under is answered 405 method_not_allowed with Allow (listed on each operation of the path). Operations of the other hosts name their own server; GET / answers on each (x-hosts).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: urls.api, description: SERVER_NAMES.api }],
    security: [{ bearer: [] }],
    paths: sorted,
    components: {
      securitySchemes: { bearer: BEARER },
      schemas: Object.fromEntries([...schemas].map(([name, schema]) => [name, component(name, schema)])),
    },
    'x-id': 'api-contract.v0.json',
    'x-schema-version': API_CONTRACT_SCHEMA_VERSION,
    'x-build': build,
    'x-error-codes': ERROR_CODES,
    'x-rate-limit-headers': ['RateLimit-Policy', 'RateLimit', 'Retry-After (429)'],
  };
}
