// The API contract (api-contract.v0, served on the docs host): an OpenAPI 3.1 document generated
// by @fastify/swagger from the routes the API, data room, documentation and lab hosts registered and their schemas, with each
// operation's success responses and named error codes, the error envelope and the published
// schemas as components.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../kernel/refusal.js';
import { API_CONTRACT_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AuthMode } from './host.js';
import { CONTRACT_COMPONENTS, type JsonSchema, type SuccessResponse } from './schemas/operation.js';

/** Every host that serves HTTP routes; the tool protocol host ({mcp_url}/mcp) is not an OpenAPI surface. */
export const CONTRACT_HOSTS = ['api', 'data', 'docs', 'lab'] as const;
export type ContractHostName = (typeof CONTRACT_HOSTS)[number];

export function isContractHost(name: string): name is ContractHostName {
  return (CONTRACT_HOSTS as readonly string[]).includes(name);
}

/**
 * One document per host, each with its host as its one server: a client generated from a document
 * calls that host (generators read the document's servers, never an operation's). The API host's
 * keeps its published name.
 */
export const CONTRACT_DOCUMENTS: Record<ContractHostName, string> = {
  api: 'api-contract.v0',
  data: 'data-contract.v0',
  docs: 'docs-contract.v0',
  lab: 'lab-contract.v0',
};

/** What each host is, as its document and its server say. */
const HOST_TITLES: Record<ContractHostName, { title: string; server: string }> = {
  api: { title: 'catrisk API', server: 'The API host.' },
  data: { title: 'catrisk data room', server: 'The data room host.' },
  docs: { title: 'catrisk documentation', server: 'The documentation host.' },
  lab: { title: 'catrisk model lab', server: 'The model lab host.' },
};

/**
 * The capability an operation is grouped under (its tag), by host and path; the first pattern a
 * path matches names it, else the path's first segment does. A new route finds its tag here.
 */
const CAPABILITIES: Record<ContractHostName, ReadonlyArray<readonly [RegExp, string]>> = {
  api: [
    [/^\/(health|ready)?$/, 'service'],
    [/^\/(signup|account|usage|subscription)$/, 'accounts'],
    [/^\/objects\/\{id\}\/price$/, 'pricing'],
    [/^\/objects\/\{id\}\/structures$|^\/structures(\/\{id\})?$/, 'structures'],
    [/^\/structures\/\{id\}\/backtest$|^\/backtests/, 'backtests'],
    [/^\/structures\/\{id\}\/monitoring$|^\/monitoring/, 'monitoring'],
    [/^\/objects\/\{id\}\/package$|^\/packages/, 'packages'],
    [/^\/objects\/\{id\}\/analyse$|^\/accumulation$/, 'analysis'],
    [/^\/(exposure-codes|multi-building-flags|geocode)$/, 'exposure coding'],
    [/^\/(models|primitives)/, 'models'],
  ],
  data: [[/^\/$/, 'service'], [/.*/, 'data room']],
  docs: [[/^\/$/, 'service'], [/^\/schema/, 'schemas'], [/^\/reference/, 'reference'], [/.*/, 'pages']],
  lab: [[/^\/(health)?$/, 'service'], [/^\/models$/, 'lab models'], [/^\/runs/, 'lab runs'], [/^\/inputs/, 'lab inputs']],
};

