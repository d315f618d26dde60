import './production';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventKind, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { newRowId } from '../server/src/shared/ids';
import { generateConversations } from './conversations';
import { postgresCpu, postgresCpuSince } from './cpu';
import { createBenchDatabase } from './database';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { postInSql } from './post-message';
import { fixed, measure, median, percentile, ratioCell, spread, table } from './stats';
import { chainMessages, insertRootSessions, RootSessionRows } from './transcript';

/**
 * What ordering row ids by time buys as the data grows, and what it costs search's reads. Two new
 * databases on one PostgreSQL server fill with the same work, window by window, the side that goes
 * first alternating: new sessions written in bulk with a few messages each, then one message by
 * hand to each at 16 clients. In one the new rows' ids are random (UUIDv4), in the other ordered
 * by time (UUIDv7, as the server makes them). Each window reports, per side, messages a second,
 * PostgreSQL's CPU per message and the blocks a message read from outside the buffer pool. Then
 * the same account-wide searches run over HTTP on each, in turns.
 */
const WINDOWS = Number(process.env.IDS_WINDOWS ?? 25);
const SESSIONS = Number(process.env.IDS_SESSIONS ?? 4_000);
const CLIENTS = 16;
const BULK_MESSAGES = 3;
const BULK_BATCH = 500;
const SEARCH_ROUNDS = 3;
/** Windows compared: the mean of EARLY against the mean of the last LATE_WINDOWS. */
const EARLY = [4, 8];
const LATE_WINDOWS = 5;

type Order = 'random' | 'time';
const ORDERS: Order[] = ['random', 'time'];
const NEW_ID: Record<Order, () => string> = { random: randomUUID, time: newRowId };

interface Side {
  order: Order;
  url: string;
  pool: Pool;
  accountId: string;
  apiKey: string;
  /** How many texts this side has written: both sides write the same texts in the same order. */
  written: number;
}

interface WindowFigures {
  messagesPerSecond: number;
  postgresMsPerMessage: number | null;
  blocksReadPerMessage: number;
}

const SEARCH = `query ($query: String!) { searchEvents(query: $query, scope: ACCOUNT, first: 10) {
  edges { node { score event { id } } }
} }`;

const conversations = generateConversations(11, 12);
/** What people write, in the order they wrote it: generated conversations, whose words keep arriving as real ones do. */
const TEXTS = conversations.flatMap((conversation) => conversation.sessions.flatMap((session) => session.turns.map((turn) => `${turn.speaker}: ${turn.text}`)));
const QUESTIONS = conversations.flatMap((conversation) => conversation.questions.map((question) => question.text)).slice(0, 60);
const TOKENS = new Map<string, number>();
const tokensOf = (text: string) => {
  let count = TOKENS.get(text);
  if (count === undefined) TOKENS.set(text, (count = eventTokenCount(text, null)));
  return count;
};
const nextText = (side: Side) => TEXTS[side.written++ % TEXTS.length];

/** A side's database, migrated by starting the server on it, with one account and its key. */
async function openSide(order: Order, url: string): Promise<Side> {
  const app = await startBenchServer(url, { poolSize: 2 });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    const { createAccount } = await admin.data<{ createAccount: { account: { id: string }; apiKey: string } }>(
      `mutation { createAccount(name: "${order} ids") { account { id } apiKey } }`,
    );
    const pool = new Pool({ connectionString: url, max: CLIENTS, pipeline: true, idleTimeoutMillis: 0 });
    return { order, url, pool, accountId: createAccount.account.id, apiKey: createAccount.apiKey, written: 0 };
  } finally {
    admin.close();
    await app.close();
  }
}

/** SESSIONS new root sessions of BULK_MESSAGES messages each, written in bulk; their ids. */
async function writeSessions(side: Side): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < SESSIONS; offset += BULK_BATCH) {
    const sessions: RootSessionRows[] = [];
    for (let index = offset; index < Math.min(SESSIONS, offset + BULK_BATCH); index++) {
      const id = NEW_ID[side.order]();
      const startedAt = Date.now();
      const drafts = Array.from({ length: BULK_MESSAGES }, (_, turn) => {
        const text = nextText(side);
        return { kind: EventKind.USER_MESSAGE, text, tokenCount: tokensOf(text), createdAt: new Date(startedAt + turn) };
      });
      sessions.push({ id, title: `Chat ${index}`, createdAt: new Date(startedAt).toISOString(), rows: chainMessages(id, drafts, NEW_ID[side.order]) });
      ids.push(id);
    }
    await insertRootSessions(side.pool, side.accountId, sessions);
  }
  return ids;
}

