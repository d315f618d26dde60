import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { RunningApp, startApp } from '../server/src/app';
import { DEFAULT_CONTINUATION_POLICY } from '../server/src/services/continuations.service';
import { continueInSql, continueOverHttp, ManifestTemplate, Predecessor, preparePredecessors, readManifestTemplate } from './continue-session';
import { createBenchDatabase, withClient } from './database';
import { GraphQLClient } from './graphql';
import { alternatingMedians, buildChain, lineageInSql, lineageOverHttp } from './lineage';
import { fixed, measure, spread, Spread, table, Throughput } from './stats';

const ROUNDS = 3;
const CONCURRENCIES = [1, 4, 16];
const MAX_CLIENTS = Math.max(...CONCURRENCIES);
/** Continuations timed per round at each concurrency: enough for a p99 without blowing the time budget. */
const OPERATIONS: Record<number, number> = { 1: 100, 4: 200, 16: 400 };
const WARMUP_OPERATIONS = 64;
const LINEAGE_DEPTH = 1000;
const LINEAGE_RUNS = 30;
const LINEAGE_WARMUP = 3;
const CONTINUE_TARGET = 0.5;
const LINEAGE_TARGET = 2;

const log = (message: string) => process.stderr.write(`${message}\n`);

interface ContinueRound {
  round: number;
  clients: number;
  server: Throughput;
  raw: Throughput;
}

interface LineageRound {
  round: number;
  serverMs: number;
  rawMs: number;
}

/** Hands out prepared predecessors: every continuation, on either side, gets one of its own. */
function dispenser(predecessors: Predecessor[]) {
  let next = 0;
  return (count: number) => {
    if (next + count > predecessors.length) throw new Error('Not enough prepared predecessors');
    next += count;
    return predecessors.slice(next - count, next);
  };
}

async function rawThroughput(url: string, clients: number, work: (pool: Pool, index: number) => Promise<unknown>, count: number) {
  const pool = new Pool({ connectionString: url, max: clients });
  try {
    // Connections open before the clock starts, as the server's pool already is.
    const connected = await Promise.all(Array.from({ length: clients }, () => pool.connect()));
    connected.forEach((client) => client.release());
    return await measure(clients, count, (index) => work(pool, index));
  } finally {
    await pool.end();
  }
}

async function bench(databaseUrl: string) {
  // The machine may be shared: the report says how busy it was.
  const loadAverage = loadavg()[0].toFixed(1);
  const app: RunningApp = await startApp({
    host: '127.0.0.1',
    port: 0,
    databaseUrl,
    // Unused: the bootstrap key is given, and nothing else is stored on disk with PostgreSQL.
    dataDir: tmpdir(),
    bootstrapApiKey: `sck_bench_${randomBytes(16).toString('hex')}`,
    development: false,
    clientDist: path.join(tmpdir(), 'sc-bench-no-client'),
    poolSize: MAX_CLIENTS,
    // Every prepared predecessor is continued once, far faster than any person or agent would.
    continuationPolicy: { ...DEFAULT_CONTINUATION_POLICY, streakLimit: 1_000_000, perAccountPerMinute: 1_000_000 },
  });
  const setup = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
    const { createAccount } = await admin.data<{ createAccount: { apiKey: string; account: { id: string } } }>(
      'mutation { createAccount(name: "bench") { apiKey account { id } } }',
    );
    const client = new GraphQLClient(app.url, createAccount.apiKey);
    const accountId = createAccount.account.id;

    const perSide = WARMUP_OPERATIONS + ROUNDS * CONCURRENCIES.reduce((sum, clients) => sum + OPERATIONS[clients], 0);
    log(`Preparing ${2 * perSide} predecessor sessions...`);
    const prepared = await preparePredecessors(setup, accountId, 2 * perSide);
    await setup.query('ANALYZE');
    const serverPredecessors = dispenser(prepared.slice(0, perSide));
    const rawPredecessors = dispenser(prepared.slice(perSide));

    log('Warming up...');
    const warmServer = serverPredecessors(WARMUP_OPERATIONS);
    const queriesBeforeWarmup = app.database.queryCount();
    await measure(MAX_CLIENTS, WARMUP_OPERATIONS, (index) => continueOverHttp(client, warmServer[index]));
    const continueQueries = (app.database.queryCount() - queriesBeforeWarmup) / WARMUP_OPERATIONS;
    const manifest = await readManifestTemplate(setup);
    const warmRaw = rawPredecessors(WARMUP_OPERATIONS);
    let rawStatements = 0;
    await rawThroughput(
      databaseUrl,
      MAX_CLIENTS,
      async (pool, index) => {
        rawStatements = await continueInSql(pool, accountId, warmRaw[index].id, manifest);
      },
      WARMUP_OPERATIONS,
    );

    log(`Building a lineage ${LINEAGE_DEPTH} continuations deep...`);
    const [root] = await preparePredecessors(setup, accountId, 1);
    const tip = await buildChain(setup, accountId, root.id, root.messageIds[0], LINEAGE_DEPTH);
    const lineageLength = LINEAGE_DEPTH + 1;
    await lineageOverHttp(client, tip, lineageLength);
    const queriesBefore = app.database.queryCount();
    await lineageOverHttp(client, tip, lineageLength);
    const lineageQueries = app.database.queryCount() - queriesBefore;

    const continueRounds: ContinueRound[] = [];
    const lineageRounds: LineageRound[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const clients of CONCURRENCIES) {
        const count = OPERATIONS[clients];
        log(`Round ${round}: continueSession with ${clients} client(s), ${count} operations each side...`);
        const forServer = serverPredecessors(count);
        const server = await measure(clients, count, (index) => continueOverHttp(client, forServer[index]));
        const forRaw = rawPredecessors(count);
        const raw = await rawThroughput(databaseUrl, clients, (pool, index) => continueInSql(pool, accountId, forRaw[index].id, manifest), count);
        continueRounds.push({ round, clients, server, raw });
      }
      log(`Round ${round}: lineage at depth ${LINEAGE_DEPTH}...`);
      const [serverMs, rawMs] = await withClient(databaseUrl, (sql) =>
        alternatingMedians(
          LINEAGE_RUNS,
          LINEAGE_WARMUP,
          () => lineageOverHttp(client, tip, lineageLength),
          () => lineageInSql(sql, accountId, tip, lineageLength),
        ),
      );
      lineageRounds.push({ round, serverMs, rawMs });
    }
    const { rows } = await setup.query('SHOW server_version');
    report({
      environment: `PostgreSQL ${rows[0].server_version}, ${cpus().length} CPUs, load average ${loadAverage} at start, server pool ${MAX_CLIENTS}`,
      continueRounds,
      continueQueries,
      rawStatements,
      manifest,
      lineageRounds,
      lineageQueries,
    });
  } finally {
    await setup.end();
    await app.close();
  }
}

