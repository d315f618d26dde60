import './production';
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { Pool } from 'pg';
import type { RunningApp } from '../server/src/app';
import { continueInSql, continueOverHttp, ManifestTemplate, Predecessor, preparePredecessors, readManifestTemplate, spreadPredecessors } from './continue-session';
import { closeRawPools, rawThroughput, withClient } from './database';
import { BenchAccount, createBenchAccounts, log, numberedNames, runOnNewDatabase, startBenchServer } from './harness';
import { GraphQLClient } from './graphql';
import { benchCompile, reportCompile } from './compile';
import { alternatingMedians, buildChain, lineageInSql, lineageOverHttp } from './lineage';
import { dispenser, fixed, measure, ratioCell, sideBySide, sideBySideCells, spread, table, Throughput } from './stats';
import { MESSAGE_TEXTS, postInSql, postOverHttp } from './post-message';
import { measureAnswerRound, measureTurnRound, prepareAnswers, prepareTurnLoads, reportAnswers, reportTurns, RuntimeRound } from './runtime';
import { settleCompiler } from './warm-up';

const ROUNDS = 3;
/**
 * Turns of each side in a round (`sideBySide`): server, raw, raw, server. A side always measured
 * second meets what PostgreSQL does after the other's writes (the soak's by-hand side did).
 */
const TURNS = 2;
const CONCURRENCIES = [1, 4, 16];
const MAX_CLIENTS = Math.max(...CONCURRENCIES);
/** Continuations timed per round at each concurrency: enough for a p99 without blowing the time budget. */
const OPERATIONS: Record<number, number> = { 1: 100, 4: 200, 16: 400 };
/**
 * Continuations each side runs before timing, after the server's compiler has settled
 * (`settleCompiler`): they open each side's pooled connections and prepare their statements.
 */
const WARMUP_OPERATIONS = 320;
const LINEAGE_DEPTH = 1000;
/** Sessions in that lineage, the origin included. */
const LINEAGE_LENGTH = LINEAGE_DEPTH + 1;
const LINEAGE_RUNS = 30;
const LINEAGE_WARMUP = 3;
const CONTINUE_TARGET = 0.6;
const LINEAGE_TARGET = 2;

const SECTIONS = ['continue', 'message', 'lineage', 'compile', 'turn', 'answer'] as const;
type Section = (typeof SECTIONS)[number];

/** Sections named on the command line, else in BENCH (comma-separated); all of them when neither names any. */
function selectedSections(): Set<Section> {
  const args = process.argv.slice(2);
  const names = (args.length ? args : (process.env.BENCH ?? '').split(',')).map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length) {
    console.error(`Unknown benchmark section(s): ${unknown.join(', ')}. Choose from ${SECTIONS.join(', ')}.`);
    process.exit(2);
  }
  return new Set(names.length ? (names as Section[]) : SECTIONS);
}

interface ContinueRound {
  round: number;
  clients: number;
  server: Throughput;
  raw: Throughput;
}

/** A round of the postMessage measurement: the same shape as a continueSession round. */
type MessageRound = ContinueRound;

/** Messages timed per round at each concurrency. */
const MESSAGE_OPERATIONS: Record<number, number> = { 1: 200, 4: 400, 16: 800 };
/** Messages each side posts before timing, as WARMUP_OPERATIONS: a message costs less than a continuation, so more of them. */
const MESSAGE_WARMUP = 2_000;
const MESSAGE_TARGET = 0.7;

interface LineageRound {
  round: number;
  serverMs: number;
  rawMs: number;
}

/** Predecessors for both sides, after a warm-up of each that also sizes the report's per-request counts. */
async function prepareContinuations(app: RunningApp, setup: Pool, databaseUrl: string, serverAccounts: BenchAccount[], rawAccounts: BenchAccount[]) {
  const perSide = WARMUP_OPERATIONS + ROUNDS * CONCURRENCIES.reduce((sum, clients) => sum + OPERATIONS[clients], 0);
  log(`Preparing ${2 * perSide} predecessor sessions...`);
  const serverPredecessors = dispenser(await spreadPredecessors(setup, serverAccounts.map(({ id }) => id), perSide));
  const rawPredecessors = dispenser(await spreadPredecessors(setup, rawAccounts.map(({ id }) => id), perSide));
  await setup.query('ANALYZE');

  log('Warming up...');
  const warmServer = serverPredecessors(WARMUP_OPERATIONS);
  const queriesBeforeWarmup = app.database.queryCount();
  await measure(MAX_CLIENTS, WARMUP_OPERATIONS, (index) => continueOverHttp(clientOf(serverAccounts, warmServer[index]), warmServer[index]));
  const continueQueries = (app.database.queryCount() - queriesBeforeWarmup) / WARMUP_OPERATIONS;
  const manifest = await readManifestTemplate(setup);
  const warmRaw = rawPredecessors(WARMUP_OPERATIONS);
  let rawStatements = 0;
  await rawThroughput(
    databaseUrl,
    MAX_CLIENTS,
    async (pool, index) => {
      rawStatements = await continueInSql(pool, warmRaw[index], manifest);
    },
    WARMUP_OPERATIONS,
  );
  return { serverPredecessors, rawPredecessors, continueQueries, rawStatements, manifest, serverAccounts };
}

