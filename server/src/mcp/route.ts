import { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLSchema } from 'graphql';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode as RpcErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CorsOrigins } from '../platform/http/cors';
import type { Viewer } from '../shared/viewer';
import { mcpOriginAllowed } from './origin';
import { McpServices, McpTools } from './tools';
import type { ToolThing } from './tool-access';

export interface McpRouteOptions {
  services: McpServices;
  schema: GraphQLSchema;
  /** The caller an `Authorization` header value names; null when none. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  /** Origins of web pages allowed to call the API besides the server's own (CORS_ORIGINS). */
  corsOrigins: CorsOrigins;
  /** The address the server listens on. */
  listenHost: string;
  /** Whether a session-limited key reaches a session or a manifest (always, for a key of the whole account). */
  reaches(viewer: Viewer, thing: ToolThing, id: string): Promise<boolean>;
  /** Records that the caller's account wrote, before a writing tool's answer goes out (read-your-writes). */
  wrote?(accountId: string): Promise<void>;
}

/** A refusal before MCP sees the request, in JSON-RPC's error shape with the code the SDK's transport uses for its own. */
function sendRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: RpcErrorCode.ConnectionClosed, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/**
 * A JSON-RPC error whose message goes on the wire as written. The SDK's McpError writes "MCP
 * error <code>: " into its message, and a client receiving it adds that prefix again.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** An MCP server for one caller. The low-level Server takes the tools' JSON Schemas as they are. */
function mcpServer(viewer: Viewer, tools: McpTools, wrote: McpRouteOptions['wrote']): Server {
  const server = new Server({ name: 'session-continuation', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.definitions }));
  const writing = new Set(tools.definitions.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await tools.call(viewer, request.params.name, request.params.arguments ?? {});
    if (!result) throw new RpcError(RpcErrorCode.InvalidParams, `There is no tool named ${request.params.name}.`);
    if (wrote && writing.has(request.params.name)) await wrote(viewer.accountId);
    return result;
  });
  return server;
}

/**
 * The Model Context Protocol over Streamable HTTP, stateless: each POST is answered by a server of
 * its own for the caller its Bearer key names. There are no server-initiated messages, so GET (a
 * stream for them) is 405, as the transport's specification allows. A web page may call it only
 * from the server's own origin or one listed in CORS_ORIGINS: any other Origin is 403.
 */
export function mcpRoute({ services, schema, authenticate, reaches, corsOrigins, listenHost, wrote }: McpRouteOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const tools = new McpTools(services, schema, reaches);
  return async (req, res) => {
    const { origin, host } = req.headers;
    if (!mcpOriginAllowed(corsOrigins, listenHost, origin, host)) {
      return sendRpcError(res, 403, `Forbidden: a page at ${origin} may not use this server's MCP tools; list the origin in CORS_ORIGINS to allow it.`);
    }
    if (req.method !== 'POST') return sendRpcError(res, 405, 'Send MCP requests with POST.', { allow: 'POST' });
    const viewer = await authenticate(req.headers.authorization);
    if (!viewer) return sendRpcError(res, 401, 'Unauthenticated: send Authorization: Bearer <api key>.', { 'www-authenticate': 'Bearer' });
    const server = mcpServer(viewer, tools, wrote);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}
