import './production';
import 'reflect-metadata';
import { Pool } from 'pg';
import { generateConversations } from './conversations';
import { withClient } from './database';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { postInSql, postOverHttp } from './post-message';
import { Throughput, fixed, measure, ratioCell, spread, table } from './stats';

/**
 * What keeping search's term statistics costs an append. The statistics (per session, how many of
 * its events hold each lexeme) are written by a statement-level trigger in the transaction that
 * appends the events. This runs the same postMessage load with the trigger enabled and disabled,
 * alternating in each round so that both see the same database size and the same machine load:
 * through the server (GraphQL over HTTP) and as one hand-written SQL transaction (where the
 * trigger's share of the database's work shows best). Messages are turns of generated
 * conversations, so new words keep arriving as they do in real sessions.
 */
const ROUNDS = Number(process.env.TERMS_ROUNDS ?? 5);
const CLIENTS = Number(process.env.TERMS_CLIENTS ?? 16);
const OPERATIONS = Number(process.env.TERMS_OPERATIONS ?? 800);
const SESSIONS = 32;
const TRIGGER = 'events_count_search_terms';

type Mode = 'with statistics' | 'without';

async function setTrigger(url: string, mode: Mode) {
  await withClient(url, (client) => client.query(`ALTER TABLE events ${mode === 'without' ? 'DISABLE' : 'ENABLE'} TRIGGER ${TRIGGER}`));
}

runOnNewDatabase(async (databaseUrl) => {
  // The trigger function's own time, per call, as the database counts it: a figure the machine's load moves little.
  await withClient(databaseUrl, (client) =>
    client.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET track_functions = %L', current_database(), 'all'); END $$`),
  );
  const app = await startBenchServer(databaseUrl, { poolSize: CLIENTS });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  const pool = new Pool({ connectionString: databaseUrl, max: CLIENTS, pipeline: true });
  try {
    const { createAccount } = await admin.data<{ createAccount: { account: { id: string }; apiKey: string } }>(
      'mutation { createAccount(name: "terms") { account { id } apiKey } }',
    );
    const accountId = createAccount.account.id;
    const client = new GraphQLClient(app.url, createAccount.apiKey);
    const sessions: string[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      const { createSession } = await client.data<{ createSession: { id: string } }>(
        'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
        { title: `Conversation ${index}` },
      );
      sessions.push(createSession.id);
    }
    const texts = generateConversations(7, 4).flatMap((conversation) =>
      conversation.sessions.flatMap((session) => session.turns.map((turn) => `${turn.speaker}: ${turn.text}`)),
    );
    let posted = 0;
    const textAt = () => texts[posted++ % texts.length];
    const rows: { round: number; mode: Mode; server: Throughput; raw: Throughput }[] = [];
    log(`Warming up: ${OPERATIONS} messages each way...`);
    await measure(CLIENTS, OPERATIONS, (index) => postOverHttp(client, sessions[index % SESSIONS], textAt()));
    await measure(CLIENTS, OPERATIONS, (index) => postInSql(pool, accountId, sessions[index % SESSIONS], textAt(), true));
    for (let round = 1; round <= ROUNDS; round++) {
      const modes: Mode[] = round % 2 ? ['with statistics', 'without'] : ['without', 'with statistics'];
      for (const mode of modes) {
        log(`Round ${round}, ${mode}: ${OPERATIONS} postMessage over HTTP and ${OPERATIONS} in SQL, ${CLIENTS} clients...`);
        await setTrigger(databaseUrl, mode);
        const server = await measure(CLIENTS, OPERATIONS, (index) => postOverHttp(client, sessions[index % SESSIONS], textAt()));
        const raw = await measure(CLIENTS, OPERATIONS, (index) => postInSql(pool, accountId, sessions[index % SESSIONS], textAt(), true));
        rows.push({ round, mode, server, raw });
      }
    }
    await setTrigger(databaseUrl, 'with statistics');
    const [{ terms, events }] = (
      await pool.query(`SELECT (SELECT count(*) FROM search_terms)::int AS terms, (SELECT count(*) FROM events)::int AS events`)
    ).rows;
    // Backends report their function statistics when idle, at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [trigger] = (
      await pool.query(`SELECT calls::int, total_time::float8 FROM pg_stat_user_functions WHERE funcname = 'count_search_terms'`)
    ).rows as { calls: number; total_time: number }[];
    client.close();

    console.log(`\nTerm statistics: postMessage with and without the trigger that keeps them, ${CLIENTS} clients, ${OPERATIONS} messages a side per round\n`);
    console.log(
      table(
        ['round', 'statistics', 'server ops/s', 'p50 ms', 'p99 ms', 'SQL ops/s', 'p50 ms', 'p99 ms'],
        rows.map((row) => [
          String(row.round),
          row.mode,
          fixed(row.server.opsPerSecond),
          fixed(row.server.p50Ms, 2),
          fixed(row.server.p99Ms, 2),
          fixed(row.raw.opsPerSecond),
          fixed(row.raw.p50Ms, 2),
          fixed(row.raw.p99Ms, 2),
        ]),
      ),
    );
    const ratios = (of: (row: (typeof rows)[number]) => number) =>
      Array.from({ length: ROUNDS }, (_, index) => {
        const [withTerms, without] = (['with statistics', 'without'] as Mode[]).map((mode) => rows.find((row) => row.round === index + 1 && row.mode === mode)!);
        return of(withTerms) / of(without);
      });
    console.log(
      `\nthroughput with the statistics ÷ without, min / median / max over ${ROUNDS} rounds: ` +
        `server ${ratioCell(spread(ratios((row) => row.server.opsPerSecond)))}, SQL ${ratioCell(spread(ratios((row) => row.raw.opsPerSecond)))}` +
        `\np50 latency with ÷ without: server ${ratioCell(spread(ratios((row) => row.server.p50Ms)))}, SQL ${ratioCell(spread(ratios((row) => row.raw.p50Ms)))}` +
        `\n${terms} statistics rows for ${events} events (${SESSIONS} sessions)` +
        (trigger ? `\nthe trigger's own time: ${fixed(trigger.total_time / trigger.calls, 3)} ms per append, over ${trigger.calls} appends` : ''),
    );
  } finally {
    await pool.end();
    admin.close();
    await app.close();
  }
});