/** What each tag holds, for the document's tag list. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  service: 'What the host is, whether it is up and ready.',
  accounts: 'Sign up, the account and its keys, usage in billed units, cancelling.',
  ingest: 'Schedules of locations read into risk objects.',
  objects: 'Canonical risk objects: store, read, page their locations, write blocks, map.',
  pricing: 'Technical prices of an object\'s terms (being retired).',
  structures: 'Parametric structures cut from objects.',
  backtests: 'Structures replayed over the pinned record.',
  monitoring: 'Structures in force measured as snapshots arrive, and their webhooks.',
  packages: 'Submission packs and their PDFs (being retired).',
  analysis: 'Analyses of an object and accumulation across objects.',
  'exposure coding': 'OED codes and multi-building flags for schedule rows, and geocoding.',
  models: 'Pricing models composed from the registry\'s primitives.',
  jobs: 'Jobs a verb queues: read, list, cancel.',
  feeds: 'Pinned public data snapshots and their bytes.',
  events: 'Event catalogues and footprints from the pinned record.',
  hazard: 'What the pinned record says about a point.',
  exchange: 'Models listed on the exchange by their providers, and grants.',
  internal: 'The service\'s own routes, for its other hosts only.',
  'data room': 'Archived risk datasets with licence, provenance and digests.',
  schemas: 'The published schemas and the contracts.',
  reference: 'The API reference page and its files.',
  pages: 'The documentation pages, llms.txt.',
  'lab models': 'The lab\'s open models: spec members, pinned inputs, caps.',
  'lab runs': 'Lab runs over points or a stored object, their results and charts.',
  'lab inputs': 'Hazard, exposure, vulnerability and ground-motion files users bring to the lab (CLIMADA, OpenQuake).',
};

function tagOf(host: ContractHostName, path: string): string {
  return CAPABILITIES[host].find(([pattern]) => pattern.test(path))?.[1] ?? path.split('/')[1] ?? 'service';
}

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
  503: { 'Retry-After': 'Seconds worth waiting before sending the request again (the database is unreachable for the moment); absent while the process shuts down.' },
};

/** What a refusal's status says beyond its codes. */
const STATUS_NOTES: Record<number, string> = {
  405: ' The path is served, but not under the method sent (any other method, CONNECT included); Allow names the methods it is served under.',
  503: ' The database is unreachable for the moment, or the process is shutting down: send the request again (a write with its Idempotency-Key).',
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
    const alternatives = Object.entries(r.alternatives ?? {}).map(([type, description]) => [type, { schema: type.endsWith('json') ? { type: 'object', additionalProperties: true, description } : { type: 'string', description } }]);
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
  const out: Operation = { ...op, tags: [tagOf(host, path)], responses };
  if (requestBody) out.requestBody = requestBody;
  // A JSON body that may be absent (its schema admits null) is not required.
  const bodyType = out.requestBody?.content?.['application/json']?.schema?.type;
  if (out.requestBody && Array.isArray(bodyType) && bodyType.includes('null')) out.requestBody = { ...out.requestBody, required: false };
  return out;
}

/** Where a published schema refers to another by its $id (price.v0 to backtest.v0's $defs). */
const PUBLISHED_ID = /"https:\/\/catrisk\.dev\/schemas\/([^"#/]+)\.json#/g;

/** A published schema as a component: its own $defs, and the other published schemas it names, referenced where they now sit. */
function component(name: string, schema: unknown): JsonSchema {
  const { $id: _id, $schema: _dialect, ...rest } = schema as JsonSchema;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"#/components/schemas/${name}/$defs/`)
    .replace(PUBLISHED_ID, '"#/components/schemas/$1')) as JsonSchema;
}

/**
 * A schema that stands alone (a tool's, which no contract document surrounds): the components and
 * published schemas it refers to carried in its own $defs, each reference pointing there.
 */
export function selfContained(schema: JsonSchema, schemas: ReadonlyMap<string, unknown>): JsonSchema {
  const used = referencedSchemas(schema, new Map([...schemas, ...CONTRACT_COMPONENTS]));
  if (used.size === 0) return schema;
  const whole = { ...schema, $defs: { ...(schema.$defs as Record<string, unknown> | undefined), ...Object.fromEntries(used) } };
  return JSON.parse(JSON.stringify(whole).replaceAll('"#/components/schemas/', '"#/$defs/')) as JsonSchema;
}

/** The published schemas a document refers to, and those they refer to in turn. */
function referencedSchemas(paths: unknown, schemas: ReadonlyMap<string, unknown>): Map<string, JsonSchema> {
  const used = new Map<string, JsonSchema>();
  const pending = [JSON.stringify(paths)];
  while (pending.length > 0) {
    for (const ref of pending.pop()!.matchAll(/"#\/components\/schemas\/([^/"]+)/g)) {
      const name = ref[1]!;
      if (used.has(name) || !schemas.has(name)) continue;
      const schema = component(name, schemas.get(name));
      used.set(name, schema);
      pending.push(JSON.stringify(schema));
    }
  }
  return new Map([...used].sort(([a], [b]) => a.localeCompare(b)));
}

