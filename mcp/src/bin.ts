import { mcpEndpoint, startStdioProxy } from './proxy.js';

// Standard output carries the protocol: everything for a person goes to standard error, one line.
function exit(message: string, code: number): never {
  console.error(`session-continuation-mcp: ${message}`);
  process.exit(code);
}

const url = process.env.SC_URL || 'http://127.0.0.1:4000';
const apiKey = process.env.SC_API_KEY;

if (!apiKey) exit('set SC_API_KEY to an API key of the server at SC_URL.', 2);
let endpoint: URL;
try {
  endpoint = mcpEndpoint(url);
} catch (error) {
  exit(`SC_URL must be the server's URL: ${(error as Error).message}.`, 2);
}
/** An error's message with its cause's (fetch says only "fetch failed"), on one line. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && !error.message.includes(error.cause.message) ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`.replace(/\s*\n\s*/g, ' ');
}

startStdioProxy({ url: endpoint.href, apiKey }).catch((error: unknown) => exit(`cannot reach the MCP tools at ${endpoint}: ${describe(error)}`, 1));
