import { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLSchema } from 'graphql';
import type { CorsOrigins } from '../platform/http/cors';
import type { Viewer } from '../shared/viewer';
import { mcpOriginAllowed } from './origin';
import type { answerMcpRequest, RecordWrite } from './protocol';
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
  wrote?: RecordWrite;
}

/** The JSON-RPC error code the SDK's transport answers its own refusals with (its ErrorCode.ConnectionClosed). */
const TRANSPORT_REFUSAL = -32000;

/** A refusal before MCP sees the request, in JSON-RPC's error shape with the code the SDK's transport uses for its own. */
function sendRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: TRANSPORT_REFUSAL, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/**
 * The Model Context Protocol over Streamable HTTP, stateless: each POST is answered by a server of
 * its own for the caller its Bearer key names. There are no server-initiated messages, so GET (a
 * stream for them) is 405, as the transport's specification allows. A web page may call it only
 * from the server's own origin or one listed in CORS_ORIGINS: any other Origin is 403.
 */
export function mcpRoute({ services, schema, authenticate, reaches, corsOrigins, listenHost, wrote }: McpRouteOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const tools = new McpTools(services, schema, reaches);
  let answer: typeof answerMcpRequest | undefined;
  return async (req, res) => {
    const { origin, host } = req.headers;
    if (!mcpOriginAllowed(corsOrigins, listenHost, origin, host)) {
      return sendRpcError(res, 403, `Forbidden: a page at ${origin} may not use this server's MCP tools; list the origin in CORS_ORIGINS to allow it.`);
    }
    if (req.method !== 'POST') return sendRpcError(res, 405, 'Send MCP requests with POST.', { allow: 'POST' });
    const viewer = await authenticate(req.headers.authorization);
    if (!viewer) return sendRpcError(res, 401, 'Unauthenticated: send Authorization: Bearer <api key>.', { 'www-authenticate': 'Bearer' });
    // Required on the first request rather than imported: the SDK and its schemas are a tenth of
    // the modules a server loads, which a server never asked for MCP need not load at all.
    answer ??= (require('./protocol') as typeof import('./protocol')).answerMcpRequest;
    await answer(viewer, tools, wrote, req, res);
  };
}
