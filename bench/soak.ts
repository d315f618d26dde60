import './production';
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { Pool } from 'pg';
import { continueInSql, continueOverHttp, ManifestTemplate, Predecessor, readManifestTemplate, spreadPredecessors } from './continue-session';
import { BenchAccount, createBenchAccounts, log, numberedNames, runOnNewDatabase, startBenchServer } from './harness';
import { settleCompiler } from './warm-up';
import { MESSAGE_TEXTS, postInSql, postOverHttp } from './post-message';
import { fixed, measure, median, merged, sideBySide, table, Throughput } from './stats';

/**
 * A new deployment filling up: the server starts on an empty database and serves windows of
 * 1,000 continuations, each with the messages that lead to them and follow them, and reads of the
 * successors' lineage, all through the API. Each window's throughput should match the first's.
 */
const CONTINUATIONS = Number(process.env.SOAK_CONTINUATIONS ?? 20_000);
const WINDOW = 1_000;
const CLIENTS = 16;
/**
 * Accounts the work is spread over, consecutive operations in different ones, under the server's
 * default limits (600 continuations a minute per account): on a quiet machine one window serves
 * more than 16 accounts may continue in a minute.
 */
const ACCOUNTS = 64;
/** Messages a predecessor receives before it is continued, and its successor after. */
const MESSAGES_BEFORE = 4;
const MESSAGES_AFTER = 3;
/**
 * Operations of each kind before the first window, once the compiler has settled
 * (`settleCompiler`, on a database of its own): they open the pooled connections on both sides.
 */
const WARMUP = 320;
const FLAT_TARGET = 0.8;
/** Turns of the server's and the by-hand side's operations in a window, each 250 operations at the default window. */
const PARTS = 4;
const RAW_TARGET = 0.6;

interface Window {
  events: number;
  continueSession: Throughput;
  /** The same continuations written by hand, in turns with the server's, on the same data. */
  rawContinue: Throughput;
  postMessage: Throughput;
  /** Messages written by hand to the hand-written predecessors before they are continued. */
  rawMessage: Throughput;
  lineage: Throughput;
  rssMb: number;
  heapMb: number;
}

const LINEAGE = 'query ($id: ID!) { session(id: $id) { lineage { id title } } }';

/** Resident and heap memory of this process (server and load generator) after a full collection. */
function memory(): { rssMb: number; heapMb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20 };
}

async function createSessions(accounts: BenchAccount[], count: number): Promise<Predecessor[]> {
  const sessions: Predecessor[] = new Array(count);
  await measure(CLIENTS, count, async (index) => {
    const account = accounts[index % accounts.length];
    const { createSession } = await account.client.data<{ createSession: { id: string } }>(
      'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
      { title: `Chat ${index}` },
    );
    sessions[index] = { id: createSession.id, accountId: account.id, messageIds: [] };
  });
  return sessions;
}

/** Round `round` of messages: one to each session. */
function postRound(accounts: BenchAccount[], sessions: Predecessor[], round: number) {
  const clientOf = (session: Predecessor) => accounts.find((account) => account.id === session.accountId)!.client;
  return async (index: number) => {
    const session = sessions[index];
    session.messageIds.push(await postOverHttp(clientOf(session), session.id, MESSAGE_TEXTS[round % MESSAGE_TEXTS.length]));
  };
}

/** `perSession` messages to each session, one round over all sessions at a time. */
async function postMessages(accounts: BenchAccount[], sessions: Predecessor[], perSession: number): Promise<Throughput> {
  const rounds: Throughput[] = [];
  for (let round = 0; round < perSession; round++) rounds.push(await measure(CLIENTS, sessions.length, postRound(accounts, sessions, round)));
  return merged(rounds, rounds.map(() => sessions.length));
}

/** A side of `sideBySide`: `operation` on `size` indexes from `start`, at 16 clients. */
const atClients =
  (operation: (index: number) => Promise<unknown>) =>
  (start: number, size: number): Promise<Throughput> =>
    measure(CLIENTS, size, (index) => operation(start + index));

/**
 * Messages and continuations written by hand in two round trips, on accounts of their own:
 * measured in every window in turns with the server's (`sideBySide`), so that a window slowed by
 * the machine or by PostgreSQL's own work (a checkpoint every minute or so, at this rate of
 * writes, or tables and indexes outgrowing its cache) shows on both sides.
 */
interface RawSide {
  pool: Pool;
  accountIds: string[];
  /** Read once, from the first continuation the server wrote. */
  manifest?: Promise<ManifestTemplate>;
}

