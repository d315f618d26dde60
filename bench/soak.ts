import './production';
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { Pool } from 'pg';
import type { RunningApp } from '../server/src/app';
import { continueInSql, continueOverHttp, Predecessor, preparePredecessors, readManifestTemplate } from './continue-session';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { GraphQLClient } from './graphql';
import { MESSAGE_TEXTS, postOverHttp } from './post-message';
import { fixed, measure, median, table, Throughput } from './stats';

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
/** Operations of each kind before the first window, so that it measures compiled code. */
const WARMUP = 320;
const FLAT_TARGET = 0.8;
const RAW_TARGET = 0.6;

interface Account {
  id: string;
  client: GraphQLClient;
}

interface Window {
  events: number;
  continueSession: Throughput;
  postMessage: Throughput;
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

/** Throughput of operations split into batches measured one after another, as one figure. */
function merged(batches: Throughput[], counts: number[]): Throughput {
  const total = counts.reduce((a, b) => a + b, 0);
  const seconds = batches.reduce((sum, batch, index) => sum + counts[index] / batch.opsPerSecond, 0);
  const weighted = (pick: (batch: Throughput) => number) => batches.reduce((sum, batch, index) => sum + pick(batch) * counts[index], 0) / total;
  const postgres = batches.every((batch) => batch.postgresCpuMs !== null) ? weighted((batch) => batch.postgresCpuMs!) : null;
  return {
    opsPerSecond: total / seconds,
    p50Ms: weighted((batch) => batch.p50Ms),
    p99Ms: Math.max(...batches.map((batch) => batch.p99Ms)),
    processCpuMs: weighted((batch) => batch.processCpuMs),
    postgresCpuMs: postgres,
  };
}

async function createSessions(accounts: Account[], count: number): Promise<Predecessor[]> {
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

/** `perSession` messages to each session, one round over all sessions at a time. */
async function postMessages(accounts: Account[], sessions: Predecessor[], perSession: number): Promise<Throughput> {
  const clientOf = (session: Predecessor) => accounts.find((account) => account.id === session.accountId)!.client;
  const rounds: Throughput[] = [];
  for (let round = 0; round < perSession; round++) {
    rounds.push(
      await measure(CLIENTS, sessions.length, async (index) => {
        const session = sessions[index];
        session.messageIds.push(await postOverHttp(clientOf(session), session.id, MESSAGE_TEXTS[round % MESSAGE_TEXTS.length]));
      }),
    );
  }
  return merged(rounds, rounds.map(() => sessions.length));
}

/** One window: predecessors written to and continued, successors written to, their lineage read. */
async function serveWindow(accounts: Account[], size: number): Promise<Omit<Window, 'events' | 'rssMb' | 'heapMb'>> {
  const clientOf = (session: Predecessor) => accounts.find((account) => account.id === session.accountId)!.client;
  const predecessors = await createSessions(accounts, size);
  const before = await postMessages(accounts, predecessors, MESSAGES_BEFORE);
  const successors: Predecessor[] = new Array(size);
  const continueSession = await measure(CLIENTS, size, async (index) => {
    const predecessor = predecessors[index];
    successors[index] = { id: await continueOverHttp(clientOf(predecessor), predecessor), accountId: predecessor.accountId, messageIds: [] };
  });
  const after = await postMessages(accounts, successors, MESSAGES_AFTER);
  const lineage = await measure(CLIENTS, size, async (index) => {
    const { session } = await clientOf(successors[index]).data<{ session: { lineage: unknown[] } }>(LINEAGE, { id: successors[index].id });
    if (session.lineage.length !== 2) throw new Error(`A successor's lineage has ${session.lineage.length} sessions`);
  });
  const postMessage = merged([before, after], [MESSAGES_BEFORE * size, MESSAGES_AFTER * size]);
  return { continueSession, postMessage, lineage };
}

async function newAccounts(app: RunningApp, prefix: string): Promise<Account[]> {
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    return await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, index) => {
        const { createAccount } = await admin.data<{ createAccount: { apiKey: string; account: { id: string } } }>(
          'mutation ($name: String!) { createAccount(name: $name) { apiKey account { id } } }',
          { name: `${prefix} ${index + 1}` },
        );
        return { id: createAccount.account.id, client: new GraphQLClient(app.url, createAccount.apiKey) };
      }),
    );
  } finally {
    admin.close();
  }
}

/** The raw limit of continueSession on the database as the soak left it, at 16 clients. */
async function rawContinueLimit(databaseUrl: string, accounts: Account[]): Promise<Throughput> {
  const pool = new Pool({ connectionString: databaseUrl, max: CLIENTS, pipeline: true });
  try {
    const manifest = await readManifestTemplate(pool);
    const perAccount = Math.ceil((WARMUP + WINDOW) / accounts.length);
    const byAccount = await Promise.all(accounts.map((account) => preparePredecessors(pool, account.id, perAccount)));
    const predecessors = Array.from({ length: WARMUP + WINDOW }, (_, index) => byAccount[index % accounts.length][Math.floor(index / accounts.length)]);
    await measure(CLIENTS, WARMUP, (index) => continueInSql(pool, predecessors[index], manifest));
    return await measure(CLIENTS, WINDOW, (index) => continueInSql(pool, predecessors[WARMUP + index], manifest));
  } finally {
    await pool.end();
  }
}

