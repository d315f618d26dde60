import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Pool } from 'pg';
import { continueOverHttp, preparePredecessors } from './continue-session';
import { createBenchDatabase, withClient } from './database';
import { GraphQLClient } from './graphql';
import { log, startFlags } from './harness';
import { MESSAGE_TEXTS, postOverHttp } from './post-message';
import { fixed, measure, ratioCell, spread, table } from './stats';

/**
 * Server processes (1, 2, 3) behind a transaction pooler (DATABASE_POOLER_URL: PgBouncer in
 * `pool_mode = transaction` in front of DATABASE_URL's server), beside one process connected
 * directly, in the same run: continuations and messages per second, the PostgreSQL connections
 * they hold, and the server CPU each operation costs. Each setup starts on a new, empty database;
 * the load is spread round robin over its processes.
 */
const ROUNDS = 3;
const CONTINUATIONS = 120;
const MESSAGES = 400;
const CONCURRENCY = 24;
const POOL_SIZE = 10;
const KEY = `sck_bench_${randomBytes(16).toString('hex')}`;
const SERVER_DIR = path.resolve(__dirname, '..', 'server');

interface Setup {
  name: string;
  processes: number;
  pooled: boolean;
}

const SETUPS: Setup[] = [
  { name: 'direct, 1 process', processes: 1, pooled: false },
  { name: 'PgBouncer, 1 process', processes: 1, pooled: true },
  { name: 'PgBouncer, 2 processes', processes: 2, pooled: true },
  { name: 'PgBouncer, 3 processes', processes: 3, pooled: true },
];

interface Result {
  setup: Setup;
  continuations: number[];
  messages: number[];
  /** Server CPU milliseconds per operation, all processes together, per round. */
  cpuMsPerOp: number[];
  /** The most PostgreSQL backends the database had while the load ran. */
  backends: number;
}