export interface ContractInputs {
  hosts: readonly ContractHost[];
  /** Base URL of each host, as the caller reaches it (the tool server's too, for {mcp_url}). */
  urls: Record<ContractHostName | 'mcp', string>;
  /** The published schemas, by name (error.v0, risk-object.v0, …). */
  schemas: ReadonlyMap<string, unknown>;
  build: { version: string; commit: string };
}

/** The placeholders SPEC writes for each host's base URL, as the reader reaches them. */
export function expandHostUrls(text: string, urls: ContractInputs['urls']): string {
  return text.replaceAll('{base_url}', urls.api).replaceAll('{lab_url}', urls.lab).replaceAll('{data_url}', urls.data)
    .replaceAll('{docs_url}', urls.docs).replaceAll('{mcp_url}', urls.mcp);
}

/** The OpenAPI 3.1 document of one host: its operations, at its own server. */
export function hostContract(name: ContractHostName, { hosts, urls, schemas, build }: ContractInputs) {
  const host = hosts.find((h) => h.name === name);
  if (!host) throw new Error(`no ${name} host to describe`);
  const paths: Record<string, Record<string, unknown>> = {};
  const generated = host.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
  for (const [path, item] of Object.entries(generated.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) (paths[path] ??= {})[method] = finished(op, name, path);
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const tags = [...new Set(Object.values(sorted).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))].sort();
  const internal = JSON.stringify(sorted).includes('"internal":[]');
  const others = CONTRACT_HOSTS.filter((h) => h !== name).map((h) => `${HOST_TITLES[h].title}: ${urls.docs}/schema/${CONTRACT_DOCUMENTS[h]}.json`).join('; ');
  const document = {
    openapi: '3.1.0',
    info: {
      title: HOST_TITLES[name].title,
      version: build.version,
      summary: 'Open catastrophe-risk modelling service: canonical risk objects, parametric structures, backtests over pinned public history, technical prices, and a model lab.',
      description: `Generated from the running ${name} host: every route it serves, its request schema, its success responses and the named error codes it answers (x-error-codes; codes a queued job may fail with: x-job-error-codes). Every answer of 400 or above is the error.v0 envelope, and carries the RateLimit-Policy and RateLimit headers. A path sent with a method it is not served under is answered 405 method_not_allowed with Allow (listed on each operation of the path). Operations marked deprecated belong to a verb GET /health lists under being_retired: they still work, and answer with a Deprecation header. Each host has its own document: ${others}.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: urls[name], description: HOST_TITLES[name].server }],
    security: [{ bearer: [] }],
    tags: tags.map((tag) => ({ name: tag, description: TAG_DESCRIPTIONS[tag] ?? tag })),
    paths: sorted,
    components: {
      securitySchemes: internal ? { bearer: BEARER, internal: INTERNAL } : { bearer: BEARER },
      schemas: Object.fromEntries(referencedSchemas(sorted, new Map([...schemas, ...CONTRACT_COMPONENTS]))),
    },
    'x-id': `${CONTRACT_DOCUMENTS[name]}.json`,
    'x-host': name,
    'x-schema-version': API_CONTRACT_SCHEMA_VERSION,
    'x-build': build,
    'x-error-codes': ERROR_CODES,
    'x-rate-limit-headers': ['RateLimit-Policy', 'RateLimit', 'Retry-After (429, 503)'],
  };
  // Descriptions name other hosts by SPEC's placeholders; the reader is shown the URLs.
  return JSON.parse(expandHostUrls(JSON.stringify(document), urls)) as typeof document;
}

/** Every host's document, by its published name (api-contract.v0, lab-contract.v0, …). */
export function contractDocuments(inputs: ContractInputs): Map<string, ReturnType<typeof hostContract>> {
  return new Map(CONTRACT_HOSTS.filter((name) => inputs.hosts.some((h) => h.name === name)).map((name) => [CONTRACT_DOCUMENTS[name], hostContract(name, inputs)]));
}