async function soak(databaseUrl: string) {
  const loadAverage = loadavg()[0].toFixed(1);
  // No agent answers: every predecessor stays at a turn boundary, ready to be continued.
  const app = await startBenchServer(databaseUrl, { poolSize: CLIENTS });
  const accounts = await newAccounts(app, 'soak');
  const rawAccounts = await newAccounts(app, 'soak raw');
  const stats = new Pool({ connectionString: databaseUrl, max: 1 });
  const eventCount = async () => Number((await stats.query('SELECT count(*) AS n FROM events')).rows[0].n);
  try {
    const start = memory();
    log(`Warming up with ${WARMUP} continuations...`);
    await serveWindow(accounts, WARMUP);
    const windows: Window[] = [];
    for (let served = 0; served < CONTINUATIONS; served += WINDOW) {
      const size = Math.min(WINDOW, CONTINUATIONS - served);
      const window = await serveWindow(accounts, size);
      windows.push({ ...window, events: await eventCount(), ...memory() });
      const last = windows[windows.length - 1];
      log(
        `Window ${windows.length}: ${last.events} events; continueSession ${fixed(last.continueSession.opsPerSecond)}/s, ` +
          `postMessage ${fixed(last.postMessage.opsPerSecond)}/s, lineage ${fixed(last.lineage.opsPerSecond)}/s, rss ${fixed(last.rssMb)} MB`,
      );
    }
    log('Measuring the raw continueSession limit on the filled database...');
    const raw = await rawContinueLimit(databaseUrl, rawAccounts);
    report(windows, raw, start, loadAverage);
  } finally {
    [...accounts, ...rawAccounts].forEach((account) => account.client.close());
    await stats.end();
    await app.close();
  }
}

function report(windows: Window[], raw: Throughput, start: { rssMb: number; heapMb: number }, loadAverage: string) {
  console.log(
    `\nSoak from an empty database: ${CONTINUATIONS} continuations in windows of ${WINDOW}, ${CLIENTS} clients, ` +
      `${cpus().length} CPUs, load average ${loadAverage} at start` +
      `\neach window: ${WINDOW} sessions created, ${MESSAGES_BEFORE} messages each, continued, ${MESSAGES_AFTER} messages to each successor, ` +
      `${WINDOW} lineage reads\n`,
  );
  const cells = (throughput: Throughput) => [fixed(throughput.opsPerSecond), fixed(throughput.p50Ms), fixed(throughput.p99Ms)];
  console.log(
    table(
      ['window', 'events', 'continue/s', 'p50', 'p99', 'message/s', 'p50', 'p99', 'lineage/s', 'p50', 'p99', 'rss MB', 'heap MB'],
      windows.map((window, index) => [
        String(index + 1),
        String(window.events),
        ...cells(window.continueSession),
        ...cells(window.postMessage),
        ...cells(window.lineage),
        fixed(window.rssMb),
        fixed(window.heapMb),
      ]),
    ),
  );
  const first = windows[0];
  const last = windows[windows.length - 1];
  // One window is a few seconds of a shared machine: the medians of three windows at each end say
  // the same with less of its noise.
  const ends = (operation: 'continueSession' | 'postMessage' | 'lineage', from: number, to: number) =>
    median(windows.slice(from, to).map((window) => window[operation].opsPerSecond));
  console.log('\nlast window / first window (target >= 0.8: flat), and the median of the last three / of the first three\n');
  console.log(
    table(
      ['operation', 'first ops/s', 'last ops/s', 'ratio', 'target', 'first 3', 'last 3', 'ratio'],
      (['continueSession', 'postMessage', 'lineage'] as const).map((operation) => {
        const ratio = last[operation].opsPerSecond / first[operation].opsPerSecond;
        const [head, tail] = [ends(operation, 0, 3), ends(operation, -3, windows.length)];
        return [
          operation,
          fixed(first[operation].opsPerSecond),
          fixed(last[operation].opsPerSecond),
          fixed(ratio, 2),
          ratio >= FLAT_TARGET ? 'met' : 'NOT MET',
          fixed(head),
          fixed(tail),
          fixed(tail / head, 2),
        ];
      }),
    ),
  );
  const rawRatio = last.continueSession.opsPerSecond / raw.opsPerSecond;
  console.log(
    `\ncontinueSession in the last window against the raw SQL limit on the same data: ${fixed(last.continueSession.opsPerSecond)} / ` +
      `${fixed(raw.opsPerSecond)} ops/s = ${fixed(rawRatio, 2)}; target >= ${RAW_TARGET}: ${rawRatio >= RAW_TARGET ? 'met' : 'NOT MET'}` +
      `\nmemory (this process: server and load generator): rss ${fixed(start.rssMb)} MB at start, ${fixed(last.rssMb)} MB at the end; ` +
      `heap after collection ${fixed(start.heapMb)} MB at start, ${fixed(last.heapMb)} MB at the end`,
  );
}

runOnNewDatabase(soak);