function through(poolerUrl: string, databaseUrl: string): string {
  const url = new URL(poolerUrl);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** A port free now, for a server process to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** `npm start` from source, logging only what goes wrong; ready once `/healthz` answers. */
async function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(process.execPath, [...startFlags(), '-r', '@swc-node/register', 'src/index.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: new URL(url).port, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  for (const deadline = Date.now() + 120_000; Date.now() < deadline && child.exitCode === null; ) {
    if (await fetch(`${url}/healthz`).then((response) => response.ok, () => false)) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`A server process did not start:\n${output}`);
}

/** User plus system CPU time of a process so far, in milliseconds (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function runSetup(serverUrl: string, poolerUrl: string, redisUrl: string, setup: Setup): Promise<Result> {
  const database = await createBenchDatabase(serverUrl);
  const children: ChildProcess[] = [];
  try {
    const env = {
      DATABASE_URL: setup.pooled ? through(poolerUrl, database.url) : database.url,
      ...(setup.pooled ? { DATABASE_POOL_MODE: 'transaction' } : {}),
      REDIS_URL: redisUrl,
      DB_POOL_SIZE: String(POOL_SIZE),
      BOOTSTRAP_API_KEY: KEY,
      MODEL_PROVIDER: 'none',
      // One key drives the whole load: a per-key rate would measure the limit, not the servers.
      RATE_LIMIT_KEY_REQUESTS: '0',
    };
    // One after the other: they migrate in turn anyway.
    const servers = [];
    for (let index = 0; index < setup.processes; index++) {
      const server = await startProcess(env);
      children.push(server.child);
      servers.push(server);
    }
    const clients = servers.map((server) => new GraphQLClient(server.url, KEY));
    const pool = new Pool({ connectionString: database.url, max: 2 });
    const dbName = new URL(database.url).pathname.slice(1);
    let backends = 0;
    const sampler = setInterval(() => {
      pool
        .query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName])
        .then(({ rows }) => (backends = Math.max(backends, rows[0].n - 1)), () => undefined);
    }, 100);
    const result: Result = { setup, continuations: [], messages: [], cpuMsPerOp: [], backends: 0 };
    try {
      const [{ id: accountId }] = (await pool.query('SELECT id FROM accounts ORDER BY created_at LIMIT 1')).rows;
      for (let round = 0; round < ROUNDS; round++) {
        const predecessors = await preparePredecessors(pool, accountId, CONTINUATIONS);
        const sessions = await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, index) =>
            (await clients[index % clients.length].data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "chat" }) { id } }')).createSession,
          ),
        );
        const cpuBefore = children.reduce((sum, child) => sum + cpuMs(child.pid!), 0);
        const continued = await measure(CONCURRENCY, CONTINUATIONS, (index) => continueOverHttp(clients[index % clients.length], predecessors[index]));
        // Each worker writes to a session of its own, in order, as one client does.
        const posted = await measure(CONCURRENCY, MESSAGES, (index) =>
          postOverHttp(clients[index % clients.length], sessions[index % CONCURRENCY].id, MESSAGE_TEXTS[index % MESSAGE_TEXTS.length]),
        );
        const cpuAfter = children.reduce((sum, child) => sum + cpuMs(child.pid!), 0);
        result.continuations.push(continued.opsPerSecond);
        result.messages.push(posted.opsPerSecond);
        result.cpuMsPerOp.push((cpuAfter - cpuBefore) / (CONTINUATIONS + MESSAGES));
        log(`  ${setup.name}, round ${round + 1}: ${fixed(continued.opsPerSecond)} continuations/s, ${fixed(posted.opsPerSecond)} messages/s`);
      }
    } finally {
      clearInterval(sampler);
      await pool.end();
    }
    result.backends = backends;
    return result;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    await database.drop();
  }
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  const poolerUrl = process.env.DATABASE_POOLER_URL;
  if (!serverUrl || !poolerUrl) {
    console.error('Set DATABASE_URL to a PostgreSQL server and DATABASE_POOLER_URL to PgBouncer (pool_mode = transaction) in front of it; see docs/benchmarks.md.');
    process.exit(2);
  }
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const started = performance.now();
  const results: Result[] = [];
  for (const setup of SETUPS) {
    log(`${setup.name}:`);
    results.push(await runSetup(serverUrl, poolerUrl, redisUrl, setup));
  }
  const maxConnections = await withClient(serverUrl, async (client) => Number((await client.query('SHOW max_connections')).rows[0].max_connections));
  const baseline = results[0];
  const rows = results.map((result) => {
    const ratio = (samples: number[], base: number[]) => ratioCell(spread(samples.map((value, index) => value / base[index])));
    const cell = (samples: number[]) => {
      const { min, median, max } = spread(samples);
      return `${fixed(min)} / ${fixed(median)} / ${fixed(max)}`;
    };
    return [
      result.setup.name,
      cell(result.continuations),
      ratio(result.continuations, baseline.continuations),
      cell(result.messages),
      ratio(result.messages, baseline.messages),
      cell(result.cpuMsPerOp),
      // Reached directly, a process has a pool for write transactions beside its read pool.
      `${result.setup.processes * POOL_SIZE * (result.setup.pooled ? 1 : 2)}`,
      `${result.backends}`,
    ];
  });
  console.log(`\nScale-out: ${ROUNDS} rounds of ${CONTINUATIONS} continuations then ${MESSAGES} messages, ${CONCURRENCY} clients round robin over the processes; min / median / max\n`);
  console.log(
    table(['setup', 'continuations/s', 'vs direct', 'messages/s', 'vs direct', 'server CPU ms/op', 'client conns', 'PG backends'], rows),
  );
  console.log(`\nPostgreSQL max_connections: ${maxConnections}. "client conns": the most the processes' pools open (to PgBouncer when pooled, where a process has one pool; reached directly, a read pool and a write pool); "PG backends": the most the database had during the load.`);
  log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