/** One window: predecessors written to and continued, successors written to, their lineage read. */
async function serveWindow(accounts: BenchAccount[], raw: RawSide, size: number): Promise<Omit<Window, 'events' | 'rssMb' | 'heapMb'>> {
  const clientOf = (session: Predecessor) => accounts.find((account) => account.id === session.accountId)!.client;
  const handWritten = await spreadPredecessors(raw.pool, raw.accountIds, size);
  const predecessors = await createSessions(accounts, size);
  const [serverRounds, rawRounds]: Throughput[][] = [[], []];
  for (let round = 0; round < MESSAGES_BEFORE; round++) {
    const text = MESSAGE_TEXTS[round % MESSAGE_TEXTS.length];
    // No agent answers on the server's side either: no turn is queued.
    const turns = await sideBySide(
      PARTS,
      size,
      atClients(postRound(accounts, predecessors, round)),
      atClients((index) => postInSql(raw.pool, handWritten[index].accountId, handWritten[index].id, text, false)),
    );
    serverRounds.push(turns.server);
    rawRounds.push(turns.raw);
  }
  const before = merged(serverRounds, serverRounds.map(() => size));
  const rawMessage = merged(rawRounds, rawRounds.map(() => size));
  const successors: Predecessor[] = new Array(size);
  const continued = await sideBySide(
    PARTS,
    size,
    atClients(async (index) => {
      const predecessor = predecessors[index];
      successors[index] = { id: await continueOverHttp(clientOf(predecessor), predecessor), accountId: predecessor.accountId, messageIds: [] };
    }),
    // The server's turn goes first: by the first continuation by hand its manifest is there to copy.
    atClients(async (index) => continueInSql(raw.pool, handWritten[index], await (raw.manifest ??= readManifestTemplate(raw.pool)))),
  );
  const after = await postMessages(accounts, successors, MESSAGES_AFTER);
  const lineage = await measure(CLIENTS, size, async (index) => {
    const { session } = await clientOf(successors[index]).data<{ session: { lineage: unknown[] } }>(LINEAGE, { id: successors[index].id });
    if (session.lineage.length !== 2) throw new Error(`A successor's lineage has ${session.lineage.length} sessions`);
  });
  const postMessage = merged([before, after], [MESSAGES_BEFORE * size, MESSAGES_AFTER * size]);
  return { continueSession: continued.server, rawContinue: continued.raw, postMessage, rawMessage, lineage };
}

async function soak(databaseUrl: string) {
  const loadAverage = loadavg()[0].toFixed(1);
  // No agent answers: every predecessor stays at a turn boundary, ready to be continued.
  const server = { poolSize: CLIENTS };
  await settleCompiler(databaseUrl, log, server);
  const app = await startBenchServer(databaseUrl, server);
  const accounts = await createBenchAccounts(app, numberedNames('soak', ACCOUNTS));
  const rawAccounts = await createBenchAccounts(app, numberedNames('soak raw', ACCOUNTS));
  const raw: RawSide = { pool: new Pool({ connectionString: databaseUrl, max: CLIENTS, pipeline: true }), accountIds: rawAccounts.map(({ id }) => id) };
  rawAccounts.forEach((account) => account.client.close());
  const stats = new Pool({ connectionString: databaseUrl, max: 1 });
  const eventCount = async () => Number((await stats.query('SELECT count(*) AS n FROM events')).rows[0].n);
  try {
    const start = memory();
    log(`Warming up with ${WARMUP} continuations...`);
    await serveWindow(accounts, raw, WARMUP);
    const windows: Window[] = [];
    for (let served = 0; served < CONTINUATIONS; served += WINDOW) {
      const size = Math.min(WINDOW, CONTINUATIONS - served);
      const window = await serveWindow(accounts, raw, size);
      windows.push({ ...window, events: await eventCount(), ...memory() });
      const last = windows[windows.length - 1];
      log(
        `Window ${windows.length}: ${last.events} events; continueSession ${fixed(last.continueSession.opsPerSecond)}/s ` +
          `(by hand ${fixed(last.rawContinue.opsPerSecond)}/s), postMessage ${fixed(last.postMessage.opsPerSecond)}/s ` +
          `(by hand ${fixed(last.rawMessage.opsPerSecond)}/s), ` +
          `lineage ${fixed(last.lineage.opsPerSecond)}/s, rss ${fixed(last.rssMb)} MB; CPU ms per continuation ${cpu(last.continueSession)}, ` +
          `by hand ${cpu(last.rawContinue)}`,
      );
    }
    report(windows, start, loadAverage);
  } finally {
    accounts.forEach((account) => account.client.close());
    await Promise.all([raw.pool.end(), stats.end()]);
    await app.close();
  }
}

/** CPU per operation: this process (server and load generator), and PostgreSQL's processes. */
const cpu = ({ processCpuMs, postgresCpuMs }: Throughput) =>
  `${fixed(processCpuMs, 2)} here + ${postgresCpuMs === null ? 'unknown' : fixed(postgresCpuMs, 2)} in PostgreSQL`;

