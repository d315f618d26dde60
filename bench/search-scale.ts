import './production';
import 'reflect-metadata';
import { Pool } from 'pg';
import { RECENCY_HALF_LIFE_SECONDS, RECENCY_WEIGHT, parseSearchQuery } from '../server/src/modules/search/search';
import { bm25Sql } from '../server/src/modules/search/search.repository';
import { EventKind, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { generateCorpus } from './corpus';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { fixed, median, percentile, spread, table } from './stats';
import { chainMessages, insertMessages } from './transcript';
import { newRowId } from '../server/src/shared/ids';

/**
 * searchEvents as an account grows: the same 50 fact queries over the whole account at 10,000
 * and at 1,000,000 events, beside the ranking query written by hand on the same tables (every
 * match ranked by the same BM25 score), and the same page with its exact totalCount. The
 * events are the seeded corpus's conversation, repeated with other seeds until the size is
 * reached, written in bulk with the server's own hash and token functions.
 */
const SIZES = [10_000, Number(process.env.SEARCH_LARGE_EVENTS ?? 1_000_000)];
const SESSION_EVENTS = 1_000;
const ROUNDS = 3;
const SCALE_TARGET = 3;
const RAW_TARGET = 2;

/** A page as the web client and the agent's tool ask for it: the best ten hits with their snippets. */
const SEARCH = `query ($query: String!) { searchEvents(query: $query, scope: ACCOUNT, first: 10) {
  edges { node { score snippet event { id } } }
} }`;

/** The same page with the exact count of every match, which costs what the matches cost. */
const SEARCH_COUNTED = `query ($query: String!) { searchEvents(query: $query, scope: ACCOUNT, first: 10) {
  totalCount edges { node { score snippet event { id } } }
} }`;

/**
 * The least the database must do for the same page: weigh the query's terms with the account's
 * statistics, rank every match of the account by the same BM25 score (and recency term), keep the
 * best ten. One statement, no tiers, no snippets.
 */
const RAW = `WITH queried AS (
    SELECT ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', $2))) ORDER BY 1) AS lexemes
  ), totals AS (
    SELECT sum(event_count) AS documents, sum(token_count) AS tokens FROM sessions WHERE account_id = $1
  ), weighed AS (
    SELECT array_agg(lexeme ORDER BY lexeme) AS lexemes,
           array_agg(ln(1 + (totals.documents - least(holding, totals.documents) + 0.5) / (least(holding, totals.documents) + 0.5)) ORDER BY lexeme) AS weights,
           max(totals.tokens::float8 / totals.documents) AS average_length
    FROM queried, unnest(queried.lexemes) lexeme, totals,
         LATERAL (SELECT coalesce(sum(documents), 0) AS holding FROM search_terms WHERE account_id = $1 AND search_terms.lexeme = lexeme) counted
  )
  SELECT hit.id, ${bm25Sql('hit', 'weighed.lexemes', 'weighed.weights', 'weighed.average_length')}
           + ${RECENCY_WEIGHT} * power(0.5, greatest(0, extract(epoch FROM now() - hit.created_at)) / ${RECENCY_HALF_LIFE_SECONDS}) AS score
  FROM events hit, weighed
  WHERE hit.account_id = $1 AND hit.search_vector @@ websearch_to_tsquery('english', $3)
  ORDER BY score DESC, hit.id DESC LIMIT 10`;

const tokens = new Map<string, number>();
const tokensOf = (text: string) => {
  let count = tokens.get(text);
  if (count === undefined) {
    count = eventTokenCount(text, null);
    tokens.set(text, count);
  }
  return count;
};

/** `count` events in sessions of SESSION_EVENTS, the corpus's messages in order, seed after seed. */
async function fill(sql: Pool, accountId: string, count: number): Promise<string[]> {
  const texts: string[] = [];
  for (let seed = 1; texts.length < count; seed++) texts.push(...generateCorpus(seed).sessions.flat());
  const requests = generateCorpus(1).facts.map((fact) => fact.request);
  for (let offset = 0; offset < count; offset += SESSION_EVENTS) {
    const sessionId = newRowId();
    const started = Date.now();
    const rows = chainMessages(
      sessionId,
      texts.slice(offset, Math.min(count, offset + SESSION_EVENTS)).map((text, index) => ({
        kind: EventKind.USER_MESSAGE,
        text,
        tokenCount: tokensOf(text),
        createdAt: new Date(started + index),
      })),
    );
    const last = rows[rows.length - 1];
    await sql.query(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash, origin_id)
       VALUES ($1, $2, 'ROOT', 'ACTIVE', 'Operations', now(), $3, $4, $5, $1)`,
      [sessionId, accountId, rows.length, last.tokenTotal, last.hash],
    );
    await insertMessages(sql, accountId, rows);
    if ((offset / SESSION_EVENTS) % 100 === 99) log(`  ${offset + SESSION_EVENTS} events...`);
  }
  return requests;
}

runOnNewDatabase(async (databaseUrl) => {
  const app = await startBenchServer(databaseUrl, { poolSize: 4 });
  const sql = new Pool({ connectionString: databaseUrl, max: 2 });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  const clients: GraphQLClient[] = [];
  try {
    const accounts: { size: number; id: string; client: GraphQLClient; queries: string[] }[] = [];
    for (const size of SIZES) {
      const { createAccount } = await admin.data<{ createAccount: { apiKey: string; account: { id: string } } }>(
        'mutation ($name: String!) { createAccount(name: $name) { apiKey account { id } } }',
        { name: `search ${size}` },
      );
      const client = new GraphQLClient(app.url, createAccount.apiKey);
      clients.push(client);
      log(`Writing ${size} events...`);
      const queries = await fill(sql, createAccount.account.id, size);
      accounts.push({ size, id: createAccount.account.id, client, queries });
    }
    // As autovacuum would on a deployment: statistics for the planner, and the visibility map for index-only reads.
    await sql.query('VACUUM ANALYZE');
    const rows: { size: number; round: number; serverMs: number; serverP99: number; countedMs: number; rawMs: number; matches: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const account of accounts) {
        log(`Round ${round}: ${account.queries.length} queries at ${account.size} events...`);
        const serverTimes: number[] = [];
        const countedTimes: number[] = [];
        const rawTimes: number[] = [];
        const matches: number[] = [];
        for (const query of account.queries) {
          // The sides alternate, query by query, so that all see the same moments of the machine.
          let started = performance.now();
          await account.client.data(SEARCH, { query });
          serverTimes.push(performance.now() - started);
          started = performance.now();
          const { searchEvents } = await account.client.data<{ searchEvents: { totalCount: number } }>(SEARCH_COUNTED, { query });
          countedTimes.push(performance.now() - started);
          matches.push(searchEvents.totalCount);
          const parsed = parseSearchQuery(query);
          if (!parsed.ok) throw new Error(parsed.error.message);
          started = performance.now();
          await sql.query(RAW, [account.id, query, parsed.value.anyWords]);
          rawTimes.push(performance.now() - started);
        }
        rows.push({
          size: account.size,
          round,
          serverMs: median(serverTimes),
          serverP99: percentile(serverTimes, 99),
          countedMs: median(countedTimes),
          rawMs: median(rawTimes),
          matches: median(matches),
        });
      }
    }
    console.log(
      `\nsearchEvents (scope ACCOUNT, first 10) over HTTP vs the hand-written BM25 query ranking every match, median of 50 queries per round\n`,
    );
    console.log(
      table(
        ['round', 'events', 'median matches', 'server p50 ms', 'server p99 ms', 'with totalCount p50 ms', 'raw p50 ms', 'server / raw'],
        rows.map((row) => [
          String(row.round),
          String(row.size),
          String(row.matches),
          fixed(row.serverMs, 2),
          fixed(row.serverP99, 2),
          fixed(row.countedMs, 2),
          fixed(row.rawMs, 2),
          fixed(row.serverMs / row.rawMs, 2),
        ]),
      ),
    );
    const [small, large] = SIZES;
    const byRound = (size: number) => rows.filter((row) => row.size === size);
    const growth = spread(byRound(large).map((row, index) => row.serverMs / byRound(small)[index].serverMs));
    const overRaw = spread(byRound(large).map((row) => row.serverMs / row.rawMs));
    const countedGrowth = spread(byRound(large).map((row, index) => row.countedMs / byRound(small)[index].countedMs));
    console.log(
      `\nserver p50 at ${large} / at ${small}: ${fixed(growth.min, 2)} / ${fixed(growth.median, 2)} / ${fixed(growth.max, 2)}; ` +
        `target <= ${SCALE_TARGET} in every round: ${growth.max <= SCALE_TARGET ? 'met' : 'NOT MET'}` +
        `\nserver / raw at ${large}: ${fixed(overRaw.min, 2)} / ${fixed(overRaw.median, 2)} / ${fixed(overRaw.max, 2)}; ` +
        `target <= ${RAW_TARGET} in every round: ${overRaw.max <= RAW_TARGET ? 'met' : 'NOT MET'}` +
        `\nwith totalCount, p50 at ${large} / at ${small}: ${fixed(countedGrowth.min, 2)} / ${fixed(countedGrowth.median, 2)} / ${fixed(countedGrowth.max, 2)} (no target: an exact count reads every match)`,
    );
  } finally {
    [admin, ...clients].forEach((client) => client.close());
    await sql.end();
    await app.close();
  }
});