const ratioCell = ({ min, median, max }: Spread) => `${fixed(min, 2)} / ${fixed(median, 2)} / ${fixed(max, 2)}`;

interface Report {
  environment: string;
  continueRounds: ContinueRound[];
  /** Database queries the server sends per continueSession request, authentication included. */
  continueQueries: number;
  rawStatements: number;
  manifest: ManifestTemplate;
  lineageRounds: LineageRound[];
  lineageQueries: number;
}

function report({ environment, continueRounds, continueQueries, rawStatements, manifest, lineageRounds, lineageQueries }: Report) {
  const ratio = (row: ContinueRound) => row.server.opsPerSecond / row.raw.opsPerSecond;
  console.log(`\n${environment}`);
  console.log(
    `\ncontinueSession: server (GraphQL over HTTP, in-process) vs raw (one hand-written SQL transaction through pg)` +
      `\nserver: ${fixed(continueQueries)} database queries per request; raw: ${rawStatements} statements; manifest JSON ${fixed(manifest.size / 1024)} KB` +
      `\nratio = server ops/s / raw ops/s\n`,
  );
  console.log(
    table(
      ['round', 'clients', 'ops', 'server ops/s', 'p50 ms', 'p99 ms', 'raw ops/s', 'p50 ms', 'p99 ms', 'ratio'],
      continueRounds.map((row) => [
        String(row.round),
        String(row.clients),
        String(OPERATIONS[row.clients]),
        fixed(row.server.opsPerSecond),
        fixed(row.server.p50Ms),
        fixed(row.server.p99Ms),
        fixed(row.raw.opsPerSecond),
        fixed(row.raw.p50Ms),
        fixed(row.raw.p99Ms),
        fixed(ratio(row), 2),
      ]),
    ),
  );

  console.log(`\nserver/raw throughput ratio over ${ROUNDS} rounds\n`);
  console.log(
    table(
      ['clients', 'min / median / max', 'target'],
      CONCURRENCIES.map((clients) => {
        const ratios = spread(continueRounds.filter((row) => row.clients === clients).map(ratio));
        const target = clients === MAX_CLIENTS ? `>= ${CONTINUE_TARGET}: ${ratios.median >= CONTINUE_TARGET ? 'met' : 'NOT MET'}` : '';
        return [String(clients), ratioCell(ratios), target];
      }),
    ),
  );

  const lineageRatios = spread(lineageRounds.map((row) => row.serverMs / row.rawMs));
  console.log(
    `\nlineage of a session ${LINEAGE_DEPTH} continuations deep (${LINEAGE_DEPTH + 1} sessions), median of ${LINEAGE_RUNS} sequential runs each, the two sides alternating` +
      `\nserver: { session(id) { lineage { id } } } over HTTP; raw: the same recursive CTE through pg; ratio = server ms / raw ms\n`,
  );
  console.log(
    table(
      ['round', 'server ms', 'raw ms', 'ratio'],
      lineageRounds.map((row) => [String(row.round), fixed(row.serverMs, 2), fixed(row.rawMs, 2), fixed(row.serverMs / row.rawMs, 2)]),
    ),
  );
  console.log(
    `\nratio min / median / max: ${ratioCell(lineageRatios)}; target <= ${LINEAGE_TARGET}: ${lineageRatios.median <= LINEAGE_TARGET ? 'met' : 'NOT MET'}` +
      `\nserver database queries for one lineage request: ${lineageQueries}`,
  );
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.error('Set DATABASE_URL to a PostgreSQL server URL; the benchmark creates and drops a database of its own there.');
    process.exit(2);
  }
  const started = performance.now();
  const database = await createBenchDatabase(serverUrl);
  try {
    await bench(database.url);
  } finally {
    await database.drop();
  }
  log(`\nDone in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