function clientOf(accounts: BenchAccount[], predecessor: Predecessor): GraphQLClient {
  return accounts.find((account) => account.id === predecessor.accountId)!.client;
}

/**
 * Sessions for the postMessage measurement, one per client on each side, in accounts of their own
 * (bulk-written roots, as the continue section's). Consecutive messages go to different sessions,
 * as many people writing at once; each side's first messages warm it up.
 */
async function prepareMessages(app: RunningApp, setup: Pool, databaseUrl: string, serverAccounts: BenchAccount[], rawAccounts: BenchAccount[]) {
  const sessionsIn = async (accounts: BenchAccount[]) => (await Promise.all(accounts.map((account) => preparePredecessors(setup, account.id, 4)))).flat();
  const serverSessions = await sessionsIn(serverAccounts);
  const rawSessions = await sessionsIn(rawAccounts);
  log('Warming up postMessage...');
  const queriesBefore = app.database.queryCount();
  await measure(MAX_CLIENTS, MESSAGE_WARMUP, (index) => {
    const session = serverSessions[index % serverSessions.length];
    return postOverHttp(clientOf(serverAccounts, session), session.id, MESSAGE_TEXTS[index % MESSAGE_TEXTS.length]);
  });
  const serverQueries = (app.database.queryCount() - queriesBefore) / MESSAGE_WARMUP;
  let rawStatements = 0;
  await rawThroughput(
    databaseUrl,
    MAX_CLIENTS,
    async (pool, index) => {
      const session = rawSessions[index % rawSessions.length];
      rawStatements = await postInSql(pool, session.accountId, session.id, MESSAGE_TEXTS[index % MESSAGE_TEXTS.length], true);
    },
    MESSAGE_WARMUP,
  );
  return { serverSessions, rawSessions, serverAccounts, serverQueries, rawStatements };
}

function reportMessages(rounds: MessageRound[], { serverQueries, rawStatements }: { serverQueries: number; rawStatements: number }) {
  console.log(
    `\npostMessage: server (GraphQL over HTTP, queuing the agent's turn) vs raw (one hand-written SQL transaction through pg:` +
      ` lock the session, insert the event, update the counters, queue the run)` +
      `\nserver: ${fixed(serverQueries)} database queries per request; raw: ${rawStatements} statements in 2 round trips\n`,
  );
  reportThroughputRounds('postMessage', rounds, MESSAGE_OPERATIONS, MESSAGE_TARGET);
}

/** A server-against-raw throughput table, round by round, and each concurrency's ratios with the target at the highest. */
function reportThroughputRounds(operation: string, rounds: ContinueRound[], operations: Record<number, number>, target: number) {
  const ratio = (row: ContinueRound) => row.server.opsPerSecond / row.raw.opsPerSecond;
  console.log('CPU ms/op = this process (the server, or the raw side\'s pg driver; the load generator too) + all PostgreSQL processes\n');
  console.log(
    table(
      ['round', 'clients', 'ops', 'server ops/s', 'p50 ms', 'p99 ms', 'CPU ms/op', 'raw ops/s', 'p50 ms', 'p99 ms', 'CPU ms/op', 'ratio'],
      rounds.map((row) => [String(row.round), String(row.clients), String(operations[row.clients]), ...sideBySideCells(row)]),
    ),
  );
  console.log(`\n${operation} server/raw throughput ratio over ${ROUNDS} rounds\n`);
  console.log(
    table(
      ['clients', 'min / median / max', 'target'],
      CONCURRENCIES.map((clients) => {
        const ratios = spread(rounds.filter((row) => row.clients === clients).map(ratio));
        const met = clients === MAX_CLIENTS ? `>= ${target} in every round: ${ratios.min >= target ? 'met' : 'NOT MET'}` : '';
        return [String(clients), ratioCell(ratios), met];
      }),
    ),
  );
}

