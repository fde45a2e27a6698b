// The tool server's one route. It is not an OpenAPI operation (the tool protocol host is not in
// the API contract); its JSON-RPC body is read by the transport, not by a route schema.
import type { RouteShorthandOptions } from 'fastify';

export const mcp: RouteShorthandOptions = {
  schema: { summary: 'Model Context Protocol messages (Streamable HTTP, stateless)' },
};