function report(windows: Window[], start: { rssMb: number; heapMb: number }, loadAverage: string) {
  console.log(
    `\nSoak from an empty database: ${CONTINUATIONS} continuations in windows of ${WINDOW}, ${CLIENTS} clients, ` +
      `${cpus().length} CPUs, load average ${loadAverage} at start` +
      `\neach window: ${WINDOW} sessions created, ${MESSAGES_BEFORE} messages each, continued, ${MESSAGES_AFTER} messages to each successor, ` +
      `${WINDOW} lineage reads; by hand in ${PARTS} turns with the server's, on the same data: ${MESSAGES_BEFORE} messages to each of ` +
      `${WINDOW} sessions, which are then continued\n`,
  );
  const cells = (throughput: Throughput) => [fixed(throughput.opsPerSecond), fixed(throughput.p50Ms), fixed(throughput.p99Ms)];
  const versusRaw = (window: Window) => window.continueSession.opsPerSecond / window.rawContinue.opsPerSecond;
  const messageVersusRaw = (window: Window) => window.postMessage.opsPerSecond / window.rawMessage.opsPerSecond;
  console.log(
    table(
      ['window', 'events', 'continue/s', 'p50', 'p99', 'by hand/s', '÷ hand', 'message/s', 'p50', 'p99', 'by hand/s', '÷ hand', 'lineage/s', 'p50', 'p99', 'rss MB', 'heap MB'],
      windows.map((window, index) => [
        String(index + 1),
        String(window.events),
        ...cells(window.continueSession),
        fixed(window.rawContinue.opsPerSecond),
        fixed(versusRaw(window), 2),
        ...cells(window.postMessage),
        fixed(window.rawMessage.opsPerSecond),
        fixed(messageVersusRaw(window), 2),
        ...cells(window.lineage),
        fixed(window.rssMb),
        fixed(window.heapMb),
      ]),
    ),
  );
  // One window is a few seconds of a shared machine, and a checkpoint slows whichever window it
  // falls in (by hand as well): the verdict compares the medians of three windows at each end.
  const ends = (figure: (window: Window) => number) => {
    const [first, last] = [figure(windows[0]), figure(windows[windows.length - 1])];
    const [head, tail] = [median(windows.slice(0, 3).map(figure)), median(windows.slice(-3).map(figure))];
    return { first, last, head, tail };
  };
  console.log('\nlast window ÷ first, and the median of the last three ÷ of the first three (target >= 0.8: flat)\n');
  const rows = (
    [
      ['continueSession', (window: Window) => window.continueSession.opsPerSecond],
      ['by hand', (window: Window) => window.rawContinue.opsPerSecond],
      ['postMessage', (window: Window) => window.postMessage.opsPerSecond],
      ['message by hand', (window: Window) => window.rawMessage.opsPerSecond],
      ['lineage', (window: Window) => window.lineage.opsPerSecond],
    ] as const
  ).map(([operation, figure]) => {
    const { first, last, head, tail } = ends(figure);
    const verdict = operation === 'by hand' || operation === 'message by hand' ? '' : tail / head >= FLAT_TARGET ? 'met' : 'NOT MET';
    return [operation, fixed(first), fixed(last), fixed(last / first, 2), fixed(head), fixed(tail), fixed(tail / head, 2), verdict];
  });
  console.log(table(['operation', 'first ops/s', 'last ops/s', 'ratio', 'first 3', 'last 3', 'ratio', 'target'], rows));
  const raw = ends(versusRaw);
  const lowestVersusRaw = Math.min(...windows.map(versusRaw));
  const rawMessages = ends(messageVersusRaw);
  const last = windows[windows.length - 1];
  // Caches fill in the first half (the tokenizer's, the statements'): growth after it would be a leak.
  const half = Math.floor(windows.length / 2);
  const sinceHalfway =
    half === 0
      ? ''
      : `, ${fixed(windows[half - 1].heapMb)} MB halfway ` +
        `(${fixed(((last.heapMb - windows[half - 1].heapMb) * 1_000) / (WINDOW * (windows.length - half)), 2)} MB per 1,000 continuations since)`;
  console.log(
    `\ncontinueSession ÷ the same continuations by hand in the same window: first ${fixed(raw.first, 2)}, last ${fixed(raw.last, 2)}, ` +
      `median of the last three ${fixed(raw.tail, 2)}, lowest ${fixed(lowestVersusRaw, 2)}; ` +
      `target >= ${RAW_TARGET} in every window: ${lowestVersusRaw >= RAW_TARGET ? 'met' : 'NOT MET'}` +
      `\npostMessage ÷ messages by hand in the same window: first ${fixed(rawMessages.first, 2)}, last ${fixed(rawMessages.last, 2)}, ` +
      `median of the last three ${fixed(rawMessages.tail, 2)}` +
      `\nmemory (this process: server and load generator): rss ${fixed(start.rssMb)} MB at start, ${fixed(last.rssMb)} MB at the end; ` +
      `heap after collection ${fixed(start.heapMb)} MB at start, ${fixed(last.heapMb)} MB at the end${sinceHalfway}`,
  );
}

runOnNewDatabase(soak);
