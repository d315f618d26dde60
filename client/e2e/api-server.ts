import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The built API server, next to this package in the monorepo. */
export const SERVER_DIST = path.resolve(__dirname, '..', '..', 'server', 'dist');
const SERVER_ENTRY = path.join(SERVER_DIST, 'index.js');

/**
 * The test servers' embedded buffer pool in megabytes: PostgreSQL clears the whole pool as it
 * starts, and at the default 128 MB that is most of a start; a test's data fits in a few.
 */
export const EMBEDDED_BUFFER_MB = '16';

/** Where the global setup left a migrated embedded data folder for each server to start on a copy of. */
export const TEMPLATE_DIR_VARIABLE = 'E2E_TEMPLATE_DATA_DIR';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RunningApiServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** The admin key the server was started with. */
  apiKey: string;
  /** What the server printed so far, for failure messages. */
  output(): string;
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitUntilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The API server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The API server did not answer /healthz within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * Starts the built API server on a free port with a fresh embedded database (a copy of the run's
 * migrated template when there is one), a random admin key
 * and the built-in agent (plus `environment`, e.g. CORS_ORIGINS), and resolves once `GET /healthz` answers 200. Throws when the server
 * is not built, exits, or does not become healthy in time.
 */
export async function startApiServer(environment: Record<string, string> = {}): Promise<RunningApiServer> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} does not exist: run "npm run build" at the repository root first.`);
  }
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'session-continuation-e2e-'));
  const templateDir = process.env[TEMPLATE_DIR_VARIABLE];
  if (templateDir) await cp(templateDir, path.join(dataDir, 'data'), { recursive: true });
  const apiKey = `e2e_${randomBytes(24).toString('base64url')}`;
  const url = `http://127.0.0.1:${port}`;

  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(dataDir, 'data'),
      EMBEDDED_BUFFER_MB,
      BOOTSTRAP_API_KEY: apiKey,
      DATABASE_URL: '',
      NODE_ENV: 'production',
      // The deterministic agent: every message gets a predictable answer, whatever this shell configures.
      MODEL_PROVIDER: 'builtin',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const output = () => printed;

  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(killTimer);
    }
    await rm(dataDir, { recursive: true, force: true });
  }

  try {
    await waitUntilHealthy(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, apiKey, output, stop };
}

/** Runs one GraphQL operation over HTTP as the given key; throws on GraphQL errors. */
export async function queryApi<T>(server: RunningApiServer, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length || !body.data) {
    throw new Error(`GraphQL request failed: ${JSON.stringify(body.errors ?? body)}`);
  }
  return body.data;
}

/**
 * Imports a conversation in the OpenAI chat format (`POST /imports`) as a new session titled
 * `title`, in one request however long it is; resolves to the new session's id.
 */
export async function importTranscript(server: RunningApiServer, title: string, messages: { role: 'user' | 'assistant'; content: string }[]): Promise<string> {
  const response = await fetch(`${server.url}/imports?title=${encodeURIComponent(title)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
    body: JSON.stringify(messages),
  });
  if (response.status !== 201) throw new Error(`Import failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { rootSessionId: string }).rootSessionId;
}
