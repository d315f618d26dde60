import { startStdioProxy } from './proxy.js';

const url = process.env.SC_URL ?? 'http://127.0.0.1:4000';
const apiKey = process.env.SC_API_KEY;

// Standard output carries the protocol: everything for a person goes to standard error.
if (!apiKey) {
  console.error('session-continuation-mcp: set SC_API_KEY to an API key of the server at SC_URL.');
  process.exit(2);
}
startStdioProxy({ url, apiKey }).catch((error: unknown) => {
  console.error(`session-continuation-mcp: cannot reach the MCP tools at ${new URL('/mcp', url)}: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
