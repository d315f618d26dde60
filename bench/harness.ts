import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunningApp, startApp } from '../server/src/app';
import { AgentConfig, DEFAULT_AGENT_CONFIG } from '../server/src/config';
import { DEFAULT_CONTINUATION_POLICY } from '../server/src/modules/continuation/continuations.service';
import type { WebhookSettings } from '../server/src/modules/webhooks/webhooks';
import { createBenchDatabase } from './database';
import { GraphQLClient } from './graphql';

export const log = (message: string) => process.stderr.write(`${message}\n`);

export interface BenchServerOptions {
  poolSize: number;
  agent?: Partial<AgentConfig>;
  webhooks?: WebhookSettings;
}

/** The node flags of the server's `npm start` script (`node <flags> dist/index.js`). */
export function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.resolve(__dirname, '..', 'server', 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/index.js') throw new Error(`The server's start script is not \`node <flags> dist/index.js\`: ${scripts.start}`);
  return words.slice(1, -1);
}

/**
 * The real server in this process, as `npm start` runs it, on `databaseUrl`, with the default
 * continuation limits and no agent unless one is given. This process must run with the start
 * script's node flags (the benchmarks' npm scripts pass them): the collector's settings change
 * what the server's CPU per operation is.
 */
export function startBenchServer(databaseUrl: string, options: BenchServerOptions): Promise<RunningApp> {
  const missing = startFlags().filter((flag) => !process.execArgv.includes(flag));
  if (missing.length > 0) throw new Error(`Run this benchmark with the server's node flags, as its npm script does: missing ${missing.join(' ')}`);
  return startApp({
    host: '127.0.0.1',
    port: 0,
    databaseUrl,
    // Unused: the bootstrap key is given, and nothing else is stored on disk with PostgreSQL.
    dataDir: tmpdir(),
    bootstrapApiKey: `sck_bench_${randomBytes(16).toString('hex')}`,
    development: false,
    clientDist: path.join(tmpdir(), 'sc-bench-no-client'),
    poolSize: options.poolSize,
    continuationPolicy: DEFAULT_CONTINUATION_POLICY,
    agent: { ...DEFAULT_AGENT_CONFIG, provider: 'none', ...options.agent },
    webhooks: options.webhooks,
    // The report goes to stdout and progress to stderr: the server says only what goes wrong.
    logLevel: 'warn',
    // One key drives the whole load: a per-key rate would measure the limit, not the server.
    rateLimits: { signInFailures: 20, signInWindowSeconds: 60, keyRequests: 0, keyWindowSeconds: 60 },
  });
}

/** An account a benchmark works in, with a client speaking for it. */
export interface BenchAccount {
  id: string;
  name: string;
  client: GraphQLClient;
}

/** `${prefix} 1` to `${prefix} ${count}`: names of accounts that do the same work. */
export const numberedNames = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

/** A new account for each name, created through the API with the bootstrap key. */
export async function createBenchAccounts(app: RunningApp, names: string[]): Promise<BenchAccount[]> {
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    return await Promise.all(
      names.map(async (name) => {
        const { createAccount } = await admin.data<{ createAccount: { apiKey: string; account: { id: string; name: string } } }>(
          'mutation ($name: String!) { createAccount(name: $name) { apiKey account { id name } } }',
          { name },
        );
        return { ...createAccount.account, client: new GraphQLClient(app.url, createAccount.apiKey) };
      }),
    );
  } finally {
    admin.close();
  }
}

/**
 * Runs a benchmark on a new database beside the one DATABASE_URL names (which it never writes
 * to), drops it afterwards, also after a failure, and exits non-zero only when something failed.
 */
export function runOnNewDatabase(bench: (databaseUrl: string) => Promise<void>): void {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.error('Set DATABASE_URL to a PostgreSQL server URL; the benchmark creates and drops a database of its own there.');
    process.exit(2);
  }
  const started = performance.now();
  (async () => {
    const database = await createBenchDatabase(serverUrl);
    try {
      await bench(database.url);
    } finally {
      await database.drop();
    }
    log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
