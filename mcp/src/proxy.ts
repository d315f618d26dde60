import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const VERSION = '0.1.0';

export interface StdioProxyOptions {
  /** The server's URL, e.g. `http://127.0.0.1:4000`, or its MCP endpoint, `http://127.0.0.1:4000/mcp`. */
  url: string;
  /** An API key of the account the tools act for. */
  apiKey: string;
  /** Where the MCP client is: standard input and output by default. */
  downstream?: Transport;
}

export interface StdioProxy {
  /** Closes both sides. */
  close(): Promise<void>;
}

/** The MCP endpoint of a server given by its URL or by the endpoint itself; throws a TypeError naming a URL that is not one. */
export function mcpEndpoint(url: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(`"${url}" is not an http(s) URL such as http://127.0.0.1:4000`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path.endsWith('/mcp') ? path : `${path}/mcp`;
  return parsed;
}

/**
 * An upstream error as the server sent it. The client prefixes "MCP error <code>: " to an error's
 * message, and the MCP client downstream would prefix it again.
 */
function asSent(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}

/**
 * Serves the tools of a running server's `/mcp` to an MCP client over stdio. `tools/list` and
 * `tools/call` are forwarded as they are, so the tools, their JSON Schemas, their results and
 * their errors (tool results with `isError` and the API's codes, protocol errors with their code
 * and message) are exactly the server's.
 *
 * Connects to the server first: throws when it cannot be reached or refuses the key (its 401).
 */
export async function startStdioProxy({ url, apiKey, downstream = new StdioServerTransport() }: StdioProxyOptions): Promise<StdioProxy> {
  const upstream = new Client({ name: 'session-continuation-mcp', version: VERSION });
  await upstream.connect(new StreamableHTTPClientTransport(mcpEndpoint(url), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  const server = new Server({ name: 'session-continuation', version: VERSION }, { capabilities: { tools: {} } });
  const rethrow = (error: unknown) => {
    throw asSent(error);
  };
  server.setRequestHandler(ListToolsRequestSchema, (request, { signal }) => upstream.listTools(request.params, { signal }).catch(rethrow));
  server.setRequestHandler(CallToolRequestSchema, (request, { signal }) => upstream.callTool(request.params, undefined, { signal }).catch(rethrow));
  // The client going away (its end of stdin closed) ends the proxy.
  server.onclose = () => void upstream.close();
  await server.connect(downstream);
  return {
    async close() {
      await server.close();
      await upstream.close();
    },
  };
}