/** The deepest session of a new lineage, and the server's query count for one lineage request. */
async function prepareLineage(app: RunningApp, client: GraphQLClient, setup: Pool, accountId: string) {
  log(`Building a lineage ${LINEAGE_DEPTH} continuations deep...`);
  const [root] = await preparePredecessors(setup, accountId, 1);
  const tip = await buildChain(setup, accountId, root.id, root.messageIds[0], LINEAGE_DEPTH);
  await lineageOverHttp(client, tip, LINEAGE_LENGTH);
  const queriesBefore = app.database.queryCount();
  await lineageOverHttp(client, tip, LINEAGE_LENGTH);
  return { tip, lineageQueries: app.database.queryCount() - queriesBefore };
}

interface RoundResults {
  turnRounds: RuntimeRound[];
  answerRounds: RuntimeRound[];
  messageRounds: MessageRound[];
  continueRounds: ContinueRound[];
  lineageRounds: LineageRound[];
}

interface PreparedSections {
  continuation: Awaited<ReturnType<typeof prepareContinuations>> | null;
  messages: Awaited<ReturnType<typeof prepareMessages>> | null;
  turns: Awaited<ReturnType<typeof prepareTurnLoads>> | null;
  answers: Awaited<ReturnType<typeof prepareAnswers>> | null;
  lineage: Awaited<ReturnType<typeof prepareLineage>> | null;
  client: GraphQLClient;
  accountId: string;
}

/** One round of every prepared section, the server and its raw limit side by side. */
async function measureRound(round: number, databaseUrl: string, prepared: PreparedSections, results: RoundResults) {
  const { continuation, messages, turns, answers, lineage, client, accountId } = prepared;
  if (continuation) {
    const { serverPredecessors, rawPredecessors, manifest, serverAccounts } = continuation;
    for (const clients of CONCURRENCIES) {
      const count = OPERATIONS[clients];
      log(`Round ${round}: continueSession with ${clients} client(s), ${count} operations each side...`);
      const [forServer, forRaw] = [serverPredecessors(count), rawPredecessors(count)];
      const { server, raw } = await sideBySide(
        TURNS,
        count,
        (start, size) => measure(clients, size, (index) => continueOverHttp(clientOf(serverAccounts, forServer[start + index]), forServer[start + index])),
        (start, size) => rawThroughput(databaseUrl, clients, (pool, index) => continueInSql(pool, forRaw[start + index], manifest), size),
      );
      results.continueRounds.push({ round, clients, server, raw });
    }
  }
  if (messages) {
    for (const clients of CONCURRENCIES) {
      const count = MESSAGE_OPERATIONS[clients];
      log(`Round ${round}: postMessage with ${clients} client(s), ${count} operations each side...`);
      const { server, raw } = await sideBySide(
        TURNS,
        count,
        (start, size) =>
          measure(clients, size, (offset) => {
            const session = messages.serverSessions[(start + offset) % messages.serverSessions.length];
            return postOverHttp(clientOf(messages.serverAccounts, session), session.id, MESSAGE_TEXTS[(start + offset) % MESSAGE_TEXTS.length]);
          }),
        (start, size) =>
          rawThroughput(
            databaseUrl,
            clients,
            (pool, offset) => {
              const session = messages.rawSessions[(start + offset) % messages.rawSessions.length];
              return postInSql(pool, session.accountId, session.id, MESSAGE_TEXTS[(start + offset) % MESSAGE_TEXTS.length], true);
            },
            size,
          ),
      );
      results.messageRounds.push({ round, clients, server, raw });
    }
  }
  if (turns) results.turnRounds.push(await measureTurnRound(round, TURNS, databaseUrl, turns));
  if (answers) results.answerRounds.push(await measureAnswerRound(round, TURNS, databaseUrl, answers));
  if (lineage) {
    log(`Round ${round}: lineage at depth ${LINEAGE_DEPTH}...`);
    const [serverMs, rawMs] = await withClient(databaseUrl, (sql) =>
      alternatingMedians(
        LINEAGE_RUNS,
        LINEAGE_WARMUP,
        () => lineageOverHttp(client, lineage.tip, LINEAGE_LENGTH),
        () => lineageInSql(sql, accountId, lineage.tip, LINEAGE_LENGTH),
      ),
    );
    results.lineageRounds.push({ round, serverMs, rawMs });
  }
}

