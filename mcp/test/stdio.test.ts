import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
// The SDK's tests start the server the same way.
import { RunningServer, startServer } from '../../sdk/test/server.js';

const bin = fileURLToPath(new URL('../bin/session-continuation-mcp.js', import.meta.url));

/** An MCP client that starts the bin as an MCP client configured with it would. */
function stdioTransport(env: Record<string, string>) {
  return new StdioClientTransport({ command: process.execPath, args: [bin], env: { PATH: process.env.PATH!, ...env }, stderr: 'pipe' });
}

/** Runs the bin to its exit, as a person trying a setting would; its standard error and exit code. */
function runBin(env: Record<string, string>): { stderr: string; status: number | null } {
  const { stderr, status } = spawnSync(process.execPath, [bin], { env: { PATH: process.env.PATH!, ...env }, input: '', encoding: 'utf8', timeout: 20_000 });
  return { stderr, status };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const textOf = (result: CallToolResult, index = 0) => (result.content[index] as { type: 'text'; text: string }).text;
const jsonOf = (result: CallToolResult, index = 0) => JSON.parse(textOf(result, index));

describe('session-continuation-mcp over stdio', () => {
  let server: RunningServer;
  let mcp: Client;
  const call = async (name: string, args: Record<string, unknown>) => (await mcp.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    server = await startServer();
    mcp = new Client({ name: 'stdio-test', version: '1.0.0' });
    await mcp.connect(stdioTransport({ SC_URL: server.url, SC_API_KEY: server.apiKey }));
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  it("lists exactly the server's tools, with the same JSON Schemas", async () => {
    const direct = new Client({ name: 'http-test', version: '1.0.0' });
    await direct.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${server.apiKey}` } } }),
    );
    const expected = await direct.listTools();
    await direct.close();
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools, expected.tools);
    assert.ok(tools.some((tool) => tool.name === 'continue_session'));
  });

  it('searches the history and continues a session, returning the successor and its context', async () => {
    const { sessionId } = jsonOf(await call('create_session', { title: 'Moving house' }));
    for (const text of ['We move on the 3rd of May.', 'Now let us plan the kitchen.']) {
      assert.ok(!(await call('append_message', { sessionId, text })).isError);
    }
    const { hits } = jsonOf(await call('search_history', { sessionId, query: 'move May' }));
    assert.equal(hits[0].sessionId, sessionId);
    assert.equal(hits[0].seq, 1);

    const continued = await call('continue_session', {
      sessionId,
      title: 'Kitchen plan',
      reason: 'topic_change',
      handoff: { purpose: 'Plan the new kitchen', currentRequest: 'Now let us plan the kitchen.', establishedFacts: ['The move is on the 3rd of May.'] },
      sources: [],
    });
    assert.ok(!continued.isError, textOf(continued));
    const { successorId } = jsonOf(continued);
    assert.match(textOf(continued, 1), /Plan the new kitchen/);
    assert.match(textOf(continued, 1), /The move is on the 3rd of May\./);

    const lineage = jsonOf(await call('walk_lineage', { sessionId: successorId }));
    assert.deepEqual(lineage.map((node: { sessionId: string }) => node.sessionId), [sessionId, successorId]);
  });

  it("passes a refusal on as the server's tool error, with the API's code", async () => {
    const refused = await call('read_manifest', { manifestId: '00000000-0000-4000-8000-000000000000' });
    assert.equal(refused.isError, true);
    assert.equal(jsonOf(refused).code, 'NOT_FOUND');
  });

  it('passes a protocol error on with its code and message once', async () => {
    await assert.rejects(mcp.callTool({ name: 'nope', arguments: {} }), { code: -32602, message: 'MCP error -32602: There is no tool named nope.' });
  });

  it('takes the MCP endpoint itself as SC_URL too', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(stdioTransport({ SC_URL: `${server.url}/mcp/`, SC_API_KEY: server.apiKey }));
    const { tools } = await client.listTools();
    await client.close();
    assert.ok(tools.some((tool) => tool.name === 'walk_lineage'));
  });

  it('refuses an SC_URL that is not a URL in one line, before connecting', () => {
    for (const url of ['notaurl', 'ftp://example.com']) {
      const { stderr, status } = runBin({ SC_URL: url, SC_API_KEY: server.apiKey });
      assert.equal(status, 2);
      assert.equal(stderr, `session-continuation-mcp: SC_URL must be the server's URL: "${url}" is not an http(s) URL such as http://127.0.0.1:4000.\n`);
    }
  });

  it('says in one line that nothing answers at SC_URL', async () => {
    const port = await closedPort();
    const { stderr, status } = runBin({ SC_URL: `http://127.0.0.1:${port}`, SC_API_KEY: server.apiKey });
    assert.equal(status, 1);
    assert.match(stderr, new RegExp(`^session-continuation-mcp: cannot reach the MCP tools at http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNREFUSED.*\\n$`));
  });

  it('exits saying why when the server refuses its key', async () => {
    const transport = stdioTransport({ SC_URL: server.url, SC_API_KEY: 'sck_wrong' });
    let stderr = '';
    const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    await transport.start();
    transport.stderr!.on('data', (chunk) => (stderr += chunk));
    await closed;
    assert.match(stderr, /cannot reach the MCP tools at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.match(stderr, /401|Unauthenticated/);
  });
});