/**
 * Blocks this side's database has read from outside the buffer pool so far. Backends report their
 * counters at most once a second unless asked: every pooled connection is asked first.
 */
async function blocksRead(side: Side): Promise<number> {
  await Promise.all(Array.from({ length: CLIENTS }, () => side.pool.query('SELECT pg_stat_force_next_flush()')));
  const { rows } = await side.pool.query(`SELECT blks_read::float8 AS read FROM pg_stat_database WHERE datname = current_database()`);
  return rows[0].read as number;
}

/** One window on one side: new sessions in bulk, then a message by hand to each, measured. */
async function grow(side: Side): Promise<WindowFigures> {
  const sessions = await writeSessions(side);
  const texts = sessions.map(() => nextText(side));
  const readBefore = await blocksRead(side);
  const cpuBefore = postgresCpu();
  const posted = await measure(CLIENTS, SESSIONS, (index) => postInSql(side.pool, side.accountId, sessions[index], texts[index], false, NEW_ID[side.order]));
  const postgresMs = postgresCpuSince(cpuBefore);
  const read = (await blocksRead(side)) - readBefore;
  return {
    messagesPerSecond: posted.opsPerSecond,
    postgresMsPerMessage: postgresMs === null ? null : postgresMs / SESSIONS,
    blocksReadPerMessage: read / SESSIONS,
  };
}

/** Sizes, in MB, of the indexes on the tables a message writes. */
async function indexSizes(side: Side): Promise<Map<string, number>> {
  const { rows } = await side.pool.query(
    `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid)::float8 / 1048576 AS mb
     FROM pg_index WHERE indrelid IN ('events'::regclass, 'sessions'::regclass, 'search_terms'::regclass) ORDER BY 1`,
  );
  return new Map(rows.map((row) => [row.name as string, row.mb as number]));
}

/** Every question once over HTTP, against a server started on this side's database; the latencies in ms. */
async function searchAll(side: Side): Promise<number[]> {
  const app = await startBenchServer(side.url, { poolSize: CLIENTS });
  const client = new GraphQLClient(app.url, side.apiKey);
  try {
    for (const query of QUESTIONS.slice(0, 5)) await client.data(SEARCH, { query });
    const latencies: number[] = [];
    for (const query of QUESTIONS) {
      const started = performance.now();
      await client.data(SEARCH, { query });
      latencies.push(performance.now() - started);
    }
    return latencies;
  } finally {
    client.close();
    await app.close();
  }
}

/** Events each side holds after `window` windows: every new session's bulk messages and the one posted by hand. */
const eventsAfter = (window: number) => window * SESSIONS * (BULK_MESSAGES + 1);

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

if (!(WINDOWS >= EARLY[1] + LATE_WINDOWS)) {
  console.error(`IDS_WINDOWS must be at least ${EARLY[1] + LATE_WINDOWS}: the summary compares windows ${EARLY[0]} to ${EARLY[1]} with the last ${LATE_WINDOWS}.`);
  process.exit(2);
}

