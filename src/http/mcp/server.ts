// One Model Context Protocol server per request (stateless: no session outlives its request), over
// the tools of tools.ts: tools/list, and tools/call, which reads the key (the api_key argument, else
// Authorization: Bearer) by the edge's rules, checks the arguments against the tool's schema as
// Fastify checks a route's body, and answers the use case's Result as a tool result. A refusal is a
// result with isError: true carrying the REST error envelope; protocol faults (an unknown tool, a
// malformed request) stay JSON-RPC errors, answered by the SDK.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, refusals } from '../../kernel/refusal.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import type { Services } from '../../services.js';
import { envelope } from '../errors.js';
import { toApiError, type Caller } from '../host.js';
import { bodyFault, describeBodyFault } from '../json-body.js';
import { schemaRefusal, textFormats } from '../schemas/faults.js';
import { TOOLS, type Tool, type ToolContext } from './tools.js';
import { selfContained } from '../contract.js';
import { publishedSchemas } from '../docs.js';

/** What agents read first: how to hold a key and what the service will not do. */
export const INSTRUCTIONS = 'catrisk: open catastrophe-risk modelling. Call create_api_key once and keep api_key.secret; pass it as api_key to every other tool '
  + '(or send Authorization: Bearer <key> with each request). Results are technical figures and drafts, never quotes or offers. '
  + 'A failed tool result carries the REST error envelope {schema_version, error: {status, code, message, details?}}: switch on error.code.';

// The host's Ajv settings: no coercion, no defaults filled in, every fault reported and worded.
const ajv = textFormats(addFormats.default(new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, verbose: true, strict: false })));
// A tool's schemas stand alone: what they share with the REST contract (its components, the
// published schemas) is carried in their own $defs.
const PUBLISHED = publishedSchemas();
const SCHEMAS = new Map(TOOLS.map((tool) => [tool.name, { input: selfContained(tool.inputSchema, PUBLISHED), output: selfContained(tool.outputSchema, PUBLISHED) }]));
const validators = new Map<string, ValidateFunction>(TOOLS.map((tool) => [tool.name, ajv.compile(SCHEMAS.get(tool.name)!.input)]));

/** The tools as tools/list answers them. */
export function toolListing() {
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: SCHEMAS.get(tool.name)!.input as { type: 'object' },
    outputSchema: SCHEMAS.get(tool.name)!.output as { type: 'object' },
    annotations: tool.annotations,
  }));
}

function success(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: canonicalJson(value) }], structuredContent: value };
}

/** A refusal as a tool result: the REST envelope, as text (structured content is the success shape's). */
export function failure(error: ApiError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: canonicalJson(envelope(error)) }] };
}

export interface RequestScope {
  app: FastifyInstance;
  services: Services;
  request: FastifyRequest;
  urls: ToolContext['urls'];
}

const NO_KEY = 'No key: pass the api_key argument, or send Authorization: Bearer <API key> with the request (create_api_key issues one).';

/** The caller a keyed tool acts for: the api_key argument first, else the request's Authorization header. */
async function callerOf(scope: RequestScope, supplied: unknown): Promise<Caller> {
  if (supplied !== undefined && typeof supplied !== 'string') throw ApiError.of(refusals.unauthenticated('The api_key argument is the key\'s secret, a string.'));
  const authorization = supplied !== undefined ? `Bearer ${supplied}` : scope.request.headers.authorization;
  if (authorization === undefined) throw ApiError.of(refusals.unauthenticated(NO_KEY));
  return scope.app.callerOf(authorization, scope.request.ip);
}

/** Reads the arguments and the key, calls the tool, and words its Result; anything thrown becomes its envelope. */
async function callTool(scope: RequestScope, tool: Tool, given: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  try {
    // The key first, as on the REST API (401 before 422).
    const caller = tool.key ? await callerOf(scope, given.api_key) : undefined;
    const fault = bodyFault(given);
    if (fault) {
      const { message } = describeBodyFault(fault);
      throw ApiError.of(refusals.invalidRequest(422, message));
    }
    const validate = validators.get(tool.name)!;
    if (!validate(given)) throw schemaRefusal(validate.errors as FastifySchemaValidationError[], 'arguments', { body: `${tool.name} arguments` });
    const { api_key: _key, ...args } = given;
    const context: ToolContext = { deps: scope.services, ...(caller ? { caller } : {}), urls: scope.urls, signal };
    const result = await tool.call(context, args);
    return result.ok ? success(result.value) : failure(ApiError.of(result.refusal));
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500 && apiError.status !== 503) scope.services.log.error({ err: error, tool: tool.name }, 'tool failed');
    return failure(apiError);
  }
}

export function toolServer(scope: RequestScope): Server {
  const server = new Server(
    { name: 'catrisk', title: 'catrisk tool server', version: scope.services.config.build.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolListing() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    // An unknown tool is a protocol fault, not a tool's failure.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them: ${TOOLS.map((t) => t.name).join(', ')}`);
    return callTool(scope, tool, request.params.arguments ?? {}, extra.signal);
  });
  return server;
}
