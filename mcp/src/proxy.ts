import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const VERSION = '0.1.0';

export interface StdioProxyOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:4000`; its tools are at `<url>/mcp`. */
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

/**
 * Serves the tools of a running server's `/mcp` to an MCP client over stdio. `tools/list` and
 * `tools/call` are forwarded as they are, so the tools, their JSON Schemas, their results and
 * their errors (tool results with `isError` and the API's codes) are exactly the server's.
 *
 * Connects to the server first: throws when it cannot be reached or refuses the key (its 401).
 */
export async function startStdioProxy({ url, apiKey, downstream = new StdioServerTransport() }: StdioProxyOptions): Promise<StdioProxy> {
  const upstream = new Client({ name: 'session-continuation-mcp', version: VERSION });
  await upstream.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }),
  );
  const server = new Server({ name: 'session-continuation', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request, { signal }) => upstream.listTools(request.params, { signal }));
  server.setRequestHandler(CallToolRequestSchema, (request, { signal }) => upstream.callTool(request.params, undefined, { signal }));
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