runOnNewDatabase(async (databaseUrl) => {
  const second = await createBenchDatabase(process.env.DATABASE_URL!);
  const sides: Side[] = [];
  try {
    sides.push(await openSide('random', databaseUrl), await openSide('time', second.url));
    const figures: Record<Order, WindowFigures[]> = { random: [], time: [] };
    for (let window = 1; window <= WINDOWS; window++) {
      for (const side of window % 2 ? sides : [...sides].reverse()) figures[side.order].push(await grow(side));
      const [random, time] = ORDERS.map((order) => figures[order][window - 1]);
      log(
        `Window ${window}: ${eventsAfter(window)} events a side; messages/s random ${fixed(random.messagesPerSecond)}, time-ordered ${fixed(time.messagesPerSecond)}; ` +
          `blocks read per message ${fixed(random.blocksReadPerMessage, 2)} and ${fixed(time.blocksReadPerMessage, 2)}`,
      );
    }
    await Promise.all(sides.map((side) => side.pool.query('VACUUM (ANALYZE) events, sessions, search_terms')));
    const sizes = await Promise.all(sides.map(indexSizes));
    const searches: Record<Order, number[][]> = { random: [], time: [] };
    for (let round = 1; round <= SEARCH_ROUNDS; round++) {
      for (const side of round % 2 ? sides : [...sides].reverse()) searches[side.order].push(await searchAll(side));
      log(`Search round ${round} done`);
    }

    const postgres = (value: number | null) => (value === null ? '-' : fixed(value, 2));
    console.log(
      `\nRow ids random (UUIDv4) and ordered by time (UUIDv7), the same work in turns on two databases: ${WINDOWS} windows of ${SESSIONS} new sessions ` +
        `(${BULK_MESSAGES} messages each, in bulk), then a message by hand to each at ${CLIENTS} clients\n`,
    );
    console.log(
      table(
        ['window', 'events', 'random msg/s', 'time msg/s', 'time ÷ random', 'PG ms/msg random', 'time', 'blocks read/msg random', 'time'],
        figures.random.map((random, index) => {
          const time = figures.time[index];
          return [
            String(index + 1),
            String(eventsAfter(index + 1)),
            fixed(random.messagesPerSecond),
            fixed(time.messagesPerSecond),
            fixed(time.messagesPerSecond / random.messagesPerSecond, 2),
            postgres(random.postgresMsPerMessage),
            postgres(time.postgresMsPerMessage),
            fixed(random.blocksReadPerMessage, 2),
            fixed(time.blocksReadPerMessage, 2),
          ];
        }),
      ),
    );
    const early = (order: Order) => figures[order].slice(EARLY[0] - 1, EARLY[1]);
    const late = (order: Order) => figures[order].slice(-LATE_WINDOWS);
    console.log(
      `\nlate (the last ${LATE_WINDOWS} windows) ÷ early (windows ${EARLY[0]} to ${EARLY[1]}), messages a second: ` +
        ORDERS.map((order) => `${order} ${fixed(mean(late(order).map((w) => w.messagesPerSecond)) / mean(early(order).map((w) => w.messagesPerSecond)), 2)}`).join(', ') +
        `\nlate windows, time-ordered ÷ random, messages a second: ${fixed(mean(late('time').map((w) => w.messagesPerSecond)) / mean(late('random').map((w) => w.messagesPerSecond)), 2)}` +
        `\nblocks read per message, early → late: ` +
        ORDERS.map((order) => `${order} ${fixed(mean(early(order).map((w) => w.blocksReadPerMessage)), 2)} → ${fixed(mean(late(order).map((w) => w.blocksReadPerMessage)), 2)}`).join(', '),
    );
    console.log(`\nindex sizes at the end, MB\n`);
    console.log(
      table(
        ['index', 'random', 'time'],
        [...sizes[0].keys()].map((name) => [name, fixed(sizes[0].get(name)!), fixed(sizes[1].get(name) ?? NaN)]),
      ),
    );
    const p50s = (order: Order) => searches[order].map((latencies) => median(latencies));
    const p90s = (order: Order) => searches[order].map((latencies) => percentile(latencies, 90));
    const ratios = (of: (order: Order) => number[]) => of('time').map((value, index) => value / of('random')[index]);
    console.log(
      `\nsearchEvents over the whole account, ${QUESTIONS.length} questions a round, ${SEARCH_ROUNDS} rounds, ms: ` +
        ORDERS.map((order) => `${order} p50 ${ratioCell(spread(p50s(order)))}, p90 ${ratioCell(spread(p90s(order)))}`).join('; ') +
        `\ntime-ordered ÷ random per round: p50 ${ratioCell(spread(ratios(p50s)))}, p90 ${ratioCell(spread(ratios(p90s)))}`,
    );
  } finally {
    await Promise.all(sides.map((side) => side.pool.end()));
    await second.drop();
  }
});
