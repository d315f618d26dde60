import './production';
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { Pool } from 'pg';
import { continueInSql, continueOverHttp, ManifestTemplate, Predecessor, readManifestTemplate, spreadPredecessors } from './continue-session';
import { BenchAccount, createBenchAccounts, log, numberedNames, runOnNewDatabase, startBenchServer } from './harness';
import { settleCompiler } from './warm-up';
import { MESSAGE_TEXTS, postInSql, postOverHttp } from './post-message';
import { fixed, measure, median, merged, sideBySide, table, Throughput } from './stats';
import { settleAllocator } from '../server/src/platform/db/database';

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
  /** This process's resident memory after the window. */
  rssMb: number;
  /** The old generation after the window's last full collection (`FullCollections`); null when none ran in it. */
  heapMb: number | null;
}

const LINEAGE = 'query ($id: ID!) { session(id: $id) { lineage { id title } } }';

const residentMb = () => process.memoryUsage().rss / 2 ** 20;

/** This process's old generation in use: what a full collection leaves (server and load generator). */
const oldGenerationMb = () =>
  getHeapSpaceStatistics()
    .filter(({ space_name }) => !space_name.startsWith('new_'))
    .reduce((sum, { space_used_size }) => sum + space_used_size, 0) / 2 ** 20;

/**
 * The old generation as V8 reports each of its own full collections. Until 2026-12-06 the soak
 * forced one after every window (`--expose-gc`) for its heap figure, and each cost the work after
 * it CPU that a deployment never pays (V8 optimizes much of the server's code again): some 0.3 ms
 * per continuation of the server's, 0.1 of the hand-written side's, for a window and more. Only
 * the figure after the last window is forced now.
 */
class FullCollections {
  private latestMb: number | null = null;
  private count = 0;
  private readonly observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      this.latestMb = oldGenerationMb();
      this.count += 1;
    }
  });

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** The figure of the latest full collection since the last call, or null; and how many ran. */
  take(): { heapMb: number | null; collections: number } {
    const taken = { heapMb: this.latestMb, collections: this.count };
    this.latestMb = null;
    this.count = 0;
    return taken;
  }

  stop(): void {
    this.observer.disconnect();
  }
}

/** The heap after a forced full collection: after the last window only, with nothing measured after it. */
function heapAfterForcedCollectionMb(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
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
  const raw: RawSide = { pool: new Pool({ connectionString: databaseUrl, max: CLIENTS, pipeline: true, onConnect: settleAllocator }), accountIds: rawAccounts.map(({ id }) => id) };
  rawAccounts.forEach((account) => account.client.close());
  const stats = new Pool({ connectionString: databaseUrl, max: 1 });
  const collections = new FullCollections();
  const eventCount = async () => Number((await stats.query('SELECT count(*) AS n FROM events')).rows[0].n);
  try {
    const rssStartMb = residentMb();
    log(`Warming up with ${WARMUP} continuations...`);
    await serveWindow(accounts, raw, WARMUP);
    collections.take();
    const windows: Window[] = [];
    let fullCollections = 0;
    for (let served = 0; served < CONTINUATIONS; served += WINDOW) {
      const size = windowSize(windows.length);
      const window = await serveWindow(accounts, raw, size);
      const { heapMb, collections: count } = collections.take();
      fullCollections += count;
      windows.push({ ...window, events: await eventCount(), rssMb: residentMb(), heapMb });
      const last = windows[windows.length - 1];
      log(
        `Window ${windows.length}: ${last.events} events; continueSession ${fixed(last.continueSession.opsPerSecond)}/s ` +
          `(by hand ${fixed(last.rawContinue.opsPerSecond)}/s), postMessage ${fixed(last.postMessage.opsPerSecond)}/s ` +
          `(by hand ${fixed(last.rawMessage.opsPerSecond)}/s), ` +
          `lineage ${fixed(last.lineage.opsPerSecond)}/s, rss ${fixed(last.rssMb)} MB; CPU ms per continuation ${cpu(last.continueSession)}, ` +
          `by hand ${cpu(last.rawContinue)}`,
      );
    }
    report(windows, { rssStartMb, fullCollections, forcedEndMb: heapAfterForcedCollectionMb() }, loadAverage);
  } finally {
    collections.stop();
    accounts.forEach((account) => account.client.close());
    await Promise.all([raw.pool.end(), stats.end()]);
    await app.close();
  }
}

/** CPU per operation: this process (server and load generator), and PostgreSQL's processes. */
const cpu = ({ processCpuMs, postgresCpuMs }: Throughput) =>
  `${fixed(processCpuMs, 2)} here + ${postgresCpuMs === null ? 'unknown' : fixed(postgresCpuMs, 2)} in PostgreSQL`;

interface MemoryFigures {
  rssStartMb: number;
  /** V8's own full collections during the measured windows. */
  fullCollections: number;
  forcedEndMb: number | null;
}

const windowSize = (index: number) => Math.min(WINDOW, CONTINUATIONS - index * WINDOW);

/**
 * The median of each half's figures after full collections, and the growth per 1,000
 * continuations between them (the halves' middles half the run apart): caches fill in the first
 * half (the tokenizer's, the statements'), and growth after it would be a leak. A single figure
 * moves by a few MB with what the collection found still reachable mid-request: medians, not ends.
 */
function heapGrowth(windows: Window[]): string {
  const half = Math.floor(windows.length / 2);
  const figures = (part: Window[]) => part.flatMap((window) => (window.heapMb === null ? [] : [window.heapMb]));
  const [first, second] = [figures(windows.slice(0, half)), figures(windows.slice(half))];
  if (!first.length || !second.length) return 'too few full collections to compare the two halves';
  const [before, after] = [median(first), median(second)];
  let apart = 0;
  for (let index = 0; index < half; index++) apart += windowSize(index);
  return (
    `median ${fixed(before)} MB in the first half, ${fixed(after)} MB in the second ` +
    `(${fixed(((after - before) * 1_000) / apart, 2)} MB per 1,000 continuations)`
  );
}

function report(windows: Window[], memory: MemoryFigures, loadAverage: string) {
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
        window.heapMb === null ? '-' : fixed(window.heapMb),
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
  console.log(
    `\ncontinueSession ÷ the same continuations by hand in the same window: first ${fixed(raw.first, 2)}, last ${fixed(raw.last, 2)}, ` +
      `median of the last three ${fixed(raw.tail, 2)}, lowest ${fixed(lowestVersusRaw, 2)}; ` +
      `target >= ${RAW_TARGET} in every window: ${lowestVersusRaw >= RAW_TARGET ? 'met' : 'NOT MET'}` +
      `\npostMessage ÷ messages by hand in the same window: first ${fixed(rawMessages.first, 2)}, last ${fixed(rawMessages.last, 2)}, ` +
      `median of the last three ${fixed(rawMessages.tail, 2)}` +
      `\nmemory (this process: server and load generator): rss ${fixed(memory.rssStartMb)} MB at start, ${fixed(last.rssMb)} MB at the end; ` +
      `old generation after V8's own full collections (${memory.fullCollections} in the windows): ${heapGrowth(windows)}; ` +
      `heap after a collection forced at the end: ${memory.forcedEndMb === null ? 'not read (run with --expose-gc)' : `${fixed(memory.forcedEndMb)} MB`}`,
  );
}

runOnNewDatabase(soak);