async function bench(databaseUrl: string, sections: Set<Section>) {
  // The machine may be shared: the report says how busy it was.
  const loadAverage = loadavg()[0].toFixed(1);
  await settleCompiler(databaseUrl, log);
  // Every message queues the agent's turn, as with an agent configured, but no worker of this
  // process executes runs (as an API-only process): the raw sides write the runs as queued too.
  const app = await startBenchServer(databaseUrl, { poolSize: MAX_CLIENTS, agent: { provider: 'builtin', concurrency: 0 } });
  const setup = new Pool({ connectionString: databaseUrl, max: 2 });
  const accounts: BenchAccount[] = [];
  const newAccounts = async (names: string[]) => {
    const created = await createBenchAccounts(app, names);
    accounts.push(...created);
    return created;
  };
  try {
    // The lineage and compile sections have an account of their own; each side of the continueSession
    // measurement has one account per client, as many agents continuing at once would.
    const [main] = await newAccounts(['bench']);
    const { client, id: accountId } = main;
    const continuation = sections.has('continue')
      ? await prepareContinuations(
          app,
          setup,
          databaseUrl,
          await newAccounts(numberedNames('bench server', MAX_CLIENTS)),
          await newAccounts(numberedNames('bench raw', MAX_CLIENTS)),
        )
      : null;
    const lineage = sections.has('lineage') ? await prepareLineage(app, client, setup, accountId) : null;
    const messages = sections.has('message')
      ? await prepareMessages(
          app,
          setup,
          databaseUrl,
          await newAccounts(numberedNames('bench messages server', MAX_CLIENTS)),
          await newAccounts(numberedNames('bench messages raw', MAX_CLIENTS)),
        )
      : null;
    const turns = sections.has('turn') ? await prepareTurnLoads(app, setup, databaseUrl, (await newAccounts(['bench turns']))[0]) : null;
    const answers = sections.has('answer') ? await prepareAnswers(app, setup, databaseUrl, (await newAccounts(['bench answers']))[0], ROUNDS) : null;
    const results: RoundResults = { turnRounds: [], answerRounds: [], messageRounds: [], continueRounds: [], lineageRounds: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      await measureRound(round, databaseUrl, { continuation, messages, turns, answers, lineage, client, accountId }, results);
    }
    const { turnRounds, answerRounds, messageRounds, continueRounds, lineageRounds } = results;
    // Last, so that its long predecessors do not change what the other sections measure.
    const compile = sections.has('compile') ? await benchCompile(app, client, setup, main, ROUNDS, log) : null;

    const { rows } = await setup.query('SHOW server_version');
    console.log(`\nPostgreSQL ${rows[0].server_version}, ${cpus().length} CPUs, load average ${loadAverage} at start, server pool ${MAX_CLIENTS}`);
    if (continuation) reportContinue({ ...continuation, continueRounds });
    if (messages) reportMessages(messageRounds, messages);
    if (turns) reportTurns(turnRounds, turns.serverQueries);
    if (answers) reportAnswers(answerRounds, answers);
    if (lineage) reportLineage(lineageRounds, lineage.lineageQueries);
    if (compile) reportCompile(compile);
  } finally {
    accounts.forEach((account) => account.client.close());
    await Promise.all([setup.end(), closeRawPools()]);
    await app.close();
  }
}

interface ContinueReport {
  continueRounds: ContinueRound[];
  /** Database queries the server sends per continueSession request, authentication included. */
  continueQueries: number;
  rawStatements: number;
  manifest: ManifestTemplate;
}

function reportContinue({ continueRounds, continueQueries, rawStatements, manifest }: ContinueReport) {
  console.log(
    `\ncontinueSession: server (GraphQL over HTTP, in-process) vs raw (one hand-written SQL transaction through pg)` +
      `\nserver: ${fixed(continueQueries)} database queries per request; raw: ${rawStatements} statements in 2 round trips; manifest JSON ${fixed(manifest.size / 1024)} KB` +
      `\nratio = server ops/s / raw ops/s\n`,
  );
  reportThroughputRounds('continueSession', continueRounds, OPERATIONS, CONTINUE_TARGET);
}

function reportLineage(lineageRounds: LineageRound[], lineageQueries: number) {
  const lineageRatios = spread(lineageRounds.map((row) => row.serverMs / row.rawMs));
  console.log(
    `\nlineage of a session ${LINEAGE_DEPTH} continuations deep (${LINEAGE_LENGTH} sessions), median of ${LINEAGE_RUNS} sequential runs each, the two sides alternating` +
      `\nserver: { session(id) { lineage { id } } } over HTTP; raw: the same recursive CTE through pg; ratio = server ms / raw ms\n`,
  );
  console.log(
    table(
      ['round', 'server ms', 'raw ms', 'ratio'],
      lineageRounds.map((row) => [String(row.round), fixed(row.serverMs, 2), fixed(row.rawMs, 2), fixed(row.serverMs / row.rawMs, 2)]),
    ),
  );
  console.log(
    `\nratio min / median / max: ${ratioCell(lineageRatios)}; target <= ${LINEAGE_TARGET} in every round: ${lineageRatios.max <= LINEAGE_TARGET ? 'met' : 'NOT MET'}` +
      `\nserver database queries for one lineage request: ${lineageQueries}`,
  );
}

const sections = selectedSections();
runOnNewDatabase((databaseUrl) => bench(databaseUrl, sections));
