// {mcp_url}/mcp: the Model Context Protocol's Streamable HTTP transport, stateless (no session id is
// issued; each POST gets a fresh server and transport, the SDK's stateless pattern). What is HTTP's
// is answered here in the error envelope, as on every host: an Origin not allowed (403), an Accept
// that does not list application/json and text/event-stream (406), a body that is not JSON by its
// Content-Type (415, by the host's parsers), GET and DELETE (405 with Allow: POST, by the host's
// router). What is the protocol's is answered as JSON-RPC: a body that does not parse (-32700), a
// batch under a protocol version that has none (-32600), and, by the SDK's transport, a malformed
// message or an unsupported MCP-Protocol-Version (HTTP 400).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, refusal } from '../../kernel/refusal.js';
import type { Services } from '../../services.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { envelope } from '../errors.js';
import { toApiError } from '../host.js';
import type { HostDirectory } from '../host-directory.js';
import * as schema from '../schemas/mcp.js';

// The protocol SDK is loaded by the first tool call, not by every process that serves the API.
let protocol: Promise<{ toolServer: typeof import('./server.js').toolServer; Transport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport }> | undefined;
function loadProtocol() {
  protocol ??= Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')])
    .then(([server, transport]) => ({ toolServer: server.toolServer, Transport: transport.StreamableHTTPServerTransport }));
  return protocol;
}

/** The first protocol version without JSON-RPC batches (2025-06-18 removed them). */
const FIRST_WITHOUT_BATCHES = '2025-06-18';

/** Loopback origins (a page served from this machine) are allowed; DNS rebinding arrives under another name. */
function isLoopback(origin: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  } catch {
    return false;
  }
}

function checkOrigin(request: FastifyRequest, allowed: readonly string[]) {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const normalized = origin.trim().toLowerCase().replace(/\/+$/, '');
  if (isLoopback(normalized) || allowed.includes(normalized)) return;
  throw ApiError.of(refusal(403, 'forbidden', `Origin ${origin.slice(0, 100)} may not call the tool server; allowed are loopback origins${allowed.length > 0 ? ` and ${allowed.join(', ')}` : ''} (CATRISK_MCP_ALLOWED_ORIGINS).`));
}

/** The media types an Accept header lists, without their parameters. */
function acceptedTypes(accept: string | undefined): string[] {
  return (accept ?? '').split(',').map((range) => range.split(';')[0]!.trim().toLowerCase()).filter(Boolean);
}

function checkAccept(request: FastifyRequest) {
  const types = acceptedTypes(request.headers.accept);
  if (!types.includes('application/json') || !types.includes('text/event-stream')) {
    throw ApiError.of(refusal(406, 'not_acceptable', 'A tool protocol POST lists both application/json and text/event-stream in Accept (MCP Streamable HTTP); this server answers application/json.'));
  }
}

/** A JSON-RPC error answered before any server reads the message (no id: none could be read). */
function rpcError(reply: FastifyReply, code: number, message: string) {
  return reply.code(400).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

export function mcpRoutes(app: FastifyInstance, services: Services, directory: HostDirectory) {
  // The protocol's own parse error is answered for a body that is not JSON: the body is kept as text.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.post('/mcp', { ...schema.mcp, config: { auth: 'none' } }, async (request, reply) => {
      checkOrigin(request, services.config.mcp.allowedOrigins);
      checkAccept(request);
      let message: unknown;
      try {
        message = JSON.parse(String(request.body ?? ''));
      } catch {
        return rpcError(reply, -32700, 'Parse error: the body is not JSON.');
      }
      if (Array.isArray(message)) {
        const version = request.headers['mcp-protocol-version'];
        if (message.length === 0) return rpcError(reply, -32600, 'Invalid Request: an empty batch.');
        if (typeof version === 'string' && version >= FIRST_WITHOUT_BATCHES) {
          return rpcError(reply, -32600, `Invalid Request: protocol version ${version.slice(0, 20)} has no batches; send one JSON-RPC message per request.`);
        }
      }
      const urls = { api: directory.baseUrl('api', request), lab: directory.baseUrl('lab', request), data: directory.baseUrl('data', request) };
      const { toolServer, Transport } = await loadProtocol();
      const server = toolServer({ app, services, request, urls });
      const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The edge's headers (RateLimit) go out with whatever the transport writes.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, message);
      } catch (error) {
        request.log.error({ err: error, reqId: request.id }, 'tool protocol request failed');
        if (!reply.raw.headersSent) {
          const apiError = toApiError(error);
          reply.raw.writeHead(apiError.status, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(canonicalJson(envelope(apiError)));
        }
      }
    });
  });
}
