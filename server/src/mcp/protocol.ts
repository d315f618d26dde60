import { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode as RpcErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Viewer } from '../shared/viewer';
import type { McpTools } from './tools';

/** Records that the caller's account wrote, before a writing tool's answer goes out (read-your-writes). */
export type RecordWrite = (accountId: string) => Promise<void>;

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
function mcpServer(viewer: Viewer, tools: McpTools, wrote: RecordWrite | undefined): Server {
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

/** Answers one MCP request for `viewer` with a server of its own, closed when the response is. */
export async function answerMcpRequest(viewer: Viewer, tools: McpTools, wrote: RecordWrite | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const server = mcpServer(viewer, tools, wrote);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
