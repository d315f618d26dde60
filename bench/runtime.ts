import { Pool } from 'pg';
import type { RunningApp } from '../server/src/app';
import type { RunEntity } from '../server/src/modules/conversation/run.entity';
import { DEFAULT_AGENT_CONFIG } from '../server/src/config';
import { rawThroughput } from './database';
import { BenchAccount, log } from './harness';
import { dispenser, fixed, measure, ratioCell, sideBySide, sideBySideCells, spread, table, Throughput } from './stats';
import { loadTurnInSql, prepareTurns, serverTurnLoader } from './turn-context';
import { answerInSql, prepareRunningTurns, serverAnswerWriter } from './turn-answer';

/**
 * The agent runtime's sections of the main benchmark, at the built-in agent's default concurrency
 * (AGENT_CONCURRENCY): a turn's context loaded, and a turn's answer written, each beside the same
 * work by hand through `pg`.
 */
const CLIENTS = DEFAULT_AGENT_CONFIG.concurrency;
/** Turns whose context each side loads per round. */
const TURN_LOADS = 400;
const TURN_WARMUP = 200;
/** Turns each side answers per round: every answer goes to a turn of its own. */
const ANSWER_WRITES = 400;
const ANSWER_WARMUP = 200;

export interface RuntimeRound {
  round: number;
  server: Throughput;
  raw: Throughput;
}

/**
 * Queued turns of the built-in agent (a 41-event conversation each by default, in one account)
 * whose context both sides load: the server's own loader, as its worker calls it, and the same
 * reads by hand. Loading writes nothing, so both sides load the same turns.
 */
export async function prepareTurnLoads(app: RunningApp, setup: Pool, databaseUrl: string, account: BenchAccount) {
  log(`Preparing ${TURN_LOADS} queued turns...`);
  const queued = await prepareTurns(setup, account.id, TURN_LOADS);
  await setup.query('ANALYZE');
  const loader = serverTurnLoader(app.database.dataSource);
  log("Warming up a turn's context loading...");
  const queriesBefore = app.database.queryCount();
  await measure(CLIENTS, TURN_WARMUP, (index) => loader.turnStart(queued[index % queued.length] as RunEntity));
  const serverQueries = (app.database.queryCount() - queriesBefore) / TURN_WARMUP;
  await rawThroughput(databaseUrl, CLIENTS, (pool, index) => loadTurnInSql(pool, queued[index % queued.length], DEFAULT_AGENT_CONFIG.windowTokens), TURN_WARMUP);
  return { queued, loader, serverQueries };
}

export async function measureTurnRound(round: number, turns: number, databaseUrl: string, loads: Awaited<ReturnType<typeof prepareTurnLoads>>): Promise<RuntimeRound> {
  log(`Round ${round}: a turn's context, ${TURN_LOADS} loads each side at ${CLIENTS} clients...`);
  const { queued, loader } = loads;
  const { server, raw } = await sideBySide(
    turns,
    TURN_LOADS,
    (start, size) => measure(CLIENTS, size, (index) => loader.turnStart(queued[start + index] as RunEntity)),
    (start, size) => rawThroughput(databaseUrl, CLIENTS, (pool, index) => loadTurnInSql(pool, queued[start + index], DEFAULT_AGENT_CONFIG.windowTokens), size),
  );
  return { round, server, raw };
}

export function reportTurns(rounds: RuntimeRound[], serverQueries: number) {
  console.log(
    `\na turn's context with the built-in agent, ${CLIENTS} at a time (AGENT_CONCURRENCY's default): the server's loader vs the same reads by hand through pg` +
      `\n(session and message, the transcript's tail in the window, plan and pending runs; 3 round trips); server: ${fixed(serverQueries)} database queries per turn\n`,
  );
  reportRounds(rounds, 'loads', TURN_LOADS);
}

/**
 * Turns a worker has claimed (a 41-event conversation each by default, in one account), answered
 * by the runtime's own write and by the same writes by hand, each turn once: the warm-up and every
 * round take turns of their own on each side.
 */
export async function prepareAnswers(app: RunningApp, setup: Pool, databaseUrl: string, account: BenchAccount, rounds: number) {
  const perSide = ANSWER_WARMUP + rounds * ANSWER_WRITES;
  log(`Preparing ${2 * perSide} running turns to answer...`);
  const serverTurns = dispenser(await prepareRunningTurns(setup, account.id, perSide));
  const rawTurns = dispenser(await prepareRunningTurns(setup, account.id, perSide));
  await setup.query('ANALYZE');
  const answer = serverAnswerWriter(app.database.dataSource);
  log("Warming up a turn's answer...");
  const queriesBefore = app.database.queryCount();
  const warmServer = serverTurns(ANSWER_WARMUP);
  await measure(CLIENTS, ANSWER_WARMUP, (index) => answer(warmServer[index]));
  const serverQueries = (app.database.queryCount() - queriesBefore) / ANSWER_WARMUP;
  const warmRaw = rawTurns(ANSWER_WARMUP);
  let rawStatements = 0;
  await rawThroughput(databaseUrl, CLIENTS, async (pool, index) => (rawStatements = await answerInSql(pool, warmRaw[index])), ANSWER_WARMUP);
  return { serverTurns, rawTurns, answer, serverQueries, rawStatements };
}

export async function measureAnswerRound(round: number, turns: number, databaseUrl: string, answers: Awaited<ReturnType<typeof prepareAnswers>>): Promise<RuntimeRound> {
  log(`Round ${round}: a turn's answer, ${ANSWER_WRITES} answers each side at ${CLIENTS} clients...`);
  const [forServer, forRaw] = [answers.serverTurns(ANSWER_WRITES), answers.rawTurns(ANSWER_WRITES)];
  const { server, raw } = await sideBySide(
    turns,
    ANSWER_WRITES,
    (start, size) => measure(CLIENTS, size, (index) => answers.answer(forServer[start + index])),
    (start, size) => rawThroughput(databaseUrl, CLIENTS, (pool, index) => answerInSql(pool, forRaw[start + index]), size),
  );
  return { round, server, raw };
}

export function reportAnswers(rounds: RuntimeRound[], { serverQueries, rawStatements }: { serverQueries: number; rawStatements: number }) {
  console.log(
    `\na turn's answer written, ${CLIENTS} at a time: the runtime's write (RunWrites.answer, without the announcements after it) vs the same writes by hand through pg` +
      `\n(the session locked; the answer appended to its chain, its totals, the run settled under its lease); server: ${fixed(serverQueries)} database queries per answer;` +
      ` raw: ${rawStatements} statements in 2 round trips\n`,
  );
  reportRounds(rounds, 'answers', ANSWER_WRITES);
}

function reportRounds(rounds: RuntimeRound[], operations: string, count: number) {
  const ratio = (row: RuntimeRound) => row.server.opsPerSecond / row.raw.opsPerSecond;
  console.log(
    table(
      ['round', operations, 'server ops/s', 'p50 ms', 'p99 ms', 'CPU ms/op', 'raw ops/s', 'p50 ms', 'p99 ms', 'CPU ms/op', 'ratio'],
      rounds.map((row) => [String(row.round), String(count), ...sideBySideCells(row)]),
    ),
  );
  console.log(`\nratio min / median / max: ${ratioCell(spread(rounds.map(ratio)))} (no target: reported against its raw limit)`);
}
